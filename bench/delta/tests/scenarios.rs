//! The scenarios: deterministic, in range, keyed lists ascending, and shaped as the issue
//! asks (most entities idle or moving smoothly, some spawning and despawning; the cubes
//! settle and stay at rest except where the player pushes them). The wire tables
//! (`wire.rs`) are checked against the generated encoder bit for bit, and the scenario
//! files against their manifest.

use bitwire::{BitWriter, Packed};
use bitwire_delta_lab::cubes::{self, ROLL_START};
use bitwire_delta_lab::scenario::{Scenarios, QUICK_TICKS, TICKS};
use bitwire_delta_lab::wire::{
    CubesTick, Element, WorldTick, CUBES_LEN_WIDTH, CUBE_FIELDS, C_ROT, C_XY, ENTITY_FIELDS, E_XY,
    TICK_WIDTH, WORLD_LEN_WIDTH,
};
use bitwire_delta_lab::world;
use std::sync::OnceLock;

/// The full-length scenarios, generated once for every test here.
fn full() -> &'static Scenarios {
    static S: OnceLock<Scenarios> = OnceLock::new();
    S.get_or_init(|| Scenarios::generate(false))
}

#[test]
fn generating_twice_gives_the_same_ticks() {
    let a = Scenarios::generate(true);
    let b = Scenarios::generate(true);
    assert_eq!(a, b);
    assert_eq!((a.world.len(), a.cubes.len()), (QUICK_TICKS, QUICK_TICKS));
    // Quick mode is the start of the full run.
    assert_eq!(a.world[..], full().world[..QUICK_TICKS]);
    assert_eq!(a.cubes[..], full().cubes[..QUICK_TICKS]);
}

fn ascending<E: Element>(elems: &[E]) -> bool {
    elems.windows(2).all(|w| w[0].key() < w[1].key())
}

fn in_range<E: Element>(e: &E, fields: &[(u32, Option<u64>)]) -> bool {
    e.scalars()
        .iter()
        .zip(fields)
        .all(|((v, w), (width, steps))| {
            *w == *width && *v < (1u64 << w) && steps.is_none_or(|s| *v <= s)
        })
}

#[test]
fn every_tick_is_in_range_and_ascending_by_key() {
    let s = full();
    assert_eq!(s.world.len(), TICKS);
    let ef: Vec<(u32, Option<u64>)> = ENTITY_FIELDS
        .iter()
        .map(|f| (f.width, f.quant.map(|q| q.steps)))
        .collect();
    let cf: Vec<(u32, Option<u64>)> = CUBE_FIELDS
        .iter()
        .map(|f| (f.width, f.quant.map(|q| q.steps)))
        .collect();
    for (i, t) in s.world.iter().enumerate() {
        assert!(
            (100..=256).contains(&t.entities.len()),
            "tick {i}: {} entities",
            t.entities.len()
        );
        assert!(ascending(&t.entities), "tick {i}");
        assert!(
            t.entities.iter().all(|e| in_range(e, &ef) && e.kind <= 4),
            "tick {i}"
        );
        assert_eq!(t.tick, world::FIRST_TICK + i as u32);
    }
    for (i, t) in s.cubes.iter().enumerate() {
        assert_eq!(t.cubes.len(), cubes::CUBES, "tick {i}");
        assert!(t
            .cubes
            .iter()
            .enumerate()
            .all(|(k, c)| usize::from(c.id) == k && in_range(c, &cf)));
    }
}

/// Entities changed, added and removed between two ticks.
fn churn(a: &WorldTick, b: &WorldTick) -> (usize, usize, usize) {
    let find = |t: &WorldTick, id| t.entities.iter().find(|e| e.id == id).copied();
    let changed = b
        .entities
        .iter()
        .filter(|e| find(a, e.id).is_some_and(|o| o != **e))
        .count();
    let added = b
        .entities
        .iter()
        .filter(|e| find(a, e.id).is_none())
        .count();
    let removed = a
        .entities
        .iter()
        .filter(|e| find(b, e.id).is_none())
        .count();
    (changed, added, removed)
}

#[test]
fn the_world_is_mostly_idle_or_smooth_with_spawns_and_despawns() {
    let w = &full().world;
    let (mut changed, mut added, mut removed, mut elems) = (0, 0, 0, 0);
    for p in w.windows(2) {
        let (c, a, r) = churn(&p[0], &p[1]);
        changed += c;
        added += a;
        removed += r;
        elems += p[0].entities.len();
    }
    // Most entities are unchanged from one tick to the next; some spawn and despawn.
    assert!(changed * 2 < elems, "{changed} changed of {elems}");
    assert!(
        added >= 20 && removed >= 20,
        "added {added}, removed {removed}"
    );
    // Smooth: almost every position step is at most 0.75 m (48 steps of 1/64 m; a
    // projectile covers 0.5 m per tick), the rest are respawns.
    let step = 0.75 / ((E_XY.max - E_XY.min) / E_XY.steps as f64);
    let (mut moves, mut jumps) = (0, 0);
    for p in w.windows(2) {
        for e in &p[1].entities {
            if let Some(o) = p[0].entities.iter().find(|o| o.id == e.id) {
                let d = (f64::from(e.x) - f64::from(o.x))
                    .abs()
                    .max((f64::from(e.y) - f64::from(o.y)).abs());
                if d > 0.0 {
                    moves += 1;
                }
                if d > step {
                    jumps += 1;
                }
            }
        }
    }
    assert!(jumps * 200 < moves, "{jumps} jumps in {moves} moves");
}

#[test]
fn the_cubes_settle_and_most_stay_at_rest() {
    let c = &full().cubes;
    let moved =
        |a: &CubesTick, b: &CubesTick| a.cubes.iter().zip(&b.cubes).filter(|(x, y)| x != y).count();
    // Dropped at tick 0: nearly all move at first...
    assert!(moved(&c[0], &c[1]) > 850);
    // ...and all rest before the player starts to roll.
    let settled = ROLL_START as usize - 5;
    assert_eq!(moved(&c[settled - 1], &c[settled]), 0);
    // Then the player and the cubes it pushes: a few move, most are at rest.
    let rolling: Vec<usize> = c[ROLL_START as usize..]
        .windows(2)
        .map(|p| moved(&p[0], &p[1]))
        .collect();
    assert!(rolling.iter().all(|m| (1..=90).contains(m)), "{rolling:?}");
    let pushed = c[TICKS - 1]
        .cubes
        .iter()
        .zip(&c[settled].cubes)
        .skip(1)
        .filter(|(a, b)| a != b)
        .count();
    assert!(pushed >= 20, "the player pushed only {pushed} cubes");
    // Smooth: no cube moves more than 0.25 m in a tick.
    let limit = (0.25 / ((C_XY.max - C_XY.min) / C_XY.steps as f64)) as i64;
    for p in c.windows(2) {
        for (a, b) in p[0].cubes.iter().zip(&p[1].cubes) {
            let d = (i64::from(a.x) - i64::from(b.x))
                .abs()
                .max((i64::from(a.y) - i64::from(b.y)).abs());
            assert!(d <= limit, "cube {} moved {d} steps", a.id);
        }
    }
}

#[test]
fn orientations_are_unit_quaternions_in_smallest_three() {
    for t in full().cubes.iter().step_by(37) {
        for c in &t.cubes {
            let three = [c.a, c.b, c.c].map(|q| f64::from(C_ROT.v(q.into())));
            let sum: f64 = three.iter().map(|v| v * v).sum();
            // The dropped component is the largest: it is what is left of the unit length,
            // and at least as large as each of the three (up to the 9-bit grid's error).
            let largest = (1.0 - sum).max(0.0).sqrt();
            let most = three.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(
                sum <= 0.75 + 0.01 && largest + 0.01 >= most,
                "cube {}: {three:?}",
                c.id
            );
        }
    }
}

/// The full encoding written from the wire tables: tick, length, then each element's
/// fields in the tables' widths.
fn packed<E: Element>(tick: u32, len_width: u32, elems: &[E]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = BitWriter::new(&mut out);
    w.write_bits(tick.into(), TICK_WIDTH);
    w.write_bits(elems.len() as u64, len_width);
    for e in elems {
        for (v, width) in e.scalars() {
            w.write_bits(v, width);
        }
    }
    w.finish();
    out
}

#[test]
fn wire_tables_match_the_schema() {
    let s = full();
    for t in s.world.iter().step_by(50) {
        let bw = t.to_bitwire();
        assert_eq!(
            bw.encode_to_vec().unwrap(),
            packed(t.tick, WORLD_LEN_WIDTH, &t.entities)
        );
        assert_eq!(&WorldTick::from_bitwire(&bw), t);
    }
    for t in s.cubes.iter().step_by(50) {
        let bw = t.to_bitwire();
        assert_eq!(
            bw.encode_to_vec().unwrap(),
            packed(t.tick, CUBES_LEN_WIDTH, &t.cubes)
        );
        assert_eq!(&CubesTick::from_bitwire(&bw), t);
    }
}

#[test]
fn scenario_files_round_trip_and_a_changed_byte_is_caught() {
    let dir = std::env::temp_dir().join(format!("bitwire-delta-scenarios-{}", std::process::id()));
    let s = Scenarios::generate(true);
    let manifest = s.write(&dir).unwrap();
    let (back, m) = Scenarios::read(&dir).unwrap();
    assert_eq!(back, s);
    assert_eq!(m, manifest);
    let path = dir.join("cubes.jsonl");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.iter().position(|b| *b == b'7').unwrap();
    bytes[at] = b'8';
    std::fs::write(&path, bytes).unwrap();
    let err = Scenarios::read(&dir).unwrap_err();
    assert!(err.contains("FNV-1a 64"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
