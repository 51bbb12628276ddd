package conformance

import (
	"errors"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Go can hold values the schema's types rule out in Rust: an enum value or union
// tag the schema does not declare, and a string that is not UTF-8. The Go encoder
// rejects them with the kind, bit and path of the value (no vector can express
// these, since JSON input cannot produce them).
func TestEncoderRejectsWhatOnlyGoCanHold(t *testing.T) {
	cases := []struct {
		name string
		v    interface{ AppendTo([]byte) ([]byte, error) }
		kind bitwire.Kind
		bit  uint64
		path string
	}{
		// Entity: id 12 bits, pos 36 bits, then the run vel_x, vel_y, yaw, health,
		// weapon (run offset 36), team (40), ...
		{"undeclared weapon", &game.Entity{Weapon: 7}, bitwire.InvalidEnum, 48 + 36, "weapon"},
		{"undeclared team", &game.Entity{Team: 5}, bitwire.InvalidEnum, 48 + 40, "team"},
		{"enum alone", game.Weapon(6), bitwire.InvalidEnum, 0, ""},
		{"undeclared union tag", &game.Event{Tag: 9}, bitwire.InvalidEnum, 0, ""},
		{"not UTF-8", &game.Chat{From: "\xff"}, bitwire.InvalidUtf8, 0, "from"},
		// Events: tick (varint, 5 bits), events length (varint, 5 bits), event 0's
		// tag (3 bits), Chat.from (5-bit length, no bytes), then Chat.text.
		{"deep", &game.Events{Events: []game.Event{{Tag: game.EventChat, Chat: game.Chat{Text: "a\xc3"}}}},
			bitwire.InvalidUtf8, 18, "events[0].Chat.text"},
		{"quantized NaN", &game.Input{MoveX: float32(nan())}, bitwire.OutOfRange, 16, "move_x"},
	}
	for _, c := range cases {
		out, err := c.v.AppendTo([]byte{1})
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Kind != c.kind || e.Bit != c.bit || e.Path != c.path || e.Detail == nil {
			t.Errorf("%s: got %v, want %v at bit %d in %q, with a detail", c.name, err, c.kind, c.bit, c.path)
		}
		if len(out) != 1 {
			t.Errorf("%s: a failed AppendTo must return dst unchanged, got % x", c.name, out)
		}
	}
	if _, err := (&game.Event{Tag: 9}).AppendJSON(nil); !errors.Is(err, bitwire.ErrInvalidEnum) {
		t.Errorf("AppendJSON of an undeclared tag: %v", err)
	}
	if game.Weapon(6).String() != "Weapon(6)" || game.WeaponRocket.String() != "Rocket" {
		t.Error("enum String")
	}
	if game.EventTag(9).String() != "EventTag(9)" || game.EventKill.String() != "Kill" {
		t.Error("union tag String")
	}
}

func nan() float64 {
	var zero float64
	return zero / zero
}
