package bitwire

import (
	"errors"
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
	for k := Truncated; k <= LimitExceeded; k++ {
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
		for other := Truncated; other <= LimitExceeded; other++ {
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
