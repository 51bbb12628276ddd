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
	if err.Error() != "bitwire: OutOfRange at bit 3 in grid[0][1].list[2].x" {
		t.Fatalf("message %q", err.Error())
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
