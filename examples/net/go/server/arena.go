package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/bitwire-dev/bitwire/examples/net/go/arena"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// player is one joined client.
type player struct {
	id      uint16
	runtime string
	conn    *bwnet.Conn
	pose    arena.Pose
}

// world is the arena's state: the joined players, the tick, who has left. Every
// broadcast is encoded once and written to each player's connection, whose send
// queue takes it without waiting for the peer.
type world struct {
	mu      sync.Mutex
	players map[uint16]*player
	nextID  uint16
	tickNo  uint32
	byes    []string // the runtimes of the players who said Bye
	goal    int      // exit after this many Byes (0: never)
	done    func()
	scratch []byte
}

func newArena(goal int, done func()) *world {
	return &world{players: map[uint16]*player{}, goal: goal, done: done}
}

// served returns how many players said Bye and their runtimes, sorted.
func (w *world) served() (int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	runtimes := append([]string(nil), w.byes...)
	sort.Strings(runtimes)
	return len(runtimes), strings.Join(runtimes, ", ")
}

// serve is one connection's handler, for TCP and WebSocket alike.
func (w *world) serve(_ context.Context, c *bwnet.Conn) error {
	var me *player
	defer func() {
		if me != nil {
			w.mu.Lock()
			delete(w.players, me.id)
			w.mu.Unlock()
		}
	}()
	for {
		m, err := c.ReadMessage()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch m := m.(type) {
		case *arena.Hello:
			if me != nil {
				return errors.New("a second Hello")
			}
			if me, err = w.join(c, m); err != nil {
				return err
			}
		case *arena.Move:
			if me == nil {
				return errors.New("a Move before Hello")
			}
			w.mu.Lock()
			me.pose = m.Pose
			w.mu.Unlock()
		case *arena.Say:
			if me == nil {
				return errors.New("a Say before Hello")
			}
			w.broadcast(&arena.Chat{From: me.id, Text: m.Text})
		case *arena.Bye:
			if me == nil {
				return errors.New("a Bye before Hello")
			}
			// Close (WebSocket: the close handshake) before counting the Bye: the last
			// one ends the server, which must not cut this connection short (the
			// browser saw that as close code 1006).
			_ = c.Close()
			w.bye(me)
			return nil
		default:
			return fmt.Errorf("a client sent %T", m)
		}
	}
}

// join gives the connection a player and answers with Welcome, under the lock, so
// that no Positions reaches it before its Welcome.
func (w *world) join(c *bwnet.Conn, hello *arena.Hello) (*player, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.players) >= int(arena.MaxPlayers) {
		return nil, errors.New("the arena is full")
	}
	id := w.nextID
	for w.players[id] != nil {
		id = (id + 1) % (arena.WelcomePlayerMax + 1)
	}
	w.nextID = (id + 1) % (arena.WelcomePlayerMax + 1)
	p := &player{id: id, runtime: hello.Runtime, conn: c}
	if err := c.WriteMessage(&arena.Welcome{Player: id, Tick: w.tickNo}); err != nil {
		return nil, err
	}
	w.players[id] = p
	return p, nil
}

func (w *world) bye(p *player) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.players, p.id)
	w.byes = append(w.byes, p.runtime)
	if w.goal > 0 && len(w.byes) >= w.goal {
		w.done()
	}
}

// broadcast sends m to every joined player: encoded once, framed per connection. A
// connection that fails (its queue full, say) is closed by its own error and
// leaves when its handler returns.
func (w *world) broadcast(m bitwire.Message) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.broadcastLocked(m)
}

func (w *world) broadcastLocked(m bitwire.Message) {
	var err error
	w.scratch, err = m.(interface {
		AppendTo([]byte) ([]byte, error)
	}).AppendTo(w.scratch[:0])
	if err != nil {
		return
	}
	for _, p := range w.players {
		_ = p.conn.WriteFrame(m.MessageID(), w.scratch)
	}
}

// tick sends everyone's Positions 20 times a second until ctx is done.
func (w *world) tick(ctx context.Context) {
	t := time.NewTicker(50 * time.Millisecond)
	defer t.Stop()
	var positions arena.Positions
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.mu.Lock()
		w.tickNo++
		positions.Tick = w.tickNo
		positions.Players = positions.Players[:0]
		for _, p := range w.players {
			positions.Players = append(positions.Players, arena.PlayerPose{Player: p.id, Pose: p.pose})
		}
		sort.Slice(positions.Players, func(i, j int) bool { return positions.Players[i].Player < positions.Players[j].Player })
		if len(positions.Players) > 0 {
			w.broadcastLocked(&positions)
		}
		w.mu.Unlock()
	}
}
