// Floats: IEEE bits with the canonical NaN (spec §3.2) and quantization of grids over
// 2^53 steps (spec §4.3; generated code writes smaller grids' arithmetic out).
//
// JavaScript numbers are binary64. An `f32` field holds a number that the codec rounds
// to binary32 (`Math.fround`, round to nearest even — what `as f32` does in Rust), so
// the bytes match the other languages for every input.

/** The one NaN the wire carries for `f32` (quiet, positive, zero payload). */
export const CANONICAL_NAN_F32 = 0x7fc00000;
/** High word of the one NaN the wire carries for `f64`; its low word is zero. */
export const CANONICAL_NAN_F64_HI = 0x7ff80000;

// One scratch buffer for bit casts. DataView with an explicit byte order, so the
// result does not depend on the platform's endianness.
const scratch = new DataView(new ArrayBuffer(8));

/** The 32 bits to write for an `f32`: its IEEE bits after rounding, NaN canonical. */
export function f32ToBits(v: number): number {
  if (v !== v) {
    return CANONICAL_NAN_F32;
  }
  scratch.setFloat32(0, v, true);
  return scratch.getUint32(0, true);
}

/** Whether 32 wire bits are a NaN other than the canonical one (spec §3.2). */
export function isNonCanonicalF32(bits: number): boolean {
  // Exponent all ones with a non-zero fraction is a NaN, whatever the sign.
  return (bits & 0x7fffffff) > 0x7f800000 && bits >>> 0 !== CANONICAL_NAN_F32;
}

/** The `f32` value of 32 wire bits (the caller has rejected non-canonical NaNs). */
export function f32FromBits(bits: number): number {
  scratch.setUint32(0, bits, true);
  return scratch.getFloat32(0, true);
}

/**
 * The low 32 bits to write for an `f64` (NaN canonical); read the high half with
 * {@link f64HiBits} right after, which reuses the same conversion.
 */
export function f64LoBits(v: number): number {
  if (v !== v) {
    scratch.setUint32(0, 0, true);
    scratch.setUint32(4, CANONICAL_NAN_F64_HI, true);
    return 0;
  }
  scratch.setFloat64(0, v, true);
  return scratch.getUint32(0, true);
}

/** The high 32 bits of the `f64` last passed to {@link f64LoBits}. */
export function f64HiBits(): number {
  return scratch.getUint32(4, true);
}

/** Whether 64 wire bits (two halves) are a NaN other than the canonical one. */
export function isNonCanonicalF64(lo: number, hi: number): boolean {
  const exp = hi & 0x7ff00000;
  const isNaN = exp === 0x7ff00000 && ((hi & 0x000fffff) !== 0 || lo !== 0);
  return isNaN && !(hi >>> 0 === CANONICAL_NAN_F64_HI && lo === 0);
}

/** The `f64` value of 64 wire bits (the caller has rejected non-canonical NaNs). */
export function f64FromBits(lo: number, hi: number): number {
  scratch.setUint32(0, lo, true);
  scratch.setUint32(4, hi, true);
  return scratch.getFloat64(0, true);
}

/** Largest value of a 64-bit stored integer: where Rust's `as u64` saturates. */
const U64_MAX = 0xffffffffffffffffn;

/**
 * Quantizes `v` onto `0..=steps` (spec §4.3) for grids of more than 2^53 steps (a stored
 * integer of 54..64 bits): `floor((v - min) / (max - min) * steps + 0.5)` in binary64,
 * converted to `bigint` the way Rust's `as u64` converts (saturating at 2^64 - 1).
 * Returns -1n for NaN and values outside `min..=max`. Generated code writes the same
 * operations out for smaller grids.
 */
export function quantizeBig(v: number, min: number, max: number, steps: bigint): bigint {
  if (typeof v !== "number" || !(min <= v && v <= max)) {
    return -1n;
  }
  const q = Math.floor(((v - min) / (max - min)) * Number(steps) + 0.5);
  const big = BigInt(q);
  return big > U64_MAX ? U64_MAX : big;
}
