//! The world of the simulator (bench/sim/README.md, "The world"; every number is in
//! [`crate::rules`]): `NPCS` wandering NPCs (ids `NPC_BASE`..) and one player per
//! connection (ids 1, 2, ... in connection order, never reused), around 8 hot spots.
//!
//! Each tick the server gives each player its newest input ([`World::control`]), then
//! [`World::step`] moves everything and snaps every value to its `sim.bw` wire grid
//! ([`snap`]): what the codecs see is exactly what a decoder gives back, so every
//! codec carries identical values and an entity that did not change is bit-for-bit
//! unchanged. The sync system then indexes the world ([`World::index`]) and asks for
//! each player's view ([`World::view`]). Everything is deterministic: the same joins,
//! leaves, inputs and steps give the same world.

pub mod rng;
pub mod snap;
pub mod view;

use crate::rules::{HALF_MAP, NPCS, NPC_BASE, PLAYER_SPEED, SEED, TICK_HZ};
use crate::sim;
use rng::SplitMix64;
use std::fmt;
use view::{SpatialGrid, ViewScratch};

/// Hot spots where entities spawn and NPCs wander.
pub const HOT_SPOTS: usize = 8;
/// How far from its hot spot an entity spawns (standard deviation, metres).
const SPAWN_SIGMA: f64 = 30.0;
/// How far from its hot spot an NPC picks its targets (standard deviation, metres).
const WANDER_SIGMA: f64 = 60.0;
/// NPC walking speeds, m/s (the README's "speed ≤ 3 m/s").
const NPC_SPEED: (f64, f64) = (1.0, 3.0);
/// An NPC picks a new target every 2 to 6 seconds (in ticks).
const RETARGET_TICKS: (u64, u64) = (2 * TICK_HZ as u64, 6 * TICK_HZ as u64);
/// An NPC this close to its target stands still, metres.
const ARRIVED: f64 = 0.25;
/// One NPC in this many drifts its health, by at most 1 a second.
const DRIFTERS: usize = 8;
/// A player's health (it does not change).
const PLAYER_HEALTH: u8 = 100;
/// Animation states: standing, moving, firing.
const ANIM_IDLE: u8 = 0;
const ANIM_MOVE: u8 = 1;
const ANIM_FIRE: u8 = 3;
/// Ids are 12 bits (`sim.bw`).
const IDS: usize = 4096;
const NO_SLOT: u32 = u32::MAX;

/// The hot spots: fixed points from `SEED`, inside the map with room around them.
pub fn hot_spots() -> [(f32, f32); HOT_SPOTS] {
    let mut rng = SplitMix64::new(SEED);
    let reach = f64::from(HALF_MAP) * 0.7;
    std::array::from_fn(|_| {
        let x = rng.range(-reach, reach);
        let y = rng.range(-reach, reach);
        (snap::position(x), snap::position(y))
    })
}

/// Every player id is taken (`NPC_BASE - 1` players joined during this run).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorldFull;

impl fmt::Display for WorldFull {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the world is full: {} players joined", NPC_BASE - 1)
    }
}

impl std::error::Error for WorldFull {}

/// An entity's state besides what the wire shows: its exact position (the wire's is
/// snapped from it, so slow movement is not lost to rounding) and its behaviour.
#[derive(Debug, Clone, PartialEq)]
struct Body {
    x: f64,
    y: f64,
    mind: Mind,
}

#[derive(Debug, Clone, PartialEq)]
enum Mind {
    /// Driven by its client's inputs.
    Player,
    Npc(Npc),
}

#[derive(Debug, Clone, PartialEq)]
struct Npc {
    home: usize,
    target: (f64, f64),
    speed: f64,
    /// The tick at which it picks its next target.
    retarget: u64,
    drifts: bool,
}

/// The simulated world.
#[derive(Debug)]
pub struct World {
    /// What clients see, snapped to the wire grid, in increasing id order (players,
    /// then NPCs).
    entities: Vec<sim::Entity>,
    /// The rest of each entity's state, parallel to `entities`.
    bodies: Vec<Body>,
    /// Entity index by id (`NO_SLOT`: none).
    slots: Vec<u32>,
    players: usize,
    next_player: u16,
    hot: [(f32, f32); HOT_SPOTS],
    /// NPC behaviour.
    rng: SplitMix64,
    tick: u64,
    grid: SpatialGrid,
    /// The tick the grid was built at (`None`: not since the last change).
    indexed: Option<u64>,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl World {
    /// The world at tick 0: the NPCs around the hot spots (fixed seed), no players.
    pub fn new() -> World {
        let hot = hot_spots();
        let mut rng = SplitMix64::new(SEED ^ 0x4E50_4353);
        let mut world = World {
            entities: Vec::with_capacity(NPCS + 64),
            bodies: Vec::with_capacity(NPCS + 64),
            slots: vec![NO_SLOT; IDS],
            players: 0,
            next_player: 1,
            hot,
            rng: SplitMix64::new(SEED),
            tick: 0,
            grid: SpatialGrid::default(),
            indexed: None,
        };
        for n in 0..NPCS {
            let home = n % HOT_SPOTS;
            let (x, y) = near(&mut rng, hot[home], SPAWN_SIGMA);
            let health = 50 + rng.below(151) as u8;
            world.entities.push(sim::Entity {
                id: NPC_BASE + n as u16,
                kind: sim::Kind::Npc,
                x: snap::position(x),
                y: snap::position(y),
                yaw: snap::yaw(rng.range(0.0, 360.0)),
                health,
                ..Default::default()
            });
            world.bodies.push(Body {
                x,
                y,
                mind: Mind::Npc(Npc {
                    home,
                    target: (x, y),
                    speed: 0.0,
                    // The first targets come at different ticks.
                    retarget: rng.below(RETARGET_TICKS.1),
                    drifts: n % DRIFTERS == 0,
                }),
            });
        }
        world.reslot();
        world
    }

    /// Ticks stepped.
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Every entity, snapped, in increasing id order.
    pub fn entities(&self) -> &[sim::Entity] {
        &self.entities
    }

    /// The entity with `id`.
    pub fn entity(&self, id: u16) -> Option<&sim::Entity> {
        self.slot(id).map(|i| &self.entities[i])
    }

    /// Players in the world.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The hot spots.
    pub fn hot(&self) -> &[(f32, f32); HOT_SPOTS] {
        &self.hot
    }

    fn slot(&self, id: u16) -> Option<usize> {
        match self.slots.get(usize::from(id)) {
            Some(&s) if s != NO_SLOT => Some(s as usize),
            _ => None,
        }
    }

    fn reslot(&mut self) {
        self.slots.fill(NO_SLOT);
        for (i, e) in self.entities.iter().enumerate() {
            self.slots[usize::from(e.id)] = i as u32;
        }
        self.indexed = None;
    }

    /// Adds a player (the next id) near a hot spot; its spawn point depends on its id
    /// only.
    pub fn join(&mut self) -> Result<u16, WorldFull> {
        let id = self.next_player;
        if id >= NPC_BASE {
            return Err(WorldFull);
        }
        self.next_player += 1;
        let mut rng = SplitMix64::new(SEED ^ (u64::from(id) << 32));
        let home = usize::from(id - 1) % HOT_SPOTS;
        let (x, y) = near(&mut rng, self.hot[home], SPAWN_SIGMA);
        let entity = sim::Entity {
            id,
            kind: sim::Kind::Player,
            x: snap::position(x),
            y: snap::position(y),
            health: PLAYER_HEALTH,
            ..Default::default()
        };
        // Players come before the NPCs, and a new player has the highest player id.
        self.entities.insert(self.players, entity);
        self.bodies.insert(
            self.players,
            Body {
                x,
                y,
                mind: Mind::Player,
            },
        );
        self.players += 1;
        self.reslot();
        Ok(id)
    }

    /// Removes player `id` (nothing if there is none).
    pub fn leave(&mut self, id: u16) {
        if let Some(i) = self.slot(id).filter(|&i| i < self.players) {
            self.entities.remove(i);
            self.bodies.remove(i);
            self.players -= 1;
            self.reslot();
        }
    }

    /// Applies a player's newest input: its velocity becomes `(move_x, move_y) ×
    /// PLAYER_SPEED`, its yaw the input's `aim`, `anim` 3 while firing, else 0 standing
    /// or 1 moving.
    pub fn control(&mut self, id: u16, input: &sim::Input) {
        let Some(i) = self.slot(id).filter(|&i| i < self.players) else {
            return;
        };
        let speed = f64::from(PLAYER_SPEED);
        let e = &mut self.entities[i];
        e.vx = snap::velocity(f64::from(input.move_x) * speed);
        e.vy = snap::velocity(f64::from(input.move_y) * speed);
        e.yaw = snap::yaw(f64::from(input.aim));
        e.anim = if input.fire {
            ANIM_FIRE
        } else if e.vx == 0.0 && e.vy == 0.0 {
            ANIM_IDLE
        } else {
            ANIM_MOVE
        };
    }

    /// One tick: NPCs decide, everything moves by its (wire) velocity / 60, clamped to
    /// the map, and every value is snapped to its wire grid.
    pub fn step(&mut self) {
        self.tick += 1;
        let dt = 1.0 / f64::from(TICK_HZ);
        let half = f64::from(HALF_MAP);
        for (e, body) in self.entities.iter_mut().zip(&mut self.bodies) {
            if let Mind::Npc(npc) = &mut body.mind {
                think(npc, e, body.x, body.y, self.tick, &self.hot, &mut self.rng);
            }
            body.x = (body.x + f64::from(e.vx) * dt).clamp(-half, half);
            body.y = (body.y + f64::from(e.vy) * dt).clamp(-half, half);
            e.x = snap::position(body.x);
            e.y = snap::position(body.y);
        }
        self.indexed = None;
    }

    /// Builds the spatial index the views are read from (once per tick, after
    /// [`step`](World::step) and any join or leave).
    pub fn index(&mut self) {
        self.grid.build(&self.entities);
        self.indexed = Some(self.tick);
    }

    /// Whether the index is up to date.
    pub fn is_indexed(&self) -> bool {
        self.indexed == Some(self.tick)
    }

    /// Fills `scratch` with player `id`'s view: the entities within `INTEREST_RADIUS`
    /// of it, the `VIEW_CAP` nearest (itself included), in increasing id order.
    /// Returns false (and an empty view) when there is no such player. Indexes the
    /// world first if it is not up to date.
    pub fn view(&mut self, id: u16, scratch: &mut ViewScratch) -> bool {
        if !self.is_indexed() {
            self.index();
        }
        self.view_indexed(id, scratch)
    }

    /// [`view`](World::view) on an index that is up to date (see
    /// [`is_indexed`](World::is_indexed)); an empty view otherwise.
    pub fn view_indexed(&self, id: u16, scratch: &mut ViewScratch) -> bool {
        match self.slot(id).filter(|_| self.is_indexed()) {
            Some(i) => {
                let e = &self.entities[i];
                self.grid.view(i, f64::from(e.x), f64::from(e.y), scratch);
                true
            }
            None => {
                scratch.clear();
                false
            }
        }
    }

    /// The entities of a view filled by [`view`](World::view), in one allocation of
    /// exactly their number (the Vec a Snapshot carries).
    pub fn collect(&self, scratch: &ViewScratch) -> Vec<sim::Entity> {
        let mut out = Vec::with_capacity(scratch.len());
        out.extend(scratch.indices().map(|i| self.entities[i]));
        out
    }
}

/// A point near `spot`, normally distributed with `sigma`, inside the map.
fn near(rng: &mut SplitMix64, spot: (f32, f32), sigma: f64) -> (f64, f64) {
    let limit = f64::from(HALF_MAP) - 1.0;
    let x = (f64::from(spot.0) + rng.normal() * sigma).clamp(-limit, limit);
    let y = (f64::from(spot.1) + rng.normal() * sigma).clamp(-limit, limit);
    (x, y)
}

/// An NPC's decision for this tick: a new target every 2 to 6 s near its hot spot,
/// walking towards it (yaw along the way), standing once there; a few drift their
/// health.
fn think(
    npc: &mut Npc,
    e: &mut sim::Entity,
    x: f64,
    y: f64,
    tick: u64,
    hot: &[(f32, f32); HOT_SPOTS],
    rng: &mut SplitMix64,
) {
    if tick >= npc.retarget {
        npc.target = near(rng, hot[npc.home], WANDER_SIGMA);
        npc.speed = rng.range(NPC_SPEED.0, NPC_SPEED.1);
        npc.retarget = tick + RETARGET_TICKS.0 + rng.below(RETARGET_TICKS.1 - RETARGET_TICKS.0);
    }
    let (dx, dy) = (npc.target.0 - x, npc.target.1 - y);
    let distance = dx.hypot(dy);
    if distance < ARRIVED {
        e.vx = 0.0;
        e.vy = 0.0;
        e.anim = ANIM_IDLE;
    } else {
        e.vx = snap::velocity(dx / distance * npc.speed);
        e.vy = snap::velocity(dy / distance * npc.speed);
        e.yaw = snap::yaw(dy.atan2(dx).to_degrees());
        e.anim = if e.vx == 0.0 && e.vy == 0.0 {
            ANIM_IDLE
        } else {
            ANIM_MOVE
        };
    }
    if npc.drifts && tick % u64::from(TICK_HZ) == u64::from(e.id) % u64::from(TICK_HZ) {
        let change = rng.below(3) as i16 - 1;
        e.health =
            (i16::from(e.health) + change).clamp(1, i16::from(sim::Entity::HEALTH_MAX)) as u8;
    }
}

#[cfg(test)]
mod tests;
