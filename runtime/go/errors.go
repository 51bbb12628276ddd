package bitwire

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// Kind is what went wrong: the closed list of error kinds of spec §7.1, shared by
// every bitwire runtime and the reference codec. Kinds are the contract; messages
// are not.
type Kind uint8

// The error kinds of spec §7.1, in the spec's order.
const (
	// Truncated: the input ends inside a value, or a length needs more bits than
	// remain (§5.6).
	Truncated Kind = iota + 1
	// TrailingData: bytes after the top-level value's last byte (§2.2).
	TrailingData
	// InvalidPadding: a one bit in the final byte's padding (§2.2).
	InvalidPadding
	// OutOfRange: a value outside its width, bound or quantization range (§3.1, §4).
	OutOfRange
	// InvalidEnum: an enum value or union tag the schema does not declare (§3, §5.2).
	InvalidEnum
	// InvalidLength: a length above its max (§5.6).
	InvalidLength
	// InvalidUtf8: a string that is not UTF-8 (§5.6). The Go encoder reports it too,
	// because a Go string may hold any bytes.
	InvalidUtf8
	// NonCanonical: a non-minimal varint (§5.4) or a non-canonical NaN (§3.2).
	NonCanonical
	// LimitExceeded: a length whose allocation is over the decode budget (§11), or
	// one the platform cannot allocate (§5.6).
	LimitExceeded
	// InvalidKey: a keyed list whose keys are not strictly ascending, or an added
	// element of a delta whose key is out of order or already in the baseline
	// (§12.7).
	InvalidKey
)

var kindNames = [...]string{
	Truncated:      "Truncated",
	TrailingData:   "TrailingData",
	InvalidPadding: "InvalidPadding",
	OutOfRange:     "OutOfRange",
	InvalidEnum:    "InvalidEnum",
	InvalidLength:  "InvalidLength",
	InvalidUtf8:    "InvalidUtf8",
	NonCanonical:   "NonCanonical",
	LimitExceeded:  "LimitExceeded",
	InvalidKey:     "InvalidKey",
}

// String returns the kind's stable name, as the vector files and every runtime
// spell it ("OutOfRange").
func (k Kind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// KindByName returns the kind with the stable name s, and false if there is none.
func KindByName(s string) (Kind, bool) {
	for k, name := range kindNames {
		if name != "" && name == s {
			return Kind(k), true
		}
	}
	return 0, false
}

// ErrBitwire matches every error this package and generated code return, wire and
// JSON errors alike: errors.Is(err, bitwire.ErrBitwire).
var ErrBitwire = errors.New("bitwire error")

// sentinel is the error value behind the per-kind sentinels; it matches ErrBitwire.
type sentinel struct{ name string }

func (s *sentinel) Error() string        { return "bitwire: " + s.name }
func (s *sentinel) Is(target error) bool { return target == ErrBitwire }

// One sentinel per kind, matched with errors.Is(err, bitwire.ErrOutOfRange).
var (
	ErrTruncated      error = &sentinel{"Truncated"}
	ErrTrailingData   error = &sentinel{"TrailingData"}
	ErrInvalidPadding error = &sentinel{"InvalidPadding"}
	ErrOutOfRange     error = &sentinel{"OutOfRange"}
	ErrInvalidEnum    error = &sentinel{"InvalidEnum"}
	ErrInvalidLength  error = &sentinel{"InvalidLength"}
	ErrInvalidUtf8    error = &sentinel{"InvalidUtf8"}
	ErrNonCanonical   error = &sentinel{"NonCanonical"}
	ErrLimitExceeded  error = &sentinel{"LimitExceeded"}
	ErrInvalidKey     error = &sentinel{"InvalidKey"}
)

var kindSentinels = [...]error{
	Truncated:      ErrTruncated,
	TrailingData:   ErrTrailingData,
	InvalidPadding: ErrInvalidPadding,
	OutOfRange:     ErrOutOfRange,
	InvalidEnum:    ErrInvalidEnum,
	InvalidLength:  ErrInvalidLength,
	InvalidUtf8:    ErrInvalidUtf8,
	NonCanonical:   ErrNonCanonical,
	LimitExceeded:  ErrLimitExceeded,
	InvalidKey:     ErrInvalidKey,
}

// Sentinel returns the sentinel error of the kind (ErrOutOfRange for OutOfRange).
func (k Kind) Sentinel() error {
	if int(k) < len(kindSentinels) && kindSentinels[k] != nil {
		return kindSentinels[k]
	}
	return ErrBitwire
}

// Error is a wire error: its kind, the bit offset where the offending value starts
// (for the encoder: where it would have started), and the field path from the
// top-level value (spec §7.3), empty at the top level. Kind, Bit and Path are the
// contract every bitwire runtime agrees on; Detail (what the value was and what it
// had to be) is for messages, and nil when nothing more is known.
type Error struct {
	Kind   Kind
	Bit    uint64
	Path   string
	Detail Detail
}

// NewError returns an error of kind at stream bit bit, with an empty path and no
// detail.
//
//go:noinline
func NewError(kind Kind, bit uint64) *Error {
	return &Error{Kind: kind, Bit: bit}
}

// Error formats the error as "bitwire: OutOfRange at bit 37, entities[3].health:
// 1200 not in 0..=1000" (the path and the detail are left out when empty).
func (e *Error) Error() string {
	s := "bitwire: " + e.Kind.String() + " at bit " + strconv.FormatUint(e.Bit, 10)
	if e.Path != "" {
		s += ", " + e.Path
	}
	if e.Detail != nil {
		s += ": " + e.Detail.String()
	}
	return s
}

// detailed returns an error of kind at bit with detail d.
//
//go:noinline
func detailed(kind Kind, bit uint64, d Detail) *Error {
	return &Error{Kind: kind, Bit: bit, Detail: d}
}

// IntRangeError returns OutOfRange at bit for a signed integer v outside
// min..=max (spec §3.1, §4.2).
//
//go:noinline
func IntRangeError(bit uint64, v, min, max int64) error {
	return detailed(OutOfRange, bit, Range{IntOf(v), IntOf(min), IntOf(max)})
}

// UintRangeError returns OutOfRange at bit for an unsigned integer v outside
// min..=max.
//
//go:noinline
func UintRangeError(bit uint64, v, min, max uint64) error {
	return detailed(OutOfRange, bit, Range{UintOf(v), UintOf(min), UintOf(max)})
}

// FloatRangeError returns OutOfRange at bit for a quantized float v outside
// min..=max, or NaN (§4.3).
//
//go:noinline
func FloatRangeError(bit uint64, v, min, max float64) error {
	return detailed(OutOfRange, bit, FloatRange{v, min, max})
}

// LengthError returns InvalidLength at bit for a list, string or bytes value of n
// elements whose bound is max (§5.6).
//
//go:noinline
func LengthError(bit uint64, n, max uint64) error {
	return detailed(InvalidLength, bit, Length{n, max})
}

// EnumError returns InvalidEnum at bit for an enum value or union tag v the schema
// does not declare (§3, §5.2).
//
//go:noinline
func EnumError(bit uint64, v uint64) error {
	return detailed(InvalidEnum, bit, Undeclared{v})
}

// PaddingError returns InvalidPadding at bit for the n padding bits that follow a
// top-level value and hold v, which is not zero (§2.2).
//
//go:noinline
func PaddingError(bit, v, n uint64) error {
	return detailed(InvalidPadding, bit, Padding{v, n})
}

// utf8Error returns InvalidUtf8 at bit for the bytes b of a string that are not
// UTF-8: b holds the string's bytes from index from on (every byte before it is
// valid UTF-8 and ends a rune), and the string is n bytes long.
//
//go:noinline
func utf8Error(bit uint64, b []byte, from, n uint64) error {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			break
		}
		i += size
	}
	var c uint8
	if i < len(b) {
		c = b[i]
	}
	return detailed(InvalidUtf8, bit, UTF8{At: from + uint64(i), Len: n, Byte: c})
}

// Is reports whether target is ErrBitwire or the sentinel of e's kind.
func (e *Error) Is(target error) bool {
	return target == ErrBitwire || target == e.Kind.Sentinel()
}

// InField prepends a struct field or union variant name to the path of err, an
// *Error or *JSONError (other errors pass through). Generated code calls it while
// an error unwinds, so building the path costs nothing on success.
//
//go:noinline
func InField(err error, name string) error {
	switch e := err.(type) {
	case *Error:
		e.Path = prependField(name, e.Path)
	case *JSONError:
		e.Path = prependField(name, e.Path)
	}
	return err
}

// AtIndex prepends a list or array index to the path of err, as InField does.
//
//go:noinline
func AtIndex(err error, index int) error {
	switch e := err.(type) {
	case *Error:
		e.Path = prependIndex(index, e.Path)
	case *JSONError:
		e.Path = prependIndex(index, e.Path)
	}
	return err
}

// prependField joins name in front of a rendered path: "x" + "[2].y" → "x[2].y",
// "x" + "y" → "x.y".
func prependField(name, rest string) string {
	switch {
	case rest == "":
		return name
	case rest[0] == '[':
		return name + rest
	default:
		return name + "." + rest
	}
}

// prependIndex joins "[i]" in front of a rendered path: "[2]" + "y" → "[2].y".
func prependIndex(index int, rest string) string {
	seg := "[" + strconv.Itoa(index) + "]"
	switch {
	case rest == "":
		return seg
	case rest[0] == '[':
		return seg + rest
	default:
		return seg + "." + rest
	}
}
