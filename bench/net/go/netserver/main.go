// Command netserver is the Go server of the network benchmark (bench/net/README.md):
//
//	netserver --addr 127.0.0.1:0 [-shape bitwire|raw]
//
// With -shape bitwire (the default) each connection is a bwnet.Conn that decodes
// every frame into the generated netbench.Messages set and answers each Ping with
// the Pong of the same seq and data, queued on the connection's send queue as it
// arrives (the queue's writer goroutine coalesces what waits). With -shape raw each
// connection writes back every chunk it reads, with no framing: the cost floor.
//
// It prints `listening HOST:PORT` once it accepts connections, serves until its
// stdin reaches end of file (or SIGTERM/SIGINT), then prints
// `served P packets, E errors` and exits 0. An error on a connection (a malformed
// frame, a message other than Ping, a failed read or write) closes that connection
// and is counted.
//
// The package netbench is generated from ../netbench.bw by the go:generate line
// below: run `go generate ./...` in bench/net/go (with bitwire on PATH) after
// changing the schema, and commit the result.
package main

//go:generate bitwire gen --lang go --out ../netbench ../../netbench.bw

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "TCP address to listen on (HOST:PORT)")
	shape := flag.String("shape", "bitwire", "bitwire (bwnet, Ping → Pong) or raw (echo bytes)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("netserver: ")
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer cancel()
	if err := run(ctx, *addr, *shape, os.Stdin, os.Stdout); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

// counts holds what a server reports when it stops.
type counts struct {
	packets atomic.Int64
	errors  atomic.Int64
}

// run listens on addr and serves the connections it accepts with the server of
// shape until ctx is done or stdin reaches end of file; it writes the `listening`
// and `served` lines to stdout.
func run(ctx context.Context, addr, shape string, stdin io.Reader, stdout io.Writer) error {
	var serve func(context.Context, net.Listener, *counts) error
	switch shape {
	case "bitwire":
		serve = serveBitwire
	case "raw":
		serve = serveRaw
	default:
		return fmt.Errorf("unknown -shape %q (bitwire or raw)", shape)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() {
		// Whatever ends stdin (end of file or an error) ends the server.
		_, _ = io.Copy(io.Discard, stdin)
		stop()
	}()
	if _, err := fmt.Fprintf(stdout, "listening %s\n", ln.Addr()); err != nil {
		_ = ln.Close()
		return err
	}
	var c counts
	if err := serve(ctx, ln, &c); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "served %d packets, %d errors\n", c.packets.Load(), c.errors.Load())
	return err
}
