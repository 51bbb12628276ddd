//! Floats: canonical NaN (spec §3.2) and quantization (spec §4.3).

use crate::{Error, ErrorKind, Result};

/// The one NaN the wire carries for `f32` (quiet, positive, zero payload).
pub const CANONICAL_NAN_F32: u32 = 0x7FC0_0000;
/// The one NaN the wire carries for `f64` (quiet, positive, zero payload).
pub const CANONICAL_NAN_F64: u64 = 0x7FF8_0000_0000_0000;

/// The bits to write for an `f32`: its IEEE bits, with every NaN made canonical.
#[inline(always)]
pub fn f32_to_wire(v: f32) -> u64 {
    u64::from(if v.is_nan() {
        CANONICAL_NAN_F32
    } else {
        v.to_bits()
    })
}

/// The bits to write for an `f64`: its IEEE bits, with every NaN made canonical.
#[inline(always)]
pub fn f64_to_wire(v: f64) -> u64 {
    if v.is_nan() {
        CANONICAL_NAN_F64
    } else {
        v.to_bits()
    }
}

/// An `f32` from 32 wire bits; a non-canonical NaN is `NonCanonical` at bit `at`.
#[inline(always)]
pub fn f32_from_wire(bits: u64, at: u64) -> Result<f32> {
    let v = f32::from_bits(bits as u32);
    if v.is_nan() && bits as u32 != CANONICAL_NAN_F32 {
        let canonical = u64::from(CANONICAL_NAN_F32);
        return Err(Error::non_canonical_nan(at, bits & 0xFFFF_FFFF, canonical));
    }
    Ok(v)
}

/// An `f64` from 64 wire bits; a non-canonical NaN is `NonCanonical` at bit `at`.
#[inline(always)]
pub fn f64_from_wire(bits: u64, at: u64) -> Result<f64> {
    let v = f64::from_bits(bits);
    if v.is_nan() && bits != CANONICAL_NAN_F64 {
        return Err(Error::non_canonical_nan(at, bits, CANONICAL_NAN_F64));
    }
    Ok(v)
}

/// Quantizes `v` onto `0..=steps` (§4.3): NaN and values outside `min..=max` are
/// `OutOfRange` at bit `at`.
#[inline]
pub fn quantize(v: f64, min: f64, max: f64, steps: u64, at: u64) -> Result<u64> {
    // `!(a <= b)` rather than `a > b` so that NaN is rejected too.
    if !(min <= v && v <= max) {
        return Err(float_range_error(
            at,
            v.to_bits(),
            min.to_bits(),
            max.to_bits(),
        ));
    }
    Ok(grid_index(v, min, max, steps))
}

/// The grid index of `v`, which is in `min..=max` (§4.3).
#[inline(always)]
pub(crate) fn grid_index(v: f64, min: f64, max: f64, steps: u64) -> u64 {
    let t = (v - min) / (max - min);
    // `t * steps + 0.5` is in `0.5..=steps + 0.5`, non-negative, so truncating is `floor`
    // (and needs no `std`, unlike `f64::floor`).
    (t * steps as f64 + 0.5) as u64
}

/// `OutOfRange` at `at` for the float of bits `value` outside `min..=max` (or NaN), the
/// three given as their bits: an encoder's hot path passes integers to its cold error
/// call (`f64` arguments there took an `Input` encode from 8.3 to 13.0 ns in the lab).
#[cold]
#[inline(never)]
pub(crate) fn float_range_error(at: u64, value: u64, min: u64, max: u64) -> Error {
    Error::new(ErrorKind::OutOfRange, at).with_detail(crate::Detail::FloatRange { value, min, max })
}

/// The grid value of `q` (§4.3), in binary64; `f32` fields round the result with `as f32`.
#[inline]
pub fn dequantize(q: u64, min: f64, max: f64, steps: u64) -> f64 {
    // The last grid point is `max` itself: the formula could land one ulp above it, and
    // the encoder would then reject the decoded value.
    if q == steps {
        return max;
    }
    min + ((max - min) * q as f64) / steps as f64
}

/// [`dequantize`] with the division by `steps` replaced by a multiplication by `scale`
/// (`1 / steps`), which is several times faster. Only for fields whose generated code
/// passes a `scale` the compiler proved exact (`compiler/src/plan/quant.rs`): `steps` a
/// power of two, or an `f32` field whose every grid point, rounded to `f32`, is exactly
/// [`dequantize`]'s (§4.3 stays the definition). The scale is a literal in the generated
/// code, so no division is left whether or not this call is inlined.
#[inline]
pub fn dequantize_scaled(q: u64, min: f64, max: f64, steps: u64, scale: f64) -> f64 {
    if q == steps {
        return max;
    }
    min + ((max - min) * q as f64) * scale
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_is_canonical_on_the_wire() {
        assert_eq!(f32_to_wire(f32::from_bits(0xFFC0_0001)), 0x7FC0_0000);
        assert_eq!(f64_to_wire(-f64::NAN), CANONICAL_NAN_F64);
        assert!(f32_from_wire(0x7FC0_0000, 0).unwrap().is_nan());
        assert_eq!(f32_from_wire(0x7FC0_0001, 9).unwrap_err().bit(), 9);
        assert_eq!(
            f64_from_wire(0xFFF8_0000_0000_0000, 0).unwrap_err().kind(),
            ErrorKind::NonCanonical
        );
        assert_eq!(
            f64_from_wire((-0.0f64).to_bits(), 0).unwrap().to_bits(),
            (-0.0f64).to_bits()
        );
    }

    #[test]
    fn quantization_round_trips_on_the_grid() {
        let (min, max, steps) = (-1024.0, 1024.0, 65535);
        for q in [0, 1, 2, 32767, 32768, 65534, 65535] {
            let v = dequantize(q, min, max, steps);
            assert_eq!(quantize(v, min, max, steps, 0).unwrap(), q);
            assert_eq!(
                quantize(f64::from(v as f32), min, max, steps, 0).unwrap(),
                q
            );
        }
        assert_eq!(
            quantize(1024.5, min, max, steps, 3).unwrap_err().kind(),
            ErrorKind::OutOfRange
        );
        assert!(quantize(f64::NAN, min, max, steps, 0).is_err());
    }
}
