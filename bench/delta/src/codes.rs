//! The measurement behind docs/spec.md §12's codes: on the scenarios' wire values, what
//! alternative codes would cost, for a baseline 1 tick old and `A` ticks old. Nothing
//! here runs the bitwire delta codec; the costs follow from the wire values alone.
//!
//! **A changed scalar** (§12.2: one of a kept element's fields other than the key, or the
//! message's `tick`), of width `w`, baseline `b`, value `v ≠ b`, with `z` the zigzag of
//! `v - b` in `w` bits (§12.4, `z ≥ 1`):
//!
//! - `raw`: the new value in `w` bits;
//! - `diff`: §12.4's difference code, `bits_for(w - 1) + bits_for(z) - 1` bits;
//! - `exp_golomb`: order-0 Exp-Golomb of `z - 1` (`z ≥ 1`, so nothing is wasted on 0):
//!   `2 · bits_for(z) - 1` bits;
//! - `varint`: §5.4's prefix varint (4-bit groups) of `z`, in the varint width that holds
//!   `w` bits (`varu16` up to 16, `varu32` up to 32, else `varu64`).
//!
//! The changed bit in front of each field is the same for every code and not counted.
//!
//! **The walk over a keyed list** (§12.5), per tick, with `L` baseline elements of which
//! `E` are changed or removed (events):
//!
//! - `bitmap`: one bit per baseline element (changed or removed?) and one more per event
//!   (which of the two): `L + E` bits;
//! - `gaps`: §12.5's Exp-Golomb gap codes and one op bit per event.
//!
//! Added elements (their count and full encodings) and the changed elements' struct rows
//! cost the same either way and are not counted.

use crate::wire::{Element, Snapshot, TICK_WIDTH};
use serde::{Deserialize, Serialize};

/// The baseline age the lab uses besides 1: 6 ticks, about 100 ms of round trip at 60 Hz.
pub const AGE: usize = 6;

/// `bits_for(n)` (§1.3).
pub fn bits_for(n: u64) -> u64 {
    u64::from(64 - n.leading_zeros())
}

/// The zigzag of `v - b` in `w` bits (§12.4).
pub fn zigzag(b: u64, v: u64, w: u32) -> u64 {
    let mask = if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
    let d = v.wrapping_sub(b) & mask;
    let negative = (d >> (w - 1)) & 1 == 1;
    let s: i128 = if negative {
        i128::from(d) - (1i128 << w)
    } else {
        i128::from(d)
    };
    (if s >= 0 { 2 * s } else { -2 * s - 1 }) as u64
}

/// Bits of §12.4's difference code for `z ≥ 1` in width `w`.
pub fn diff_bits(z: u64, w: u32) -> u64 {
    bits_for(u64::from(w) - 1) + bits_for(z) - 1
}

/// Bits of order-0 Exp-Golomb of `x ≥ 0` (§12.5).
pub fn exp_golomb_bits(x: u64) -> u64 {
    2 * bits_for(x + 1) - 1
}

/// Bits of §5.4's prefix varint of `u` in the varint type of width `width` (16, 32, 64).
pub fn varint_bits(u: u64, width: u32) -> u64 {
    let gmax = u64::from(width / 4);
    let n = bits_for(u).div_ceil(4).max(1);
    (n - 1) + u64::from(n < gmax) + 4 * n
}

/// The varint width that holds a `w`-bit scalar.
fn varint_width(w: u32) -> u32 {
    match w {
        0..=16 => 16,
        17..=32 => 32,
        _ => 64,
    }
}

/// Total bits of each scalar code over some changed scalars.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalarCosts {
    /// Changed scalars counted.
    pub changed: u64,
    /// `raw`.
    pub raw: u64,
    /// `diff` (§12.4).
    pub diff: u64,
    /// `exp_golomb`.
    pub exp_golomb: u64,
    /// `varint`.
    pub varint: u64,
}

impl ScalarCosts {
    fn add(&mut self, b: u64, v: u64, w: u32) {
        let z = zigzag(b, v, w);
        self.changed += 1;
        self.raw += u64::from(w);
        self.diff += diff_bits(z, w);
        self.exp_golomb += exp_golomb_bits(z - 1);
        self.varint += varint_bits(z, varint_width(w));
    }
}

/// Total bits of each list-walk code over some ticks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WalkCosts {
    /// Baseline elements walked.
    pub elements: u64,
    /// Events (changed or removed elements).
    pub events: u64,
    /// `bitmap`.
    pub bitmap: u64,
    /// `gaps` (§12.5).
    pub gaps: u64,
}

/// The measurement on one scenario at one baseline age.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CodesRow {
    /// `world` or `cubes`.
    pub scenario: String,
    /// Baseline age in ticks.
    pub age: usize,
    /// Ticks measured (every tick but the first; the first ticks' baseline is tick 0).
    pub ticks: usize,
    /// Every changed scalar.
    pub scalars: ScalarCosts,
    /// The list walk.
    pub walk: WalkCosts,
    /// The scalars per field (`tick` and the element's fields, by name).
    pub fields: Vec<(String, ScalarCosts)>,
}

/// Measures one scenario at baseline age `age`: tick `t` against tick `max(0, t - age)`,
/// for every tick but the first. `names` are the element's field names in schema order.
pub fn measure<S: Snapshot>(scenario: &str, ticks: &[S], age: usize, names: &[&str]) -> CodesRow {
    let mut fields: Vec<(String, ScalarCosts)> = std::iter::once("tick")
        .chain(names.iter().copied().skip(1))
        .map(|n| (n.to_string(), ScalarCosts::default()))
        .collect();
    let mut walk = WalkCosts::default();
    for t in 1..ticks.len() {
        let (base, cur) = (&ticks[t.saturating_sub(age)], &ticks[t]);
        if base.tick() != cur.tick() {
            fields[0]
                .1
                .add(base.tick().into(), cur.tick().into(), TICK_WIDTH);
        }
        walk_list(base.elements(), cur.elements(), &mut walk, &mut fields[1..]);
    }
    let mut scalars = ScalarCosts::default();
    for (_, c) in &fields {
        scalars.changed += c.changed;
        scalars.raw += c.raw;
        scalars.diff += c.diff;
        scalars.exp_golomb += c.exp_golomb;
        scalars.varint += c.varint;
    }
    CodesRow {
        scenario: scenario.into(),
        age,
        ticks: ticks.len().saturating_sub(1),
        scalars,
        walk,
        fields,
    }
}

/// Walks baseline `b` against value `v` (both ascending by key), adding the walk's costs
/// and each changed field's (`fields`: the element's fields after the key).
fn walk_list<E: Element>(
    b: &[E],
    v: &[E],
    walk: &mut WalkCosts,
    fields: &mut [(String, ScalarCosts)],
) {
    let mut j = 0;
    let mut run = 0u64;
    walk.elements += b.len() as u64;
    walk.bitmap += b.len() as u64;
    for (i, old) in b.iter().enumerate() {
        while j < v.len() && v[j].key() < old.key() {
            j += 1;
        }
        let kept = j < v.len() && v[j].key() == old.key();
        let event = if kept {
            let (was, now) = (old.scalars(), v[j].scalars());
            let mut changed = false;
            for (k, ((bw, w), (vw, _))) in was.iter().zip(&now).enumerate().skip(1) {
                if bw != vw {
                    fields[k - 1].1.add(*bw, *vw, *w);
                    changed = true;
                }
            }
            changed
        } else {
            true
        };
        if event {
            walk.events += 1;
            walk.bitmap += 1;
            walk.gaps += exp_golomb_bits(run) + 1;
            run = 0;
        } else {
            run += 1;
        }
        if i + 1 == b.len() && run > 0 {
            walk.gaps += exp_golomb_bits(run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{WEntity, WorldTick, ENTITY_FIELDS};

    #[test]
    fn the_spec_examples_cost_what_section_12_says() {
        // A u32 tick that advanced by one: 6 bits (§12.4).
        assert_eq!(diff_bits(zigzag(7, 8, 32), 32), 6);
        // A bool flips in zero bits after its changed bit.
        assert_eq!(diff_bits(zigzag(0, 1, 1), 1), 0);
        // No scalar costs more than w + bits_for(w - 1) - 1.
        assert_eq!(diff_bits(zigzag(0, 1 << 31, 32), 32), 32 + 5 - 1);
        // Exp-Golomb: 0 is 1 bit, 1-2 are 3 bits, 3-6 are 5 bits.
        assert_eq!([0, 1, 2, 3, 6, 7].map(exp_golomb_bits), [1, 3, 3, 5, 5, 7]);
    }

    #[test]
    fn zigzag_wraps_in_the_width() {
        assert_eq!(zigzag(5, 4, 10), 1);
        assert_eq!(zigzag(5, 6, 10), 2);
        assert_eq!(zigzag(1023, 0, 10), 2, "1023 -> 0 is +1 mod 2^10");
        assert_eq!(zigzag(0, u64::MAX, 64), 1);
    }

    #[test]
    fn varints_match_section_5_4() {
        assert_eq!(varint_bits(0, 16), 5);
        assert_eq!(varint_bits(15, 16), 5);
        assert_eq!(varint_bits(16, 16), 10);
        // varu16's fourth group drops the terminator: 3 ones + 16 bits.
        assert_eq!(varint_bits(u64::from(u16::MAX), 16), 19);
    }

    fn entity(id: u16, x: u32) -> WEntity {
        WEntity {
            id,
            kind: 0,
            x,
            y: 0,
            z: 0,
            yaw: 0,
            vx: 0,
            vy: 0,
            health: 100,
            anim: 0,
        }
    }

    #[test]
    fn an_unchanged_list_costs_one_gap_code() {
        let t = |tick| WorldTick {
            tick,
            entities: (1..=100).map(|i| entity(i, 5)).collect(),
        };
        let names: Vec<&str> = ENTITY_FIELDS.iter().map(|f| f.name).collect();
        let row = measure("world", &[t(1), t(2)], 1, &names);
        // §12.5: 2 · bits_for(101) - 1 = 13 bits.
        assert_eq!(row.walk.gaps, 13);
        assert_eq!(row.walk.bitmap, 100);
        assert_eq!(row.scalars.changed, 1, "only the tick");
    }

    #[test]
    fn events_split_the_gaps() {
        let a = WorldTick {
            tick: 1,
            entities: (1..=10).map(|i| entity(i, 5)).collect(),
        };
        let mut b = a.clone();
        b.tick = 2;
        b.entities[3].x = 7; // changed (id 4, x + 2: z = 4)
        b.entities.remove(9); // removed (id 10, the last)
        let names: Vec<&str> = ENTITY_FIELDS.iter().map(|f| f.name).collect();
        let row = measure("world", &[a, b], 1, &names);
        // gap 3 (5 bits) + op, gap 5 (5 bits) + op, then the end: no code.
        assert_eq!(row.walk.gaps, 5 + 1 + 5 + 1);
        assert_eq!(row.walk.bitmap, 10 + 2);
        let x = &row.fields.iter().find(|f| f.0 == "x").unwrap().1;
        assert_eq!((x.changed, x.raw, x.diff), (1, 17, 5 + 2));
    }
}
