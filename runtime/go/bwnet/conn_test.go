package bwnet

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Two hand-written messages (the runtime has no generated code of its own): num, a
// 32-bit number with id 1, and blob, bytes with a 24-bit length, id 2.
type num struct{ V uint32 }

func (m *num) MessageID() uint32 { return 1 }
func (m *num) WritePacked(w *bitwire.BitWriter) error {
	w.WriteBits(uint64(m.V), 32)
	return nil
}
func (m *num) ReadPacked(r *bitwire.BitReader) error {
	v, err := r.ReadBits(32)
	m.V = uint32(v)
	return err
}

// AppendTo and DecodeWithLimits are what generated types have besides the Packed
// methods; framing prefers them (the generic path puts the bit writer and reader
// on the heap, behind an interface call).
func (m *num) AppendTo(dst []byte) ([]byte, error) {
	w := bitwire.NewBitWriter(dst)
	_ = m.WritePacked(&w)
	return w.Finish(), nil
}
func (m *num) DecodeWithLimits(b []byte, limits bitwire.Limits) error {
	r := bitwire.NewBitReaderWithLimits(b, limits)
	if err := m.ReadPacked(&r); err != nil {
		return err
	}
	return r.Finish()
}

type blob struct{ B []byte }

func (m *blob) MessageID() uint32 { return 2 }
func (m *blob) WritePacked(w *bitwire.BitWriter) error {
	w.WriteBits(uint64(len(m.B)), 24)
	w.WriteBytes(m.B)
	return nil
}
func (m *blob) ReadPacked(r *bitwire.BitReader) error {
	n, err := r.ReadLen(24, 8, 1)
	if err != nil {
		return err
	}
	m.B, err = r.ReadRawBytes(n, m.B[:0])
	return err
}

// set is a reusable message set of the two.
type set struct {
	num  num
	blob blob
}

func (s *set) Message(id uint32) bitwire.Message {
	switch id {
	case 1:
		return &s.num
	case 2:
		return &s.blob
	}
	return nil
}

// pair returns the two ends of a real 127.0.0.1 TCP connection as Conns.
func pair(t testing.TB, client, server Config) (*Conn, *Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		nc, _ := ln.Accept()
		accepted <- nc
	}()
	c, err := Dial(context.Background(), ln.Addr().String(), new(set), client)
	if err != nil {
		t.Fatal(err)
	}
	nc := <-accepted
	if nc == nil {
		t.Fatal("accept failed")
	}
	s := NewConn(nc, new(set), server)
	t.Cleanup(func() {
		_ = c.Close()
		_ = s.Close()
	})
	return c, s
}

func TestRoundTrip(t *testing.T) {
	for _, frame := range []bitwire.FrameConfig{{}, {Compression: true, Threshold: 64}} {
		c, s := pair(t, Config{Frame: frame}, Config{Frame: frame})
		big := bytes.Repeat([]byte("0123456789"), 30000)
		go func() {
			for i := uint32(0); i < 100; i++ {
				_ = c.WriteMessage(&num{V: i})
			}
			_ = c.WriteMessage(&blob{B: big})
			_ = c.Close()
		}()
		for i := uint32(0); i < 100; i++ {
			m, err := s.ReadMessage()
			if n, ok := m.(*num); err != nil || !ok || n.V != i {
				t.Fatalf("%+v: message %d: %#v %v", frame, i, m, err)
			}
		}
		m, err := s.ReadMessage()
		if b, ok := m.(*blob); err != nil || !ok || !bytes.Equal(b.B, big) {
			t.Fatalf("%+v: blob: %v", frame, err)
		}
		if _, err := s.ReadMessage(); err != io.EOF {
			t.Fatalf("%+v: end: %v", frame, err)
		}
		// The peer's clean end leaves writing open.
		if err := s.WriteMessage(&num{V: 1}); err != nil {
			t.Fatal(err)
		}
	}
}

// A peer that starts no frame is closed after the idle timeout; one that starts a
// frame and stalls (a slow-loris sender), after the frame timeout.
func TestTimeouts(t *testing.T) {
	cfg := Config{IdleTimeout: 150 * time.Millisecond, FrameTimeout: 300 * time.Millisecond}
	c, s := pair(t, Config{}, cfg)
	start := time.Now()
	_, err := s.ReadMessage()
	if !errors.Is(err, ErrIdleTimeout) || time.Since(start) > 5*time.Second {
		t.Fatalf("idle: %v after %v", err, time.Since(start))
	}
	if err := s.WriteMessage(&num{}); !errors.Is(err, ErrIdleTimeout) {
		t.Errorf("after the timeout, writes report it: %v", err)
	}

	c, s = pair(t, Config{}, cfg)
	// Bytes keep arriving (each within the idle timeout), but the frame does not
	// complete within the frame timeout.
	go func() {
		_ = c.t.(*tcpTransport).nc.SetWriteDeadline(time.Time{})
		nc := c.t.(*tcpTransport).nc
		_, _ = nc.Write([]byte{0x20, 0x01})
		for i := 0; i < 20; i++ {
			time.Sleep(50 * time.Millisecond)
			if _, err := nc.Write([]byte{0}); err != nil {
				return
			}
		}
	}()
	start = time.Now()
	_, err = s.ReadMessage()
	if !errors.Is(err, ErrFrameTimeout) || time.Since(start) > 5*time.Second {
		t.Fatalf("slow loris: %v after %v", err, time.Since(start))
	}
}

// A peer that never reads: the server's writes fill the kernel's buffers, then the
// send queue (bounded by MaxSendQueue) or a write outlasts WriteTimeout; either way
// the connection closes with a typed error and the queue never holds more than the
// bound.
func TestPeerThatNeverReads(t *testing.T) {
	cfg := Config{MaxSendQueue: 1 << 20, WriteTimeout: 300 * time.Millisecond}
	_, s := pair(t, Config{}, cfg)
	msg := &blob{B: make([]byte, 60000)}
	deadline := time.Now().Add(20 * time.Second)
	var err error
	for i := 0; err == nil && time.Now().Before(deadline); i++ {
		err = s.WriteMessage(msg)
		if queued := s.Queued(); queued > cfg.MaxSendQueue {
			t.Fatalf("a queue of %d bytes", queued)
		}
		if i%16 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if !errors.Is(err, ErrSendQueueFull) && !errors.Is(err, ErrWriteTimeout) {
		t.Fatalf("%v", err)
	}
	if _, rerr := s.ReadMessage(); rerr != err {
		t.Errorf("read after the failure: %v", rerr)
	}
}

// A malformed frame ends the connection with its *bitwire.FrameError.
func TestMalformedFrame(t *testing.T) {
	c, s := pair(t, Config{}, Config{})
	nc := c.t.(*tcpTransport).nc
	_, _ = nc.Write([]byte{0x05, 0x01, 0xaa, 0xbb, 0xcc, 0xdd, 0x02, 0x63, 0x00})
	m, err := s.ReadMessage()
	if n, ok := m.(*num); err != nil || !ok || n.V != 0xddccbbaa {
		t.Fatalf("%v %v", m, err)
	}
	_, err = s.ReadMessage()
	var fe *bitwire.FrameError
	if !errors.As(err, &fe) || fe.Kind != bitwire.FrameUnknownMessage || fe.Offset != 6 || fe.MessageID != 99 {
		t.Fatalf("%v", err)
	}
	if err := s.WriteMessage(&num{}); err != fe {
		t.Errorf("write after: %v", err)
	}
}

// Flush waits for the queue; Close writes what is queued before closing; a closed
// connection reports ErrClosed.
func TestFlushAndClose(t *testing.T) {
	c, s := pair(t, Config{}, Config{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := uint32(0); i < 1000; i++ {
			_ = c.WriteMessage(&num{V: i})
		}
		if err := c.Flush(); err != nil {
			t.Error(err)
		}
		_ = c.WriteMessage(&num{V: 1000})
		_ = c.Close()
		if err := c.WriteMessage(&num{}); !errors.Is(err, ErrClosed) {
			t.Errorf("write after close: %v", err)
		}
		if _, err := c.ReadMessage(); !errors.Is(err, ErrClosed) {
			t.Errorf("read after close: %v", err)
		}
	}()
	for i := uint32(0); i <= 1000; i++ {
		m, err := s.ReadMessage()
		if err != nil || m.(*num).V != i {
			t.Fatalf("%d: %v %v", i, m, err)
		}
	}
	if _, err := s.ReadMessage(); err != io.EOF {
		t.Errorf("%v", err)
	}
	wg.Wait()
}

// A message that does not encode is the caller's error; the connection stays.
func TestWriteErrorsLeaveTheConnection(t *testing.T) {
	c, s := pair(t, Config{Frame: bitwire.FrameConfig{MaxFrame: 100}}, Config{})
	if err := c.WriteMessage(&blob{B: make([]byte, 200)}); !errors.Is(err, bitwire.ErrFrameTooLarge) {
		t.Fatalf("%v", err)
	}
	if err := c.WriteMessage(&num{V: 7}); err != nil {
		t.Fatal(err)
	}
	if m, err := s.ReadMessage(); err != nil || m.(*num).V != 7 {
		t.Fatalf("%v %v", m, err)
	}
}
