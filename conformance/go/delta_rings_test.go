package conformance

import (
	"math/rand"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/deltaworld"
	"github.com/bitwire-dev/bitwire/conformance/go/generated/registry"
	"github.com/bitwire-dev/bitwire/conformance/go/internal/harness"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
)

// step returns the next tick of a deltaworld snapshot, in new slices (the sender's
// ring keeps the old one): a fifth of the entities move, and now and then one leaves
// and one joins.
func step(r gen, prev *deltaworld.Snapshot) *deltaworld.Snapshot {
	next := &deltaworld.Snapshot{Tick: prev.Tick + 1}
	for _, e := range prev.Entities {
		switch {
		case r.chance(0.02):
			continue
		case r.chance(0.2):
			e.Pos.X += float32(r.float(-1, 1))
			e.Yaw = float32(r.float(0, 360))
		}
		next.Entities = append(next.Entities, e)
	}
	if r.chance(0.3) {
		id := uint16(r.Intn(4096))
		i := 0
		for i < len(next.Entities) && next.Entities[i].ID < id {
			i++
		}
		if i == len(next.Entities) || next.Entities[i].ID != id {
			e := deltaworld.Entity{ID: id, Name: r.str(8), Health: 100}
			next.Entities = append(next.Entities[:i], append([]deltaworld.Entity{e}, next.Entities[i:]...)...)
		}
	}
	return next
}

// The generated delta codecs in the snapshot rings of runtime/go/baseline: a sender
// and a receiver over 200 ticks, with acknowledgements withheld now and then, give the
// receiver every snapshot as the full codec would.
func TestDeltaThroughTheSnapshotRings(t *testing.T) {
	codec := baseline.Codec[deltaworld.Snapshot]{
		Append:      (*deltaworld.Snapshot).AppendTo,
		AppendDelta: (*deltaworld.Snapshot).AppendDelta,
		Decode:      (*deltaworld.Snapshot).DecodeWithLimits,
		DecodeDelta: (*deltaworld.Snapshot).DecodeDeltaWithLimits,
	}
	c, _ := harness.Find(registry.All(), "deltaworld", "Snapshot")
	sender := baseline.NewSender(codec, 8)
	receiver := baseline.NewReceiver(codec, 8)
	r := gen{rand.New(rand.NewSource(11))}
	cur, _ := snapshot(r, 60)
	var buf []byte
	deltas, full := 0, 0
	for tick := 0; tick < 200; tick++ {
		cur = step(r, cur)
		out, h, err := sender.Encode(buf[:0], *cur)
		if err != nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
		buf = out
		if h.Back == 0 {
			full++
		} else {
			deltas++
		}
		_, got, err := receiver.Decode(buf)
		if err != nil || got == nil {
			t.Fatalf("tick %d: %v", tick, err)
		}
		want, _ := fullNormalize(c, cur)
		if jsonOf(got) != want {
			t.Fatalf("tick %d (back %d): got %s, want %s", tick, h.Back, jsonOf(got), want)
		}
		if ack, ok := receiver.Ack(); ok && !r.chance(0.3) {
			if err := sender.Ack(ack); err != nil {
				t.Fatal(err)
			}
		}
	}
	if deltas < 150 || full == 0 {
		t.Fatalf("%d deltas, %d full snapshots", deltas, full)
	}
}
