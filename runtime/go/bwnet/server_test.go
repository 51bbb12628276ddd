package bwnet

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// echoServer serves nums back doubled; a num of 666 makes the handler panic. It
// returns the address, the errors reported and a function that shuts the server
// down and returns what Serve returned.
func echoServer(t *testing.T) (string, func() []error, func() error) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var reported []error
	srv := &Server{
		Messages: func() bitwire.MessageSet { return new(set) },
		Handler: func(ctx context.Context, c *Conn) error {
			for {
				m, err := c.ReadMessage()
				if err != nil {
					return err
				}
				n := m.(*num)
				if n.V == 666 {
					panic("the number of the beast")
				}
				if err := c.WriteMessage(&num{V: 2 * n.V}); err != nil {
					return err
				}
			}
		},
		OnError: func(_ *Conn, err error) {
			mu.Lock()
			reported = append(reported, err)
			mu.Unlock()
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()
	errs := func() []error {
		mu.Lock()
		defer mu.Unlock()
		return append([]error(nil), reported...)
	}
	shutdown := func() error {
		cancel()
		select {
		case err := <-served:
			return err
		case <-time.After(10 * time.Second):
			t.Fatal("Serve did not return")
			return nil
		}
	}
	return ln.Addr().String(), errs, shutdown
}

func ask(t *testing.T, c *Conn, v uint32) {
	t.Helper()
	if err := c.WriteMessage(&num{V: v}); err != nil {
		t.Fatal(err)
	}
	m, err := c.ReadMessage()
	if err != nil || m.(*num).V != 2*v {
		t.Fatalf("ask %d: %v %v", v, m, err)
	}
}

// A malformed frame and a panic each end their own connection and are reported;
// the other connections go on; shutting down closes them and Serve returns nil.
func TestServer(t *testing.T) {
	addr, reported, shutdown := echoServer(t)
	ctx := context.Background()
	good, err := Dial(ctx, addr, new(set), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	ask(t, good, 1)

	bad, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	_, _ = bad.Write([]byte{0x80, 0x00})
	if _, err := bad.Read(make([]byte, 1)); err == nil {
		t.Fatal("the server kept a connection that sent a malformed frame")
	}
	ask(t, good, 2)

	panicky, err := Dial(ctx, addr, new(set), Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer panicky.Close()
	_ = panicky.WriteMessage(&num{V: 666})
	if _, err := panicky.ReadMessage(); err != io.EOF && !errors.Is(err, ErrIO) {
		t.Fatalf("after the panic: %v", err)
	}
	ask(t, good, 3)

	if err := shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if _, err := good.ReadMessage(); err != io.EOF {
		t.Errorf("after the shutdown: %v", err)
	}
	// Serve has returned, so every handler has reported (in any order).
	errs := reported()
	if len(errs) != 2 {
		t.Fatalf("reported %v", errs)
	}
	framed, panicked := false, false
	for _, err := range errs {
		var fe *bitwire.FrameError
		framed = framed || errors.As(err, &fe) && fe.Kind == bitwire.FrameNonMinimalVarInt
		panicked = panicked || strings.Contains(err.Error(), "the number of the beast")
	}
	if !framed || !panicked {
		t.Errorf("reported %v", errs)
	}
}

// Reading and writing a message allocate nothing once the buffers have grown, on
// both ends of a real connection (the writer goroutine included).
func TestConnAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop its items")
	}
	for _, frame := range []bitwire.FrameConfig{{}, {Compression: true, Threshold: 256}} {
		c, s := pair(t, Config{Frame: frame}, Config{Frame: frame})
		out := &num{V: 42}
		roundTrip := func() {
			if err := c.WriteMessage(out); err != nil {
				t.Fatal(err)
			}
			if m, err := s.ReadMessage(); err != nil || m.(*num).V != 42 {
				t.Fatal(m, err)
			}
		}
		roundTrip()
		if n := testing.AllocsPerRun(1000, roundTrip); n != 0 {
			t.Errorf("%+v: %v allocs per message", frame, n)
		}
	}
}

// BenchmarkConnRoundTrip: one message written by a client and read by the server,
// over 127.0.0.1.
func BenchmarkConnRoundTrip(b *testing.B) {
	c, s := pair(b, Config{}, Config{})
	out := &num{V: 42}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.WriteMessage(out); err != nil {
			b.Fatal(err)
		}
		if _, err := s.ReadMessage(); err != nil {
			b.Fatal(err)
		}
	}
}
