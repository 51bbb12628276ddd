package main

import (
	"context"
	"errors"
	"io"
	"log"
	"net"
	"sync/atomic"

	"github.com/bitwire-dev/bitwire/bench/net/go/netbench"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// errUnexpected ends a connection whose peer sent a message other than Ping.
var errUnexpected = errors.New("netserver: a message other than Ping")

// serveBitwire serves ln with bwnet until ctx is done: every connection answers
// each Ping with its Pong (see pingPong). bwnet's defaults apply (no compression,
// the 4 MiB send queue, the timeouts of docs/framing.md §6.4).
func serveBitwire(ctx context.Context, ln net.Listener, c *counts) error {
	srv := &bwnet.Server{
		Messages: func() bitwire.MessageSet { return new(netbench.Messages) },
		Handler: func(_ context.Context, conn *bwnet.Conn) error {
			return pingPong(conn, &c.packets)
		},
		OnError: func(conn *bwnet.Conn, err error) {
			c.errors.Add(1)
			log.Printf("closed %v: %v", conn.RemoteAddr(), err)
		},
	}
	return srv.Serve(ctx, ln)
}

// pingPong reads Pings from conn and queues the Pong of each as it arrives, until
// the peer ends its stream (nil) or an error ends the connection; it adds the
// packets it answered to served. The Pong is one value per connection whose data
// aliases the Ping's: WriteMessage encodes it into the send queue before the next
// read reuses the Ping, so a packet allocates nothing once the buffers have grown.
func pingPong(conn *bwnet.Conn, served *atomic.Int64) error {
	var pong netbench.Pong
	var n int64
	defer func() { served.Add(n) }()
	for {
		m, err := conn.ReadMessage()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		ping, ok := m.(*netbench.Ping)
		if !ok {
			return errUnexpected
		}
		pong.Seq, pong.Data = ping.Seq, ping.Data
		if err := conn.WriteMessage(&pong); err != nil {
			return err
		}
		n++
	}
}
