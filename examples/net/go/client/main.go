// Command client is the Go client of the networking example
// (examples/net/README.md):
//
//	client (--tcp 127.0.0.1:PORT | --ws ws://127.0.0.1:PORT/ws) --name NAME [--threshold T]
//
// It says Hello, waits for Welcome, moves to a pose derived from its player id and
// says a line of chat; once its own Chat came back and a Positions shows it at the
// pose it sent (compared as encoded bytes: poses are quantized), it says Bye,
// waits for the server to close and prints one line. Any error, or 10 seconds
// without finishing, exits 1.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/bitwire-dev/bitwire/examples/net/go/arena"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
	"github.com/bitwire-dev/bitwire/runtime/go/bwws"
)

func main() {
	tcp := flag.String("tcp", "", "the server's TCP address")
	ws := flag.String("ws", "", "the server's WebSocket URL")
	name := flag.String("name", "gopher", "the player's name")
	threshold := flag.Int("threshold", -1, "compression threshold (negative: none)")
	flag.Parse()
	if (*tcp == "") == (*ws == "") {
		fmt.Fprintln(os.Stderr, "go client: give one of --tcp and --ws")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	line, err := run(ctx, *tcp, *ws, *name, *threshold)
	if err != nil {
		fmt.Fprintln(os.Stderr, "go client:", err)
		os.Exit(1)
	}
	fmt.Println(line)
}

func run(ctx context.Context, tcp, ws, name string, threshold int) (string, error) {
	cfg := bwnet.Config{}
	if threshold >= 0 {
		cfg.Frame = bitwire.FrameConfig{Compression: true, Threshold: threshold}
	}
	var c *bwnet.Conn
	var err error
	if tcp != "" {
		c, err = bwnet.Dial(ctx, tcp, new(arena.Messages), cfg)
	} else {
		c, err = bwws.Dial(ctx, ws, new(arena.Messages), cfg, nil)
	}
	if err != nil {
		return "", err
	}
	defer c.Close()
	// The deadline covers every read and write: closing the connection ends them.
	stop := context.AfterFunc(ctx, func() { _ = c.Close() })
	defer stop()
	fail := func(err error) (string, error) {
		if ctx.Err() != nil {
			return "", fmt.Errorf("not done in time: %w", err)
		}
		return "", err
	}

	if err := c.WriteMessage(&arena.Hello{Name: name, Runtime: "go"}); err != nil {
		return fail(err)
	}
	var id uint16
	for {
		m, err := c.ReadMessage()
		if err != nil {
			return fail(err)
		}
		if w, ok := m.(*arena.Welcome); ok {
			id = w.Player
			break
		}
	}
	move := arena.Move{Pose: poseOf(id)}
	sent, err := move.Pose.AppendTo(nil)
	if err != nil {
		return fail(err)
	}
	text := "hello from go"
	if err := c.WriteMessage(&move); err != nil {
		return fail(err)
	}
	if err := c.WriteMessage(&arena.Say{Text: text}); err != nil {
		return fail(err)
	}

	echoed, among := false, 0
	var seen []byte
	for !echoed || among == 0 {
		m, err := c.ReadMessage()
		if err != nil {
			return fail(err)
		}
		switch m := m.(type) {
		case *arena.Chat:
			echoed = echoed || (m.From == id && m.Text == text)
		case *arena.Positions:
			for i := range m.Players {
				p := &m.Players[i]
				if seen, err = p.Pose.AppendTo(seen[:0]); err != nil {
					return fail(err)
				}
				if p.Player == id && bytes.Equal(seen, sent) {
					among = len(m.Players)
				}
			}
		}
	}
	if err := c.WriteMessage(&arena.Bye{}); err != nil {
		return fail(err)
	}
	// The server closes the connection after Bye; what it sent before still arrives.
	for {
		if _, err := c.ReadMessage(); err != nil {
			if !errors.Is(err, io.EOF) {
				return fail(err)
			}
			break
		}
	}
	return fmt.Sprintf("go client: player %d, chat echoed, pose seen among %d players, bye", id, among), nil
}

// poseOf is the pose a player moves to: derived from its id, inside the arena.
func poseOf(id uint16) arena.Pose {
	return arena.Pose{
		X:       -500 + float32(id%100)*9.75,
		Y:       200 - float32(id%50)*7.5,
		Heading: float32(uint32(id) * 45 % 360),
	}
}
