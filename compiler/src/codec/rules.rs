//! The arithmetic of the spec, shared by the encoder, the decoder and the JSON mapping:
//! integer ranges, varint shape, zigzag, quantization, canonical NaN and minimum widths.
//!
//! Everything is computed in `i128`/`u128` (or binary64 for quantization, as §4.3
//! demands) so that no intermediate step can overflow.

use crate::ir::{FloatRepr, LengthEncoding, Schema, Type};

/// The canonical `f32` NaN (§3.2): quiet, positive, zero payload.
pub(crate) const CANONICAL_NAN_F32: u32 = 0x7FC0_0000;
/// The canonical `f64` NaN (§3.2): quiet, positive, zero payload.
pub(crate) const CANONICAL_NAN_F64: u64 = 0x7FF8_0000_0000_0000;

/// The inclusive range of values of an integer type (`uN`, `iN`, bounded, varints), or
/// `None` for a type that is not an integer.
pub(crate) fn int_range(ty: &Type) -> Option<(i128, i128)> {
    match *ty {
        Type::UInt { bits, .. } | Type::VarUInt { bits, .. } => Some(unsigned_range(bits)),
        Type::SInt { bits, .. } | Type::VarSInt { bits, .. } => Some(signed_range(bits)),
        Type::Bounded { min, max, .. } => Some((min, max)),
        _ => None,
    }
}

/// `0 ..= 2^bits - 1`.
pub(crate) fn unsigned_range(bits: u32) -> (i128, i128) {
    (0, (1i128 << bits) - 1)
}

/// `-2^(bits-1) ..= 2^(bits-1) - 1`.
pub(crate) fn signed_range(bits: u32) -> (i128, i128) {
    let half = 1i128 << (bits - 1);
    (-half, half - 1)
}

/// Number of 4-bit groups at most in a varint of width `bits` (§5.4: `GMAX = W / 4`).
pub(crate) fn varint_gmax(bits: u32) -> u32 {
    bits / 4
}

/// Number of 4-bit groups of the minimal encoding of `u` (§5.4:
/// `n = max(1, ceil(bits_for(u) / 4))`).
pub(crate) fn varint_groups(u: u64) -> u32 {
    let bits = crate::ir::bits_for(u128::from(u));
    bits.div_ceil(4).max(1)
}

/// Zigzag (§5.4): 0, -1, 1, -2 → 0, 1, 2, 3. `v` is in the signed range of the width,
/// so the result fits that width unsigned.
pub(crate) fn zigzag(v: i128) -> u64 {
    let u = if v >= 0 { 2 * v } else { -2 * v - 1 };
    u as u64
}

/// Inverse of [`zigzag`].
pub(crate) fn unzigzag(u: u64) -> i128 {
    let u = i128::from(u);
    if u % 2 == 0 {
        u / 2
    } else {
        -(u + 1) / 2
    }
}

/// Rounds a value to the precision of `repr` (§3: an `f32` field holds binary32).
pub(crate) fn round_to(repr: FloatRepr, v: f64) -> f64 {
    match repr {
        FloatRepr::F32 => f64::from(v as f32),
        FloatRepr::F64 => v,
    }
}

/// Quantizes `v` (already in `min..=max`, not NaN) by §4.3, in binary64, in exactly
/// the spec's order of operations.
pub(crate) fn quantize(v: f64, min: f64, max: f64, steps: u64) -> u64 {
    let t = (v - min) / (max - min);
    let q = (t * steps as f64 + 0.5).floor();
    // `q` is in 0..=steps for in-range `v`; `as` saturates, so a pathological schema
    // cannot make this wrap.
    q as u64
}

/// The value of grid point `q` (already `<= steps`) by §4.3, rounded to `repr`.
pub(crate) fn dequantize(q: u64, min: f64, max: f64, steps: u64, repr: FloatRepr) -> f64 {
    // The last grid point is `max` itself (§4.3): the formula could land one ulp above
    // it, and the encoder would then reject the decoded value.
    let v = if q == steps {
        max
    } else {
        min + ((max - min) * q as f64) / steps as f64
    };
    round_to(repr, v)
}

/// The fewest bits any value of `ty` encodes to (`min_bits(T)` of §5.6).
///
/// Anonymous types are computed here from their shape; named types take the
/// compiler's `packed.min_bits` (spec §6.1), which also keeps this finite for
/// recursive schemas.
pub fn min_bits(schema: &Schema, ty: &Type) -> u64 {
    match ty {
        Type::Bool => 1,
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => u64::from(*bits),
        Type::Float {
            repr: FloatRepr::F32,
        } => 32,
        Type::Float {
            repr: FloatRepr::F64,
        } => 64,
        Type::Bounded { packed_bits, .. } | Type::Quantized { packed_bits, .. } => {
            u64::from(*packed_bits)
        }
        Type::VarUInt { bits, .. } | Type::VarSInt { bits, .. } => varint_min_bits(*bits),
        Type::Optional { .. } => 1,
        Type::Array { elem, len } => len.saturating_mul(min_bits(schema, elem)),
        Type::List { packed_len, .. }
        | Type::String { packed_len, .. }
        | Type::Bytes { packed_len, .. } => length_min_bits(*packed_len),
        Type::Named { id, .. } => schema.types[*id].packed.min_bits,
    }
}

/// One group, plus the terminating zero bit unless one group is already `GMAX`.
fn varint_min_bits(bits: u32) -> u64 {
    if varint_gmax(bits) > 1 {
        5
    } else {
        4
    }
}

/// Minimum width of a length prefix: its fixed width, or the shortest `varu64`.
fn length_min_bits(len: LengthEncoding) -> u64 {
    match len {
        LengthEncoding::Fixed { bits } => u64::from(bits),
        LengthEncoding::Varint => varint_min_bits(64),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zigzag_matches_the_spec_formula() {
        for w in [16u32, 32, 64] {
            let (lo, hi) = signed_range(w);
            for v in [lo, lo + 1, -2, -1, 0, 1, 2, hi - 1, hi] {
                // (v << 1) ^ (v >> (W - 1)), in W bits.
                let mask = (1u128 << w) - 1;
                let vv = v as u128 & mask;
                let sign = if v < 0 { mask } else { 0 };
                let expect = ((vv << 1) & mask) ^ sign;
                assert_eq!(u128::from(zigzag(v)), expect, "w={w} v={v}");
                assert_eq!(unzigzag(zigzag(v)), v);
            }
        }
        assert_eq!([0, -1, 1, -2].map(zigzag), [0, 1, 2, 3]);
    }

    #[test]
    fn varint_group_counts() {
        assert_eq!(varint_groups(0), 1);
        assert_eq!(varint_groups(15), 1);
        assert_eq!(varint_groups(16), 2);
        assert_eq!(varint_groups(255), 2);
        assert_eq!(varint_groups(256), 3);
        assert_eq!(varint_groups(u64::MAX), 16);
    }

    #[test]
    fn quantization_grid() {
        // 0..=1 in 10 steps: 0.05 sits exactly on .5 after scaling and rounds up.
        assert_eq!(quantize(0.0, 0.0, 1.0, 10), 0);
        assert_eq!(quantize(1.0, 0.0, 1.0, 10), 10);
        assert_eq!(quantize(0.26, 0.0, 1.0, 10), 3);
        assert_eq!(dequantize(3, 0.0, 1.0, 10, FloatRepr::F64), 0.3);
        assert_eq!(
            dequantize(3, 0.0, 1.0, 10, FloatRepr::F32),
            f64::from(0.3f32)
        );
    }
}
