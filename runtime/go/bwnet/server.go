package bwnet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"runtime/debug"
	"sync"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Server serves connections, each in its own goroutine: Serve accepts them from a
// TCP listener, ServeConn serves one made elsewhere (a WebSocket from package bwws).
// An error on one connection — a malformed frame, a timeout, a handler's error or
// panic — closes that connection and is reported to OnError; the server goes on
// serving the others. Cancelling Serve's context stops accepting, closes every
// connection (each after writing what is queued for it, within WriteTimeout) and
// returns once every handler has.
type Server struct {
	// Config holds the settings of every connection.
	Config Config
	// Messages returns the message set a new connection decodes into; a generated
	// set holds one value per message, so each connection needs its own:
	// func() bitwire.MessageSet { return new(game.Messages) }.
	Messages func() bitwire.MessageSet
	// Handler serves one connection until it returns; ctx is cancelled when the
	// server shuts down, which also closes the connection (so a blocked ReadMessage
	// returns ErrClosed). The server closes the connection when Handler returns.
	Handler func(ctx context.Context, c *Conn) error
	// OnError receives the error that ended a connection: what Handler returned
	// (other than nil, io.EOF and ErrClosed after a shutdown), or its panic. Nil logs
	// with the standard logger.
	OnError func(c *Conn, err error)
}

// Serve accepts connections from ln and serves each in a goroutine of its own until
// ctx is done; then it closes ln and every connection it accepted, waits for their
// handlers and returns nil. An error of ln other than a temporary one (retried
// with a growing pause, as net/http does) is returned after the same shutdown.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	var wg sync.WaitGroup
	defer wg.Wait()
	var pause time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() || isTemporary(err) {
				pause = min(max(2*pause, 5*time.Millisecond), time.Second)
				select {
				case <-time.After(pause):
				case <-ctx.Done():
				}
				continue
			}
			cancel()
			return err
		}
		pause = 0
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := NewConn(nc, s.Messages(), s.Config)
			_ = s.ServeConn(ctx, c)
		}()
	}
}

// isTemporary reports whether an Accept error is worth retrying: the process or the
// system is out of file descriptors or memory for a moment.
func isTemporary(err error) bool {
	var t interface{ Temporary() bool }
	return errors.As(err, &t) && t.Temporary()
}

// ServeConn serves c with Handler until it returns or ctx is done (which closes c),
// reports the error that ended it to OnError, closes c and returns that error.
func (s *Server) ServeConn(ctx context.Context, c *Conn) (err error) {
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer func() {
		stop()
		if p := recover(); p != nil {
			err = fmt.Errorf("bwnet: handler panic: %v\n%s", p, debug.Stack())
		}
		if err != nil {
			// The handler's error ends the connection now, without flushing.
			c.mu.Lock()
			c.failLocked(err)
			c.mu.Unlock()
		}
		_ = c.Close()
		if reportable(ctx, err) {
			s.report(c, err)
		}
	}()
	return s.Handler(ctx, c)
}

// reportable reports whether err ended a connection abnormally: not a clean end of
// the peer's stream, nor the close of a shutdown.
func reportable(ctx context.Context, err error) bool {
	switch {
	case err == nil, errors.Is(err, io.EOF):
		return false
	case errors.Is(err, ErrClosed) && ctx.Err() != nil:
		return false
	}
	return true
}

func (s *Server) report(c *Conn, err error) {
	if s.OnError != nil {
		s.OnError(c, err)
		return
	}
	log.Printf("bwnet: connection from %v: %v", c.RemoteAddr(), err)
}
