package bitwire

import "math"

// The one NaN the wire carries (§3.2): quiet, positive sign, zero payload.
const (
	CanonicalNaN32 uint32 = 0x7FC00000
	CanonicalNaN64 uint64 = 0x7FF8000000000000
)

// F32ToWire returns the bits to write for an f32: its IEEE 754 bits, with every NaN
// made canonical.
func F32ToWire(v float32) uint64 {
	if v != v {
		return uint64(CanonicalNaN32)
	}
	return uint64(math.Float32bits(v))
}

// F64ToWire returns the bits to write for an f64: its IEEE 754 bits, with every NaN
// made canonical.
func F64ToWire(v float64) uint64 {
	if v != v {
		return CanonicalNaN64
	}
	return math.Float64bits(v)
}

// F32FromWire returns the f32 with the 32 wire bits b; a NaN other than the
// canonical one is NonCanonical at bit at.
func F32FromWire(b uint64, at uint64) (float32, error) {
	v := math.Float32frombits(uint32(b))
	if v != v && uint32(b) != CanonicalNaN32 {
		return 0, nanError(at, uint64(uint32(b)), uint64(CanonicalNaN32))
	}
	return v, nil
}

// F64FromWire returns the f64 with the 64 wire bits b; a NaN other than the
// canonical one is NonCanonical at bit at.
func F64FromWire(b uint64, at uint64) (float64, error) {
	v := math.Float64frombits(b)
	if v != v && b != CanonicalNaN64 {
		return 0, nanError(at, b, CanonicalNaN64)
	}
	return v, nil
}

// Quantize maps v, already checked to be in min..=max and not NaN, onto 0..=steps
// (§4.3): t = (v-min)/(max-min), q = floor(t*steps + 0.5), in binary64 in exactly
// this order. The explicit float64 conversions forbid the compiler to fuse the
// multiply and add (the Go spec allows fusion otherwise), which would round
// differently from every other runtime.
func Quantize(v, min, max float64, steps uint64) uint64 {
	t := float64(v-min) / float64(max-min)
	// t*steps + 0.5 is at least 0.5, so truncating is floor.
	return uint64(float64(t*float64(steps)) + 0.5)
}

// Dequantize returns the grid value of q (§4.3) in binary64: max itself for
// q == steps (the formula can land one ulp above max there, and the encoder would
// reject that value), min + ((max-min)*q)/steps otherwise. f32 fields round the
// result with float32(…).
func Dequantize(q uint64, min, max float64, steps uint64) float64 {
	if q == steps {
		return max
	}
	return min + float64(float64(max-min)*float64(q))/float64(steps)
}

// DequantizeScaled is [Dequantize] with the division by steps replaced by a
// multiplication by scale, the binary64 value of 1/steps, which is several times
// faster. Generated code calls it only where the compiler proved the result equal
// to Dequantize's: for an f32 field whose every grid point, rounded to binary32,
// comes out the same, or for steps a power of two (then 1/steps is exact and the
// product is the quotient). q must be at most steps, and steps below 2^63.
func DequantizeScaled(q uint64, min, max float64, steps uint64, scale float64) float64 {
	if q == steps {
		return max
	}
	// int64: q is below 2^63, and a signed conversion is one instruction.
	return min + float64(float64(float64(max-min)*float64(int64(q)))*scale)
}

// nanError returns NonCanonical at bit at for a NaN with the bits b other than the
// canonical one (§3.2).
//
//go:noinline
func nanError(at, b, canonical uint64) error {
	return detailed(NonCanonical, at, NaN{b, canonical})
}
