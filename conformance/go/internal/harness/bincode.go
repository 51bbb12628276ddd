package harness

import (
	"bytes"
	"fmt"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
)

// BincodeValue is what a type generated with --encoding bincode (and --json)
// offers through a pointer besides Value: the bincode encoding (spec §13).
type BincodeValue interface {
	Value
	bitwire.Bincode
	AppendBincode(dst []byte) ([]byte, error)
	EncodeBincode() ([]byte, error)
	DecodeBincode(b []byte) error
	DecodeBincodeWithLimits(b []byte, limits bitwire.Limits) error
}

// BincodeCodec is one generated type of one bincode suite.
type BincodeCodec struct {
	// Suite is the schema's file stem (the vector suite's name).
	Suite string
	// Type is the type's schema name.
	Type string
	// New returns a pointer to a new zero value of the type.
	New func() BincodeValue
	// Verify is the type's generated VerifyBincodeX.
	Verify func(b []byte) error
	// VerifyWithLimits is the type's generated VerifyBincodeXWithLimits.
	VerifyWithLimits func(b []byte, limits bitwire.Limits) error
}

// FindBincode returns the bincode codec of suite.typ in codecs.
func FindBincode(codecs []BincodeCodec, suite, typ string) (BincodeCodec, bool) {
	for _, c := range codecs {
		if c.Suite == suite && c.Type == typ {
			return c, true
		}
	}
	return BincodeCodec{}, false
}

// FromJSONValue maps JSON text onto a new value of c's type.
func FromJSONValue(c BincodeCodec, value []byte) (BincodeValue, error) {
	v := c.New()
	j, err := bitwire.ParseJSON(value)
	if err != nil {
		return nil, err
	}
	if err := v.FromJSON(j); err != nil {
		return nil, err
	}
	return v, nil
}

// EncodeBincode encodes v with AppendBincode after two bytes AA BB and checks
// what every bincode encoder call must agree on: EncodeBincode, the runtime's
// AppendBincode through the interface, and appending after the buffer's contents
// give the same bytes, or the same error with the buffer as it was.
func EncodeBincode(v BincodeValue) ([]byte, error) {
	prefix := []byte{0xAA, 0xBB}
	out, err := v.AppendBincode(prefix)
	enc, eerr := v.EncodeBincode()
	via, verr := bitwire.AppendBincode(prefix, v)
	if err != nil {
		if !bytes.Equal(out, prefix) || !bytes.Equal(via, prefix) {
			return nil, fmt.Errorf("a failed AppendBincode changed the buffer to % x, % x", out, via)
		}
		if !sameError(eerr, err) || !sameError(verr, err) || enc != nil {
			return nil, fmt.Errorf("AppendBincode failed with %v, EncodeBincode with %v (% x), "+
				"bitwire.AppendBincode with %v", err, eerr, enc, verr)
		}
		return nil, err
	}
	if len(out) < 2 || !bytes.Equal(out[:2], prefix) {
		return nil, fmt.Errorf("AppendBincode lost the buffer's contents: % x", out)
	}
	if eerr != nil || verr != nil || !bytes.Equal(enc, out[2:]) || !bytes.Equal(via, out) {
		return nil, fmt.Errorf("AppendBincode gave % x, EncodeBincode % x (%v), "+
			"bitwire.AppendBincode % x (%v)", out, enc, eerr, via, verr)
	}
	return out[2:], nil
}

// DecodeBincodeJSON decodes b into v and returns its JSON text.
func DecodeBincodeJSON(v BincodeValue, b []byte) (string, error) {
	if err := v.DecodeBincode(b); err != nil {
		return "", err
	}
	out, err := v.AppendJSON(nil)
	if err != nil {
		return "", fmt.Errorf("AppendJSON of a decoded value failed: %w", err)
	}
	return string(out), nil
}

// CheckBincodeDecoders checks that every other way of decoding b with c gives
// what DecodeBincode into a new value gave (json, or the error decodeErr):
// DecodeBincodeWithLimits with the default limits, the runtime's DecodeBincode
// through the interface, VerifyBincodeX and VerifyBincodeXWithLimits (the same
// error or none, without a value), and decoding into reused, which holds whatever
// an earlier case left in it.
func CheckBincodeDecoders(c BincodeCodec, b []byte, json string, decodeErr error, reused BincodeValue) error {
	limits := bitwire.DefaultLimits()
	checks := []struct {
		what string
		err  error
	}{
		{"VerifyBincode", c.Verify(b)},
		{"VerifyBincodeWithLimits", c.VerifyWithLimits(b, limits)},
	}
	for _, ch := range checks {
		if !sameVerdict(ch.err, decodeErr) {
			return fmt.Errorf("%s gave %v, DecodeBincode %v", ch.what, ch.err, decodeErr)
		}
	}
	decoders := []struct {
		what string
		v    BincodeValue
		dec  func(v BincodeValue) error
	}{
		{"DecodeBincodeWithLimits", c.New(), func(v BincodeValue) error { return v.DecodeBincodeWithLimits(b, limits) }},
		{"bitwire.DecodeBincode", c.New(), func(v BincodeValue) error { return bitwire.DecodeBincode(b, v) }},
		{"DecodeBincode into a reused value", reused, func(v BincodeValue) error { return v.DecodeBincode(b) }},
	}
	for _, d := range decoders {
		err := d.dec(d.v)
		if !sameVerdict(err, decodeErr) {
			return fmt.Errorf("%s gave %v, DecodeBincode %v", d.what, err, decodeErr)
		}
		if err != nil {
			continue
		}
		got, err := d.v.AppendJSON(nil)
		if err != nil || string(got) != json {
			return fmt.Errorf("%s gave %s (%v), DecodeBincode %s", d.what, got, err, json)
		}
	}
	return nil
}

// sameVerdict reports whether got and want are both nil, or the same wire error
// (kind, bit, path and message: a NaN in a detail is not equal to itself, so
// details compare as text).
func sameVerdict(got, want error) bool {
	if got == nil || want == nil {
		return got == nil && want == nil
	}
	return sameError(got, want)
}
