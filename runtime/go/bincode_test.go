package bitwire

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"
)

// The bytes bincode::serialize (1.3.3) and wincode (0.6.3) write for these Rust
// values (/work/notes/bincode-research.md §1.2, observed with both crates).
func TestWriterBytesAreBincodes(t *testing.T) {
	cases := []struct {
		write func(w *ByteWriter)
		want  string
	}{
		{func(w *ByteWriter) { w.WriteU8(0xAB) }, "ab"},
		{func(w *ByteWriter) { w.WriteU16(0x1234) }, "34 12"},
		{func(w *ByteWriter) { w.WriteU32(0x12345678) }, "78 56 34 12"},
		{func(w *ByteWriter) { w.WriteU64(300) }, "2c 01 00 00 00 00 00 00"},
		{func(w *ByteWriter) { w.WriteI8(-1) }, "ff"},
		{func(w *ByteWriter) { w.WriteI16(-2) }, "fe ff"},
		{func(w *ByteWriter) { w.WriteI32(-2) }, "fe ff ff ff"},
		{func(w *ByteWriter) { w.WriteI64(-2) }, "fe ff ff ff ff ff ff ff"},
		{func(w *ByteWriter) { w.WriteBool(false); w.WriteBool(true) }, "00 01"},
		{func(w *ByteWriter) { w.WriteF32(1.5) }, "00 00 c0 3f"},
		{func(w *ByteWriter) { w.WriteF32(float32(math.Copysign(0, -1))) }, "00 00 00 80"},
		{func(w *ByteWriter) { w.WriteF32(math.Float32frombits(0x7fc00001)) }, "01 00 c0 7f"},
		{func(w *ByteWriter) { w.WriteF64(1.5) }, "00 00 00 00 00 00 f8 3f"},
		{func(w *ByteWriter) { w.WriteF64(math.Inf(-1)) }, "00 00 00 00 00 00 f0 ff"},
		// Some(7u16), None::<u16>
		{func(w *ByteWriter) { w.WriteBool(true); w.WriteU16(7); w.WriteBool(false) }, "01 07 00 00"},
		{func(w *ByteWriter) { w.WriteString("hi") }, "02 00 00 00 00 00 00 00 68 69"},
		{func(w *ByteWriter) { w.WriteString("") }, "00 00 00 00 00 00 00 00"},
		{func(w *ByteWriter) { w.WriteBytes([]byte{1, 2, 3}) }, "03 00 00 00 00 00 00 00 01 02 03"},
		// [1u16, 2, 3]: no length.
		{func(w *ByteWriter) { WriteLanes(w, []uint16{1, 2, 3}) }, "01 00 02 00 03 00"},
		// vec![1u16, 2]
		{func(w *ByteWriter) { w.WriteLen(2); WriteLanes(w, []uint16{1, 2}) }, "02 00 00 00 00 00 00 00 01 00 02 00"},
		// Event::Kill { killer: 1, victim: 2 } (variant index 1)
		{func(w *ByteWriter) { w.WriteU32(1); w.WriteU32(1); w.WriteU32(2) }, "01 00 00 00 01 00 00 00 02 00 00 00"},
		{func(w *ByteWriter) { w.WriteRaw([]byte{9, 8}) }, "09 08"},
	}
	for i, c := range cases {
		w := NewByteWriter([]byte{0xEE})
		c.write(&w)
		if got, want := w.Bytes(), append([]byte{0xEE}, unhex(t, c.want)...); !bytes.Equal(got, want) {
			t.Errorf("case %d: wrote % x, want % x", i, got, want)
		}
	}
}

func TestReaderReadsBackWhatTheWriterWrote(t *testing.T) {
	w := NewByteWriter(nil)
	w.WriteU8(0xAB)
	w.WriteI16(-5)
	w.WriteU32(0xDEADBEEF)
	w.WriteI64(math.MinInt64)
	w.WriteBool(true)
	w.WriteF32(math.Float32frombits(0x7fc00001))
	w.WriteF64(math.Float64frombits(0xfff0000000000001))
	w.WriteString("héllo")
	w.WriteBytes([]byte{7, 7})
	r := NewByteReader(w.Bytes())
	u8, _ := r.ReadU8()
	i16, _ := r.ReadI16()
	u32, _ := r.ReadU32()
	i64, _ := r.ReadI64()
	b, _ := r.ReadBool()
	f32, _ := r.ReadF32()
	f64, _ := r.ReadF64()
	start := r.BitPos()
	n, _ := r.ReadLen(1, 1)
	s, _ := r.ReadString(n, start, "")
	n, _ = r.ReadLen(1, 1)
	raw, err := r.ReadBytes(n, nil)
	if err != nil || u8 != 0xAB || i16 != -5 || u32 != 0xDEADBEEF || i64 != math.MinInt64 || !b ||
		math.Float32bits(f32) != 0x7fc00001 || math.Float64bits(f64) != 0xfff0000000000001 ||
		s != "héllo" || !bytes.Equal(raw, []byte{7, 7}) {
		t.Fatalf("read %x %d %x %d %v %x %x %q % x %v", u8, i16, u32, i64, b,
			math.Float32bits(f32), math.Float64bits(f64), s, raw, err)
	}
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
}

func TestScalarChecksFailAtTheValue(t *testing.T) {
	// Two bytes of something else first: errors are at bit 16.
	pre := []byte{0, 0}
	read := func(b string) ByteReader {
		r := NewByteReader(append(pre, unhex(t, b)...))
		r.pos = 2
		return r
	}
	r := read("02")
	_, err := r.ReadBool()
	wantErr(t, err, OutOfRange, 16)
	r = read("02")
	_, err = r.ReadOptionTag()
	wantErr(t, err, InvalidEnum, 16)
	r = read("03 00 00 00")
	_, err = r.ReadIndex(3)
	wantErr(t, err, InvalidEnum, 16)
	r = read("02 00 00 00")
	if v, err := r.ReadIndex(3); v != 2 || err != nil {
		t.Fatalf("index 2 of 3: %d, %v", v, err)
	}
	r = read("10")
	_, err = r.ReadUintIn(1, 0, 15) // a u4 holding 16
	wantErr(t, err, OutOfRange, 16)
	r = read("e8 03")
	if v, err := r.ReadUintIn(2, 0, 1000); v != 1000 || err != nil {
		t.Fatalf("u16 in 0..=1000 holding 1000: %d, %v", v, err)
	}
	r = read("fb ff")
	if v, err := r.ReadIntIn(2, -2048, 2047); v != -5 || err != nil {
		t.Fatalf("i12 -5: %d, %v", v, err)
	}
	r = read("ff f7")
	_, err = r.ReadIntIn(2, -2048, 2047) // -2049
	wantErr(t, err, OutOfRange, 16)
	r = read("00 00 c0 7f")
	_, err = r.ReadF32In(-1, 1) // NaN
	wantErr(t, err, OutOfRange, 16)
	r = read("00 00 00 00 00 00 f0 3f")
	if v, err := r.ReadF64In(-1, 1); v != 1 || err != nil {
		t.Fatalf("1.0 in -1..=1: %v, %v", v, err)
	}
	r = read("00 00 00 00 00 00 00 40")
	_, err = r.ReadF64In(-1, 1)
	wantErr(t, err, OutOfRange, 16)
	// Truncated at the value's first byte, whatever its width.
	for _, size := range []int{1, 2, 4, 8} {
		r = read(strings.Repeat("00", size-1))
		_, err = r.ReadUintIn(size, 0, 1)
		wantErr(t, err, Truncated, 16)
	}
}

func TestLengthChecksInTheSpecsOrder(t *testing.T) {
	le := func(n uint64, tail int) []byte {
		b := NewByteWriter(nil)
		b.WriteU64(n)
		b.WriteRaw(make([]byte, tail))
		return b.Bytes()
	}
	// Above the bound first, even when it would also be truncated.
	r := NewByteReader(le(5, 0))
	_, err := r.ReadLenMax(4, 1, 1)
	wantErr(t, err, InvalidLength, 0)
	// Then the bytes left: 3 u64 need 24 bytes, 23 are there.
	r = NewByteReader(le(3, 23))
	_, err = r.ReadLen(8, 8)
	wantErr(t, err, Truncated, 0)
	// A lying length near 2^64 is Truncated, not an allocation.
	r = NewByteReader(le(math.MaxUint64, 3))
	_, err = r.ReadLen(8, 8)
	wantErr(t, err, Truncated, 0)
	// Then the budget: 4 elements charged 100 bytes each are 432 with the overhead.
	r = NewByteReaderWithLimits(le(4, 4), Limits{Base: 431})
	_, err = r.ReadLen(1, 100)
	wantErr(t, err, LimitExceeded, 0)
	r = NewByteReaderWithLimits(le(4, 4), Limits{Base: 432})
	if n, err := r.ReadLen(1, 100); n != 4 || err != nil || r.BudgetLeft() != 0 {
		t.Fatalf("exactly the budget: %d, %v, %d left", n, err, r.BudgetLeft())
	}
	// An empty sequence costs nothing.
	r = NewByteReaderWithLimits(le(0, 0), Limits{})
	if n, err := r.ReadLen(8, 8); n != 0 || err != nil {
		t.Fatalf("empty: %d, %v", n, err)
	}
	// The length itself cut short.
	r = NewByteReader([]byte{1, 0, 0})
	_, err = r.ReadLen(1, 1)
	wantErr(t, err, Truncated, 0)
}

func TestStringsAndBytesReuseWhatTheyCan(t *testing.T) {
	w := NewByteWriter(nil)
	w.WriteString("same old")
	wire := w.Bytes()
	old := strings.Clone("same old")
	allocs := testing.AllocsPerRun(100, func() {
		r := NewByteReader(wire)
		n, _ := r.ReadLen(1, 1)
		s, err := r.ReadString(n, 0, old)
		if err != nil || s != old {
			t.Fatal(s, err)
		}
	})
	if allocs != 0 {
		t.Fatalf("decoding an unchanged string allocates %v times", allocs)
	}
	// Not UTF-8: InvalidUtf8 at the length, the string's first byte.
	w = NewByteWriter([]byte{0})
	w.WriteString("a\xffb")
	r := NewByteReader(w.Bytes())
	r.pos = 1
	n, _ := r.ReadLen(1, 1)
	_, err := r.ReadString(n, 8, "")
	wantErr(t, err, InvalidUtf8, 8)
	r.pos = 9
	wantErr(t, r.SkipString(n, 8), InvalidUtf8, 8)

	dst := make([]byte, 0, 16)
	r = NewByteReader([]byte{1, 2, 3})
	got, err := r.ReadBytes(3, dst[:0])
	if err != nil || !bytes.Equal(got, []byte{1, 2, 3}) || &got[0] != &dst[:1][0] {
		t.Fatalf("bytes into a reused slice: % x, %v", got, err)
	}
	_, err = NewByteReaderPtr([]byte{1}).ReadBytes(2, nil)
	wantErr(t, err, Truncated, 0)
}

// NewByteReaderPtr is NewByteReader on the heap, for one-line tests.
func NewByteReaderPtr(b []byte) *ByteReader {
	r := NewByteReader(b)
	return &r
}

func TestArraysFailAtTheFirstMissingElement(t *testing.T) {
	r := NewByteReader([]byte{9, 1, 2})
	r.pos = 1
	err := r.ReadByteArray(make([]byte, 4))
	wantErr(t, err, Truncated, 24)
	if e := (*Error)(nil); !errors.As(err, &e) || e.Path != "[2]" {
		t.Fatalf("path of %v", err)
	}
	r.pos = 1
	wantErr(t, r.SkipArray(4, 1), Truncated, 24)
	// u32 elements: 7 bytes left after the first byte hold one element and 3 bytes
	// of the second, which fails at byte 1 + 4.
	r = NewByteReader(make([]byte, 8))
	r.pos = 1
	err = ReadLaneArray(&r, make([]uint32, 3))
	wantErr(t, err, Truncated, 40)
	if e := (*Error)(nil); !errors.As(err, &e) || e.Path != "[1]" {
		t.Fatalf("path of %v", err)
	}
	r.pos = 1
	wantErr(t, r.SkipArray(3, 4), Truncated, 40)
	r.pos = 1
	a := make([]byte, 7)
	if err := r.ReadByteArray(a); err != nil || r.Finish() != nil {
		t.Fatalf("a whole array: %v", err)
	}
}

func TestTrailingBytesAreRejected(t *testing.T) {
	r := NewByteReader([]byte{1, 2, 3})
	r.ReadU8()
	err := r.Finish()
	wantErr(t, err, TrailingData, 8)
	var e *Error
	if !errors.As(err, &e) || e.Detail != (Trailing{3, 1}) {
		t.Fatalf("detail of %v", err)
	}
	r = NewByteReader(nil)
	if err := r.Finish(); err != nil {
		t.Fatalf("an empty value from empty input: %v", err)
	}
}

func TestWriterChecksReportWhereTheValueWouldStart(t *testing.T) {
	w := NewByteWriter([]byte{1, 2, 3}) // what the caller had is not counted
	w.WriteU16(0)
	wantErr(t, w.CheckUint(16, 0, 15), OutOfRange, 16)
	wantErr(t, w.CheckUint(4, 5, 10), OutOfRange, 16)
	wantErr(t, w.CheckInt(-101, -100, 100), OutOfRange, 16)
	wantErr(t, w.CheckFloat(math.NaN(), 0, 1), OutOfRange, 16)
	wantErr(t, w.CheckFloat(1.5, 0, 1), OutOfRange, 16)
	wantErr(t, w.CheckLen(5, 4), InvalidLength, 16)
	wantErr(t, w.CheckString("\xc3"), InvalidUtf8, 16)
	if w.CheckUint(15, 0, 15) != nil || w.CheckInt(-100, -100, 100) != nil ||
		w.CheckFloat(1, 0, 1) != nil || w.CheckLen(4, 4) != nil || w.CheckString("é") != nil {
		t.Fatal("a check rejected a value at its limit")
	}
}

// pair is a hand-written Bincode type: a u16 and a string.
type pair struct {
	a uint16
	s string
}

func (p *pair) WriteBincode(w *ByteWriter) error {
	w.WriteU16(p.a)
	if err := w.CheckString(p.s); err != nil {
		return InField(err, "s")
	}
	w.WriteString(p.s)
	return nil
}

func (p *pair) ReadBincode(r *ByteReader) error {
	a, err := r.ReadU16()
	if err != nil {
		return InField(err, "a")
	}
	start := r.BitPos()
	n, err := r.ReadLen(1, 1)
	if err != nil {
		return InField(err, "s")
	}
	s, err := r.ReadString(n, start, p.s)
	if err != nil {
		return InField(err, "s")
	}
	p.a, p.s = a, s
	return nil
}

func TestTopLevelHelpers(t *testing.T) {
	out, err := AppendBincode([]byte{0xAA}, &pair{0x0102, "x"})
	if err != nil || !bytes.Equal(out, unhex(t, "aa 02 01 01 00 00 00 00 00 00 00 78")) {
		t.Fatalf("% x, %v", out, err)
	}
	dst := []byte{0xAA}
	if out, err := AppendBincode(dst, &pair{1, "\xff"}); err == nil || !bytes.Equal(out, dst) {
		t.Fatalf("a failed append gave % x, %v", out, err)
	}
	var p pair
	if err := DecodeBincode(out[1:], &p); err != nil || p != (pair{0x0102, "x"}) {
		t.Fatalf("%+v, %v", p, err)
	}
	wantErr(t, DecodeBincode(append(out[1:], 0), &p), TrailingData, 88)
	err = DecodeBincodeWithLimits(out[1:], &p, Limits{Base: 32})
	wantErr(t, err, LimitExceeded, 16)
	if e := (*Error)(nil); !errors.As(err, &e) || e.Path != "s" {
		t.Fatalf("path of %v", err)
	}
}

// JSON's "NaN" is the canonical NaN, as in every other runtime: the bincode
// encoding writes a NaN's bits as they are, and bincode writes Rust's f64::NAN as
// 00 00 00 00 00 00 f8 7f (math.NaN() would be 01 00 … f8 7f).
func TestJSONNaNIsTheCanonicalNaN(t *testing.T) {
	v, err := JSONF64("NaN")
	if err != nil || math.Float64bits(v) != CanonicalNaN64 {
		t.Fatalf("%x, %v", math.Float64bits(v), err)
	}
	f, err := JSONF32("NaN")
	if err != nil || math.Float32bits(f) != CanonicalNaN32 {
		t.Fatalf("%x, %v", math.Float32bits(f), err)
	}
}
