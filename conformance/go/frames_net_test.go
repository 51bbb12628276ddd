package conformance

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/frames"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
	"github.com/bitwire-dev/bitwire/runtime/go/bwws"
	"github.com/coder/websocket"
)

// overTCP sends a case's stream over a real 127.0.0.1 connection (then ends it)
// and reads it with a bwnet.Conn.
func overTCP(c frameCase, stream []byte, end *frameEnd) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	defer ln.Close()
	go func() {
		nc, err := ln.Accept()
		if err != nil {
			return
		}
		defer nc.Close()
		_, _ = nc.Write(stream)
		_ = nc.(*net.TCPConn).CloseWrite()
		// Keep the connection until the reader is done with it.
		_, _ = nc.Read(make([]byte, 1))
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cfg := bwnet.Config{Frame: c.config(), IdleTimeout: 5 * time.Second}
	conn, err := bwnet.Dial(ctx, ln.Addr().String(), new(frames.Messages), cfg)
	if err != nil {
		return err
	}
	defer conn.Close()
	return collect(c, c.config().Normalized().Limits, conn.ReadFrame).check(c, end)
}

// overWebSocket sends a case's messages over a real WebSocket connection to a
// bwws connection, which reads them.
func overWebSocket(c frameCase, msgs [][]byte, end *frameEnd) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	result := make(chan error, 1)
	cfg := bwnet.Config{Frame: c.config(), IdleTimeout: 5 * time.Second}
	hs := &http.Server{ReadHeaderTimeout: 5 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, err := bwws.Accept(w, r, new(frames.Messages), cfg, nil)
		if err != nil {
			result <- err
			return
		}
		defer conn.Close()
		result <- collect(c, c.config().Normalized().Limits, conn.ReadFrame).check(c, end)
	})}
	go func() { _ = hs.Serve(ln) }()
	defer hs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+ln.Addr().String()+"/", nil)
	if err != nil {
		return err
	}
	defer ws.CloseNow()
	ws.SetReadLimit(int64(bitwire.MaxFrameLimit) + 3)
	for _, m := range msgs {
		if err := ws.Write(ctx, websocket.MessageBinary, m); err != nil {
			break // the server closed after a malformed message
		}
	}
	go func() { _ = ws.Close(websocket.StatusNormalClosure, "") }()
	select {
	case err := <-result:
		return err
	case <-ctx.Done():
		return fmt.Errorf("no result: %w", ctx.Err())
	}
}
