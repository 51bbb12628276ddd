package bitwire

import (
	"errors"
	"strings"
	"testing"
)

func TestPathsArePrependedWhileUnwinding(t *testing.T) {
	err := InField(AtIndex(InField(NewError(OutOfRange, 3), "x"), 2), "list")
	err = InField(AtIndex(AtIndex(err, 1), 0), "grid")
	e := err.(*Error)
	if e.Path != "grid[0][1].list[2].x" {
		t.Fatalf("path %q", e.Path)
	}
	if err.Error() != "bitwire: OutOfRange at bit 3, grid[0][1].list[2].x" {
		t.Fatalf("message %q", err.Error())
	}
}

func TestMessagesShowTheValueAndTheLimit(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{InField(AtIndex(InField(UintRangeError(37, 1200, 0, 1000), "health"), 3), "entities"),
			"bitwire: OutOfRange at bit 37, entities[3].health: 1200 not in 0..=1000"},
		{IntRangeError(5, -9223372036854775808, -5, 5),
			"bitwire: OutOfRange at bit 5: -9223372036854775808 not in -5..=5"},
		{FloatRangeError(0, 1.5, -1, 1), "bitwire: OutOfRange at bit 0: 1.5 not in -1..=1"},
		{LengthError(9, 17, 16), "bitwire: InvalidLength at bit 9: length 17, at most 16"},
		{EnumError(2, 7), "bitwire: InvalidEnum at bit 2: 7 is not declared"},
		{NewError(TrailingData, 64), "bitwire: TrailingData at bit 64"},
	}
	for _, c := range cases {
		if c.err.Error() != c.want {
			t.Errorf("got %q, want %q", c.err.Error(), c.want)
		}
	}
}

func TestIntHoldsEverySchemaValueExactly(t *testing.T) {
	cases := []struct {
		i    Int
		want string
	}{
		{IntOf(-9223372036854775808), "-9223372036854775808"},
		{IntOf(0), "0"},
		{UintOf(18446744073709551615), "18446744073709551615"},
		{UintOf(18446744073709551615).add(18446744073709551615), "36893488147419103230"},
		{UintOf(1 << 63).add(1 << 63), "18446744073709551616"},
		{IntOf(-10).add(3), "-7"},
		{IntOf(-10).add(10), "0"},
		{IntOf(-9223372036854775808).add(18446744073709551615), "9223372036854775807"},
	}
	for _, c := range cases {
		if got := c.i.String(); got != c.want {
			t.Errorf("got %s, want %s", got, c.want)
		}
	}
	if v, ok := IntOf(-9223372036854775808).Int64(); !ok || v != -9223372036854775808 {
		t.Error("Int64 of the smallest int64")
	}
	if _, ok := UintOf(1 << 63).Int64(); ok {
		t.Error("2^63 is not an int64")
	}
	if v, ok := UintOf(18446744073709551615).Uint64(); !ok || v != 18446744073709551615 {
		t.Error("Uint64 of the largest uint64")
	}
	if _, ok := IntOf(-1).Uint64(); ok {
		t.Error("-1 is not a uint64")
	}
}

func TestEveryKindMatchesItsSentinelAndErrBitwire(t *testing.T) {
	for k := Truncated; k <= InvalidKey; k++ {
		err := error(NewError(k, 0))
		if !errors.Is(err, k.Sentinel()) || !errors.Is(err, ErrBitwire) {
			t.Errorf("%v does not match its sentinels", k)
		}
		if !errors.Is(k.Sentinel(), ErrBitwire) {
			t.Errorf("sentinel of %v does not match ErrBitwire", k)
		}
		if got, ok := KindByName(k.String()); !ok || got != k {
			t.Errorf("KindByName(%q)", k.String())
		}
		for other := Truncated; other <= InvalidKey; other++ {
			if other != k && errors.Is(err, other.Sentinel()) {
				t.Errorf("%v matches %v", k, other)
			}
		}
	}
	if _, ok := KindByName("Nope"); ok {
		t.Fatal("unknown name")
	}
}

func TestJSONErrorsMatchTheirSentinels(t *testing.T) {
	err := InField(&JSONError{Kind: JSONOutOfRange, Msg: "x"}, "v")
	if !errors.Is(err, ErrJSON) || !errors.Is(err, ErrBitwire) || !errors.Is(err, ErrOutOfRange) {
		t.Fatal("JSON OutOfRange sentinels")
	}
	if errors.Is(err, ErrTruncated) || err.(*JSONError).Path != "v" {
		t.Fatal(err)
	}
}

// Every wire error a reader or writer returns carries a detail, and its message
// names the kind, the bit, the value and the limit.
func TestEveryErrorHasADetail(t *testing.T) {
	decode := func(b []byte, read func(r *BitReader) error) error {
		r := NewBitReader(b)
		if err := read(&r); err != nil {
			return err
		}
		return r.Finish()
	}
	bits := func(n uint) func(r *BitReader) error {
		return func(r *BitReader) error { _, err := r.ReadBits(n); return err }
	}
	varint := func(r *BitReader) error { _, err := r.ReadVarint(16); return err }
	huge := func(r *BitReader) error { _, err := r.CheckLen(1<<63, 0, 0, 0); return err }
	f32 := func(r *BitReader) error { _, err := r.ReadF32(); return err }
	f64 := func(r *BitReader) error { _, err := r.ReadF64(); return err }
	w := NewBitWriter(nil)
	w.WriteBits(0, 3)
	cases := []struct {
		err  error
		want string
	}{
		{decode([]byte{0x0b}, bits(1)),
			"bitwire: InvalidPadding at bit 1: padding 0b0000101 (7 bits) must be zero"},
		{decode([]byte{0x01, 0, 0}, bits(8)),
			"bitwire: TrailingData at bit 8: the value ends after byte 1 of 3, 2 more follow"},
		{decode([]byte{0x01, 0x00, 0xc0, 0x7f}, f32),
			"bitwire: NonCanonical at bit 0: NaN 0x7fc00001, the canonical NaN is 0x7fc00000"},
		{decode([]byte{0, 0, 0, 0, 0, 0, 0xf8, 0xff}, f64),
			"bitwire: NonCanonical at bit 0: NaN 0xfff8000000000000, the canonical NaN is 0x7ff8000000000000"},
		// Prefix 1, 0 (two groups), then 3 in eight bits: one group holds 3.
		{decode([]byte{0x0d, 0x00}, varint), "bitwire: NonCanonical at bit 0: 3 in 2 groups, 1 suffice"},
		{decode([]byte{0x0d}, varint), "bitwire: Truncated at bit 0: needs 10 bits, 8 left"},
		{decode(nil, bits(1)), "bitwire: Truncated at bit 0: needs 1 bit, 0 left"},
		{decode(nil, huge),
			"bitwire: LimitExceeded at bit 0: length 9223372036854775808, at most 9223372036854775807"},
		{w.CheckString("ok\xffno", 2),
			"bitwire: InvalidUtf8 at bit 5: byte 2 of 5 (0xff) is not valid UTF-8"},
	}
	for _, c := range cases {
		var e *Error
		if !errors.As(c.err, &e) || e.Detail == nil {
			t.Errorf("%v: want an *Error with a detail", c.err)
			continue
		}
		if c.err.Error() != c.want {
			t.Errorf("got  %q\nwant %q", c.err.Error(), c.want)
		}
	}
}

// Reading a string and skipping it report the same InvalidUtf8 detail, aligned or
// not, short or long, with the bad byte in the ASCII prefix or after it.
func TestUTF8DetailsAgreeBetweenReadAndSkip(t *testing.T) {
	for _, shift := range []uint{0, 3} {
		for _, n := range []int{5, 63, 64, 65, 100, 200} {
			for _, bad := range []int{0, 4, n / 2, n - 1} {
				s := []byte(strings.Repeat("é", n/2) + strings.Repeat("a", n%2))
				s[bad] = 0xff
				w := NewBitWriter(nil)
				w.WriteBits(0, shift)
				w.WriteBytes(s)
				b := w.Finish()
				r1, r2 := NewBitReader(b), NewBitReader(b)
				r1.pos, r2.pos = uint64(shift), uint64(shift)
				_, readErr := r1.ReadString(n, 0, "")
				skipErr := r2.SkipString(n, 0)
				e1, ok1 := readErr.(*Error)
				e2, ok2 := skipErr.(*Error)
				if !ok1 || !ok2 || *e1 != *e2 {
					t.Fatalf("shift %d, n %d, bad %d: read %v, skip %v", shift, n, bad, readErr, skipErr)
				}
				// The first invalid byte is bad itself, or the lead byte of the rune
				// the 0xff cut short.
				d := e1.Detail.(UTF8)
				if d.Len != uint64(n) || d.At > uint64(bad) || uint64(bad)-d.At > 1 {
					t.Fatalf("shift %d, n %d, bad %d: detail %+v", shift, n, bad, d)
				}
			}
		}
	}
}
