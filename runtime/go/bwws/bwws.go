// Package bwws carries bitwire frames over WebSocket (docs/framing.md §5), for
// browser clients: each binary message holds exactly one frame, the same bytes a
// TCP stream carries. It is a module of its own because it depends on
// github.com/coder/websocket; the runtime and package bwnet depend on nothing
// outside the standard library.
//
// A connection is a *bwnet.Conn over a WebSocket transport, so a server handles
// TCP and WebSocket peers with the same code, with the same limits and errors: the
// read limit is MaxFrame+3 bytes per message (close code 1009 above it), a text
// message closes the connection (1003, bwnet.ErrNotBinary), a message holding less
// or more than one frame is FrameTruncated or FrameTrailingBytes, and the idle,
// frame and write timeouts and the send queue of bwnet.Config apply.
package bwws

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
	"github.com/coder/websocket"
)

// Accept upgrades the request to a WebSocket connection that carries frames with
// the settings cfg and decodes messages from set. On error Accept has written an
// HTTP error response. opts may be nil (see websocket.AcceptOptions: by default
// only pages of the request's own host may connect).
func Accept(w http.ResponseWriter, r *http.Request, set bitwire.MessageSet, cfg bwnet.Config, opts *websocket.AcceptOptions) (*bwnet.Conn, error) {
	ws, err := websocket.Accept(w, r, opts)
	if err != nil {
		return nil, err
	}
	return NewConn(ws, addr(r.RemoteAddr), set, cfg), nil
}

// Dial connects to the WebSocket URL (ws://host:port/path) and returns a
// connection with the settings cfg that decodes messages from set. opts may be nil.
func Dial(ctx context.Context, url string, set bitwire.MessageSet, cfg bwnet.Config, opts *websocket.DialOptions) (*bwnet.Conn, error) {
	ws, _, err := websocket.Dial(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	return NewConn(ws, addr(url), set, cfg), nil
}

// NewConn returns a connection over an established WebSocket connection, whose
// peer's address is remote. It sets ws's read limit to MaxFrame+3 bytes.
func NewConn(ws *websocket.Conn, remote net.Addr, set bitwire.MessageSet, cfg bwnet.Config) *bwnet.Conn {
	cfg = cfg.Normalized()
	ws.SetReadLimit(int64(cfg.Frame.MaxFrame) + 3)
	ctx, cancel := context.WithCancel(context.Background())
	t := &transport{
		ws:     ws,
		dec:    bitwire.NewFrameDecoder(cfg.Frame),
		ctx:    ctx,
		cancel: cancel,
		idle:   cfg.IdleTimeout,
		frame:  cfg.FrameTimeout,
		remote: remote,
		max:    cfg.Frame.MaxFrame,
	}
	t.rtimer = time.AfterFunc(time.Hour, func() { t.rfired.Store(true); cancel() })
	t.rtimer.Stop()
	t.wtimer = time.AfterFunc(time.Hour, func() { t.wfired.Store(true); cancel() })
	t.wtimer.Stop()
	return bwnet.NewTransportConn(t, set, cfg)
}

// Handler returns an http.Handler that accepts WebSocket connections and serves
// each with srv.ServeConn(ctx, c) (srv's Messages, Config, Handler and OnError):
// cancelling ctx closes them. opts may be nil.
func Handler(ctx context.Context, srv *bwnet.Server, opts *websocket.AcceptOptions) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := Accept(w, r, srv.Messages(), srv.Config, opts)
		if err != nil {
			return
		}
		_ = srv.ServeConn(ctx, c)
	})
}

// addr is a peer's address as the HTTP request or the URL gives it.
type addr string

func (a addr) Network() string { return "websocket" }
func (a addr) String() string  { return string(a) }

// transport reads one frame per binary message and writes each frame as one. A
// timeout cancels its context, which ends every read and write of the connection:
// a timeout ends the connection anyway.
type transport struct {
	ws     *websocket.Conn
	dec    *bitwire.FrameDecoder
	buf    []byte
	next   error // the error of the bytes after the last frame
	ctx    context.Context
	cancel context.CancelFunc
	idle   time.Duration
	frame  time.Duration
	remote net.Addr
	max    int

	rtimer, wtimer *time.Timer
	rfired, wfired atomic.Bool
	inside         atomic.Bool // what the read timer times: a started message
	closeOnce      sync.Once
}

func (t *transport) ReadFrame() (bitwire.Frame, error) {
	if t.next != nil {
		return bitwire.Frame{}, t.next
	}
	t.arm(false, t.idle)
	typ, r, err := t.ws.Reader(t.ctx)
	if err != nil {
		t.rtimer.Stop()
		return bitwire.Frame{}, t.readError(err)
	}
	t.arm(true, t.frame)
	b, err := readAll(r, t.buf[:0])
	t.rtimer.Stop()
	t.buf = b[:0]
	if err != nil {
		return bitwire.Frame{}, t.readError(err)
	}
	if typ != websocket.MessageBinary {
		return bitwire.Frame{}, &bwnet.Error{Kind: bwnet.NotBinary}
	}
	f, err := t.dec.DecodeFrame(b)
	var fe *bitwire.FrameError
	if errors.As(err, &fe) && fe.Kind == bitwire.FrameTrailingBytes && fe.Offset > 0 {
		// A frame with bytes after it: the frame now, the error next (§5).
		t.next = err
		return f, nil
	}
	return f, err
}

// arm starts the read timer for the phase: waiting for a message, or inside one.
func (t *transport) arm(inside bool, d time.Duration) {
	t.inside.Store(inside)
	if d > 0 {
		t.rtimer.Reset(d)
	} else {
		t.rtimer.Stop()
	}
}

// readAll appends what r holds to b, growing it as bytes arrive (the read limit
// bounds it).
func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// readError turns the error of a read into the connection's: a timeout, a clean
// close (io.EOF), a message above the read limit (FrameTooLarge), or IO.
func (t *transport) readError(err error) error {
	switch {
	case t.rfired.Load():
		kind := bwnet.IdleTimeout
		if t.inside.Load() {
			kind = bwnet.FrameTimeout
		}
		return &bwnet.Error{Kind: kind, Err: err}
	case t.wfired.Load():
		return &bwnet.Error{Kind: bwnet.WriteTimeout, Err: err}
	case errors.Is(err, websocket.ErrMessageTooBig):
		return &bitwire.FrameError{Kind: bitwire.FrameTooLarge, Offset: 0, Max: t.max, Err: err}
	}
	switch websocket.CloseStatus(err) {
	case websocket.StatusNormalClosure, websocket.StatusGoingAway, websocket.StatusNoStatusRcvd:
		// A close frame without a code (1005) is a clean close too (RFC 6455 §7.1.5).
		return io.EOF
	}
	return &bwnet.Error{Kind: bwnet.IO, Err: err}
}

func (t *transport) WriteFrames(b []byte, ends []int, deadline time.Time) error {
	if !deadline.IsZero() {
		t.wtimer.Reset(time.Until(deadline))
		defer t.wtimer.Stop()
	}
	start := 0
	for _, end := range ends {
		if err := t.ws.Write(t.ctx, websocket.MessageBinary, b[start:end]); err != nil {
			if t.wfired.Load() {
				return fmt.Errorf("%w: %w", os.ErrDeadlineExceeded, err)
			}
			return err
		}
		start = end
	}
	return nil
}

// Close closes with the close code that says why: 1000 after a clean end (with
// the closing handshake), 1003 for a text message and 1008 for a malformed frame
// (the handshake in the background: a hostile peer may never answer), and without
// a handshake after a timeout or a failure.
func (t *transport) Close(reason error) error {
	var err error
	t.closeOnce.Do(func() {
		defer t.stop()
		var fe *bitwire.FrameError
		switch {
		case reason == nil:
			err = t.ws.Close(websocket.StatusNormalClosure, "")
		case errors.Is(reason, bwnet.ErrNotBinary):
			go t.ws.Close(websocket.StatusUnsupportedData, "binary messages only")
		case errors.As(reason, &fe):
			go t.ws.Close(websocket.StatusPolicyViolation, fe.Kind.String())
		default:
			err = t.ws.CloseNow()
		}
	})
	return err
}

// stop releases the timers and the context.
func (t *transport) stop() {
	t.rtimer.Stop()
	t.wtimer.Stop()
	t.cancel()
}

func (t *transport) RemoteAddr() net.Addr { return t.remote }
