package bwws

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
	"github.com/coder/websocket"
)

// num is a hand-written message: a 16-bit number, id 1.
type num struct{ V uint16 }

func (m *num) MessageID() uint32 { return 1 }
func (m *num) WritePacked(w *bitwire.BitWriter) error {
	w.WriteBits(uint64(m.V), 16)
	return nil
}
func (m *num) ReadPacked(r *bitwire.BitReader) error {
	v, err := r.ReadBits(16)
	m.V = uint16(v)
	return err
}

type set struct{ num num }

func (s *set) Message(id uint32) bitwire.Message {
	if id == 1 {
		return &s.num
	}
	return nil
}

// server runs an echo server (nums back plus one) over WebSocket on 127.0.0.1 and
// returns its URL and the errors it reported.
func server(t *testing.T, cfg bwnet.Config) (string, func() []error) {
	t.Helper()
	var mu sync.Mutex
	var reported []error
	srv := &bwnet.Server{
		Config:   cfg,
		Messages: func() bitwire.MessageSet { return new(set) },
		Handler: func(_ context.Context, c *bwnet.Conn) error {
			for {
				m, err := c.ReadMessage()
				if err != nil {
					return err
				}
				if err := c.WriteMessage(&num{V: m.(*num).V + 1}); err != nil {
					return err
				}
			}
		},
		OnError: func(_ *bwnet.Conn, err error) {
			mu.Lock()
			reported = append(reported, err)
			mu.Unlock()
		},
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	hs := &http.Server{Handler: Handler(ctx, srv, nil), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	t.Cleanup(func() {
		cancel()
		_ = hs.Close()
	})
	return "ws://" + ln.Addr().String() + "/", func() []error {
		// The server reports after closing; give it a moment.
		for i := 0; i < 100; i++ {
			mu.Lock()
			n := len(reported)
			mu.Unlock()
			if n > 0 {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		mu.Lock()
		defer mu.Unlock()
		return append([]error(nil), reported...)
	}
}

func TestEcho(t *testing.T) {
	for _, frame := range []bitwire.FrameConfig{{}, {Compression: true, Threshold: 0}} {
		url, _ := server(t, bwnet.Config{Frame: frame})
		c, err := Dial(context.Background(), url, new(set), bwnet.Config{Frame: frame}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := uint16(0); i < 50; i++ {
			if err := c.WriteMessage(&num{V: i}); err != nil {
				t.Fatal(err)
			}
		}
		for i := uint16(0); i < 50; i++ {
			m, err := c.ReadMessage()
			if err != nil || m.(*num).V != i+1 {
				t.Fatalf("%+v: %d: %v %v", frame, i, m, err)
			}
		}
		if err := c.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	}
}

// rawDial connects with the WebSocket library alone, to send what a bitwire writer
// never would.
func rawDial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.Dial(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.CloseNow() })
	return ws
}

// Each violation of §5 closes the connection with its close code and is reported
// with its typed error.
func TestViolations(t *testing.T) {
	cfg := bwnet.Config{Frame: bitwire.FrameConfig{MaxFrame: 100}}
	for _, c := range []struct {
		name string
		typ  websocket.MessageType
		msg  []byte
		code websocket.StatusCode
		want error
	}{
		{"text", websocket.MessageText, []byte("0100"), websocket.StatusUnsupportedData, bwnet.ErrNotBinary},
		{"too big", websocket.MessageBinary, make([]byte, 104), websocket.StatusMessageTooBig, bitwire.ErrFrameTooLarge},
		{"two frames", websocket.MessageBinary, []byte{3, 1, 0, 1, 1, 0}, websocket.StatusPolicyViolation, bitwire.ErrFrameTrailingBytes},
		{"part of a frame", websocket.MessageBinary, []byte{3, 1, 0}, websocket.StatusPolicyViolation, bitwire.ErrFrameTruncated},
	} {
		url, reported := server(t, cfg)
		ws := rawDial(t, url)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		if err := ws.Write(ctx, c.typ, c.msg); err != nil {
			t.Fatal(err)
		}
		// Replies to a frame that came before the violation may arrive first.
		var err error
		for err == nil {
			_, _, err = ws.Read(ctx)
		}
		cancel()
		if got := websocket.CloseStatus(err); got != c.code {
			t.Errorf("%s: closed with %v (%v), want %v", c.name, got, err, c.code)
		}
		if errs := reported(); len(errs) != 1 || !errors.Is(errs[0], c.want) {
			t.Errorf("%s: reported %v, want %v", c.name, errs, c.want)
		}
	}
}

// A largest message (MaxFrame+3 bytes) passes the read limit.
func TestLargestMessage(t *testing.T) {
	cfg := bwnet.Config{Frame: bitwire.FrameConfig{MaxFrame: 200}}
	url, _ := server(t, cfg)
	ws := rawDial(t, url)
	enc := bitwire.NewFrameEncoder(bitwire.FrameConfig{})
	frame, _ := enc.AppendFrame(nil, 1, []byte{0x34, 0x12})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ws.Write(ctx, websocket.MessageBinary, frame); err != nil {
		t.Fatal(err)
	}
	_, b, err := ws.Read(ctx)
	if err != nil || len(b) != 4 || b[2] != 0x35 {
		t.Fatalf("%x %v", b, err)
	}
}

// The idle timeout closes a WebSocket peer that sends nothing.
func TestIdleTimeout(t *testing.T) {
	url, reported := server(t, bwnet.Config{IdleTimeout: 100 * time.Millisecond})
	ws := rawDial(t, url)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, _, err := ws.Read(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
	if errs := reported(); len(errs) != 1 || !errors.Is(errs[0], bwnet.ErrIdleTimeout) {
		t.Errorf("reported %v", errs)
	}
}
