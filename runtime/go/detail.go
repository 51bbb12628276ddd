package bitwire

import (
	"math/bits"
	"strconv"
)

// Detail says what the offending value of an [Error] was and what it had to be, for
// messages ("1200 not in 0..=1000"). It is one of [Range], [FloatRange], [Steps],
// [Undeclared], [Length], [Bits], [Budget], [Padding], [Trailing], [NaN],
// [NonMinimal] and [UTF8]; every error a codec returns has one.
// Details are not part of the contract: kinds, bits and paths are, and the vectors
// compare only those.
type Detail interface {
	// String is the detail as Error prints it after the path.
	String() string
	isDetail()
}

// Range is the detail of an integer outside Min..=Max (spec §3.1, §4.2).
type Range struct {
	Value, Min, Max Int
}

// FloatRange is the detail of a quantized float outside Min..=Max, or NaN (§4.3).
type FloatRange struct {
	Value, Min, Max float64
}

// Steps is the detail of a quantized float whose stored integer Q is above the
// last step (§4.3).
type Steps struct {
	Q, Steps uint64
}

// Undeclared is the detail of an enum value or union tag the schema does not
// declare (§3, §5.2).
type Undeclared struct {
	Value uint64
}

// Length is the detail of a length above its bound Max (§5.6).
type Length struct {
	Len, Max uint64
}

// Bits is the detail of input that ended early: the value needs at least Need bits
// and Left remain.
type Bits struct {
	Need, Left uint64
}

// Budget is the detail of a decode budget exceeded (spec §11): the allocation is
// charged Need bytes and Left remain.
type Budget struct {
	Need, Left uint64
}

// Padding is the detail of non-zero padding (§2.2): the Bits padding bits after the
// value hold Value (the first padding bit in bit 0), where every bit must be zero.
type Padding struct {
	Value, Bits uint64
}

// Trailing is the detail of trailing data (§2.2): the input is Len bytes, and the
// value's encoding ends after End of them.
type Trailing struct {
	Len, End uint64
}

// NaN is the detail of a float whose bits are a NaN other than the canonical one
// (§3.2): Bits is what the input held, Canonical the only NaN allowed (32-bit
// patterns for an f32).
type NaN struct {
	Bits, Canonical uint64
}

// NonMinimal is the detail of a non-minimal varint (§5.4): Value was encoded in
// Groups groups of [GroupBits] bits where Min suffice.
type NonMinimal struct {
	Value, Groups, Min uint64
}

// UTF8 is the detail of a string that is not UTF-8 (§5.6): the first byte that does
// not start a valid UTF-8 sequence is Byte, at index At of the string's Len bytes.
type UTF8 struct {
	At, Len uint64
	Byte    uint8
}

func (Range) isDetail()      {}
func (FloatRange) isDetail() {}
func (Steps) isDetail()      {}
func (Undeclared) isDetail() {}
func (Length) isDetail()     {}
func (Bits) isDetail()       {}
func (Budget) isDetail()     {}
func (Padding) isDetail()    {}
func (Trailing) isDetail()   {}
func (NaN) isDetail()        {}
func (NonMinimal) isDetail() {}
func (UTF8) isDetail()       {}

func (d Range) String() string {
	return d.Value.String() + " not in " + d.Min.String() + "..=" + d.Max.String()
}

func (d FloatRange) String() string {
	return formatFloat(d.Value) + " not in " + formatFloat(d.Min) + "..=" + formatFloat(d.Max)
}

func (d Steps) String() string {
	return "stored " + u(d.Q) + " above the last step " + u(d.Steps)
}

func (d Undeclared) String() string { return u(d.Value) + " is not declared" }

func (d Length) String() string { return "length " + u(d.Len) + ", at most " + u(d.Max) }

func (d Bits) String() string { return "needs " + count(d.Need, "bit") + ", " + u(d.Left) + " left" }

func (d Budget) String() string {
	return "needs " + count(d.Need, "byte") + ", " + u(d.Left) + " left in the decode budget"
}

func (d Padding) String() string {
	return "padding 0b" + base2(d.Value, d.Bits) + " (" + count(d.Bits, "bit") + ") must be zero"
}

func (d Trailing) String() string {
	return "the value ends after byte " + u(d.End) + " of " + u(d.Len) + ", " +
		u(d.Len-d.End) + " more follow"
}

func (d NaN) String() string {
	digits := 16
	if d.Canonical>>32 == 0 {
		digits = 8
	}
	return "NaN 0x" + hex(d.Bits, digits) + ", the canonical NaN is 0x" + hex(d.Canonical, digits)
}

func (d NonMinimal) String() string {
	return u(d.Value) + " in " + u(d.Groups) + " groups, " + u(d.Min) + " suffice"
}

func (d UTF8) String() string {
	return "byte " + u(d.At) + " of " + u(d.Len) + " (0x" + hex(uint64(d.Byte), 2) +
		") is not valid UTF-8"
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

// count returns "1 bit", "2 bits".
func count(v uint64, unit string) string {
	if v == 1 {
		return "1 " + unit
	}
	return u(v) + " " + unit + "s"
}

// base2 returns the low n bits of v in base 2, most significant first.
func base2(v, n uint64) string {
	s := strconv.FormatUint(v, 2)
	for uint64(len(s)) < n {
		s = "0" + s
	}
	return s
}

// hex returns v in lowercase hexadecimal with at least digits digits.
func hex(v uint64, digits int) string {
	s := strconv.FormatUint(v, 16)
	for len(s) < digits {
		s = "0" + s
	}
	return s
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Int is an integer of a [Range] detail, held exactly. Schema integers lie in
// -2^63..2^64-1, but a decoded out-of-range value is its stored offset added to the
// field's minimum and can reach past 2^64, which no Go integer type holds: so an Int
// is a sign and a 65-bit magnitude.
type Int struct {
	neg   bool
	carry bool // adds 2^64 to abs
	abs   uint64
}

// IntOf returns v as an Int.
func IntOf(v int64) Int {
	if v < 0 {
		return Int{neg: true, abs: uint64(-(v + 1)) + 1}
	}
	return Int{abs: uint64(v)}
}

// UintOf returns v as an Int.
func UintOf(v uint64) Int { return Int{abs: v} }

// add returns i + off, exactly.
func (i Int) add(off uint64) Int {
	if !i.neg {
		abs, c := bits.Add64(i.abs, off, 0)
		return Int{carry: i.carry || c != 0, abs: abs}
	}
	if off >= i.abs {
		return Int{abs: off - i.abs}
	}
	return Int{neg: true, abs: i.abs - off}
}

// Int64 returns the value as an int64, and whether it fits.
func (i Int) Int64() (int64, bool) {
	switch {
	case i.carry:
		return 0, false
	case i.neg:
		return -int64(i.abs-1) - 1, i.abs <= 1<<63
	default:
		return int64(i.abs), i.abs < 1<<63
	}
}

// Uint64 returns the value as a uint64, and whether it fits.
func (i Int) Uint64() (uint64, bool) {
	return i.abs, !i.neg && !i.carry
}

// String returns the value in decimal.
func (i Int) String() string {
	s := u(i.abs)
	if i.carry {
		// 2^64 + abs, below 10^20: the high and low 19 digits.
		hi, lo := bits.Div64(1, i.abs, 1e19)
		s = u(hi) + pad19(u(lo))
	}
	if i.neg && i.abs != 0 {
		return "-" + s
	}
	return s
}

func pad19(s string) string {
	const zeros = "0000000000000000000"
	return zeros[len(s):] + s
}
