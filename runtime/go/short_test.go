package bitwire

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// Strings of every length up to 20, ASCII, multi-byte and invalid, the bad byte at
// every position.
func sampleStrings(every bool) []string {
	out := []string{""}
	for n := 1; n <= 20; n++ {
		ascii := strings.Repeat("abcdefghij", 2)[:n]
		out = append(out, ascii)
		for i := 0; i < n; i++ {
			if !every && i != 0 && i != n/2 && i != n-1 {
				continue
			}
			b := []byte(ascii)
			b[i] = 0xff
			out = append(out, string(b))
			b[i] = 0x80
			out = append(out, string(b))
		}
		if n >= 2 {
			out = append(out, "é"+ascii[2:])
			out = append(out, ascii[:n-2]+"é")
			out = append(out, ascii[:n-1]+"\xc3") // a cut sequence at the end
		}
	}
	return out
}

func TestLoadShortAndValidity(t *testing.T) {
	for _, s := range sampleStrings(true) {
		if len(s) <= 8 {
			var want uint64
			for i := 0; i < len(s); i++ {
				want |= uint64(s[i]) << (8 * i)
			}
			if got := loadShort(s); got != want {
				t.Errorf("loadShort(%q) = %#x, want %#x", s, got, want)
			}
		}
		if got, want := validString(s), utf8.ValidString(s); got != want {
			t.Errorf("validString(%q) = %v, want %v", s, got, want)
		}
		if got, want := validBytes([]byte(s)), utf8.ValidString(s); got != want {
			t.Errorf("validBytes(%q) = %v, want %v", s, got, want)
		}
	}
}

// oldWrite is how generated code wrote a string before WriteLenString.
func oldWrite(w *BitWriter, s string, n uint) error {
	if err := w.CheckString(s, 0); err != nil {
		return err
	}
	w.WriteBits(uint64(len(s)), n)
	w.WriteString(s)
	return nil
}

// oldRead is how generated code read a string before ReadStringMax.
func oldRead(r *BitReader, n uint, max uint64, old string) (string, error) {
	start := r.BitPos()
	l, err := r.ReadLenMax(n, max, 8, 1)
	if err != nil {
		return "", err
	}
	return r.ReadString(l, start, old)
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// WriteLenString writes the bytes and returns the errors of the calls it replaces,
// at every bit offset, for prefixes of 5 and 9 bits.
func TestWriteLenStringIsTheOldSequence(t *testing.T) {
	for _, n := range []uint{5, 9} {
		for lead := uint(0); lead < 8; lead++ {
			for _, s := range sampleStrings(true) {
				a, b := NewBitWriter(nil), NewBitWriter(nil)
				a.WriteBits(1<<lead-1, lead)
				b.WriteBits(1<<lead-1, lead)
				errA, errB := a.WriteLenString(s, n), oldWrite(&b, s, n)
				if errText(errA) != errText(errB) {
					t.Fatalf("n %d lead %d %q: error %v, before %v", n, lead, s, errA, errB)
				}
				if errA == nil && !bytes.Equal(a.Finish(), b.Finish()) {
					t.Fatalf("n %d lead %d %q: different bytes", n, lead, s)
				}
			}
		}
	}
}

// ReadStringMax returns what ReadLenMax and ReadString returned, error, position
// and budget included, on every input cut short, with lengths above the bound,
// invalid UTF-8, old values equal or not, and a small budget.
func TestReadStringMaxIsTheOldSequence(t *testing.T) {
	for _, n := range []uint{5, 9} {
		for lead := uint(0); lead < 8; lead++ {
			for _, s := range sampleStrings(false) {
				w := NewBitWriter(nil)
				w.WriteBits(1<<lead-1, lead)
				w.WriteBits(uint64(len(s)), n)
				w.WriteString(s)
				w.WriteBits(0x2a5, 10)
				// Eight more bytes: the one-load path runs wherever the input is cut.
				w.WriteBits(0x0123456789abcdef, 64)
				full := w.Finish()
				for cut := 0; cut <= len(full); cut++ {
					for _, max := range []uint64{uint64(len(s)), uint64(len(s)) - 1, 1<<n - 1} {
						for _, limits := range []Limits{DefaultLimits(), {Base: 20}} {
							for _, old := range []string{"", s, "x" + s} {
								compareReads(t, full[:cut], lead, n, max, limits, old)
							}
						}
					}
				}
			}
		}
	}
}

func compareReads(t *testing.T, in []byte, lead, n uint, max uint64, limits Limits, old string) {
	t.Helper()
	a, b := NewBitReaderWithLimits(in, limits), NewBitReaderWithLimits(in, limits)
	if _, err := a.ReadBits(lead); err != nil {
		return
	}
	_, _ = b.ReadBits(lead)
	gotA, errA := a.ReadStringMax(n, max, old)
	gotB, errB := oldRead(&b, n, max, old)
	what := fmt.Sprintf("in % x lead %d n %d max %d budget %d old %q", in, lead, n, max, limits.Base, old)
	if errText(errA) != errText(errB) {
		t.Fatalf("%s: error %v, before %v", what, errA, errB)
	}
	if errA != nil {
		return
	}
	if gotA != gotB || a.BitPos() != b.BitPos() || a.BudgetLeft() != b.BudgetLeft() {
		t.Fatalf("%s: %q at %d budget %d, before %q at %d budget %d", what, gotA, a.BitPos(),
			a.BudgetLeft(), gotB, b.BitPos(), b.BudgetLeft())
	}
}

// The strings of a decode share the arena, and a string once returned never
// changes, however many follow it.
func TestArenaStringsAreImmutable(t *testing.T) {
	w := NewBitWriter(nil)
	w.WriteBits(1, 3) // every string unaligned
	var want []string
	for i := 0; i < 200; i++ {
		s := strings.Repeat(string(rune('a'+i%26)), 1+i%40)
		want = append(want, s)
		if err := w.WriteLenString(s, 6); err != nil {
			t.Fatal(err)
		}
	}
	in := w.Finish()
	r := NewBitReader(in)
	_, _ = r.ReadBits(3)
	var got []string
	for range want {
		s, err := r.ReadStringMax(6, 63, "")
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, s)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d is %q after the others were read, want %q", i, got[i], want[i])
		}
	}
	// 200 strings of 1 to 40 bytes (4,100 bytes): a few blocks, not 200 allocations.
	allocs := testing.AllocsPerRun(10, func() {
		r := NewBitReader(in)
		_, _ = r.ReadBits(3)
		for range want {
			if _, err := r.ReadStringMax(6, 63, ""); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs > 25 {
		t.Fatalf("%v allocations for 200 short strings", allocs)
	}
}
