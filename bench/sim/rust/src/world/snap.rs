//! Snapping to the wire grid: every value the world shows a client is one that its
//! `sim.bw` field encodes exactly (the value the generated decoder gives back for the
//! field's grid index), so every codec carries identical values and an entity that did
//! not change is bit-for-bit unchanged. The rounding is the spec's (§4.3), through the
//! runtime's own `quantize` / `dequantize`.

use crate::codec::wire::{Grid, VX, X, YAW};
use crate::sim;

/// The grid point nearest `v` (clamped into the range; NaN becomes `min`), on the grid
/// the generated code declares (`sim::Entity::X_MIN`, ... through `codec::wire`).
fn snap(g: Grid, v: f64) -> f32 {
    let v = if v.is_nan() {
        g.min
    } else {
        v.clamp(g.min, g.max)
    };
    // In range after the clamp, so quantize cannot fail; 0 keeps this total.
    let q = bitwire::quantize(v, g.min, g.max, g.steps, 0).unwrap_or(0);
    bitwire::dequantize(q, g.min, g.max, g.steps) as f32
}

/// The wire value of a position coordinate.
pub fn position(v: f64) -> f32 {
    snap(X, v)
}

/// The wire value of a facing, degrees (wrapped into 0..360 first).
pub fn yaw(degrees: f64) -> f32 {
    snap(YAW, degrees.rem_euclid(360.0))
}

/// The wire value of a velocity component.
pub fn velocity(v: f64) -> f32 {
    snap(VX, v)
}

/// Whether every field of `e` is exactly a value of its wire grid (what a decoder of
/// `e`'s encoding gives back).
pub fn on_grid(e: &sim::Entity) -> bool {
    let same = |a: f32, b: f32| a.to_bits() == b.to_bits();
    same(e.x, position(f64::from(e.x)))
        && same(e.y, position(f64::from(e.y)))
        && same(e.yaw, snap(YAW, f64::from(e.yaw)))
        && same(e.vx, velocity(f64::from(e.vx)))
        && same(e.vy, velocity(f64::from(e.vy)))
        && e.id <= sim::Entity::ID_MAX
        && e.health <= sim::Entity::HEALTH_MAX
        && e.anim <= sim::Entity::ANIM_MAX
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::wire::{VY, Y};
    use bitwire::Packed;

    /// `x` and `y` share one grid, and so do `vx` and `vy` (`sim.bw`): the world snaps
    /// both coordinates with the first.
    fn same_grid(a: Grid, b: Grid) -> bool {
        (a.min, a.max, a.steps) == (b.min, b.max, b.steps)
    }

    fn round_trip(e: &sim::Entity) -> sim::Entity {
        let bytes = e.encode_to_vec().expect("on the grid, so in range");
        sim::Entity::decode(&bytes).expect("decodes")
    }

    /// Every grid point of every quantized field is what the generated decoder gives
    /// back, and snapping it again changes nothing.
    #[test]
    fn every_grid_point_survives_the_codec() {
        let sample = |grid: Grid, q: u64| bitwire::dequantize(q, grid.min, grid.max, grid.steps);
        assert!(same_grid(X, Y) && same_grid(VX, VY));
        for q in 0..=X.steps {
            let v = position(sample(X, q));
            let e = sim::Entity {
                x: v,
                y: v,
                ..Default::default()
            };
            assert_eq!(round_trip(&e), e, "x grid point {q}");
            assert_eq!(position(f64::from(v)).to_bits(), v.to_bits());
        }
        assert_eq!(VX.steps, YAW.steps);
        for q in 0..=VX.steps {
            let v = velocity(sample(VX, q));
            let w = snap(YAW, sample(YAW, q));
            let e = sim::Entity {
                vx: v,
                vy: v,
                yaw: w,
                ..Default::default()
            };
            assert_eq!(round_trip(&e), e, "velocity / yaw grid point {q}");
            assert!(on_grid(&e));
        }
    }

    #[test]
    fn off_grid_values_snap_to_the_nearest_point() {
        assert_eq!(position(1.0 / 64.0 * 10.4), 10.0 / 64.0);
        assert_eq!(position(-1000.0), -512.0);
        assert_eq!(position(f64::NAN), -512.0);
        assert_eq!(velocity(3.06), 3.0);
        assert_eq!(velocity(100.0), 63.875);
        assert_eq!(yaw(-90.0), yaw(270.0));
        assert_eq!(yaw(360.0), 0.0);
        let off = sim::Entity {
            x: 0.01,
            ..Default::default()
        };
        assert!(!on_grid(&off));
        let e = sim::Entity {
            x: position(0.01),
            vx: velocity(1.3),
            yaw: yaw(45.0),
            ..off
        };
        assert!(on_grid(&e));
        assert_eq!(round_trip(&e), e);
    }
}
