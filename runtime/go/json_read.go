package bitwire

import (
	"encoding/json"
	"math"
	"strconv"
)

// The JSON mapping of values (docs/json-mapping.md), reading side. ParseJSON turns
// text into a tree; generated FromJSON methods walk it through the helpers below,
// which accept exactly what the reference codec accepts and report the same JSON
// error kinds. A value that fits the Go field but not the schema type (16 for a u4
// held in a uint8) passes, so that the encoder reports it as the wire error the
// reference codec reports; what the Go type cannot hold at all (300 for a uint8, an
// array of the wrong length for a [N]T) is a JSONError of kind JSONOutOfRange or
// JSONInvalidLength.

// JSONKind is the kind of a JSON parsing or mapping error (docs/json-mapping.md §5),
// plus the two kinds for values a Go type cannot hold (JSONOutOfRange,
// JSONInvalidLength).
type JSONKind uint8

// The JSON error kinds.
const (
	// JSONSyntax: the input is not valid JSON text.
	JSONSyntax JSONKind = iota + 1
	// JSONTypeMismatch: a JSON value of the wrong type for the schema type.
	JSONTypeMismatch
	// JSONMissingField: a struct object lacks a field that is not optional.
	JSONMissingField
	// JSONUnknownField: a struct object has a key that is not a field.
	JSONUnknownField
	// JSONUnknownVariant: an enum or union variant name the schema does not declare.
	JSONUnknownVariant
	// JSONInvalidNumber: a number beyond the binary64 range (for an f32, the
	// binary32 range), or a string that should hold a number does not parse.
	JSONInvalidNumber
	// JSONOutOfRange: a number outside the range of the field's Go type.
	JSONOutOfRange
	// JSONInvalidLength: an array whose length differs from a fixed array's N.
	JSONInvalidLength
	// JSONInvalidUnicode: the text is not UTF-8, or a \u escape is a lone surrogate.
	JSONInvalidUnicode
	// JSONDuplicateKey: an object names the same member twice.
	JSONDuplicateKey
	// JSONTooDeep: arrays and objects nest deeper than MaxJSONDepth.
	JSONTooDeep
)

var jsonKindNames = [...]string{
	JSONSyntax:         "Syntax",
	JSONTypeMismatch:   "TypeMismatch",
	JSONMissingField:   "MissingField",
	JSONUnknownField:   "UnknownField",
	JSONUnknownVariant: "UnknownVariant",
	JSONInvalidNumber:  "InvalidNumber",
	JSONOutOfRange:     "OutOfRange",
	JSONInvalidLength:  "InvalidLength",
	JSONInvalidUnicode: "InvalidUnicode",
	JSONDuplicateKey:   "DuplicateKey",
	JSONTooDeep:        "TooDeep",
}

// String returns the kind's stable name ("TypeMismatch").
func (k JSONKind) String() string {
	if int(k) < len(jsonKindNames) && jsonKindNames[k] != "" {
		return jsonKindNames[k]
	}
	return "JSONKind(" + strconv.Itoa(int(k)) + ")"
}

// ErrJSON matches every JSON mapping error: errors.Is(err, bitwire.ErrJSON). It
// matches ErrBitwire too.
var ErrJSON error = &sentinel{"JSON"}

// JSONError is a JSON mapping error: its kind, the field path of the offending JSON
// value (same syntax as wire paths, empty at the top level), and a message that is
// not part of any contract.
type JSONError struct {
	Kind JSONKind
	Path string
	Msg  string
}

// Error formats the error as "bitwire: JSON TypeMismatch in a.b: expected …".
func (e *JSONError) Error() string {
	s := "bitwire: JSON " + e.Kind.String()
	if e.Path != "" {
		s += " in " + e.Path
	}
	return s + ": " + e.Msg
}

// Is reports whether target is ErrJSON or ErrBitwire, or the wire sentinel of the
// same meaning (ErrOutOfRange, ErrInvalidLength) for the two kinds that have one.
func (e *JSONError) Is(target error) bool {
	switch target {
	case ErrJSON, ErrBitwire:
		return true
	case ErrOutOfRange:
		return e.Kind == JSONOutOfRange
	case ErrInvalidLength:
		return e.Kind == JSONInvalidLength
	}
	return false
}

func jsonError(kind JSONKind, msg string) error {
	return &JSONError{Kind: kind, Msg: msg}
}

// UnknownVariant returns the error for an enum or union variant name the schema
// does not declare.
func UnknownVariant(name string) error {
	return jsonError(JSONUnknownVariant, "no variant "+strconv.Quote(name))
}

// JSONObject is a parsed JSON object with its keys in document order. ParseJSON
// never produces one with a repeated key (that is a JSONDuplicateKey error).
type JSONObject struct {
	Keys   []string
	Values []any
}

// Get returns the value of key and whether the object has it.
func (o *JSONObject) Get(key string) (any, bool) {
	for i, k := range o.Keys {
		if k == key {
			return o.Values[i], true
		}
	}
	return nil, false
}

func indexOf(keys []string, key string) int {
	for i, k := range keys {
		if k == key {
			return i
		}
	}
	return -1
}

// jsonTypeName describes a JSON value for messages.
func jsonTypeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a bool"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case *JSONObject:
		return "an object"
	}
	return "an unknown value"
}

func mismatch(expected string, found any) error {
	return jsonError(JSONTypeMismatch, "expected "+expected+", found "+jsonTypeName(found))
}

// JSONFields returns v as the object of a struct with the given field names.
// Unknown keys are rejected first, in document order, with the key as path (a
// misspelt field then reads as the typo it is, not as a missing field).
func JSONFields(v any, fields []string) (*JSONObject, error) {
	o, ok := v.(*JSONObject)
	if !ok {
		return nil, mismatch("an object", v)
	}
	for _, k := range o.Keys {
		if indexOf(fields, k) < 0 {
			return nil, InField(jsonError(JSONUnknownField, "no field "+strconv.Quote(k)), k)
		}
	}
	return o, nil
}

// Field returns a required field; a missing one is JSONMissingField with the field
// as path.
func (o *JSONObject) Field(name string) (any, error) {
	if v, ok := o.Get(name); ok {
		return v, nil
	}
	return nil, InField(jsonError(JSONMissingField, "missing field "+strconv.Quote(name)), name)
}

// Optional returns an optional field: a missing one reads as null (nil).
func (o *JSONObject) Optional(name string) any {
	v, _ := o.Get(name)
	return v
}

// JSONBool reads a bool.
func JSONBool(v any) (bool, error) {
	b, ok := v.(bool)
	if !ok {
		return false, mismatch("true or false", v)
	}
	return b, nil
}

// Integer is the set of Go types that hold schema integers.
type Integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// bigInt is an integer of any size read from JSON: sign and magnitude, with huge
// set when the magnitude does not fit in 64 bits.
type bigInt struct {
	neg  bool
	mag  uint64
	huge bool
}

// numberToInt reads a JSON number as an integer (docs/json-mapping.md §2): its
// exact value when that is an integer, in any notation (5, 5.0, 5e0); integers
// beyond 64 bits are kept as huge, so that they fail the range check rather than
// wrap. Any other number is its nearest binary64 value v, which must be integral
// (else JSONTypeMismatch) and is that integer when -2^63 < v < 2^64 (else huge).
func numberToInt(n json.Number) (bigInt, error) {
	s := string(n)
	switch class, neg, mag := classifyNumber(s); class {
	case numberInt:
		return bigInt{neg: neg, mag: mag}, nil
	case numberBig:
		return bigInt{neg: neg, huge: true}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if (err != nil && !math.IsInf(f, 0)) || f != math.Trunc(f) {
		return bigInt{}, jsonError(JSONTypeMismatch, "expected an integer, found "+s)
	}
	if f <= -9223372036854775808.0 || f >= 18446744073709551616.0 {
		return bigInt{neg: f < 0, huge: true}, nil
	}
	return bigInt{neg: f < 0, mag: uint64(math.Abs(f))}, nil
}

// fit converts an integer to T, or fails with JSONOutOfRange when T cannot hold it.
func fit[T Integer](b bigInt, text string) (T, error) {
	var zero T
	signed := zero-1 < zero
	bad := func() (T, error) {
		return 0, jsonError(JSONOutOfRange, text+" does not fit the field's Go type")
	}
	if b.huge {
		return bad()
	}
	if !signed {
		if b.neg && b.mag != 0 {
			return bad()
		}
		t := T(b.mag)
		if uint64(t) != b.mag {
			return bad()
		}
		return t, nil
	}
	var v int64
	switch {
	case !b.neg && b.mag > math.MaxInt64:
		return bad()
	case b.neg && b.mag > 1<<63:
		return bad()
	case b.neg:
		v = -int64(b.mag)
	default:
		v = int64(b.mag)
	}
	t := T(v)
	if int64(t) != v {
		return bad()
	}
	return t, nil
}

// JSONInt reads an integer of a narrow type (range inside ±(2^53-1)): a JSON
// number only.
func JSONInt[T Integer](v any) (T, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, mismatch("an integer", v)
	}
	b, err := numberToInt(n)
	if err != nil {
		return 0, err
	}
	return fit[T](b, string(n))
}

// JSONWideInt reads an integer of a wide type: a JSON number or a decimal string
// (-?[0-9]+, else JSONInvalidNumber).
func JSONWideInt[T Integer](v any) (T, error) {
	switch x := v.(type) {
	case json.Number:
		return JSONInt[T](x)
	case string:
		b, ok := parseDecimal(x)
		if !ok {
			return 0, jsonError(JSONInvalidNumber, strconv.Quote(x)+" is not a decimal integer")
		}
		return fit[T](b, x)
	}
	return 0, mismatch("an integer or a decimal string", v)
}

// parseDecimal parses -?[0-9]+ of any length; magnitudes beyond 64 bits are huge.
func parseDecimal(s string) (bigInt, bool) {
	var b bigInt
	digits := s
	if len(s) > 0 && s[0] == '-' {
		b.neg = true
		digits = s[1:]
	}
	if digits == "" {
		return b, false
	}
	for i := 0; i < len(digits); i++ {
		c := digits[i]
		if c < '0' || c > '9' {
			return b, false
		}
		if b.huge {
			continue
		}
		d := uint64(c - '0')
		if b.mag > (math.MaxUint64-d)/10 {
			b.huge = true
			continue
		}
		b.mag = b.mag*10 + d
	}
	return b, true
}

// JSONF64 reads an f64: a JSON number or "NaN", "Infinity", "-Infinity".
func JSONF64(v any) (float64, error) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		if math.IsInf(f, 0) {
			return 0, jsonError(JSONInvalidNumber, string(x)+" is beyond the binary64 range")
		}
		if err != nil {
			return 0, mismatch("a number", v)
		}
		return f, nil
	case string:
		switch x {
		case "NaN":
			// The canonical NaN (spec §3.2), which the other runtimes read too:
			// math.NaN() has a payload (0x7FF8000000000001), which the bincode
			// encoding would write as it is (§13.2).
			return math.Float64frombits(CanonicalNaN64), nil
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		}
		return 0, jsonError(JSONInvalidNumber, strconv.Quote(x)+` is not "NaN", "Infinity" or "-Infinity"`)
	}
	return 0, mismatch("a number", v)
}

// JSONF32 reads an f32: as JSONF64, then rounded to the nearest f32 — the rounding
// the reference codec and the JavaScript runtime (Math.fround) apply, so that every
// language gets the same f32 from the same text. A finite number that would round
// to infinity is JSONInvalidNumber.
func JSONF32(v any) (float32, error) {
	f, err := JSONF64(v)
	r := float32(f)
	if err == nil && !math.IsInf(f, 0) && math.IsInf(float64(r), 0) {
		return 0, jsonError(JSONInvalidNumber, strconv.FormatFloat(f, 'g', -1, 64)+" is beyond the binary32 range")
	}
	return r, err
}

// JSONString reads a string.
func JSONString(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", mismatch("a string", v)
	}
	return s, nil
}

// JSONBytes reads bytes from hex (either case, two digits per byte), appending them
// to dst (the destination's old slice cut to length zero, to reuse its capacity).
func JSONBytes(v any, dst []byte) ([]byte, error) {
	s, ok := v.(string)
	if !ok {
		return dst, mismatch("a hex string", v)
	}
	bad := jsonError(JSONTypeMismatch, "expected an even number of hex digits")
	if len(s)%2 != 0 {
		return dst, bad
	}
	for i := 0; i < len(s); i += 2 {
		hi, ok1 := hexDigit(s[i])
		lo, ok2 := hexDigit(s[i+1])
		if !ok1 || !ok2 {
			return dst, bad
		}
		dst = append(dst, hi<<4|lo)
	}
	return dst, nil
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// JSONArray reads the elements of a JSON array (for lists and fixed arrays).
func JSONArray(v any) ([]any, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, mismatch("an array", v)
	}
	return items, nil
}

// JSONFixedLen checks the length of the JSON array of a [N]T after its elements
// were converted (element errors come first, as in the reference codec); another
// length is JSONInvalidLength.
func JSONFixedLen(items []any, n int) error {
	if len(items) != n {
		return jsonError(JSONInvalidLength, "expected "+strconv.Itoa(n)+" elements, found "+strconv.Itoa(len(items)))
	}
	return nil
}

// JSONName reads an enum value's variant name.
func JSONName(v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", mismatch("a variant name", v)
	}
	return s, nil
}

// JSONVariant reads a union value: "Variant" (no payload; has is false) or
// {"Variant": payload}.
func JSONVariant(v any) (name string, payload any, has bool, err error) {
	switch x := v.(type) {
	case string:
		return x, nil, false, nil
	case *JSONObject:
		if len(x.Keys) == 1 {
			return x.Keys[0], x.Values[0], true, nil
		}
	}
	return "", nil, false, mismatch("a variant name or a one-key object", v)
}

// JSONPayload returns the payload of a union variant that declares one; a bare
// variant name is JSONTypeMismatch.
func JSONPayload(payload any, has bool) (any, error) {
	if !has {
		return nil, jsonError(JSONTypeMismatch, `the variant has a payload: write {"Variant": …}`)
	}
	return payload, nil
}

// JSONUnit checks that a unit variant has no payload (null is allowed).
func JSONUnit(payload any, has bool) error {
	if has && payload != nil {
		return mismatch("null for a unit variant", payload)
	}
	return nil
}
