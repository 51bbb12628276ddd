package bitwire

import "math/bits"

// Decode limits (spec §11): every allocation a decoder makes for a list, string or
// bytes value is charged against a budget proportional to the input's length, so
// that no input can make it allocate more than a bound of its size.

const (
	// DefaultBaseBytes is the budget every decode starts with by default.
	DefaultBaseBytes = 1 << 20
	// DefaultBytesPerInputByte is the budget added per input byte by default.
	DefaultBytesPerInputByte = 64
	// AllocationOverhead is what the memory model charges an allocation beyond its
	// contents (spec §11).
	AllocationOverhead = 32
)

// Limits says how much a decoder may allocate: Base + PerInputByte × the input's
// length, in bytes of the memory model of spec §11 (a list of n elements is charged
// n × the in-memory size of an element plus AllocationOverhead, a string or bytes
// value of n bytes n plus AllocationOverhead; the top-level value itself is not
// charged). A length whose charge is more than the budget left is LimitExceeded at
// the value, at the same bit in every bitwire decoder; the decoder checks it before
// allocating. Verify charges the same without allocating, so it fails exactly when
// Decode does.
type Limits struct {
	// Base is the budget every decode starts with, in bytes.
	Base uint64
	// PerInputByte is the budget added per byte of input.
	PerInputByte uint64
}

// DefaultLimits returns the limits NewBitReader and Decode use: 1 MiB plus 64 bytes
// per input byte.
func DefaultLimits() Limits {
	return Limits{Base: DefaultBaseBytes, PerInputByte: DefaultBytesPerInputByte}
}

// Budget returns the budget for an input of n bytes: Base + PerInputByte × n,
// saturating at the largest uint64.
func (l Limits) Budget(n int) uint64 {
	hi, per := bits.Mul64(l.PerInputByte, uint64(n))
	sum, carry := bits.Add64(l.Base, per, 0)
	if hi != 0 || carry != 0 {
		return 1<<64 - 1
	}
	return sum
}

// charge returns what a sequence of n elements of perElem bytes costs (spec §11):
// nothing when empty, else its contents plus one allocation's overhead, saturating.
func charge(n, perElem uint64) uint64 {
	if n == 0 {
		return 0
	}
	hi, size := bits.Mul64(n, perElem)
	sum, carry := bits.Add64(size, AllocationOverhead, 0)
	if hi != 0 || carry != 0 {
		return 1<<64 - 1
	}
	return sum
}
