package conformance

import (
	"errors"
	"math"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/gobincode"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// The bincode encoder rejects what only a Go value can hold (an enum value or union
// tag the schema does not declare, a string that is not UTF-8) and what the schema
// bounds, with the kind, bit (8 × the byte offset where the value would start) and
// path of the value, and leaves the caller's buffer as it was.
func TestBincodeEncoderRejectsWhatTheSchemaCannotHold(t *testing.T) {
	// A zero Every's bytes: flag 0, tiny 1, neg 2, level 4, wide 6, v 14, q 18, d 22,
	// team 30, maybe 34, arr 35, raw 41, lanes 45, ids 61, names 69, …
	every := func(edit func(*gobincode.Every)) *gobincode.Every {
		var e gobincode.Every
		edit(&e)
		return &e
	}
	cases := []struct {
		name string
		v    interface{ AppendBincode([]byte) ([]byte, error) }
		kind bitwire.Kind
		bit  uint64
		path string
	}{
		{"u4 above 15", every(func(e *gobincode.Every) { e.Tiny = 16 }), bitwire.OutOfRange, 8, "tiny"},
		{"i12 below -2048", every(func(e *gobincode.Every) { e.Neg = -2049 }), bitwire.OutOfRange, 16, "neg"},
		{"bounded above", every(func(e *gobincode.Every) { e.Level = 1001 }), bitwire.OutOfRange, 32, "level"},
		{"quantized NaN", every(func(e *gobincode.Every) { e.Q = float32(math.NaN()) }), bitwire.OutOfRange, 144, "q"},
		{"quantized above", every(func(e *gobincode.Every) { e.Q = 1.5 }), bitwire.OutOfRange, 144, "q"},
		{"undeclared enum", every(func(e *gobincode.Every) { e.Team = 3 }), bitwire.InvalidEnum, 240, "team"},
		{"list above its max", every(func(e *gobincode.Every) { e.Ids = make([]uint32, 101) }), bitwire.InvalidLength, 488, "ids"},
		// names: its length at 69, names[0] "ok" at 77 (8 + 2 bytes), names[1] at 87.
		{"not UTF-8 in a list", every(func(e *gobincode.Every) { e.Names = []string{"ok", "a\xff"} }), bitwire.InvalidUtf8, 696, "names[1]"},
		{"string above its max", every(func(e *gobincode.Every) { e.Names = []string{"seventeen bytes!!"} }), bitwire.InvalidLength, 616, "names[0]"},
		{"undeclared union tag", &gobincode.Event{Tag: 3}, bitwire.InvalidEnum, 0, ""},
		{"not UTF-8 in a union", &gobincode.Event{Tag: gobincode.EventChat, Chat: "\xc3"}, bitwire.InvalidUtf8, 32, "Chat"},
		{"enum alone", gobincode.Team(6), bitwire.InvalidEnum, 0, ""},
	}
	for _, c := range cases {
		out, err := c.v.AppendBincode([]byte{1})
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Kind != c.kind || e.Bit != c.bit || e.Path != c.path || e.Detail == nil {
			t.Errorf("%s: got %v, want %v at bit %d in %q, with a detail", c.name, err, c.kind, c.bit, c.path)
		}
		if len(out) != 1 {
			t.Errorf("%s: a failed AppendBincode must return dst unchanged, got % x", c.name, out)
		}
	}
	// A zero Every encodes: the limits above are the only problem of each case.
	if _, err := new(gobincode.Every).EncodeBincode(); err != nil {
		t.Fatal(err)
	}
}

// DecodeBincodeWithLimits and VerifyBincodeXWithLimits charge a list n × its
// element's bytes plus 32 (spec §11.5), at the list's first byte, and agree.
func TestBincodeLimitsAreTheCallersBudget(t *testing.T) {
	wire, err := (&gobincode.Pod{Values: make([]uint64, 1000)}).EncodeBincode()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		base uint64
		ok   bool
	}{{8031, false}, {8032, true}} {
		limits := bitwire.Limits{Base: c.base}
		var pod gobincode.Pod
		err := pod.DecodeBincodeWithLimits(wire, limits)
		verr := gobincode.VerifyBincodePodWithLimits(wire, limits)
		if c.ok {
			if err != nil || verr != nil || len(pod.Values) != 1000 {
				t.Errorf("base %d: %v, %v", c.base, err, verr)
			}
			continue
		}
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Kind != bitwire.LimitExceeded || e.Bit != 0 || e.Path != "values" {
			t.Errorf("base %d: got %v, want LimitExceeded at bit 0 in values", c.base, err)
		}
		if verr == nil || verr.Error() != err.Error() {
			t.Errorf("base %d: VerifyBincodePodWithLimits gave %v, DecodeBincodeWithLimits %v", c.base, verr, err)
		}
	}
}
