//! Random messages for the codec and client tests: snapshots whose entities lie on the
//! wire grid (every value a bitwire round trip gives back unchanged), ids increasing,
//! and inputs; from a fixed seed.

#![allow(dead_code)] // Each test crate uses a part.

use bitwire_sim::codec::wire::{self, Grid};
use bitwire_sim::rules::VIEW_CAP;
use bitwire_sim::sim;
use bitwire_sim::world::rng::SplitMix64;

/// A grid index of `grid`: its ends one time in eight, else uniform.
pub fn q(rng: &mut SplitMix64, grid: Grid) -> u64 {
    match rng.below(16) {
        0 => 0,
        1 => grid.steps,
        _ => rng.below(grid.steps + 1),
    }
}

/// A grid point of `grid`.
pub fn on_grid(rng: &mut SplitMix64, grid: Grid) -> f32 {
    grid.value(q(rng, grid)).expect("q is at most steps")
}

/// An entity with id `id`, every value on its grid and in its range.
pub fn entity(rng: &mut SplitMix64, id: u16) -> sim::Entity {
    sim::Entity {
        id,
        kind: if rng.below(4) == 0 {
            sim::Kind::Player
        } else {
            sim::Kind::Npc
        },
        x: on_grid(rng, wire::X),
        y: on_grid(rng, wire::Y),
        yaw: on_grid(rng, wire::YAW),
        vx: on_grid(rng, wire::VX),
        vy: on_grid(rng, wire::VY),
        health: rng.below(u64::from(sim::Entity::HEALTH_MAX) + 1) as u8,
        anim: rng.below(u64::from(sim::Entity::ANIM_MAX) + 1) as u8,
    }
}

/// A snapshot of `n` entities with distinct increasing ids, `you` one of them (or any
/// id when there is none).
pub fn snapshot_of(rng: &mut SplitMix64, n: usize) -> sim::Snapshot {
    let id_max = u64::from(sim::Entity::ID_MAX);
    let mut ids: Vec<u16> = Vec::with_capacity(n);
    while ids.len() < n {
        ids.push(rng.below(id_max + 1) as u16);
        ids.sort_unstable();
        ids.dedup();
    }
    let entities: Vec<sim::Entity> = ids.iter().map(|&id| entity(rng, id)).collect();
    let you = match entities.len() {
        0 => rng.below(id_max + 1) as u16,
        len => entities[rng.below(len as u64) as usize].id,
    };
    sim::Snapshot {
        tick: rng.next_u64() as u32,
        input_seq: rng.next_u64() as u32,
        you,
        entities,
    }
}

/// A snapshot of 0..=VIEW_CAP entities.
pub fn snapshot(rng: &mut SplitMix64) -> sim::Snapshot {
    let n = rng.below(VIEW_CAP as u64 + 1) as usize;
    snapshot_of(rng, n)
}

/// An input, every value on its grid, `rtt_us` present half the time.
pub fn input(rng: &mut SplitMix64) -> sim::Input {
    sim::Input {
        seq: rng.next_u64() as u32,
        ack: rng.next_u64() as u16,
        move_x: on_grid(rng, wire::MOVE_X),
        move_y: on_grid(rng, wire::MOVE_Y),
        aim: on_grid(rng, wire::AIM),
        fire: rng.below(2) == 0,
        rtt_us: (rng.below(2) == 0).then(|| rng.next_u64() as u32),
    }
}
