package baseline_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"testing"
	"time"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// Snapshots against acknowledged baselines (docs/framing.md §10) over a real 127.0.0.1
// socket: a bwnet.Server sends 100 snapshots through a Sender, a client decodes them
// with a Receiver and acknowledges each in an input message. The client loses a few
// snapshots, withholds its acks until the baseline leaves the server's ring (full
// snapshots follow), and restarts its receiver (BaselineMissing, then a requested full
// snapshot). The body codec is the test codec; the messages are raw frames: id 1 a
// snapshot envelope, id 2 an input (a flags byte, 1: has an ack, 2: full; then the
// ack as u16 little-endian).

const (
	ticks      = 100
	snapshotID = 1
	inputID    = 2
)

// world is the state at tick t: 16 entities, a few of which move each tick.
func world(t int) u32List {
	w := make(u32List, 16)
	for i := range w {
		w[i] = uint32(i * 1000)
		if i%5 == 0 {
			w[i] += uint32(t)
		}
	}
	return w
}

func encodeInput(ack uint16, hasAck, full bool) []byte {
	var flags byte
	if hasAck {
		flags |= 1
	}
	if full {
		flags |= 2
	}
	if !hasAck {
		return []byte{flags}
	}
	return []byte{flags, byte(ack), byte(ack >> 8)}
}

func decodeInput(data []byte) (ack uint16, hasAck, full bool, err error) {
	if len(data) == 0 || data[0] > 3 || (data[0]&1 == 1) != (len(data) == 3) || (data[0]&1 == 0 && len(data) != 1) {
		return 0, false, false, fmt.Errorf("bad input message %x", data)
	}
	if data[0]&1 == 1 {
		ack = uint16(data[1]) | uint16(data[2])<<8
	}
	return ack, data[0]&1 == 1, data[0]&2 != 0, nil
}

// serveSnapshots is the server's side of a connection: a snapshot per tick, each
// after the client's input for the previous one (lock-step, so nothing depends on
// timing).
func serveSnapshots(c *bwnet.Conn, sent chan<- []baseline.Header) error {
	s := baseline.NewSender(listCodec, baseline.DefaultRing)
	var headers []baseline.Header
	defer func() { sent <- headers }()
	var buf []byte
	for t := 0; t < ticks; t++ {
		var h baseline.Header
		var err error
		buf, h, err = s.Encode(buf[:0], world(t))
		if err != nil {
			return err
		}
		headers = append(headers, h)
		if err := c.WriteFrame(snapshotID, buf); err != nil {
			return err
		}
		f, err := c.ReadFrame()
		if err != nil {
			return err
		}
		ack, hasAck, full, err := decodeInput(f.Data)
		if err != nil || f.ID != inputID {
			return fmt.Errorf("tick %d: frame %d: %v", t, f.ID, err)
		}
		if hasAck {
			if err := s.Ack(ack); err != nil {
				return err
			}
		}
		if full {
			s.RequestFull()
		}
	}
	return c.Flush()
}

// runClient decodes each snapshot, checks it against the world and answers with its
// input; it returns how many it decoded and the ticks that were BaselineMissing.
func runClient(ctx context.Context, addr string) (int, []int, error) {
	none := bitwire.MessageFunc(func(uint32) bitwire.Message { return nil })
	c, err := bwnet.Dial(ctx, addr, none, bwnet.Config{IdleTimeout: 10 * time.Second})
	if err != nil {
		return 0, nil, err
	}
	defer c.Close()
	r := baseline.NewReceiver(listCodec, baseline.DefaultRing)
	decoded, missing := 0, []int(nil)
	frozen, frozenHas := uint16(0), false
	for t := 0; t < ticks; t++ {
		f, err := c.ReadFrame()
		if err != nil || f.ID != snapshotID {
			return 0, nil, fmt.Errorf("tick %d: frame %d: %v", t, f.ID, err)
		}
		lose, withhold, restart := t >= 20 && t < 24, t >= 40 && t < 76, t == 80
		if restart {
			r = baseline.NewReceiver(listCodec, baseline.DefaultRing)
		}
		if !lose {
			h, v, err := r.Decode(f.Data)
			switch {
			case errors.Is(err, baseline.ErrBaselineMissing):
				missing = append(missing, t)
			case err != nil:
				return 0, nil, fmt.Errorf("tick %d: %w", t, err)
			case v == nil:
				return 0, nil, fmt.Errorf("tick %d: dropped as old", t)
			case int(h.Seq) != t || !slices.Equal(*v, world(t)):
				return 0, nil, fmt.Errorf("tick %d: got %d %v", t, h.Seq, *v)
			default:
				decoded++
			}
		}
		ack, has := r.Ack()
		if withhold {
			ack, has = frozen, frozenHas
		} else {
			frozen, frozenHas = ack, has
		}
		if err := c.WriteFrame(inputID, encodeInput(ack, has, r.NeedFull())); err != nil {
			return 0, nil, err
		}
	}
	if _, err := c.ReadFrame(); !errors.Is(err, io.EOF) {
		return 0, nil, fmt.Errorf("after the last tick: %v, want the end", err)
	}
	return decoded, missing, nil
}

func TestSnapshotsOverTCP(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sent := make(chan []baseline.Header, 1)
	srv := &bwnet.Server{
		Messages: func() bitwire.MessageSet { return bitwire.MessageFunc(func(uint32) bitwire.Message { return nil }) },
		Handler:  func(_ context.Context, c *bwnet.Conn) error { return serveSnapshots(c, sent) },
		OnError:  func(_ *bwnet.Conn, err error) { t.Errorf("server: %v", err) },
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	decoded, missing, err := runClient(ctx, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	headers := <-sent
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}

	if len(headers) != ticks {
		t.Fatalf("%d snapshots sent", len(headers))
	}
	back := func(t int) uint8 { return headers[t].Back }
	for _, c := range []struct {
		tick int
		back uint8
		why  string
	}{
		{0, 0, "nothing acknowledged yet"},
		{1, 1, ""},
		{20, 1, "20..24 lost: the acks stay at 19"},
		{23, 4, ""},
		{24, 5, ""},
		{71, baseline.DefaultRing, "acks withheld at 39: the oldest in the ring"},
		{72, 0, "39 left the ring: full"},
		{76, 0, ""},
		{77, 1, "acks resumed"},
		{80, 1, "the client restarted its receiver"},
		{81, 0, "it asked for a full snapshot"},
		{82, 1, ""},
	} {
		if back(c.tick) != c.back {
			t.Errorf("snapshot %d: back %d, want %d (%s)", c.tick, back(c.tick), c.back, c.why)
		}
	}
	if !slices.Equal(missing, []int{80}) || decoded != ticks-4-1 {
		t.Errorf("decoded %d, missing %v", decoded, missing)
	}
}
