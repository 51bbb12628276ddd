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

/// Largest grid whose encode factor [`f32_encode_factor`] proves: the proof evaluates
/// both formulas a few times per grid index, so its cost grows with the grid, on every
/// compile. Measured with `compiler_speed --quick` on its generated schemas (a type with
/// grids of 8,192 and 16,384 steps): Rust generation took 2.5 ms per type with the proof
/// (and 0.26 ms with the boundary-started search), 0.04 ms per type without it. Larger
/// grids keep the division.
pub const MAX_ENCODE_FACTOR_STEPS: u64 = 1 << 12;

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

/// §4.3's grid index of `v` (in `min..=max`), in binary64 as every encoder computes it:
/// `floor((v - min) / (max - min) * steps + 0.5)`.
fn grid_index(v: f64, min: f64, max: f64, steps: u64) -> u64 {
    ((v - min) / (max - min) * steps as f64 + 0.5) as u64
}

/// The grid index with the division replaced by one multiplication by `factor`:
/// `floor((v - min) * factor + 0.5)`.
fn grid_index_scaled(v: f64, min: f64, factor: f64) -> u64 {
    ((v - min) * factor + 0.5) as u64
}

/// The `f32` of order key `k`: keys order the finite `f32` values by value (`-0.0` and
/// `0.0` share key 0, and quantize the same).
fn f32_of_key(k: i64) -> f64 {
    let bits = if k < 0 {
        (-k) as u32 | 0x8000_0000
    } else {
        k as u32
    };
    f64::from(f32::from_bits(bits))
}

/// The smallest key in `lo..=hi` whose value satisfies `pred` (monotone: false, then
/// true), or `None` when none does.
fn first_key(lo: i64, hi: i64, pred: impl Fn(f64) -> bool) -> Option<i64> {
    (lo <= hi && pred(f32_of_key(hi))).then(|| bisect(lo - 1, hi, pred))
}

/// The smallest key in `below + 1..=at` whose value satisfies the monotone `pred`,
/// given that it holds at `at` and fails at `below` (or `below` is below the range).
fn bisect(mut below: i64, mut at: i64, pred: impl Fn(f64) -> bool) -> i64 {
    while at - below > 1 {
        let mid = below + (at - below) / 2;
        if pred(f32_of_key(mid)) {
            at = mid;
        } else {
            below = mid;
        }
    }
    at
}

/// `Some(factor)` when an encoder of an `f32` field in `min..=max` with `steps` steps may
/// compute the grid index as `floor((v - min) * factor + 0.5)` (one multiplication)
/// instead of §4.3's `floor((v - min) / (max - min) * steps + 0.5)` and get the same
/// index for every `f32` value `v` in range; `None` when some value differs or the grid
/// is larger than [`MAX_ENCODE_FACTOR_STEPS`].
///
/// The proof: both functions are monotone in `v` (each step is a correctly rounded
/// operation with a positive constant, or a floor), so they agree on every `f32` exactly
/// when, for every index `i` in `1..=steps`, the first `f32` whose index reaches `i` is
/// the same for both, and neither goes above `steps`. The first `f32` of each index under
/// §4.3's formula is found once (searching outwards from the grid boundary, a few
/// evaluations each: [`first_keys`]); each candidate factor is then checked there and one
/// `f32` below.
pub fn f32_encode_factor(min: f64, max: f64, steps: u64) -> Option<f64> {
    if steps == 0
        || steps > MAX_ENCODE_FACTOR_STEPS
        || min.partial_cmp(&max) != Some(core::cmp::Ordering::Less)
    {
        return None;
    }
    let (lo, hi) = f32_keys_in(min, max)?;
    let firsts: Vec<Option<i64>> = first_keys(min, max, steps, lo, hi).collect();
    let candidate = steps as f64 / (max - min);
    [candidate, next_down(candidate), next_up(candidate)]
        .into_iter()
        .find(|&factor| factor_agrees(min, steps, factor, (lo, hi), &firsts))
}

/// Whether `floor((v - min) * factor + 0.5)` is §4.3's grid index for every `f32` `v`
/// with a key in `lo..=hi`, given `firsts[i - 1]`, the first key whose §4.3 index
/// reaches `i` (see [`f32_encode_factor`]).
fn factor_agrees(
    min: f64,
    steps: u64,
    factor: f64,
    (lo, hi): (i64, i64),
    firsts: &[Option<i64>],
) -> bool {
    let fast = |k: i64| grid_index_scaled(f32_of_key(k), min, factor);
    fast(hi) <= steps
        && (1..=steps).zip(firsts).all(|(i, first)| match *first {
            None => fast(hi) < i,
            Some(k) => fast(k) >= i && (k == lo || fast(k - 1) < i),
        })
}

/// The keys of the first and last finite `f32` values in `min..=max`.
fn f32_keys_in(min: f64, max: f64) -> Option<(i64, i64)> {
    let finite = i64::from(f32::MAX.to_bits());
    let lo = first_key(-finite, finite, |v| v >= min)?;
    let hi = first_key(-finite, finite, |v| v > max).map_or(finite, |k| k - 1);
    (lo <= hi).then_some((lo, hi))
}

/// For every index `i` in `1..=steps`, the key of the first `f32` in `lo..=hi` whose
/// §4.3 index reaches `i` (`None` when none does). Each search starts at the `f32`
/// nearest the index's boundary `min + (i - 0.5) (max - min) / steps`, where the answer
/// lies within an ulp or two, so it takes a few evaluations instead of a 32-step
/// binary search over every `f32`.
fn first_keys(
    min: f64,
    max: f64,
    steps: u64,
    lo: i64,
    hi: i64,
) -> impl Iterator<Item = Option<i64>> {
    let exact = move |v: f64| grid_index(v, min, max, steps);
    let top = exact(f32_of_key(hi));
    (1..=steps).map(move |i| {
        let boundary = min + (i as f64 - 0.5) * (max - min) / steps as f64;
        (i <= top).then(|| first_key_from(lo, hi, key_of(boundary), |v| exact(v) >= i))
    })
}

/// The order key of the `f32` nearest to the finite `v`.
fn key_of(v: f64) -> i64 {
    let bits = (v as f32).to_bits();
    let magnitude = i64::from(bits & 0x7fff_ffff);
    if bits & 0x8000_0000 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// The smallest key in `lo..=hi` whose value satisfies `pred` (monotone: false, then
/// true), given that `pred` holds at `hi`, searched outwards from `guess`: steps of
/// doubling size bracket the answer, then bisection inside the bracket finds it (the
/// same result for any guess, fewer evaluations for a close one).
fn first_key_from(lo: i64, hi: i64, guess: i64, pred: impl Fn(f64) -> bool) -> i64 {
    let g = guess.clamp(lo, hi);
    // `pred` is false at every key up to `below` and true at `at`.
    let (mut below, mut at) = (g, g);
    let mut step = 1;
    if pred(f32_of_key(g)) {
        below = lo - 1;
        while at > lo {
            let t = (at - step).max(lo);
            if !pred(f32_of_key(t)) {
                below = t;
                break;
            }
            at = t;
            step *= 2;
        }
    } else {
        loop {
            let t = (below + step).min(hi);
            if pred(f32_of_key(t)) {
                at = t;
                break;
            }
            below = t;
            step *= 2;
        }
    }
    bisect(below, at, pred)
}

/// The next `f64` above the positive finite `x`.
fn next_up(x: f64) -> f64 {
    f64::from_bits(x.to_bits() + 1)
}

/// The next `f64` below the positive finite `x`.
fn next_down(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
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
        assert_eq!(f32_encode_factor(-1024.0, 1024.0, 1 << 17), None);
    }

    #[test]
    fn example_grids_encode_with_one_multiplication() {
        for (min, max, steps) in [
            (-64.0, 63.875, 1023),
            (0.0, 360.0, 255),
            (0.0, 360.0, 4095),
            (-1.0, 1.0, 255),
            (-90.0, 90.0, 1023),
        ] {
            let factor = f32_encode_factor(min, max, steps).expect("proved");
            for v in [
                min,
                max,
                (min + max) / 2.0,
                min + (max - min) / steps as f64 / 2.0,
            ] {
                let v = f64::from(v as f32);
                assert_eq!(
                    grid_index(v, min, max, steps),
                    grid_index_scaled(v, min, factor)
                );
            }
        }
    }

    #[test]
    fn a_proved_factor_agrees_on_every_f32() {
        // Every f32 of 1.0..=1.5 (2^22 + 1 values), against §4.3's formula.
        let (min, max, steps) = (1.0, 1.5, 7);
        let factor = f32_encode_factor(min, max, steps).expect("proved");
        let (lo, hi) = (1.0f32.to_bits(), 1.5f32.to_bits());
        for bits in lo..=hi {
            let v = f64::from(f32::from_bits(bits));
            assert_eq!(
                grid_index(v, min, max, steps),
                grid_index_scaled(v, min, factor),
                "{v}"
            );
        }
    }

    #[test]
    fn a_wrong_factor_is_caught() {
        // A factor a little too large moves some f32 up to the next index, a little too
        // small moves some down: the proof rejects both.
        let (min, max, steps) = (0.0, 360.0, 255);
        let good = f32_encode_factor(min, max, steps).expect("proved");
        let keys = f32_keys_in(min, max).expect("a range");
        let firsts: Vec<_> = first_keys(min, max, steps, keys.0, keys.1).collect();
        let agrees = |factor| factor_agrees(min, steps, factor, keys, &firsts);
        assert!(agrees(good));
        assert!(!agrees(good * (1.0 + 1e-6)));
        assert!(!agrees(good * (1.0 - 1e-6)));
        assert_eq!(f32_encode_factor(1.0, 1.0, 7), None);
        assert_eq!(f32_encode_factor(0.0, 1.0, 0), None);
    }

    #[test]
    fn searching_from_the_boundary_finds_what_bisection_finds() {
        for (min, max, steps) in [(-1.0, 1.0, 255), (0.0, 360.0, 4095), (-64.0, 63.875, 1023)] {
            let (lo, hi) = f32_keys_in(min, max).expect("a range");
            for (n, first) in first_keys(min, max, steps, lo, hi).enumerate() {
                let i = n as u64 + 1;
                let want = first_key(lo, hi, |v| grid_index(v, min, max, steps) >= i);
                assert_eq!(first, want, "{min}..={max} / {steps}, index {i}");
            }
        }
        // Any guess gives the same answer, however far off.
        let pred = |v: f64| v >= 0.3;
        let want = first_key(-1000, i64::from(f32::MAX.to_bits()), pred);
        for guess in [
            -1000,
            0,
            key_of(0.3) - 5,
            key_of(0.3),
            key_of(0.3) + 7,
            1 << 30,
        ] {
            let got = first_key_from(-1000, i64::from(f32::MAX.to_bits()), guess, pred);
            assert_eq!(Some(got), want, "guess {guess}");
        }
    }
}
