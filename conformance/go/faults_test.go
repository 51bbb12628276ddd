package conformance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/frames"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// The faults of issue 12 §5 against the Go server (bwnet.Server): every malformed
// frame of the vectors, a connection cut mid-frame, a peer that never reads, a
// slow-loris sender, and hostile connections next to good ones (hostile_test.go).
// Every test uses real 127.0.0.1 sockets and ends within seconds.

// testServer is a bwnet.Server that echoes Chat and Packet64 messages, with the
// errors it reported.
type testServer struct {
	addr     string
	mu       sync.Mutex
	reported []error
	errs     chan error
	shutdown func()
}

func startServer(t testing.TB, cfg bwnet.Config) *testServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{addr: ln.Addr().String(), errs: make(chan error, 1000)}
	srv := &bwnet.Server{
		Config:   cfg,
		Messages: func() bitwire.MessageSet { return new(frames.Messages) },
		Handler:  echoHandler,
		OnError: func(_ *bwnet.Conn, err error) {
			ts.mu.Lock()
			ts.reported = append(ts.reported, err)
			ts.mu.Unlock()
			select {
			case ts.errs <- err:
			default:
			}
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	var once sync.Once
	ts.shutdown = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(20 * time.Second):
				t.Error("Serve did not return after the shutdown")
			}
		})
	}
	t.Cleanup(ts.shutdown)
	return ts
}

// echoHandler sends every Chat and Packet64 back (WriteMessage encodes at once, so
// the set's value can be reused).
func echoHandler(_ context.Context, c *bwnet.Conn) error {
	for {
		m, err := c.ReadMessage()
		if err != nil {
			return err
		}
		switch m.(type) {
		case *frames.Chat, *frames.Packet64:
			if err := c.WriteMessage(m); err != nil {
				return err
			}
		}
	}
}

// next waits for the next error the server reports.
func (ts *testServer) next(t testing.TB) error {
	t.Helper()
	select {
	case err := <-ts.errs:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the server reported no error")
		return nil
	}
}

// goodClient is a bwnet client that checks each Chat comes back unchanged.
func goodClient(t testing.TB, addr string, cfg bwnet.Config) *bwnet.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := bwnet.Dial(ctx, addr, new(frames.Messages), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func roundTrip(c *bwnet.Conn, from uint16, text string) error {
	if err := c.WriteMessage(&frames.Chat{From: from, Text: text}); err != nil {
		return err
	}
	m, err := c.ReadMessage()
	if err != nil {
		return err
	}
	if chat, ok := m.(*frames.Chat); !ok || chat.From != from || chat.Text != text {
		return fmt.Errorf("sent %d %q, got %#v", from, text, m)
	}
	return nil
}

// Every malformed stream of the frame vectors, sent to a server with the case's
// settings, is reported with its kind and offset and closes that connection, while
// a good client of the same server goes on.
func TestServerRejectsEveryMalformedFrame(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "testdata", "vectors", "frames", "frames.json"))
	if err != nil {
		t.Fatal(err)
	}
	var file framesFile
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	tested := 0
	for _, c := range file.Cases {
		end, err := c.end()
		if err != nil || end == nil || c.Stream == nil || c.Transport != "" {
			continue
		}
		stream, _ := harness.Hex(*c.Stream)
		cfg := bwnet.Config{Frame: c.config(), IdleTimeout: 5 * time.Second}
		ts := startServer(t, cfg)
		good := goodClient(t, ts.addr, cfg)
		if err := roundTrip(good, 1, "before"); err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		bad, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = bad.Write(stream)
		_ = bad.(*net.TCPConn).CloseWrite()
		var fe *bitwire.FrameError
		if got := ts.next(t); !errors.As(got, &fe) || fe.Kind.String() != end.Kind || fe.Offset != end.Offset {
			t.Errorf("%s: reported %v, expected %s at %d", c.ID, got, end.Kind, end.Offset)
		}
		// The server closed that connection (what it echoed first may arrive before).
		_ = bad.SetReadDeadline(time.Now().Add(10 * time.Second))
		if err := drain(bad); err != nil {
			t.Errorf("%s: the bad connection: %v", c.ID, err)
		}
		_ = bad.Close()
		if err := roundTrip(good, 2, "after"); err != nil {
			t.Errorf("%s: the good client after: %v", c.ID, err)
		}
		tested++
	}
	if tested < 30 {
		t.Errorf("only %d malformed streams", tested)
	}
}

// drain reads until the peer closes; a timeout is an error.
func drain(c net.Conn) error {
	buf := make([]byte, 4096)
	for {
		if _, err := c.Read(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return err
			}
			return nil
		}
	}
}

// A connection cut in the middle of a frame: a clean close (FIN) is Truncated at
// the frame's offset, a reset (RST) an IO error.
func TestConnectionCutMidFrame(t *testing.T) {
	ts := startServer(t, bwnet.Config{})
	frame, _ := bitwire.NewFrameEncoder(bitwire.FrameConfig{}).AppendMessage(nil, &frames.Chat{From: 5, Text: "a whole chat line"})
	for _, reset := range []bool{false, true} {
		nc, err := net.Dial("tcp", ts.addr)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = nc.Write(append(append([]byte(nil), frame...), frame[:7]...))
		buf := make([]byte, len(frame))
		if _, err := nc.Read(buf); err != nil {
			t.Fatal(err)
		}
		if reset {
			_ = nc.(*net.TCPConn).SetLinger(0)
		}
		_ = nc.Close()
		got := ts.next(t)
		var fe *bitwire.FrameError
		switch {
		case !reset && (!errors.As(got, &fe) || fe.Kind != bitwire.FrameTruncated || fe.Offset != int64(len(frame))):
			t.Errorf("cut: %v", got)
		case reset && !errors.Is(got, bwnet.ErrIO) && !errors.Is(got, bitwire.ErrFrameTruncated):
			t.Errorf("reset: %v", got)
		}
	}
}

// A slow-loris sender keeps sending, a byte at a time, a frame it never finishes:
// the frame timeout closes it although no read waits longer than the idle timeout.
func TestSlowLoris(t *testing.T) {
	ts := startServer(t, bwnet.Config{IdleTimeout: 300 * time.Millisecond, FrameTimeout: 600 * time.Millisecond})
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	start := time.Now()
	stop := make(chan struct{})
	go func() {
		_, _ = nc.Write([]byte{0xff, 0x0f}) // a frame of 2047 bytes
		for {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
				if _, err := nc.Write([]byte{0}); err != nil {
					return
				}
			}
		}
	}()
	got := ts.next(t)
	close(stop)
	if !errors.Is(got, bwnet.ErrFrameTimeout) {
		t.Fatalf("%v", got)
	}
	if d := time.Since(start); d < 500*time.Millisecond || d > 5*time.Second {
		t.Errorf("closed after %v", d)
	}
	// A connection that sends nothing is closed by the idle timeout.
	idle, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	if got := ts.next(t); !errors.Is(got, bwnet.ErrIdleTimeout) {
		t.Errorf("idle: %v", got)
	}
}

// A peer that sends but never reads: the server's replies fill the kernel's buffers,
// then its send queue, and the connection closes (SendQueueFull or WriteTimeout);
// the queue never holds more than MaxSendQueue, and the server goes on serving.
func TestPeerThatNeverReads(t *testing.T) {
	cfg := bwnet.Config{MaxSendQueue: 256 << 10, WriteTimeout: 2 * time.Second}
	ts := startServer(t, cfg)
	nc, err := net.Dial("tcp", ts.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	frame, _ := bitwire.NewFrameEncoder(bitwire.FrameConfig{}).AppendMessage(nil, &frames.Chat{From: 1, Text: string(make([]byte, 60000))})
	go func() {
		_ = nc.SetWriteDeadline(time.Now().Add(20 * time.Second))
		for {
			if _, err := nc.Write(frame); err != nil {
				return
			}
		}
	}()
	got := ts.next(t)
	if !errors.Is(got, bwnet.ErrSendQueueFull) && !errors.Is(got, bwnet.ErrWriteTimeout) {
		t.Fatalf("%v", got)
	}
	good := goodClient(t, ts.addr, bwnet.Config{})
	if err := roundTrip(good, 9, "still serving"); err != nil {
		t.Error(err)
	}
}
