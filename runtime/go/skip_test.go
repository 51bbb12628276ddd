package bitwire

import (
	"fmt"
	"strings"
	"testing"
)

// sameOutcome fails unless two reads ended with the same error and position.
func sameOutcome(t *testing.T, what string, read, skip *BitReader, rerr, serr error) {
	t.Helper()
	if fmt.Sprint(rerr) != fmt.Sprint(serr) || (rerr == nil && read.BitPos() != skip.BitPos()) {
		t.Fatalf("%s: read gave %v at %d, skip %v at %d", what, rerr, read.BitPos(), serr, skip.BitPos())
	}
}

func TestSkipAgreesWithReadBits(t *testing.T) {
	data := []byte{0xff, 0x01, 0x80, 0x7e, 0x00}
	for lead := uint(0); lead <= 40; lead++ {
		for n := uint(0); n <= 64; n++ {
			r, s := NewBitReader(data), NewBitReader(data)
			_ = r.Skip(lead)
			_ = s.Skip(lead)
			_, rerr := r.ReadBits(n)
			serr := s.Skip(n)
			sameOutcome(t, fmt.Sprintf("lead %d, %d bits", lead, n), &r, &s, rerr, serr)
		}
	}
}

func TestSkipBytesAgreesWithReadingThem(t *testing.T) {
	data := []byte("0123456789abcdef0123")
	for lead := uint(0); lead < 16; lead++ {
		for n := 0; n <= len(data)+1; n++ {
			r, s := NewBitReader(data), NewBitReader(data)
			_ = r.Skip(lead)
			_ = s.Skip(lead)
			rerr := r.ReadByteArray(make([]byte, n))
			serr := s.SkipByteArray(n)
			sameOutcome(t, fmt.Sprintf("array, lead %d, %d bytes", lead, n), &r, &s, rerr, serr)
			r, s = NewBitReader(data), NewBitReader(data)
			_ = r.Skip(lead)
			_ = s.Skip(lead)
			_, rerr = r.ReadRawBytes(n, nil)
			serr = s.SkipBytes(n)
			sameOutcome(t, fmt.Sprintf("bytes, lead %d, %d bytes", lead, n), &r, &s, rerr, serr)
		}
	}
}

// readString and skipString read a string with a 9-bit length prefix (max 300) as
// generated code does: the length, then the bytes.
func readString(r *BitReader) (string, error) {
	start := r.BitPos()
	n, err := r.ReadLenMax(9, 300, 8, 1)
	if err != nil {
		return "", err
	}
	return r.ReadString(n, start, "")
}

func skipString(r *BitReader) error {
	start := r.BitPos()
	n, err := r.ReadLenMax(9, 300, 8, 1)
	if err != nil {
		return err
	}
	return r.SkipString(n, start)
}

// TestSkipStringAgreesWithReadString checks strings of every length around the
// block size, valid and broken at every place, at every alignment: the cut at a
// rune boundary must not change the verdict.
func TestSkipStringAgreesWithReadString(t *testing.T) {
	runes := []string{"a", "é", "€", "😀"}
	var texts []string
	for _, r := range runes {
		for n := 0; n < 140; n += 7 {
			texts = append(texts, strings.Repeat(r, n))
			texts = append(texts, strings.Repeat("x", n%5)+strings.Repeat(r, n))
		}
	}
	// Broken ones: a cut rune, a stray continuation byte, a bad lead byte, at
	// several places.
	for _, at := range []int{0, 1, 62, 63, 64, 65, 66, 127, 128, 129} {
		for _, bad := range []string{"\xe2\x82", "\x80", "\xff", "\xf0\x9f\x98"} {
			base := strings.Repeat("b", at)
			texts = append(texts, base+bad, base+bad+strings.Repeat("c", 70))
		}
	}
	for _, text := range texts {
		for lead := uint(0); lead < 8; lead++ {
			w := NewBitWriter(nil)
			w.WriteBits(0, lead)
			w.WriteBits(uint64(len(text)), 9)
			w.WriteString(text)
			data := w.Finish()
			r, s := NewBitReader(data), NewBitReader(data)
			_ = r.Skip(lead)
			_ = s.Skip(lead)
			_, rerr := readString(&r)
			serr := skipString(&s)
			sameOutcome(t, fmt.Sprintf("lead %d, %q", lead, text), &r, &s, rerr, serr)
			// Truncated copies, and the unbounded form.
			for _, cut := range []int{1, len(data) / 2} {
				r, s := NewBitReader(data[:len(data)-cut]), NewBitReader(data[:len(data)-cut])
				_ = r.Skip(lead)
				_ = s.Skip(lead)
				_, rerr := readString(&r)
				serr := skipString(&s)
				sameOutcome(t, fmt.Sprintf("lead %d, %q cut %d", lead, text, cut), &r, &s, rerr, serr)
			}
			w = NewBitWriter(nil)
			w.WriteBits(0, lead)
			w.WriteVarint(uint64(len(text)), 64)
			w.WriteString(text)
			data = w.Finish()
			r, s = NewBitReader(data), NewBitReader(data)
			_ = r.Skip(lead)
			_ = s.Skip(lead)
			rn, rerr := r.ReadVarLen(8, 1)
			if rerr == nil {
				_, rerr = r.ReadString(rn, 0, "")
			}
			sn, serr := s.ReadVarLen(8, 1)
			if serr == nil {
				serr = s.SkipString(sn, 0)
			}
			sameOutcome(t, fmt.Sprintf("varint, lead %d, %q", lead, text), &r, &s, rerr, serr)
		}
	}
}

func TestSkipsDoNotAllocate(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(0, 3)
	text := strings.Repeat("héllo wörld ", 20)
	w.WriteBits(uint64(len(text)), 9)
	w.WriteString(text)
	data := w.Finish()
	allocs := testing.AllocsPerRun(100, func() {
		r := NewBitReader(data)
		if err := r.Skip(3); err != nil {
			panic(err)
		}
		if err := skipString(&r); err != nil {
			panic(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocs per unaligned SkipString", allocs)
	}
}
