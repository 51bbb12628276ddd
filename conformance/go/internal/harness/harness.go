// Package harness is what the conformance tests share: the interface every
// generated type satisfies, the registry entry of a type, and the comparison of
// outcomes (bytes, JSON, errors) with what a vector or a corpus line expects.
//
// It does not import generated code, so it builds before `go run ./internal/gen`
// has written the generated packages.
package harness

import (
	"bytes"
	"encoding"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// Value is what every generated type offers through a pointer: the packed
// encoding, the standard library's binary interfaces over it (AppendBinary is
// encoding.BinaryAppender's method, which Go 1.22 does not have) and, with --json,
// the JSON mapping.
type Value interface {
	AppendTo(dst []byte) ([]byte, error)
	Decode(b []byte) error
	AppendBinary(b []byte) ([]byte, error)
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
	AppendJSON(dst []byte) ([]byte, error)
	FromJSON(j any) error
}

// Codec is one generated type of one suite.
type Codec struct {
	// Suite is the schema's file stem (the vector suite's name).
	Suite string
	// Type is the type's schema name.
	Type string
	// New returns a pointer to a new zero value of the type.
	New func() Value
	// Verify is the type's generated VerifyX: Decode's verdict without a value.
	Verify func(b []byte) error
}

// DeltaCodec is the delta encoding (spec §12) of one delta message of one suite:
// its generated methods, over harness values that must be of the message's type.
type DeltaCodec struct {
	Suite, Type string
	// AppendDelta is v.AppendDelta(dst, base).
	AppendDelta func(v, base Value, dst []byte) ([]byte, error)
	// EncodeDelta is v.EncodeDelta(base).
	EncodeDelta func(v, base Value) ([]byte, error)
	// DecodeDelta is v.DecodeDelta(base, b).
	DecodeDelta func(v, base Value, b []byte) error
	// DecodeDeltaWithLimits is v.DecodeDeltaWithLimits(base, b, limits).
	DecodeDeltaWithLimits func(v, base Value, b []byte, limits bitwire.Limits) error
	// Verify is the generated VerifyXDelta(base, b).
	Verify func(base Value, b []byte) error
}

// Find returns the codec of suite.typ in codecs.
func Find(codecs []Codec, suite, typ string) (Codec, bool) {
	for _, c := range codecs {
		if c.Suite == suite && c.Type == typ {
			return c, true
		}
	}
	return Codec{}, false
}

// Expected is an error a vector or corpus line expects: kind, and bit and path
// when given.
type Expected struct {
	Kind string  `json:"kind"`
	Bit  *uint64 `json:"bit"`
	Path *string `json:"path"`
}

func (e Expected) String() string {
	s := e.Kind
	if e.Bit != nil {
		s += fmt.Sprintf(" at bit %d", *e.Bit)
	}
	if e.Path != nil {
		s += fmt.Sprintf(" in %q", *e.Path)
	}
	return s
}

// CheckError reports whether err is the expected error. A wire error compares
// kind, bit and path, and must have a detail; a JSON error (a value the Go type
// cannot hold, found before any bit offset exists) compares kind and path.
func CheckError(err error, want Expected) error {
	var we *bitwire.Error
	var je *bitwire.JSONError
	var kind, path string
	var bit *uint64
	switch {
	case errors.As(err, &we):
		kind, path, bit = we.Kind.String(), we.Path, &we.Bit
		if !errors.Is(err, we.Kind.Sentinel()) || !errors.Is(err, bitwire.ErrBitwire) {
			return fmt.Errorf("%v does not match its sentinels", err)
		}
		// Messages name the offending value and its limit (docs/go.md, Errors).
		if we.Detail == nil {
			return fmt.Errorf("%v has no detail", err)
		}
	case errors.As(err, &je):
		kind, path = je.Kind.String(), je.Path
	default:
		return fmt.Errorf("unexpected error type %T: %v", err, err)
	}
	ok := kind == want.Kind &&
		(want.Path == nil || *want.Path == path) &&
		(want.Bit == nil || bit == nil || *want.Bit == *bit)
	if !ok {
		return fmt.Errorf("expected %v, got %v", want, err)
	}
	return nil
}

// Encode maps JSON text onto a new value of c's type and encodes it. It also
// checks that a failed AppendTo leaves the caller's buffer as it was.
func Encode(c Codec, value []byte) ([]byte, error) {
	v := c.New()
	j, err := bitwire.ParseJSON(value)
	if err != nil {
		return nil, err
	}
	if err := v.FromJSON(j); err != nil {
		return nil, err
	}
	prefix := []byte{0xAA, 0xBB}
	out, err := v.AppendTo(prefix)
	if err := sameEncoding(v, out, err); err != nil {
		return nil, err
	}
	if err != nil {
		if len(out) != len(prefix) || out[0] != 0xAA || out[1] != 0xBB {
			return nil, fmt.Errorf("failed AppendTo changed the buffer to % x", out)
		}
		return nil, err
	}
	if len(out) < 2 || out[0] != 0xAA || out[1] != 0xBB {
		return nil, fmt.Errorf("AppendTo lost the buffer's contents: % x", out)
	}
	return out[2:], nil
}

// sameEncoding checks that MarshalBinary and AppendBinary give what AppendTo gave
// (out, err) for v, appended to the two bytes AA BB: the same bytes, or the same
// error (kind, bit, path and detail) with the buffer unchanged.
func sameEncoding(v Value, out []byte, err error) error {
	m, merr := v.MarshalBinary()
	a, aerr := v.AppendBinary([]byte{0xAA, 0xBB})
	if err != nil {
		if !sameError(merr, err) || !sameError(aerr, err) {
			return fmt.Errorf("AppendTo failed with %v, MarshalBinary with %v, AppendBinary with %v",
				err, merr, aerr)
		}
		if !bytes.Equal(a, []byte{0xAA, 0xBB}) || m != nil {
			return fmt.Errorf("failed MarshalBinary gave % x, AppendBinary % x", m, a)
		}
		return nil
	}
	if merr != nil || aerr != nil || !bytes.Equal(m, out[2:]) || !bytes.Equal(a, out) {
		return fmt.Errorf("AppendTo gave % x, MarshalBinary % x (%v), AppendBinary % x (%v)",
			out, m, merr, a, aerr)
	}
	return nil
}

// sameError reports whether got is a *bitwire.Error with want's kind, bit, path
// and detail (compared as text: a NaN in a detail is not equal to itself).
func sameError(got, want error) bool {
	var g, w *bitwire.Error
	return errors.As(got, &g) && errors.As(want, &w) &&
		g.Kind == w.Kind && g.Bit == w.Bit && g.Path == w.Path && g.Error() == w.Error()
}

// CheckUnmarshalBinary checks that UnmarshalBinary into a new value of c's type
// does what Decode did with b: fail with the same error (kind, bit, path and
// detail), or give the same value, whose JSON text was decoded.
func CheckUnmarshalBinary(c Codec, b []byte, decoded string, decodeErr error) error {
	v := c.New()
	err := v.UnmarshalBinary(b)
	if decodeErr != nil || err != nil {
		if !sameError(err, decodeErr) {
			return fmt.Errorf("UnmarshalBinary gave %v, Decode %v", err, decodeErr)
		}
		return nil
	}
	got, err := v.AppendJSON(nil)
	if err != nil || string(got) != decoded {
		return fmt.Errorf("UnmarshalBinary gave %s (%v), Decode %s", got, err, decoded)
	}
	return nil
}

// DecodeInto decodes b into v and returns its JSON text.
func DecodeInto(v Value, b []byte) (string, error) {
	if err := v.Decode(b); err != nil {
		return "", err
	}
	out, err := v.AppendJSON(nil)
	if err != nil {
		return "", fmt.Errorf("AppendJSON of a decoded value failed: %w", err)
	}
	return string(out), nil
}

// Normalize maps JSON text onto c's type and prints it back: the value as the
// type's JSON mapping prints it (5.0 for an integer becomes 5, an f32 given 17
// digits prints its shortest form).
func Normalize(c Codec, value []byte) (string, error) {
	v := c.New()
	j, err := bitwire.ParseJSON(value)
	if err != nil {
		return "", err
	}
	if err := v.FromJSON(j); err != nil {
		return "", err
	}
	out, err := v.AppendJSON(nil)
	return string(out), err
}

// CheckVerify checks that verify's verdict on b is decodeErr, Decode's: nil for
// nil, else the same kind, bit and path (as error strings).
func CheckVerify(verify func([]byte) error, b []byte, decodeErr error) error {
	got := verify(b)
	if (got == nil) != (decodeErr == nil) || (got != nil && got.Error() != decodeErr.Error()) {
		return fmt.Errorf("Verify gave %v, Decode %v", got, decodeErr)
	}
	if got != nil {
		var a, d *bitwire.Error
		if !errors.As(got, &a) || !errors.As(decodeErr, &d) || *a != *d {
			return fmt.Errorf("Verify gave %#v, Decode %#v", got, decodeErr)
		}
	}
	return nil
}

// Hex decodes lowercase or uppercase hex.
func Hex(s string) ([]byte, error) {
	return hex.DecodeString(s)
}

// ToHex encodes bytes as lowercase hex.
func ToHex(b []byte) string {
	return hex.EncodeToString(b)
}

// Guard runs f, turning a panic into an error: a decoder must never panic.
func Guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	return f()
}

// KnownFailures parses a known-failures file: one case id per line, '#' comments.
func KnownFailures(text string) map[string]bool {
	known := map[string]bool{}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if line = strings.TrimSpace(line); line != "" {
			known[line] = true
		}
	}
	return known
}

// Observed is a wire or JSON error as seen: kind, bit (wire errors only) and path,
// in the form of the outcome records (conformance/rust/src/outcome.rs).
type Observed struct {
	Kind string  `json:"kind"`
	Bit  *uint64 `json:"bit,omitempty"`
	Path string  `json:"path"`
}

// Observe returns what err is, when it is a bitwire wire or JSON error.
func Observe(err error) (Observed, bool) {
	var we *bitwire.Error
	var je *bitwire.JSONError
	switch {
	case errors.As(err, &we):
		bit := we.Bit
		return Observed{we.Kind.String(), &bit, we.Path}, true
	case errors.As(err, &je):
		return Observed{Kind: je.Kind.String(), Path: je.Path}, true
	}
	return Observed{}, false
}

// JSONEqual reports whether two JSON texts hold the same value: objects with the
// same keys in the same order, numbers equal with the sign of zero, and strings,
// booleans and nulls equal. It is how the reference codec's canonical JSON is
// compared with what generated code prints (spacing and the spelling of a number,
// 1e+30 or 1e30, do not matter), but the number does: an f32 exactly between two
// shortest decimals (409.328125) must print as the one with the even last digit,
// 409.32812, in every language (docs/json-mapping.md §3).
func JSONEqual(a, b []byte) bool {
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	for {
		ta, ea := da.Token()
		tb, eb := db.Token()
		if ea != nil || eb != nil {
			return ea == io.EOF && eb == io.EOF
		}
		fa, aNum := ta.(float64)
		fb, bNum := tb.(float64)
		if aNum && bNum {
			if fa != fb || math.Signbit(fa) != math.Signbit(fb) {
				return false
			}
			continue
		}
		if ta != tb {
			return false
		}
	}
}
