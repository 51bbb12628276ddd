package bitwire

import (
	"errors"
	"math"
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
	err = c.Truncated([]RunField{{0, 8, "a"}, {8, 4, "b"}, {12, 12, "c"}})
	wantErr(t, err, Truncated, 12)
	if p := err.(*Error).Path; p != "c" {
		t.Fatalf("path %q", p)
	}
}

func TestLengthChecksRunBeforeAllocation(t *testing.T) {
	r := NewBitReader(make([]byte, 4))
	if n, err := r.CheckLen(4, 8, 0); n != 4 || err != nil {
		t.Fatalf("%d %v", n, err)
	}
	_, err := r.CheckLen(5, 8, 3)
	wantErr(t, err, Truncated, 3)
	_, err = r.CheckLen(math.MaxUint64, 8, 0)
	wantErr(t, err, Truncated, 0)
}

func TestInvalidUTF8IsReportedAtTheString(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(1, 3)
	w.WriteBytes([]byte{0xff})
	r := NewBitReader(w.Finish())
	r.ReadBits(3)
	_, err := r.readStringBytes(1, 3, "")
	wantErr(t, err, InvalidUtf8, 3)
}

func TestReadStringReusesAnEqualOldValue(t *testing.T) {
	data := []byte("name")
	old := "name"
	allocs := testing.AllocsPerRun(100, func() {
		r := NewBitReader(data)
		s, err := r.readStringBytes(4, 0, old)
		if err != nil || s != old {
			t.Fatal(s, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations", allocs)
	}
}

func TestFloatsAndQuantized(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteInt(-3, 4)
	w.WriteF32(float32(math.NaN()))
	w.WriteF64(math.Copysign(0, -1))
	q, _ := w.Quantize(0.5, 0, 1, 255, 0)
	w.WriteBits(q, 8)
	buf := w.Finish()

	r := NewBitReader(buf)
	if v, _ := r.ReadInt(4); v != -3 {
		t.Fatal("int")
	}
	if f, err := r.ReadF32(); f == f || err != nil {
		t.Fatal("nan", err)
	}
	if f, _ := r.ReadF64(); math.Float64bits(f) != 1<<63 {
		t.Fatal("-0.0")
	}
	if f, _ := r.ReadQuantized(8, 0, 1, 255); f != 128.0/255.0 {
		t.Fatal("quantized", f)
	}
	r = NewBitReader(buf)
	c := r.ReadChunk(36)
	if v, _ := c.GetInt(0, 4); v != -3 {
		t.Fatal("chunk int")
	}
	_, err := c.GetQuantized(0, 4, 0, 1, 12)
	wantErr(t, err, OutOfRange, 0)
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
	_, err = r.ReadChunk(32).GetF32(0)
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
	if s, err := r.ReadString(5, 16, ""); s != "abc" || err != nil {
		t.Fatal(s, err)
	}
	if b, err := r.ReadVarBytes(nil); len(b) != 2 || b[1] != 8 || err != nil {
		t.Fatal(b, err)
	}
	_, err := r.ReadLen(5, 16, 1)
	wantErr(t, err, InvalidLength, 3+5+24+5+16)

	r = NewBitReader(buf)
	r.ReadBits(3)
	_, err = r.ReadString(5, 2, "")
	wantErr(t, err, InvalidLength, 3)

	r = NewBitReader(buf)
	r.ReadBits(3)
	_, err = r.ReadLen(5, 16, 64)
	wantErr(t, err, Truncated, 3)

	r = NewBitReader([]byte{0b1000})
	_, err = r.ReadBounded(4, 7)
	wantErr(t, err, OutOfRange, 0)
	if s := Resize([]int{1, 2, 3}, 2); len(s) != 2 || cap(s) != 3 {
		t.Fatal("Resize must reuse capacity")
	}
}
