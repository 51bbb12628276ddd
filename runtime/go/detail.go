package bitwire

import (
	"math/bits"
	"strconv"
)

// Detail says what the offending value of an [Error] was and what it had to be, for
// messages ("1200 not in 0..=1000"). It is one of [Range], [FloatRange], [Steps],
// [Undeclared], [Length], [Bits] and [Budget], or nil when nothing more is known.
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

func (Range) isDetail()      {}
func (FloatRange) isDetail() {}
func (Steps) isDetail()      {}
func (Undeclared) isDetail() {}
func (Length) isDetail()     {}
func (Bits) isDetail()       {}
func (Budget) isDetail()     {}

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

func (d Bits) String() string { return "needs " + u(d.Need) + " bits, " + u(d.Left) + " left" }

func (d Budget) String() string {
	return "needs " + u(d.Need) + " bytes, " + u(d.Left) + " left in the decode budget"
}

func u(v uint64) string { return strconv.FormatUint(v, 10) }

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
