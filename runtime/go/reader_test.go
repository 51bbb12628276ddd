package bitwire

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestReaderNibbleCase(t *testing.T) {
	r := NewBitReader([]byte{0x4b, 0x96})
	b, _ := r.ReadBool()
	v1, _ := r.ReadBits(4)
	v2, _ := r.ReadBits(2)
	v3, err := r.ReadBits(9)
	if !b || v1 != 5 || v2 != 2 || v3 != 300 || err != nil {
		t.Fatalf("got %v %d %d %d %v", b, v1, v2, v3, err)
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
}

func TestReadsWhatTheWriterWroteAtEveryAlignment(t *testing.T) {
	values := []struct {
		v uint64
		n uint
	}{{1, 1}, {0xABC, 12}, {math.MaxUint64, 64}, {0x7F, 7}, {0, 0}, {0x123456789, 37}}
	for lead := uint(0); lead < 8; lead++ {
		w := NewBitWriter(nil)
		w.WriteBits(0, lead)
		for _, x := range values {
			w.WriteBits(x.v, x.n)
		}
		r := NewBitReader(w.Finish())
		if _, err := r.ReadBits(lead); err != nil {
			t.Fatal(err)
		}
		for _, x := range values {
			if got, err := r.ReadBits(x.n); got != x.v || err != nil {
				t.Fatalf("lead %d, %d bits: got %#x, %v", lead, x.n, got, err)
			}
		}
		if err := r.Finish(); err != nil {
			t.Fatalf("lead %d: %v", lead, err)
		}
	}
}

func wantErr(t *testing.T, err error, kind Kind, bit uint64) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Kind != kind || e.Bit != bit {
		t.Fatalf("got %v, want %v at bit %d", err, kind, bit)
	}
	if !errors.Is(err, ErrBitwire) || !errors.Is(err, kind.Sentinel()) {
		t.Fatalf("%v does not match its sentinels", err)
	}
}

func TestTruncationPaddingAndTrailingData(t *testing.T) {
	r := NewBitReader([]byte{0xff})
	_, err := r.ReadBits(9)
	wantErr(t, err, Truncated, 0)

	r = NewBitReader([]byte{0b11})
	r.ReadBits(1)
	wantErr(t, r.Finish(), InvalidPadding, 1)

	r = NewBitReader([]byte{1, 0})
	r.ReadBits(1)
	wantErr(t, r.Finish(), TrailingData, 8)

	r = NewBitReader(nil)
	if err := r.Finish(); err != nil {
		t.Fatalf("empty value from empty input: %v", err)
	}
}

func TestChunkReportsTheFirstFieldPastTheEnd(t *testing.T) {
	r := NewBitReader([]byte{0xff, 0x01})
	c := r.ReadChunk(24)
	if v, err := c.Get(0, 8); v != 0xff || err != nil {
		t.Fatalf("got %#x %v", v, err)
	}
	if v, _ := c.Get(8, 1); v != 1 {
		t.Fatal("bit 8")
	}
	_, err := c.Get(12, 8)
	wantErr(t, err, Truncated, 12)
	if r.BitPos() != 16 || c.Avail != 16 {
		t.Fatalf("pos %d avail %d", r.BitPos(), c.Avail)
	}
	err = c.Truncated([]RunField{{0, 8, []string{"a"}}, {8, 4, []string{"b"}}, {12, 12, []string{"pos", "c"}}})
	wantErr(t, err, Truncated, 12)
	if p := err.(*Error).Path; p != "pos.c" {
		t.Fatalf("path %q", p)
	}
	if d := err.(*Error).Detail; d != (Bits{12, 4}) {
		t.Fatalf("detail %v", d)
	}
}

func TestLengthChecksRunBeforeAllocation(t *testing.T) {
	r := NewBitReader(make([]byte, 4))
	if n, err := r.CheckLen(4, 8, 1, 0); n != 4 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	_, err := r.CheckLen(5, 8, 1, 3)
	wantErr(t, err, Truncated, 3)
	if d := err.(*Error).Detail; d != (Bits{40, 32}) {
		t.Fatalf("detail %v", d)
	}
	_, err = r.CheckLen(math.MaxUint64, 8, 1, 0)
	wantErr(t, err, Truncated, 0)
}

func TestInvalidUTF8IsReportedAtTheString(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(1, 3)
	w.WriteBytes([]byte{0xff})
	r := NewBitReader(w.Finish())
	r.ReadBits(3)
	_, err := r.ReadString(1, 3, "")
	wantErr(t, err, InvalidUtf8, 3)
}

func TestReadStringReusesAnEqualOldValue(t *testing.T) {
	data := []byte("name")
	old := "name"
	long := strings.Repeat("héllo wörld ", 10)
	w := NewBitWriter(nil)
	w.WriteBits(1, 1)
	w.WriteString(long)
	unaligned := w.Finish()
	allocs := testing.AllocsPerRun(100, func() {
		r := NewBitReader(data)
		s, err := r.ReadString(4, 0, old)
		if err != nil || s != old {
			t.Fatal(s, err)
		}
		r = NewBitReader(unaligned)
		r.ReadBits(1)
		s, err = r.ReadString(len(long), 0, long)
		if err != nil || s != long {
			t.Fatal(s, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
	// A new long unaligned string is one allocation of its bytes.
	allocs = testing.AllocsPerRun(100, func() {
		r := NewBitReader(unaligned)
		r.ReadBits(1)
		if s, err := r.ReadString(len(long), 0, ""); err != nil || s != long {
			t.Fatal(s, err)
		}
	})
	if allocs != 1 {
		t.Fatalf("%v allocations for a new string", allocs)
	}
}

func TestFloatsAndChunkErrors(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteInt(-3, 4)
	w.WriteF32(float32(math.NaN()))
	w.WriteF64(math.Copysign(0, -1))
	w.WriteBits(Quantize(0.5, 0, 1, 255), 8)
	buf := w.Finish()

	r := NewBitReader(buf)
	if v, _ := r.ReadBits(4); SignExtend(v, 4) != -3 {
		t.Fatal("int")
	}
	if f, err := r.ReadF32(); f == f || err != nil {
		t.Fatal("nan", err)
	}
	if f, _ := r.ReadF64(); math.Float64bits(f) != 1<<63 {
		t.Fatal("-0.0")
	}
	if q, _ := r.ReadBits(8); Dequantize(q, 0, 1, 255) != 128.0/255.0 {
		t.Fatal("quantized", q)
	}
	r = NewBitReader(buf)
	c := r.ReadChunk(36)
	err := c.StepsError(4, 13, 12)
	wantErr(t, err, OutOfRange, 4)
	if err.Error() != "bitwire: OutOfRange at bit 4: stored 13 above the last step 12" {
		t.Fatal(err)
	}
	err = c.BoundedError(0, 1<<63+20, -10, 5)
	if d := err.(*Error).Detail.String(); d != "9223372036854775818 not in -10..=5" {
		t.Fatal(d)
	}
	err = c.BoundedUintError(0, math.MaxUint64, 7, 9)
	if d := err.(*Error).Detail.String(); d != "18446744073709551622 not in 7..=9" {
		t.Fatal(d)
	}
	wantErr(t, c.EnumError(2, 9), InvalidEnum, 2)
}

func TestNonCanonicalNaNIsReportedAtTheValue(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(0, 3)
	w.WriteBits(0x7FC00001, 32)
	buf := w.Finish()
	r := NewBitReader(buf)
	r.ReadBits(3)
	_, err := r.ReadF32()
	wantErr(t, err, NonCanonical, 3)
	r = NewBitReader(buf)
	r.ReadBits(3)
	c := r.ReadChunk(32)
	_, err = F32FromWire(c.Bits(0, 32), c.Start)
	wantErr(t, err, NonCanonical, 3)
	if _, err := F64FromWire(0xFFF8000000000000, 0); !errors.Is(err, ErrNonCanonical) {
		t.Fatal(err)
	}
}

func TestQuantizationRoundTripsOnTheGrid(t *testing.T) {
	min, max, steps := -1024.0, 1024.0, uint64(65535)
	for _, q := range []uint64{0, 1, 2, 32767, 32768, 65534, 65535} {
		v := Dequantize(q, min, max, steps)
		if got := Quantize(v, min, max, steps); got != q {
			t.Fatalf("q %d → %v → %d", q, v, got)
		}
		if got := Quantize(float64(float32(v)), min, max, steps); got != q {
			t.Fatalf("q %d as f32 → %d", q, got)
		}
	}
	// q == steps is max itself, never one ulp above.
	if Dequantize(255, -0.9, 0.1, 255) != 0.1 {
		t.Fatal("q == steps must be max")
	}
}

func TestLengthPrefixedValues(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(1, 3)
	w.WriteBits(3, 5)
	w.WriteString("abc")
	w.WriteVarint(2, 64)
	w.WriteBytes([]byte{7, 8})
	w.WriteBits(20, 5)
	buf := w.Finish()

	r := NewBitReader(buf)
	r.ReadBits(3)
	n, err := r.ReadLenMax(5, 16, 8, 1)
	if err != nil || n != 3 {
		t.Fatal(n, err)
	}
	if s, err := r.ReadString(n, 3, ""); s != "abc" || err != nil {
		t.Fatal(s, err)
	}
	n, err = r.ReadVarLen(8, 1)
	if err != nil || n != 2 {
		t.Fatal(n, err)
	}
	if b, err := r.ReadRawBytes(n, nil); len(b) != 2 || b[1] != 8 || err != nil {
		t.Fatal(b, err)
	}
	_, err = r.ReadLenMax(5, 16, 1, 1)
	wantErr(t, err, InvalidLength, 3+5+24+5+16)
	if d := err.(*Error).Detail; d != (Length{20, 16}) {
		t.Fatalf("detail %v", d)
	}

	r = NewBitReader(buf)
	r.ReadBits(3)
	_, err = r.ReadLenMax(5, 2, 8, 1)
	wantErr(t, err, InvalidLength, 3)

	r = NewBitReader(buf)
	r.ReadBits(3)
	_, err = r.ReadLen(5, 64, 8)
	wantErr(t, err, Truncated, 3)

	if s := Resize([]int{1, 2, 3}, 2); len(s) != 2 || cap(s) != 3 {
		t.Fatal("Resize must reuse capacity")
	}
}

func TestByteArraysFailAtTheFirstIncompleteElement(t *testing.T) {
	for lead := uint(0); lead < 8; lead++ {
		w := NewBitWriter(nil)
		w.WriteBits(0, lead)
		w.WriteBytes([]byte{1, 2, 3})
		r := NewBitReader(w.Finish())
		r.ReadBits(lead)
		err := r.ReadByteArray(make([]byte, 4))
		wantErr(t, err, Truncated, uint64(lead)+24)
		if p := err.(*Error).Path; p != "[3]" {
			t.Fatalf("lead %d: path %q", lead, p)
		}
	}
}
