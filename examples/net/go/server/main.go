// Command server is the Go arena server of the networking example
// (examples/net/README.md): players join, move and chat over TCP or WebSocket, and
// every joined player gets everyone's positions 20 times a second.
//
//	server --tcp 127.0.0.1:0 --ws 127.0.0.1:0 [--static DIR] [--players N]
//	       [--seconds S] [--threshold T]
//
// It prints `listening tcp=127.0.0.1:PORT ws=ws://127.0.0.1:PORT/ws` when it
// listens (with --static DIR it also serves DIR over HTTP on the WebSocket port),
// and `served N players (RUNTIMES)` when N players have said Bye or S seconds have
// passed. A malformed frame closes that one connection (logged with its typed
// error); the others go on.
//
// The package arena is generated from ../arena.bw by the go:generate line below:
// run `go generate ./...` in examples/net/go (with bitwire on PATH) after changing
// the schema, and commit the result.
package main

//go:generate bitwire gen --lang go --out ../arena ../../arena.bw

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/bitwire-dev/bitwire/examples/net/go/arena"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
	"github.com/bitwire-dev/bitwire/runtime/go/bwws"
)

func main() {
	tcpAddr := flag.String("tcp", "127.0.0.1:0", "TCP address to listen on")
	wsAddr := flag.String("ws", "127.0.0.1:0", "WebSocket (HTTP) address to listen on")
	static := flag.String("static", "", "a directory to serve over HTTP on the WebSocket port")
	players := flag.Int("players", 0, "exit after this many players said Bye (0: no limit)")
	seconds := flag.Float64("seconds", 0, "exit after this many seconds (0: no limit)")
	threshold := flag.Int("threshold", -1, "compression threshold (negative: none)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("go server: ")
	if err := run(*tcpAddr, *wsAddr, *static, *players, *seconds, *threshold); err != nil {
		log.Print(err)
		os.Exit(1)
	}
}

func run(tcpAddr, wsAddr, static string, players int, seconds float64, threshold int) error {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	defer cancel()
	if seconds > 0 {
		var stop context.CancelFunc
		ctx, stop = context.WithTimeout(ctx, time.Duration(seconds*float64(time.Second)))
		defer stop()
	}
	ctx, finish := context.WithCancel(ctx)
	defer finish()

	cfg := bwnet.Config{}
	if threshold >= 0 {
		cfg.Frame = bitwire.FrameConfig{Compression: true, Threshold: threshold}
	}
	a := newArena(players, finish)
	srv := &bwnet.Server{
		Config:   cfg,
		Messages: func() bitwire.MessageSet { return new(arena.Messages) },
		Handler:  a.serve,
		OnError: func(c *bwnet.Conn, err error) {
			log.Printf("closed %v: %v", c.RemoteAddr(), err)
		},
	}

	tcp, err := net.Listen("tcp", tcpAddr)
	if err != nil {
		return err
	}
	ws, err := net.Listen("tcp", wsAddr)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.Handle("/ws", bwws.Handler(ctx, srv, nil))
	if static != "" {
		mux.Handle("/", http.FileServer(http.Dir(static)))
	}
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	fmt.Printf("listening tcp=%s ws=ws://%s/ws\n", tcp.Addr(), ws.Addr())

	served := make(chan error, 2)
	go func() { served <- srv.Serve(ctx, tcp) }()
	go func() {
		if err := hs.Serve(ws); !errors.Is(err, http.ErrServerClosed) {
			served <- err
		}
	}()
	go a.tick(ctx)

	var failed error
	select {
	case <-ctx.Done():
	case failed = <-served:
		finish()
	}
	// Hijacked WebSocket connections are closed by ctx (bwws.Handler); Shutdown
	// closes the listener and waits for the handlers.
	shutdown, stop := context.WithTimeout(context.Background(), 15*time.Second)
	defer stop()
	_ = hs.Shutdown(shutdown)
	if failed == nil {
		failed = <-served
	}
	if failed != nil {
		return failed
	}
	n, runtimes := a.served()
	fmt.Printf("served %d players (%s)\n", n, runtimes)
	return nil
}
