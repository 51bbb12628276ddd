package bitwire

import (
	"bytes"
	"errors"
	"testing"
)

// The nibble / bitproto case of spec §10: {bool 1, u4 5, u2 2, u9 300} → 4b 96.
func TestWriterNibbleCase(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBool(true)
	w.WriteBits(5, 4)
	w.WriteBits(2, 2)
	w.WriteBits(300, 9)
	if w.BitPos() != 16 {
		t.Fatalf("BitPos = %d, want 16", w.BitPos())
	}
	if got := w.Finish(); !bytes.Equal(got, []byte{0x4b, 0x96}) {
		t.Fatalf("got % x, want 4b 96", got)
	}
}

func TestWriterWordsStraddleTheAccumulator(t *testing.T) {
	w := NewBitWriter([]byte{0xAA})
	w.WriteBool(true)
	w.WriteBits(0x0102030405060708, 64)
	w.WriteBits(^uint64(0), 64)
	w.WriteBits(0, 0)
	if w.BitPos() != 129 {
		t.Fatalf("BitPos = %d, want 129", w.BitPos())
	}
	got := w.Finish()
	if len(got) != 18 || got[0] != 0xAA {
		t.Fatalf("got % x: existing contents must be kept", got)
	}
	// 0x0102030405060708 shifted up one bit after the leading 1.
	want := []byte{0xAA, 0x11, 0x0e, 0x0c, 0x0a, 0x08, 0x06, 0x04, 0x02, 0xfe}
	if !bytes.Equal(got[:10], want) {
		t.Fatalf("got % x, want prefix % x", got, want)
	}
}

func TestWriteBytesAndStringsAtEveryAlignment(t *testing.T) {
	data := []byte("héllo wörld, long enough to need words")
	for lead := uint(0); lead < 8; lead++ {
		w := NewBitWriter(nil)
		w.WriteBits(0, lead)
		w.WriteBytes(data)
		w.WriteString(string(data))
		buf := w.Finish()
		r := NewBitReader(buf)
		if _, err := r.ReadBits(lead); err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadRawBytes(len(data), nil)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("lead %d: bytes %q, %v", lead, got, err)
		}
		s, err := r.ReadString(len(data), 0, "")
		if err != nil || s != string(data) {
			t.Fatalf("lead %d: string %q, %v", lead, s, err)
		}
	}
}

func TestCheckStringRejectsInvalidUTF8(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(0, 3)
	if err := w.CheckString("ok é", 5); err != nil {
		t.Fatal(err)
	}
	err := w.CheckString("bad \xff", 5)
	if !errors.Is(err, ErrInvalidUtf8) || err.(*Error).Bit != 8 {
		t.Fatalf("got %v", err)
	}
}

func TestTwosComplementAndSignExtend(t *testing.T) {
	cases := []struct {
		v int64
		n uint
		w uint64
	}{{-3, 4, 0xd}, {-16, 5, 0x10}, {7, 4, 7}, {-1, 64, ^uint64(0)}, {-2048, 12, 0x800}}
	for _, c := range cases {
		if got := TwosComplement(c.v, c.n); got != c.w {
			t.Errorf("TwosComplement(%d, %d) = %#x, want %#x", c.v, c.n, got, c.w)
		}
		if got := SignExtend(c.w, c.n); got != c.v {
			t.Errorf("SignExtend(%#x, %d) = %d, want %d", c.w, c.n, got, c.v)
		}
	}
}

func TestAppendPackedRollsBack(t *testing.T) {
	dst := []byte{0xEE}
	out, err := AppendPacked(dst, &small{flag: true, n: 5})
	if err != nil || !bytes.Equal(out, []byte{0xEE, 0x0B}) {
		t.Fatalf("got % x, %v", out, err)
	}
	out2, err := AppendPacked(out, &small{flag: true, n: 16})
	if !errors.Is(err, ErrOutOfRange) || len(out2) != 2 {
		t.Fatalf("failed encode must return dst unchanged: % x, %v", out2, err)
	}
	var s small
	if err := DecodePacked([]byte{0x0B}, &s); err != nil || s != (small{flag: true, n: 5}) {
		t.Fatalf("decoded %+v, %v", s, err)
	}
	if err := DecodePacked([]byte{0x2B}, &s); !errors.Is(err, ErrInvalidPadding) {
		t.Fatalf("got %v", err)
	}
	if err := DecodePacked([]byte{0x0B, 0}, &s); !errors.Is(err, ErrTrailingData) {
		t.Fatalf("got %v", err)
	}
}

// small is a hand-written {flag: bool, n: u4} that refuses n > 15.
type small struct {
	flag bool
	n    uint8
}

func (s *small) WritePacked(w *BitWriter) error {
	if s.n > 15 {
		return w.Error(OutOfRange, 1)
	}
	w.WriteBits(Bit(s.flag)|uint64(s.n)<<1, 5)
	return nil
}

func (s *small) ReadPacked(r *BitReader) error {
	c := r.ReadChunk(5)
	f, err := c.Get(0, 1)
	if err != nil {
		return err
	}
	n, err := c.Get(1, 4)
	if err != nil {
		return err
	}
	s.flag, s.n = f != 0, uint8(n)
	return nil
}

func TestEncodingAllocatesNothingIntoAReusedBuffer(t *testing.T) {
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		w := NewBitWriter(buf[:0])
		w.WriteBits(0x1234, 13)
		w.WriteBits(^uint64(0), 64)
		w.WriteVarint(300, 32)
		w.WriteF32(1.5)
		buf = w.Finish()
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per encode", allocs)
	}
}
