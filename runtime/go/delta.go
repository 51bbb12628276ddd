package bitwire

import (
	"math"
	"math/bits"
	"unicode/utf8"
)

// The codes of the delta encoding (spec §12): the difference code of a changed
// scalar (§12.4) and the Exp-Golomb code of a keyed list's gaps and added count
// (§12.5). Generated code of a `delta message` calls these; keyed.go walks keyed
// lists with them.

// widthMask returns the mask of the low width bits (width 1 to 64).
func widthMask(width uint) uint64 {
	return ^uint64(0) >> (64 - width)
}

// WriteScalarDelta writes a scalar's changed bit and, when base and value differ,
// its difference code (§12.4): base and value are the wire values (below 2^width,
// width 1 to 64) and prefixBits is bits_for(width - 1), as the codec plan gives it.
// The code is the zigzag of value - base in width bits, z, as the length n - 1 of z
// in prefixBits bits and then the n - 1 bits of z below its top bit.
func (w *BitWriter) WriteScalarDelta(base, value uint64, width, prefixBits uint) {
	if base == value {
		w.WriteBits(0, 1)
		return
	}
	mask := widthMask(width)
	d := (value - base) & mask
	// Zigzag in width bits: the sign is bit width-1 of d.
	z := (d<<1 ^ -(d >> (width - 1) & 1)) & mask
	m := uint(bits.Len64(z)) - 1
	low := z & (1<<m - 1)
	// The changed bit, the length and the low bits: one write when they fit a word.
	if total := 1 + prefixBits + m; total <= 64 {
		w.WriteBits(1|uint64(m)<<1|low<<(1+prefixBits), total)
		return
	}
	w.WriteBits(1|uint64(m)<<1, 1+prefixBits)
	w.WriteBits(low, m)
}

// ReadDiff reads a difference code (§12.4) of a scalar of width bits (1 to 64) whose
// baseline wire value is base, and returns the new wire value as a chunk at the
// code's first bit, for the checks the full decoder applies to a scalar read there
// (the chunk's Word is the value, its Avail the width). A length prefix of width or
// more is OutOfRange, and a code the input ends inside is Truncated, both at the
// code's first bit.
func (r *BitReader) ReadDiff(base uint64, width, prefixBits uint) (Chunk, error) {
	start := r.pos
	left := r.RemainingBits()
	if uint64(prefixBits) > left {
		return Chunk{}, detailed(Truncated, start, Bits{uint64(prefixBits), left})
	}
	head := r.peek(start)
	m := head & (1<<prefixBits - 1)
	if m >= uint64(width) {
		return Chunk{}, detailed(OutOfRange, start, DiffLength{m, uint64(width)})
	}
	need := uint64(prefixBits) + m
	if need > left {
		return Chunk{}, detailed(Truncated, start, Bits{need, left})
	}
	var low uint64
	if need <= 64 {
		low = head >> prefixBits
	} else {
		low = r.peek(start + uint64(prefixBits))
	}
	low &= 1<<m - 1
	r.pos = start + need
	z := 1<<m | low
	s := z>>1 ^ -(z & 1)
	return Chunk{Word: (base + s) & widthMask(width), Avail: width, Start: start}, nil
}

// WriteExpGolomb writes x (below 2^64 - 1) in the Exp-Golomb code of §12.5: with
// k = bits_for(x + 1) - 1, k zero bits, a one bit, then x + 1 - 2^k in k bits.
func (w *BitWriter) WriteExpGolomb(x uint64) {
	y := x + 1
	k := uint(bits.Len64(y)) - 1
	// In stream order: k zeros, the one bit (bit k), y's k low bits (from bit k+1).
	if 2*k+1 <= 64 {
		w.WriteBits((1|(y&(1<<k-1))<<1)<<k, 2*k+1)
		return
	}
	w.WriteBits(0, k)
	w.WriteBits(1, 1)
	w.WriteBits(y&(1<<k-1), k)
}

// ReadExpGolomb reads an Exp-Golomb code (§12.5) of at most maxZeros (at most 63)
// leading zero bits. More zeros are OutOfRange, and a code the input ends inside
// Truncated, both at the code's first bit.
func (r *BitReader) ReadExpGolomb(maxZeros uint) (uint64, error) {
	start := r.pos
	left := r.RemainingBits()
	// Bits past the end read as zero, so a code cut inside its zeros shows as
	// more zeros than the input holds.
	k := uint(bits.TrailingZeros64(r.peek(start)))
	if k > maxZeros {
		if uint64(maxZeros)+1 > left {
			return 0, detailed(Truncated, start, Bits{uint64(maxZeros) + 1, left})
		}
		return 0, detailed(OutOfRange, start, GolombZeros{uint64(maxZeros) + 1, uint64(maxZeros)})
	}
	need := 2*uint64(k) + 1
	if need > left {
		return 0, detailed(Truncated, start, Bits{need, left})
	}
	low := r.peek(start+uint64(k)+1) & (1<<k - 1)
	r.pos = start + need
	return (1<<k | low) - 1, nil
}

// ReadGap reads the gap code of a keyed list delta (§12.5) when left elements of
// the baseline are still to be walked (left at least 1): at most bits_for(left + 1)
// - 1 leading zeros, and a gap of at most left, else OutOfRange at the code.
func (r *BitReader) ReadGap(left int) (int, error) {
	start := r.pos
	max := uint64(left)
	g, err := r.ReadExpGolomb(uint(bits.Len64(max+1)) - 1)
	if err != nil {
		return 0, err
	}
	if g > max {
		return 0, detailed(OutOfRange, start, Gap{g, max})
	}
	return int(g), nil
}

// MaxGolombZeros is the most leading zeros of an added count's Exp-Golomb code
// (§12.5).
const MaxGolombZeros = 63

// ReadAdded reads the added count of a keyed list delta (§12.5) after kept elements
// of the baseline were kept, and checks the decoded list of kept + count elements
// before anything is allocated, in this order, at the count's first bit: more than
// max elements (when hasMax) is InvalidLength; count elements of at least minBits
// bits each that do not fit in the rest of the input are Truncated; the list's
// charge of (kept + count) × perElem plus AllocationOverhead (nothing for an empty
// list) above the budget left is LimitExceeded (§12.8), else it is taken from the
// budget; a length that does not fit an int is LimitExceeded.
func (r *BitReader) ReadAdded(kept int, max uint64, hasMax bool, minBits, perElem uint64) (int, error) {
	start := r.pos
	a, err := r.ReadExpGolomb(MaxGolombZeros)
	if err != nil {
		return 0, err
	}
	k := uint64(kept)
	if hasMax && (k > max || a > max-k) {
		total, carry := bits.Add64(k, a, 0)
		if carry != 0 {
			total = math.MaxUint64
		}
		return 0, LengthError(start, total, max)
	}
	left := r.RemainingBits()
	if hi, need := bits.Mul64(a, minBits); hi != 0 || need > left {
		return 0, lenTruncated(a, minBits, left, start)
	}
	// a is now below the input's bit count, so kept + a does not overflow.
	n := k + a
	if cost := charge(n, perElem); cost > r.budget {
		return 0, detailed(LimitExceeded, start, Budget{cost, r.budget})
	} else {
		r.budget -= cost
	}
	if n > math.MaxInt {
		return 0, detailed(LimitExceeded, start, Length{n, math.MaxInt})
	}
	return int(a), nil
}

// UnchangedError returns NonCanonical at bit for a part of a delta that changes
// nothing (§12.6): a nested struct or an array whose changed bits are all zero, a
// keyed list delta with no event and no added element, or a replacement equal to
// the baseline. what names the part ("struct", "array", "keyed list",
// "replacement").
//
//go:noinline
func UnchangedError(bit uint64, what string) error {
	return detailed(NonCanonical, bit, Unchanged{what})
}

// CheckUTF8 returns InvalidUtf8 at bit unless s is valid UTF-8: the full encoder's
// check of a string (§5.6), which the delta encoder makes on the baseline's and the
// value's strings before comparing them (§12.7).
func CheckUTF8(s string, bit uint64) error {
	if !utf8.ValidString(s) {
		return utf8Error(bit, []byte(s), 0, uint64(len(s)))
	}
	return nil
}

// DiffLength is the detail of a difference code (§12.4) whose length prefix Len
// is not below the scalar's Width.
type DiffLength struct {
	Len, Width uint64
}

// GolombZeros is the detail of an Exp-Golomb code (§12.5) with at least Zeros
// leading zero bits where at most Max are allowed.
type GolombZeros struct {
	Zeros, Max uint64
}

// Gap is the detail of a keyed list delta's gap (§12.5) of Gap unchanged elements
// where only Left elements of the baseline remain.
type Gap struct {
	Gap, Left uint64
}

// Unchanged is the detail of a part of a delta that changes nothing (§12.6); What
// names the part.
type Unchanged struct {
	What string
}

// KeyOrder is the detail of an InvalidKey error (§12.7): Key is not above Prev, the
// key before it in the list (or among the added elements); or, with InBaseline,
// Key is an added element's key that the baseline already has.
type KeyOrder struct {
	Key, Prev  Int
	InBaseline bool
}

func (DiffLength) isDetail()  {}
func (GolombZeros) isDetail() {}
func (Gap) isDetail()         {}
func (Unchanged) isDetail()   {}
func (KeyOrder) isDetail()    {}

func (d DiffLength) String() string {
	return "difference length " + u(d.Len) + ", at most " + u(d.Width-1) + " for " +
		count(d.Width, "bit")
}

func (d GolombZeros) String() string {
	return "Exp-Golomb code with " + u(d.Zeros) + " leading zeros, at most " + u(d.Max)
}

func (d Gap) String() string {
	return "gap of " + u(d.Gap) + ", " + u(d.Left) + " left in the baseline"
}

func (d Unchanged) String() string {
	return "the " + d.What + " changes nothing"
}

func (d KeyOrder) String() string {
	if d.InBaseline {
		return "added key " + d.Key.String() + " is in the baseline"
	}
	return "key " + d.Key.String() + " is not above " + d.Prev.String()
}
