package conformance

import (
	"bytes"
	"encoding"
	"encoding/gob"
	"errors"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/game"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// The interfaces every Go version has; encoding.BinaryAppender (Go 1.24) is
// asserted in binary_go124_test.go, and for every type of every suite through
// harness.Value.
var (
	_ encoding.BinaryMarshaler   = (*game.Packet64)(nil)
	_ encoding.BinaryUnmarshaler = (*game.Packet64)(nil)
	_ encoding.BinaryMarshaler   = (*game.Event)(nil)
	_ encoding.BinaryUnmarshaler = (*game.Event)(nil)
	// Enums encode from the value, as their AppendTo does.
	_ encoding.BinaryMarshaler   = game.Weapon(0)
	_ encoding.BinaryUnmarshaler = (*game.Weapon)(nil)
)

// binaryValue is a game value through the standard interfaces only, with a new
// zero value of its type to decode into.
type binaryValue struct {
	name  string
	value interface {
		encoding.BinaryMarshaler
		AppendBinary(b []byte) ([]byte, error)
	}
	fresh func() encoding.BinaryUnmarshaler
	again func(u encoding.BinaryUnmarshaler) ([]byte, error)
}

func binaryValues() []binaryValue {
	reencode := func(u encoding.BinaryUnmarshaler) ([]byte, error) {
		return u.(encoding.BinaryMarshaler).MarshalBinary()
	}
	return []binaryValue{
		{"Packet64", samplePacket(), func() encoding.BinaryUnmarshaler { return new(game.Packet64) }, reencode},
		{"Input", sampleInput(), func() encoding.BinaryUnmarshaler { return new(game.Input) }, reencode},
		{"Snapshot", sampleSnapshot(), func() encoding.BinaryUnmarshaler { return new(game.Snapshot) }, reencode},
		{"Events", sampleEvents(), func() encoding.BinaryUnmarshaler { return new(game.Events) }, reencode},
		{"Weapon", game.WeaponRocket, func() encoding.BinaryUnmarshaler { return new(game.Weapon) },
			func(u encoding.BinaryUnmarshaler) ([]byte, error) { return u.(*game.Weapon).MarshalBinary() }},
	}
}

// MarshalBinary, AppendBinary and UnmarshalBinary are the packed top-level encoding:
// the same bytes as Encode, appended after what the slice held, and decoded back to
// a value that encodes to the same bytes.
func TestBinaryMethodsRoundTrip(t *testing.T) {
	for _, c := range binaryValues() {
		b, err := c.value.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		enc, err := c.value.(interface{ Encode() ([]byte, error) }).Encode()
		if err != nil || !bytes.Equal(b, enc) {
			t.Errorf("%s: MarshalBinary % x, Encode % x (%v)", c.name, b, enc, err)
		}
		prefix := []byte("head")
		appended, err := c.value.AppendBinary(prefix[:len(prefix):len(prefix)])
		if err != nil || !bytes.Equal(appended, append([]byte("head"), b...)) {
			t.Errorf("%s: AppendBinary onto %q gave %q, %v", c.name, prefix, appended, err)
		}
		u := c.fresh()
		if err := u.UnmarshalBinary(b); err != nil {
			t.Fatalf("%s: UnmarshalBinary: %v", c.name, err)
		}
		if again, err := c.again(u); err != nil || !bytes.Equal(again, b) {
			t.Errorf("%s: decoded value encodes to % x, %v; want % x", c.name, again, err, b)
		}
	}
}

// A value the schema cannot hold fails every encoding method with the same typed
// error, and AppendBinary leaves the caller's slice as it was.
func TestBinaryMethodsRejectWhatTheSchemaCannotHold(t *testing.T) {
	p := samplePacket()
	p.Health = 600 // u9
	b, err := p.MarshalBinary()
	var e *bitwire.Error
	if b != nil || !errors.As(err, &e) || e.Kind != bitwire.OutOfRange || e.Path != "health" || e.Bit != 7 {
		t.Fatalf("MarshalBinary: % x, %v", b, err)
	}
	if e.Detail != (bitwire.Range{Value: bitwire.UintOf(600), Min: bitwire.UintOf(0), Max: bitwire.UintOf(511)}) {
		t.Errorf("detail %#v", e.Detail)
	}
	dst := []byte{1, 2, 3}
	out, err2 := p.AppendBinary(dst)
	if !bytes.Equal(out, []byte{1, 2, 3}) || err2 == nil || err2.Error() != err.Error() {
		t.Errorf("AppendBinary: % x, %v", out, err2)
	}
	if got := err.Error(); got != "bitwire: OutOfRange at bit 7, health: 600 not in 0..=511" {
		t.Errorf("message %q", got)
	}
	if _, err := (&game.Events{Events: []game.Event{{Tag: 9}}}).MarshalBinary(); !errors.Is(err, bitwire.ErrInvalidEnum) {
		t.Errorf("undeclared union tag: %v", err)
	}
}

// UnmarshalBinary on input that is not one valid encoding returns the typed
// *bitwire.Error Decode returns, with its detail — also on the fast paths of the
// single-run messages (exact length, wrong padding).
func TestUnmarshalBinaryRejectsBadInput(t *testing.T) {
	packet, _ := samplePacket().MarshalBinary()
	input, _ := sampleInput().MarshalBinary() // 60 bits: 4 padding bits
	badPadding := append([]byte(nil), input...)
	badPadding[7] |= 0x50
	events, _ := sampleEvents().MarshalBinary()
	cases := []struct {
		name string
		into encoding.BinaryUnmarshaler
		b    []byte
		want string
	}{
		{"short packet", new(game.Packet64), packet[:7],
			"bitwire: Truncated at bit 48, score: needs 16 bits, 8 left"},
		{"long packet", new(game.Packet64), append(packet[:8:8], 0),
			"bitwire: TrailingData at bit 64: the value ends after byte 8 of 9, 1 more follow"},
		{"input padding", new(game.Input), badPadding,
			"bitwire: InvalidPadding at bit 60: padding 0b0101 (4 bits) must be zero"},
		{"events cut", new(game.Events), events[:len(events)-2], ""},
		{"weapon 7", new(game.Weapon), []byte{7}, "bitwire: InvalidEnum at bit 0: 7 is not declared"},
	}
	for _, c := range cases {
		err := c.into.UnmarshalBinary(c.b)
		var e *bitwire.Error
		if !errors.As(err, &e) || e.Detail == nil || !errors.Is(err, bitwire.ErrBitwire) {
			t.Errorf("%s: want a *bitwire.Error with a detail, got %v", c.name, err)
			continue
		}
		if c.want != "" && err.Error() != c.want {
			t.Errorf("%s: got  %q\nwant %q", c.name, err.Error(), c.want)
		}
	}
}

// encoding/gob uses MarshalBinary and UnmarshalBinary for types that have them, so a
// generated message travels through gob as its bitwire bytes.
func TestGobUsesTheBitwireEncoding(t *testing.T) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(sampleSnapshot()); err != nil {
		t.Fatal(err)
	}
	want, _ := sampleSnapshot().MarshalBinary()
	if !bytes.Contains(buf.Bytes(), want) {
		t.Errorf("the gob stream does not hold the bitwire bytes")
	}
	var got game.Snapshot
	if err := gob.NewDecoder(&buf).Decode(&got); err != nil {
		t.Fatal(err)
	}
	if again, _ := got.MarshalBinary(); !bytes.Equal(again, want) {
		t.Errorf("gob round trip gave % x, want % x", again, want)
	}
}
