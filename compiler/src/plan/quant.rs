//! Faster dequantization, proved per field: §4.3 defines a quantized float's value as
//! `min + ((max - min) * q) / steps` in binary64. A division costs several times a
//! multiplication, and for `f32` fields the final rounding to `f32` usually hides the
//! difference between dividing by `steps` and multiplying by `1 / steps`. Backends
//! multiply only where [`reciprocal_scale`] says so: when `steps` is a power of two
//! (then `1 / steps` is exact and both operations round the same real number), or for an
//! `f32` field whose every grid point [`f32_scale`] has checked.

use crate::ir::FloatRepr;

/// Largest grid [`f32_scale`] walks (65,536 points, well under a millisecond).
pub const MAX_CHECKED_STEPS: u64 = 1 << 16;

/// `Some(1 / steps)` when, for every stored integer `q` in `0..steps`, rounding
/// `min + ((max - min) * q) * (1 / steps)` to `f32` gives exactly the bits of rounding
/// §4.3's `min + ((max - min) * q) / steps` (`q == steps` decodes to `max` either way);
/// `None` when some point differs or the grid is larger than [`MAX_CHECKED_STEPS`].
pub fn f32_scale(min: f64, max: f64, steps: u64) -> Option<f64> {
    if steps == 0 || steps > MAX_CHECKED_STEPS {
        return None;
    }
    let range = max - min;
    let divisor = steps as f64;
    let scale = 1.0 / divisor;
    (0..steps)
        .all(|q| {
            let x = range * q as f64;
            ((min + x / divisor) as f32).to_bits() == ((min + x * scale) as f32).to_bits()
        })
        .then_some(scale)
}

/// `Some(1 / steps)` when a decoder of a `repr` field may multiply by it instead of
/// dividing by `steps` and get the same value at every grid point; the one rule every
/// backend uses.
pub fn reciprocal_scale(repr: FloatRepr, min: f64, max: f64, steps: u64) -> Option<f64> {
    if steps.is_power_of_two() && steps < 1 << 62 {
        Some(1.0 / steps as f64)
    } else if repr == FloatRepr::F32 {
        f32_scale(min, max, steps)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_grids_multiply_in_any_width() {
        for k in [1u32, 8, 17, 40, 61] {
            let steps = 1u64 << k;
            let scale = reciprocal_scale(FloatRepr::F64, -1024.0, 1024.0, steps).unwrap();
            for q in [0, 1, steps / 3, steps - 1] {
                let x = 2048.0 * q as f64;
                assert_eq!(
                    (x / steps as f64).to_bits(),
                    (x * scale).to_bits(),
                    "2^{k} q {q}"
                );
            }
        }
        assert_eq!(reciprocal_scale(FloatRepr::F64, 0.0, 360.0, 4095), None);
        assert_eq!(
            reciprocal_scale(FloatRepr::F32, 0.0, 360.0, 4095),
            Some(1.0 / 4095.0)
        );
    }

    #[test]
    fn example_grids_multiply() {
        assert_eq!(f32_scale(-1.0, 1.0, 255), Some(1.0 / 255.0));
        assert_eq!(f32_scale(0.0, 360.0, 4095), Some(1.0 / 4095.0));
        assert_eq!(f32_scale(-64.0, 64.0, 1023), Some(1.0 / 1023.0));
    }

    #[test]
    fn a_grid_where_multiplying_differs_divides() {
        // 0x1.8000018000001p+1: a third of it is one f64 ulp above 1 + 2^-24, the
        // midpoint between two f32 values, so dividing rounds up in f32 while the
        // product with 1/3 lands on the midpoint and rounds to even (1.0).
        let max = f64::from_bits(0x4008_0000_1800_0001);
        assert_ne!((max / 3.0) as f32, (max * (1.0 / 3.0)) as f32);
        assert_eq!(f32_scale(0.0, max, 3), None);
    }

    #[test]
    fn large_grids_are_not_walked() {
        assert_eq!(f32_scale(-1024.0, 1024.0, 1 << 17), None);
    }
}
