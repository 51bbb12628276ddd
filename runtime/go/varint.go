package bitwire

import "math/bits"

// GroupBits is the number of value bits per varint group (spec §5.4; the shape
// measured smallest for the lengths and ids games send).
const GroupBits = 4

// WriteVarint writes v as a prefix varint of a width-bit type (16, 32 or 64; spec
// §5.4): n-1 one bits, a zero bit unless n is the longest form, then v in 4n bits.
// v must fit in width bits.
func (w *BitWriter) WriteVarint(v uint64, width uint) {
	gmax := width / GroupBits
	n := uint(bits.Len64(v)+GroupBits-1) / GroupBits
	if n == 0 {
		n = 1
	}
	prefix := uint64(1)<<(n-1) - 1
	pbits := n
	if n == gmax {
		// The longest form drops its terminating zero.
		pbits = n - 1
	}
	if total := pbits + n*GroupBits; total <= 64 {
		w.WriteBits(prefix|v<<pbits, total)
		return
	}
	w.WriteBits(prefix, pbits)
	w.WriteBits(v, n*GroupBits)
}

// ReadVarint reads a prefix varint of a width-bit type (16, 32 or 64). A truncated
// varint is Truncated and a non-minimal one (a shorter form exists) NonCanonical,
// both at the varint's first bit.
func (r *BitReader) ReadVarint(width uint) (uint64, error) {
	start := r.pos
	gmax := width / GroupBits
	// The prefix is the run of one bits at the bottom of the next word; bits past
	// the end read as zero, which only makes the total below exceed what is left.
	ones := uint(bits.TrailingZeros64(^r.peek(start)))
	pbits := ones + 1
	if ones >= gmax-1 {
		ones = gmax - 1
		pbits = ones
	}
	n := ones + 1
	total := pbits + n*GroupBits
	if uint64(total) > r.RemainingBits() {
		return 0, detailed(Truncated, start, Bits{uint64(total), r.RemainingBits()})
	}
	v := r.peek(start + uint64(pbits))
	if n < 16 {
		v &= 1<<(n*GroupBits) - 1
	}
	r.pos += uint64(total)
	if n > 1 && v>>((n-1)*GroupBits) == 0 {
		return 0, nonMinimalError(start, v, n)
	}
	return v, nil
}

// nonMinimalError returns NonCanonical at start for the value v of a varint
// written in n groups where fewer suffice (§5.4).
//
//go:noinline
func nonMinimalError(start, v uint64, n uint) error {
	min := (uint64(bits.Len64(v)) + GroupBits - 1) / GroupBits
	if min == 0 {
		min = 1
	}
	return detailed(NonCanonical, start, NonMinimal{v, uint64(n), min})
}

// ZigzagEncode maps a signed varint value to unsigned (§5.4): 0, -1, 1, -2 become
// 0, 1, 2, 3.
func ZigzagEncode(v int64) uint64 {
	return uint64(v<<1) ^ uint64(v>>63)
}

// ZigzagDecode is the inverse of ZigzagEncode.
func ZigzagDecode(u uint64) int64 {
	return int64(u>>1) ^ -int64(u&1)
}
