package conformance

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"reflect"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/frames"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// Snapshots against acknowledged baselines (docs/framing.md §10) on typed connections
// over a real 127.0.0.1 socket: a bwnet.Server sends 100 snapshots of frames.bw's
// delta message World through a baseline.Sender, as *frames.WorldEnvelope; a client
// bwnet.Conn reading into a frames.Messages set hands each envelope to a
// baseline.Receiver and acknowledges it in an Input message. The client loses a few
// snapshots, withholds its acks until the baseline leaves the server's ring (full
// snapshots follow), and restarts its receiver (BaselineMissing, then a requested full
// snapshot). The generated code is the whole protocol: no raw frames.

const snapshotTicks = 100

// worldCodec is frames.World's codec for the rings: the generated methods.
var worldCodec = baseline.Codec[frames.World]{
	Append:      (*frames.World).AppendTo,
	AppendDelta: (*frames.World).AppendDelta,
	Decode:      (*frames.World).DecodeWithLimits,
	DecodeDelta: (*frames.World).DecodeDeltaWithLimits,
}

// worldAt is the world at tick t: 16 entities, every fifth of which moves each tick.
func worldAt(t int) frames.World {
	w := frames.World{Tick: uint32(t), Entities: make([]frames.Entity, 16)}
	for i := range w.Entities {
		w.Entities[i] = frames.Entity{ID: uint16(i * 100), X: int16(i * 10), Y: int16(-i)}
		if i%5 == 0 {
			w.Entities[i].X += int16(t)
		}
	}
	return w
}

// sentSnapshot is what the server wrote for one tick.
type sentSnapshot struct {
	header baseline.Header
	size   int
}

// serveWorld is the server's side of a connection: a snapshot per tick, each after
// the client's input for the previous one (lock-step, so nothing depends on timing).
func serveWorld(c *bwnet.Conn, sent chan<- []sentSnapshot) error {
	s := baseline.NewSender(worldCodec, baseline.DefaultRing)
	var log []sentSnapshot
	defer func() { sent <- log }()
	var env frames.WorldEnvelope
	for t := 0; t < snapshotTicks; t++ {
		var h baseline.Header
		var err error
		env.Data, h, err = s.Encode(env.Data[:0], worldAt(t))
		if err != nil {
			return err
		}
		log = append(log, sentSnapshot{h, len(env.Data)})
		if err := c.WriteMessage(&env); err != nil {
			return err
		}
		m, err := c.ReadMessage()
		if err != nil {
			return err
		}
		in, ok := m.(*frames.Input)
		if !ok {
			return fmt.Errorf("tick %d: %T, expected an input", t, m)
		}
		if ack, has := in.Ack.Get(); has {
			if err := s.Ack(ack); err != nil {
				return err
			}
		}
		if in.Full {
			s.RequestFull()
		}
	}
	return c.Flush()
}

// runWorldClient decodes each snapshot, checks it against the world and answers with
// its input; it returns how many it decoded and the ticks that were BaselineMissing.
func runWorldClient(ctx context.Context, addr string) (int, []int, error) {
	c, err := bwnet.Dial(ctx, addr, new(frames.Messages), bwnet.Config{IdleTimeout: 10 * time.Second})
	if err != nil {
		return 0, nil, err
	}
	defer c.Close()
	r := baseline.NewReceiver(worldCodec, baseline.DefaultRing)
	decoded, missing := 0, []int(nil)
	frozen := bitwire.Optional[uint16]{}
	for t := 0; t < snapshotTicks; t++ {
		m, err := c.ReadMessage()
		if err != nil {
			return 0, nil, fmt.Errorf("tick %d: %w", t, err)
		}
		env, ok := m.(*frames.WorldEnvelope)
		if !ok {
			return 0, nil, fmt.Errorf("tick %d: %T, expected a snapshot", t, m)
		}
		if h, err := env.Header(); err != nil || int(h.Seq) != t {
			return 0, nil, fmt.Errorf("tick %d: header %+v (%v)", t, h, err)
		}
		lose, withhold, restart := t >= 20 && t < 24, t >= 40 && t < 76, t == 80
		if restart {
			r = baseline.NewReceiver(worldCodec, baseline.DefaultRing)
		}
		if !lose {
			h, v, err := r.Decode(env.Data)
			switch {
			case errors.Is(err, baseline.ErrBaselineMissing):
				missing = append(missing, t)
			case err != nil:
				return 0, nil, fmt.Errorf("tick %d: %w", t, err)
			case v == nil:
				return 0, nil, fmt.Errorf("tick %d: dropped as old", t)
			case int(h.Seq) != t || !reflect.DeepEqual(*v, worldAt(t)):
				return 0, nil, fmt.Errorf("tick %d: got %d %+v", t, h.Seq, *v)
			default:
				decoded++
			}
		}
		in := frames.Input{Full: r.NeedFull()}
		if ack, has := r.Ack(); has {
			in.Ack = bitwire.Some(ack)
		}
		if withhold {
			in.Ack = frozen
		} else {
			frozen = in.Ack
		}
		if err := c.WriteMessage(&in); err != nil {
			return 0, nil, err
		}
	}
	if _, err := c.ReadMessage(); !errors.Is(err, io.EOF) {
		return 0, nil, fmt.Errorf("after the last tick: %v, want the end", err)
	}
	return decoded, missing, nil
}

func TestSnapshotsOnTypedConnections(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sent := make(chan []sentSnapshot, 1)
	srv := &bwnet.Server{
		Messages: func() bitwire.MessageSet { return new(frames.Messages) },
		Handler:  func(_ context.Context, c *bwnet.Conn) error { return serveWorld(c, sent) },
		OnError:  func(_ *bwnet.Conn, err error) { t.Errorf("server: %v", err) },
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx, ln) }()

	decoded, missing, err := runWorldClient(ctx, ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	log := <-sent
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}

	if len(log) != snapshotTicks {
		t.Fatalf("%d snapshots sent", len(log))
	}
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
		if got := log[c.tick].header.Back; got != c.back {
			t.Errorf("snapshot %d: back %d, want %d (%s)", c.tick, got, c.back, c.why)
		}
	}
	if len(missing) != 1 || missing[0] != 80 || decoded != snapshotTicks-4-1 {
		t.Errorf("decoded %d, missing %v", decoded, missing)
	}
	if log[2].size*4 >= log[0].size {
		t.Errorf("a delta of three moved entities is %d bytes, the full world %d", log[2].size, log[0].size)
	}
}

// Reading an envelope into a reused Messages set copies it into the same array: no
// allocation once the set has grown; writing one appends its bytes.
func TestEnvelopesReadWithoutAllocating(t *testing.T) {
	s := baseline.NewSender(worldCodec, baseline.DefaultRing)
	data, _, err := s.Encode(nil, worldAt(0))
	if err != nil {
		t.Fatal(err)
	}
	frame := bitwire.Frame{ID: frames.WorldMessageID, Data: data}
	var set frames.Messages
	read := func() {
		if _, err := bitwire.DecodeFrameMessage(frame, &set, bitwire.DefaultLimits()); err != nil {
			t.Fatal(err)
		}
	}
	if allocs := testing.AllocsPerRun(100, read); allocs != 0 {
		t.Errorf("%v allocations per envelope read", allocs)
	}
	if !bytes.Equal(set.World.Data, data) {
		t.Errorf("read % x, sent % x", set.World.Data, data)
	}
	out, err := set.World.AppendTo([]byte{0xee})
	if err != nil || !bytes.Equal(out[1:], data) {
		t.Errorf("AppendTo: % x, %v", out, err)
	}
	// Through NewMessage and DecodeMessage, a new envelope each time.
	m, err := frames.DecodeMessage(frames.WorldMessageID, data)
	if env, ok := m.(*frames.WorldEnvelope); err != nil || !ok || !bytes.Equal(env.Data, data) {
		t.Errorf("DecodeMessage: %#v, %v", m, err)
	}
	// Fewer bytes than a header, either way: Truncated at bit 0.
	var short frames.WorldEnvelope
	for _, err := range []error{
		bitwire.DecodePacked([]byte{1, 2}, &short),
		short.DecodeWithLimits([]byte{1}, bitwire.DefaultLimits()),
		func() error { _, err := short.AppendTo(nil); return err }(),
		func() error { _, err := bitwire.AppendPacked(nil, &short); return err }(),
	} {
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Kind != bitwire.Truncated || e.Bit != 0 {
			t.Errorf("a short envelope: %v, want Truncated at bit 0", err)
		}
	}
	if _, err := short.Header(); !errors.Is(err, baseline.ErrTruncated) {
		t.Errorf("Header of an empty envelope: %v", err)
	}
}
