package bitwire

import (
	"errors"
	"math/bits"
	"math/rand"
	"testing"
)

// diffBits writes one scalar delta and returns the bits it took and the bytes.
func diffBits(base, value uint64, width uint) (uint64, []byte) {
	w := NewBitWriter(nil)
	w.WriteScalarDelta(base, value, width, uint(bits.Len64(uint64(width-1))))
	n := w.BitPos()
	return n, w.Finish()
}

func TestScalarDeltaCostsWhatSpec12_4Says(t *testing.T) {
	// Unchanged: the changed bit alone. A bool flips in no bits after it.
	if n, _ := diffBits(5, 5, 8); n != 1 {
		t.Fatalf("unchanged: %d bits", n)
	}
	if n, _ := diffBits(0, 1, 1); n != 1 {
		t.Fatalf("bool flip: %d bits", n)
	}
	// A u32 tick that advanced by one: 5 length bits and 1 bit of z = 2.
	if n, _ := diffBits(41, 42, 32); n != 1+6 {
		t.Fatalf("tick+1: %d bits", n)
	}
	// No scalar costs more than w + bits_for(w-1) - 1 after its changed bit.
	for _, width := range []uint{1, 2, 3, 7, 8, 31, 32, 33, 63, 64} {
		max := uint64(width) + uint64(bits.Len64(uint64(width-1))) - 1
		mask := widthMask(width)
		for _, pair := range [][2]uint64{{0, mask}, {mask, 0}, {0, 1 << (width - 1)}, {1 << (width - 1), 0}} {
			if pair[0] == pair[1] {
				continue
			}
			if n, _ := diffBits(pair[0], pair[1], width); n-1 > max {
				t.Errorf("width %d %x→%x: %d bits, at most %d", width, pair[0], pair[1], n-1, max)
			}
		}
	}
	// The bytes of one code: u8 from 10 to 7, d = -3, z = 5 = 0b101: changed bit 1,
	// n-1 = 2 in 3 bits (0b010), then the low bits 0b01.
	if _, b := diffBits(10, 7, 8); len(b) != 1 || b[0] != 0b0_01_010_1 {
		t.Fatalf("u8 10→7: %08b", b)
	}
}

func TestScalarDeltaRoundTripsEveryWidth(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	for width := uint(1); width <= 64; width++ {
		prefix := uint(bits.Len64(uint64(width - 1)))
		mask := widthMask(width)
		for i := 0; i < 200; i++ {
			base, value := rng.Uint64()&mask, rng.Uint64()&mask
			if i%5 == 0 {
				value = (base + uint64(rng.Intn(5)) - 2) & mask
			}
			w := NewBitWriter([]byte{0xEE})
			w.WriteBits(1, 3) // a misaligned start
			w.WriteScalarDelta(base, value, width, prefix)
			end := w.BitPos()
			b := w.Finish()
			r := NewBitReader(b[1:])
			if _, err := r.ReadBits(3); err != nil {
				t.Fatal(err)
			}
			changed, _ := r.ReadBool()
			if changed != (base != value) {
				t.Fatalf("width %d: changed bit %v for %x→%x", width, changed, base, value)
			}
			if !changed {
				continue
			}
			c, err := r.ReadDiff(base, width, prefix)
			if err != nil || c.Word != value || c.Start != 4 || r.BitPos() != end {
				t.Fatalf("width %d %x→%x: got %x at %d (end %d of %d), %v", width, base, value, c.Word, c.Start, r.BitPos(), end, err)
			}
		}
	}
}

func wantDeltaErr(t *testing.T, err error, kind Kind, bit uint64) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Kind != kind || e.Bit != bit || e.Detail == nil {
		t.Fatalf("got %v, want %v at bit %d with a detail", err, kind, bit)
	}
}

func TestReadDiffRejectsLongPrefixesAndTruncation(t *testing.T) {
	// Width 3, prefix 2 bits: a length of 3 is OutOfRange at the code.
	r := NewBitReader([]byte{0b11 << 1})
	_, _ = r.ReadBool()
	_, err := r.ReadDiff(0, 3, 2)
	wantDeltaErr(t, err, OutOfRange, 1)
	// Width 64: length 63 needs 63 more bits than the byte holds.
	r = NewBitReader([]byte{63})
	_, err = r.ReadDiff(0, 64, 6)
	wantDeltaErr(t, err, Truncated, 0)
	r = NewBitReader(nil)
	_, err = r.ReadDiff(0, 8, 3)
	wantDeltaErr(t, err, Truncated, 0)
	// Width 1 has no prefix: the code is empty and flips the bit.
	r = NewBitReader(nil)
	if c, err := r.ReadDiff(1, 1, 0); err != nil || c.Word != 0 {
		t.Fatalf("bool: %v %v", c, err)
	}
}

func TestExpGolombCodes(t *testing.T) {
	// 0 is 1 bit, 1–2 are 3 bits, 3–6 are 5 bits (§12.5).
	for x, want := range map[uint64]uint64{0: 1, 1: 3, 2: 3, 3: 5, 6: 5, 7: 7, 1<<62 - 1: 125, 1<<64 - 2: 127} {
		w := NewBitWriter(nil)
		w.WriteExpGolomb(x)
		if w.BitPos() != want {
			t.Errorf("%d: %d bits, want %d", x, w.BitPos(), want)
		}
		b := w.Finish()
		r := NewBitReader(b)
		if got, err := r.ReadExpGolomb(MaxGolombZeros); err != nil || got != x || r.BitPos() != want {
			t.Errorf("%d: read %d at %d, %v", x, got, r.BitPos(), err)
		}
	}
	// 3 = 00 1 00: zeros first, then the one, then x + 1 - 4 = 0.
	w := NewBitWriter(nil)
	w.WriteExpGolomb(3)
	if b := w.Finish(); b[0] != 0b100 {
		t.Fatalf("3: %08b", b[0])
	}
	// Too many zeros: OutOfRange at the code when the input holds them, else
	// Truncated.
	r := NewBitReader([]byte{0x01, 0})
	_, _ = r.ReadBool()
	_, err := r.ReadExpGolomb(3)
	wantDeltaErr(t, err, OutOfRange, 1)
	r = NewBitReader([]byte{0})
	_, err = r.ReadExpGolomb(63)
	wantDeltaErr(t, err, Truncated, 0)
	r = NewBitReader([]byte{0b1000_0000})
	_, err = r.ReadExpGolomb(63)
	wantDeltaErr(t, err, Truncated, 0)
}

func TestGapAndAddedCountChecks(t *testing.T) {
	// left 2: at most bits_for(3) - 1 = 1 zero, and a gap of at most 2.
	w := NewBitWriter(nil)
	w.WriteExpGolomb(3)
	r := NewBitReader(w.Finish())
	_, err := r.ReadGap(2)
	wantDeltaErr(t, err, OutOfRange, 0)
	w = NewBitWriter(nil)
	w.WriteExpGolomb(2)
	w.WriteExpGolomb(1)
	r = NewBitReader(w.Finish())
	if g, err := r.ReadGap(2); err != nil || g != 2 {
		t.Fatalf("gap 2: %d %v", g, err)
	}
	_, err = r.ReadGap(0 + 0 + 1 - 0) // gap 1 with 1 left
	if err != nil {
		t.Fatal(err)
	}
	// Added count: kept + a above max is InvalidLength at the count.
	w = NewBitWriter(nil)
	w.WriteBits(0, 2)
	w.WriteExpGolomb(3)
	b := append(w.Finish(), 0)
	r = NewBitReader(b)
	_, _ = r.ReadBits(2)
	_, err = r.ReadAdded(2, 4, true, 1, 8)
	wantDeltaErr(t, err, InvalidLength, 2)
	// Elements that cannot fit in the input: Truncated at the count.
	r = NewBitReader(b)
	_, _ = r.ReadBits(2)
	_, err = r.ReadAdded(2, 0, false, 4, 8)
	wantDeltaErr(t, err, Truncated, 2)
	// Over the budget: LimitExceeded at the count; within it, charged.
	r = NewBitReaderWithLimits(b, Limits{Base: 100})
	_, _ = r.ReadBits(2)
	_, err = r.ReadAdded(5, 0, false, 1, 16)
	wantDeltaErr(t, err, LimitExceeded, 2)
	r = NewBitReaderWithLimits(b, Limits{Base: 1000})
	_, _ = r.ReadBits(2)
	if a, err := r.ReadAdded(5, 8, true, 1, 16); err != nil || a != 3 || r.BudgetLeft() != 1000-(8*16+32) {
		t.Fatalf("added: %d %v, budget %d", a, err, r.BudgetLeft())
	}
}

func TestDeltaErrorMessages(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{UnchangedError(9, "struct"), "bitwire: NonCanonical at bit 9: the struct changes nothing"},
		{keyError(0, KeyOrder{Key: IntOf(-3), Prev: IntOf(4)}), "bitwire: InvalidKey at bit 0: key -3 is not above 4"},
		{keyError(7, KeyOrder{Key: UintOf(3), InBaseline: true}), "bitwire: InvalidKey at bit 7: added key 3 is in the baseline"},
		{detailed(OutOfRange, 1, DiffLength{3, 3}), "bitwire: OutOfRange at bit 1: difference length 3, at most 2 for 3 bits"},
		{detailed(OutOfRange, 0, Gap{3, 2}), "bitwire: OutOfRange at bit 0: gap of 3, 2 left in the baseline"},
	}
	for _, c := range cases {
		if c.err.Error() != c.want {
			t.Errorf("got %q, want %q", c.err.Error(), c.want)
		}
		if !errors.Is(c.err, ErrBitwire) {
			t.Errorf("%v does not match ErrBitwire", c.err)
		}
	}
	if !errors.Is(keyError(0, KeyOrder{}), ErrInvalidKey) || InvalidKey.String() != "InvalidKey" {
		t.Fatal("InvalidKey sentinel or name")
	}
}
