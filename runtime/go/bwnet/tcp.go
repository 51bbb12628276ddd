package bwnet

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Dial connects to address over TCP and returns a connection with the settings cfg
// that decodes messages from set (see NewConn).
func Dial(ctx context.Context, address string, set bitwire.MessageSet, cfg Config) (*Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", address)
	if err != nil {
		return nil, err
	}
	return NewConn(nc, set, cfg), nil
}

// tcpTransport reads frames from a stream through a buffer and writes them with
// one Write per batch. It is the io.Reader under its own bufio.Reader, so it sets
// the read deadline exactly when the buffer needs bytes: the idle timeout while no
// frame has started, the frame timeout (from the frame's first read on) inside one.
type tcpTransport struct {
	nc     net.Conn
	fr     *bitwire.FrameReader
	idle   time.Duration
	frame  time.Duration
	set    time.Time // the read deadline nc has
	frameD time.Time // the current frame's deadline, zero between frames
	inside bool      // whether the last read was inside a frame
	wset   time.Time // the write deadline nc has
}

func newTCPTransport(nc net.Conn, cfg Config) *tcpTransport {
	t := &tcpTransport{nc: nc, idle: cfg.IdleTimeout, frame: cfg.FrameTimeout}
	t.fr = bitwire.NewFrameReader(bufio.NewReaderSize(t, cfg.ReadBufferSize), cfg.Frame)
	return t
}

// Read fills the frame reader's buffer from the connection, under the deadline of
// the phase the reader is in.
func (t *tcpTransport) Read(p []byte) (int, error) {
	var d time.Time
	t.inside = t.fr.InFrame()
	if t.inside {
		if t.frame > 0 {
			if t.frameD.IsZero() {
				t.frameD = time.Now().Add(t.frame)
			}
			d = t.frameD
		}
	} else if t.idle > 0 {
		d = time.Now().Add(t.idle)
	}
	if !d.Equal(t.set) {
		if err := t.nc.SetReadDeadline(d); err != nil {
			return 0, err
		}
		t.set = d
	}
	return t.nc.Read(p)
}

func (t *tcpTransport) ReadFrame() (bitwire.Frame, error) {
	f, err := t.fr.ReadFrame()
	t.frameD = time.Time{}
	if err != nil && isTimeout(err) {
		kind := IdleTimeout
		if t.inside {
			kind = FrameTimeout
		}
		return f, &Error{Kind: kind, Err: err}
	}
	return f, err
}

func (t *tcpTransport) WriteFrames(b []byte, _ []int, deadline time.Time) error {
	if !deadline.Equal(t.wset) {
		if err := t.nc.SetWriteDeadline(deadline); err != nil {
			return err
		}
		t.wset = deadline
	}
	_, err := t.nc.Write(b)
	return err
}

func (t *tcpTransport) Close(error) error { return t.nc.Close() }

func (t *tcpTransport) RemoteAddr() net.Addr { return t.nc.RemoteAddr() }

// isTimeout reports whether err is a deadline's.
func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
