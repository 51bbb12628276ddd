//! Deterministic arithmetic for the simulations: sine and cosine from IEEE 754 basic
//! operations only (the platform's `sin`/`cos` may differ in the last bit between
//! machines; `+ - * /` and `sqrt` are correctly rounded everywhere), and quaternions.

use std::f64::consts::{FRAC_2_PI, FRAC_PI_2};

/// `(sin x, cos x)`: `x` reduced to `[-π/4, π/4]` by quarter turns, then Taylor series to
/// the 15th / 14th power (error below 1e-15 there). Good to about 1e-12 for |x| < 1e4,
/// which is all the simulations need; the point is the same bits on every machine.
pub fn sin_cos(x: f64) -> (f64, f64) {
    let k = (x * FRAC_2_PI).round();
    let r = x - k * FRAC_PI_2;
    let r2 = r * r;
    let s = r
        * (1.0
            - r2 / 6.0
                * (1.0
                    - r2 / 20.0
                        * (1.0
                            - r2 / 42.0
                                * (1.0 - r2 / 72.0 * (1.0 - r2 / 110.0 * (1.0 - r2 / 156.0))))));
    let c = 1.0
        - r2 / 2.0
            * (1.0
                - r2 / 12.0
                    * (1.0
                        - r2 / 30.0 * (1.0 - r2 / 56.0 * (1.0 - r2 / 90.0 * (1.0 - r2 / 132.0)))));
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// Degrees to radians.
pub fn rad(deg: f64) -> f64 {
    deg * (std::f64::consts::PI / 180.0)
}

/// `a` wrapped into `[0, 360)`.
pub fn wrap_deg(a: f64) -> f64 {
    let w = a % 360.0;
    if w < 0.0 {
        w + 360.0
    } else {
        w
    }
}

/// The signed shortest turn from `from` to `to`, in degrees, in `(-180, 180]`.
pub fn turn_deg(from: f64, to: f64) -> f64 {
    let d = wrap_deg(to - from);
    if d > 180.0 {
        d - 360.0
    } else {
        d
    }
}

/// A unit quaternion `(w, x, y, z)`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quat(pub [f64; 4]);

impl Quat {
    /// No rotation.
    pub const IDENTITY: Quat = Quat([1.0, 0.0, 0.0, 0.0]);

    /// The rotation by `angle` radians about the unit vector `axis`.
    pub fn axis_angle(axis: [f64; 3], angle: f64) -> Quat {
        let (s, c) = sin_cos(angle / 2.0);
        Quat([c, axis[0] * s, axis[1] * s, axis[2] * s])
    }

    /// The rotation by `deg` degrees about the vertical axis.
    pub fn yaw(deg: f64) -> Quat {
        Quat::axis_angle([0.0, 0.0, 1.0], rad(deg))
    }
}

impl std::ops::Mul for Quat {
    type Output = Quat;

    /// The Hamilton product: the rotation `o` first, then `self`.
    fn mul(self, o: Quat) -> Quat {
        let [a1, b1, c1, d1] = self.0;
        let [a2, b2, c2, d2] = o.0;
        Quat([
            a1 * a2 - b1 * b2 - c1 * c2 - d1 * d2,
            a1 * b2 + b1 * a2 + c1 * d2 - d1 * c2,
            a1 * c2 - b1 * d2 + c1 * a2 + d1 * b2,
            a1 * d2 + b1 * c2 - c1 * b2 + d1 * a2,
        ])
    }
}

impl Quat {
    /// Scaled back to length 1 (rounding drift after many products).
    pub fn normalized(self) -> Quat {
        let n = self.0.iter().map(|v| v * v).sum::<f64>().sqrt();
        Quat(self.0.map(|v| v / n))
    }

    /// The smallest-three form: the index of the largest component (by magnitude, the
    /// first of equals) and the other three in index order, signs flipped so that the
    /// largest is positive (q and -q are the same rotation).
    pub fn smallest_three(self) -> (u8, [f64; 3]) {
        let mut largest = 0;
        for i in 1..4 {
            if self.0[i].abs() > self.0[largest].abs() {
                largest = i;
            }
        }
        let sign = if self.0[largest] < 0.0 { -1.0 } else { 1.0 };
        let mut rest = [0.0; 3];
        let mut j = 0;
        for (i, v) in self.0.iter().enumerate() {
            if i != largest {
                rest[j] = sign * v;
                j += 1;
            }
        }
        (largest as u8, rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_cos_matches_the_platform_closely() {
        let mut x = -50.0;
        while x < 50.0 {
            let (s, c) = sin_cos(x);
            assert!((s - x.sin()).abs() < 1e-12, "sin {x}");
            assert!((c - x.cos()).abs() < 1e-12, "cos {x}");
            x += 0.0137;
        }
    }

    #[test]
    fn turns_take_the_short_way() {
        assert_eq!(turn_deg(350.0, 10.0), 20.0);
        assert_eq!(turn_deg(10.0, 350.0), -20.0);
        assert_eq!(wrap_deg(-30.0), 330.0);
    }

    #[test]
    fn smallest_three_drops_the_largest_and_makes_it_positive() {
        let q = Quat([0.1, -0.9, 0.3, 0.2]).normalized();
        let (i, rest) = q.smallest_three();
        assert_eq!(i, 1);
        assert!(rest[0] < 0.0 && rest[1] < 0.0 && rest[2] < 0.0);
        let sum: f64 = rest.iter().map(|v| v * v).sum();
        assert!(sum <= 0.5 + 1e-12);
    }
}
