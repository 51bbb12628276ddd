package baseline_test

import (
	"encoding/binary"
	"errors"
	"testing"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/baseline"
)

// tick is a second test codec, one that allocates nothing: a uint32 whose delta is
// its difference (for the allocation and wrap-around tests).
type tick uint32

var tickCodec = baseline.Codec[tick]{
	Append: func(v *tick, dst []byte) ([]byte, error) {
		return binary.LittleEndian.AppendUint32(dst, uint32(*v)), nil
	},
	AppendDelta: func(v *tick, dst []byte, base *tick) ([]byte, error) {
		return binary.LittleEndian.AppendUint32(dst, uint32(*v-*base)), nil
	},
	Decode: func(v *tick, data []byte, _ bitwire.Limits) error {
		if len(data) != 4 {
			return bitwire.NewError(bitwire.Truncated, 0)
		}
		*v = tick(binary.LittleEndian.Uint32(data))
		return nil
	},
	DecodeDelta: func(v, base *tick, data []byte, _ bitwire.Limits) error {
		if len(data) != 4 {
			return bitwire.NewError(bitwire.Truncated, 0)
		}
		*v = *base + tick(binary.LittleEndian.Uint32(data))
		return nil
	},
}

func TestSerialArithmetic(t *testing.T) {
	for _, c := range []struct {
		a, b  uint16
		newer bool
	}{{1, 0, true}, {0, 0xffff, true}, {0x7fff, 0, true}, {0x8000, 0, false}, {5, 5, false}, {0xffff, 0, false}} {
		if got := baseline.SeqNewer(c.a, c.b); got != c.newer {
			t.Errorf("SeqNewer(%d, %d) = %v", c.a, c.b, got)
		}
	}
}

// 70,000 snapshots: the sequence numbers wrap, the deltas stay right.
func TestSequenceNumbersWrap(t *testing.T) {
	s := baseline.NewSender(tickCodec, 8)
	r := baseline.NewReceiver(tickCodec, 8)
	var buf []byte
	for i := uint32(0); i < 70_000; i++ {
		var h baseline.Header
		var err error
		buf, h, err = s.Encode(buf[:0], tick(i*7))
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && h.Back != uint8(1+(i-1)%3) {
			t.Fatalf("snapshot %d: back %d", i, h.Back)
		}
		got, v, err := r.Decode(buf)
		if err != nil || v == nil || got.Seq != uint16(i) || *v != tick(i*7) {
			t.Fatalf("snapshot %d: %+v %v %v", i, got, v, err)
		}
		if i%3 == 0 {
			ack, _ := r.Ack()
			if err := s.Ack(ack); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestErrorsMatchTheirKind(t *testing.T) {
	r := baseline.NewReceiver(tickCodec, 4)
	_, _, err := r.Decode([]byte{5, 0, 9})
	if !errors.Is(err, baseline.ErrBaselineStale) || !errors.Is(err, baseline.ErrSnapshot) ||
		!errors.Is(err, bitwire.ErrBitwire) || errors.Is(err, baseline.ErrBaselineMissing) {
		t.Errorf("stale: %v", err)
	}
	if want := "bitwire: snapshot BaselineStale: snapshot 5 is a delta against 65532, 9 back; the ring holds 4"; err.Error() != want {
		t.Errorf("message %q", err)
	}
	_, _, err = r.Decode([]byte{5, 0, 0, 1})
	var pe *bitwire.Error
	if !errors.Is(err, baseline.ErrMessage) || !errors.As(err, &pe) || pe.Kind != bitwire.Truncated {
		t.Errorf("message: %v", err)
	}
	if !r.NeedFull() {
		t.Error("an error sets NeedFull")
	}
	s := baseline.NewSender(tickCodec, 4)
	if err := s.Ack(0); !errors.Is(err, baseline.ErrAckNotSent) {
		t.Errorf("ack: %v", err)
	}
}

// A full ring: the oldest slot is the baseline at Back = N, and then leaves.
func TestRingHoldsN(t *testing.T) {
	r := baseline.NewReceiver(tickCodec, 3)
	for seq := byte(0); seq < 10; seq++ {
		if _, _, err := r.Decode([]byte{seq, 0, 0, seq, 0, 0, 0}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := r.Decode([]byte{10, 0, 4, 0, 0, 0, 0}); !errors.Is(err, baseline.ErrBaselineStale) {
		t.Errorf("back 4: %v", err)
	}
	_, v, err := r.Decode([]byte{10, 0, 3, 1, 0, 0, 0})
	if err != nil || *v != 8 {
		t.Errorf("back 3: %v %v", v, err)
	}
	if seq, latest := r.Latest(); seq != 10 || latest != v {
		t.Errorf("latest %d %v", seq, latest)
	}
}

// Encoding and decoding allocate nothing once the buffer has grown (with a codec that
// allocates nothing itself).
func TestNoAllocations(t *testing.T) {
	s := baseline.NewSender(tickCodec, baseline.DefaultRing)
	r := baseline.NewReceiver(tickCodec, baseline.DefaultRing)
	buf := make([]byte, 0, 64)
	n := tick(0)
	allocs := testing.AllocsPerRun(1000, func() {
		n++
		var err error
		buf, _, err = s.Encode(buf[:0], n)
		if err != nil {
			t.Fatal(err)
		}
		if _, v, err := r.Decode(buf); err != nil || *v != n {
			t.Fatal(v, err)
		}
		ack, _ := r.Ack()
		if err := s.Ack(ack); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per snapshot", allocs)
	}
}

// Random packets: every outcome is typed, and decoding keeps the receiver's invariants.
func TestRandomPackets(t *testing.T) {
	x := uint32(0x2545f491)
	next := func() uint32 {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		return x
	}
	r := baseline.NewReceiver(tickCodec, 4)
	var decoded, failed, dropped int
	for i := uint32(0); i < 50_000; i++ {
		packet := make([]byte, next()%8)
		for j := range packet {
			packet[j] = byte(next())
		}
		if len(packet) >= 3 {
			// Numbers around a counter and small backs, so that every outcome happens.
			seq := uint16(i + next()%4)
			packet[0], packet[1], packet[2] = byte(seq), byte(seq>>8), packet[2]%6
		}
		before, had := r.Ack()
		h, v, err := r.Decode(packet)
		ack, has := r.Ack()
		switch {
		case err != nil:
			failed++
			var e *baseline.Error
			if !errors.As(err, &e) || !r.NeedFull() || ack != before || has != had {
				t.Fatalf("%x: %v, need full %v", packet, err, r.NeedFull())
			}
		case v == nil:
			dropped++
			if ack != before || has != had {
				t.Fatalf("%x: dropped but the ack moved", packet)
			}
		default:
			decoded++
			if !has || ack != h.Seq || r.NeedFull() || (had && !baseline.SeqNewer(h.Seq, before)) {
				t.Fatalf("%x: decoded %d after %d", packet, h.Seq, before)
			}
		}
	}
	if decoded < 100 || failed < 100 || dropped < 100 {
		t.Errorf("decoded %d, failed %d, dropped %d", decoded, failed, dropped)
	}
}
