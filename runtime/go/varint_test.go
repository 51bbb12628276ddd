package bitwire

import (
	"bytes"
	"math"
	"testing"
)

func encodeVarint(v uint64, width uint) ([]byte, uint64) {
	w := NewBitWriter(nil)
	w.WriteVarint(v, width)
	n := w.BitPos()
	return w.Finish(), n
}

func TestVarintSizesFollowTheSpec(t *testing.T) {
	cases := []struct {
		v     uint64
		width uint
		bits  uint64
	}{
		{0, 64, 5}, {15, 64, 5}, {16, 64, 10}, {255, 64, 10}, {256, 64, 15},
		{math.MaxUint64, 64, 15 + 64}, {math.MaxUint16, 16, 3 + 16}, {math.MaxUint32, 32, 7 + 32},
	}
	for _, c := range cases {
		if _, n := encodeVarint(c.v, c.width); n != c.bits {
			t.Errorf("varint(%d, %d) is %d bits, want %d", c.v, c.width, n, c.bits)
		}
	}
	// 5 = 0b0101 after a zero bit: 0b01010 → 0x0a.
	if b, _ := encodeVarint(5, 64); !bytes.Equal(b, []byte{0x0a}) {
		t.Fatalf("got % x", b)
	}
}

func TestVarintRoundTripsAtEveryBoundary(t *testing.T) {
	for _, width := range []uint{16, 32, 64} {
		max := uint64(math.MaxUint64)
		if width < 64 {
			max = 1<<width - 1
		}
		vals := []uint64{max}
		for s := 0; s < 64; s++ {
			vals = append(vals, 1<<s, 1<<s-1)
		}
		for _, v := range vals {
			if v > max {
				continue
			}
			for lead := uint(0); lead < 8; lead++ {
				w := NewBitWriter(nil)
				w.WriteBits(0, lead)
				w.WriteVarint(v, width)
				r := NewBitReader(w.Finish())
				r.ReadBits(lead)
				got, err := r.ReadVarint(width)
				if err != nil || got != v {
					t.Fatalf("width %d lead %d: %d → %d, %v", width, lead, v, got, err)
				}
				if err := r.Finish(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func TestVarintRejectsNonMinimalAndTruncated(t *testing.T) {
	// Two groups (prefix 1, 0) holding 5.
	w := NewBitWriter(nil)
	w.WriteBits(0b01, 2)
	w.WriteBits(5, 8)
	r := NewBitReader(w.Finish())
	_, err := r.ReadVarint(64)
	wantErr(t, err, NonCanonical, 0)
	r = NewBitReader([]byte{0xff})
	_, err = r.ReadVarint(64)
	wantErr(t, err, Truncated, 0)
	r = NewBitReader([]byte{0x01})
	_, err = r.ReadVarint(64)
	wantErr(t, err, Truncated, 0)
}

func TestZigzag(t *testing.T) {
	cases := []struct {
		v int64
		u uint64
	}{{0, 0}, {-1, 1}, {1, 2}, {-2, 3}, {math.MaxInt64, math.MaxUint64 - 1}, {math.MinInt64, math.MaxUint64}}
	for _, c := range cases {
		if ZigzagEncode(c.v) != c.u || ZigzagDecode(c.u) != c.v {
			t.Errorf("zigzag %d ↔ %d", c.v, c.u)
		}
	}
}
