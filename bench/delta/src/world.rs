//! The **moving world** scenario: a shooter's server state at 60 Hz, from a fixed seed.
//!
//! About 150 entities at the start, 24 of them players. What moves, and how:
//!
//! - **players** decide every 0.5–3 s to stand (20 %), walk at 3 m/s (50 %) or run at
//!   6 m/s (30 %) in a new direction, and accelerate towards it at 20 m/s², turning to face
//!   it at up to 360°/s (standing players look around); they jump now and then, walk on a
//!   gently rolling terrain (their height follows it), fire bursts of projectiles, take hits
//!   and regenerate; a player whose health reaches 0 respawns elsewhere (a jump in position);
//! - **projectiles** fly straight at 30 m/s for 0.7–1.2 s and then disappear;
//! - **NPCs** mostly stand, sometimes walk somewhere near at 1.5 m/s or turn around; now
//!   and then one is killed (removed), and new ones spawn every 2.5 s up to 40;
//! - **pickups** stand still, 6 of them spinning; collected ones disappear and come back 5 s
//!   later as new entities;
//! - **props** never move, except 8 doors that swing open or shut now and then.
//!
//! Ids come from one counter (1, 2, …, wrapping below 4096, skipping ids in use), so new
//! entities usually sort last. The state is kept in `f64` and quantized to wire values
//! ([`crate::wire`]) every tick.

use crate::math::{rad, sin_cos, turn_deg, wrap_deg};
use crate::wire::{WEntity, WorldTick, E_VEL, E_XY, E_YAW, E_Z};
use bitwire_bench::dataset::SplitMix64;

/// The generator's seed.
pub const SEED: u64 = 0x0D31_7A00_0001;
/// The first tick's `tick` value (the server has been up for an hour).
pub const FIRST_TICK: u32 = 216_000;

const DT: f64 = 1.0 / 60.0;
const GRAVITY: f64 = 9.81;
const PLAYERS: usize = 24;
const NPCS: usize = 40;
const PICKUPS: usize = 30;
const SPINNING_PICKUPS: usize = 6;
const PROPS: usize = 60;
const DOORS: usize = 8;
/// Largest id + 1 (`id: u16 in 0..=4095`).
const ID_SPACE: u16 = 4096;

const KIND_PLAYER: u8 = 0;
const KIND_NPC: u8 = 1;
const KIND_PROJECTILE: u8 = 2;
const KIND_PICKUP: u8 = 3;
const KIND_PROP: u8 = 4;

/// Animation states (`anim: u4`); players add 4 while firing.
const ANIM_IDLE: u8 = 0;
const ANIM_WALK: u8 = 1;
const ANIM_RUN: u8 = 2;
const ANIM_JUMP: u8 = 3;
const ANIM_FIRE: u8 = 4;

/// How an entity behaves.
#[derive(Debug, Clone)]
enum Brain {
    Player {
        target: [f64; 2],
        target_yaw: f64,
        next_decision: u32,
        air: f64,
        vz: f64,
        firing_until: u32,
        next_shot: u32,
    },
    Npc {
        walk_to: Option<[f64; 2]>,
        turn_to: Option<f64>,
        next_decision: u32,
    },
    Projectile {
        dies: u32,
    },
    Pickup {
        spin: f64,
    },
    Prop {
        door: Option<(f64, f64)>,
        next_swing: u32,
    },
}

#[derive(Debug, Clone)]
struct Ent {
    id: u16,
    kind: u8,
    pos: [f64; 3],
    vel: [f64; 2],
    yaw: f64,
    health: f64,
    anim: u8,
    brain: Brain,
}

/// The simulation: entities, the id counter, pending pickup respawns.
struct Sim {
    rng: SplitMix64,
    t: u32,
    ents: Vec<Ent>,
    next_id: u16,
    respawns: Vec<(u32, [f64; 3])>,
}

/// Terrain height under `(x, y)`: 2 to 6 m, rolling gently.
fn terrain(x: f64, y: f64) -> f64 {
    let (sx, _) = sin_cos(x / 23.0);
    let (_, cy) = sin_cos(y / 31.0);
    4.0 + 2.0 * sx * cy
}

/// `ticks` ticks of the moving world (600 = 10 s in the lab).
pub fn generate(ticks: usize) -> Vec<WorldTick> {
    let mut sim = Sim::new();
    let mut out = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        out.push(sim.snapshot());
        sim.step();
    }
    out
}

impl Sim {
    fn new() -> Sim {
        let mut sim = Sim {
            rng: SplitMix64::new(SEED),
            t: 0,
            ents: Vec::new(),
            next_id: 1,
            respawns: Vec::new(),
        };
        for _ in 0..PLAYERS {
            let p = sim.spawn_point(100.0);
            sim.add_player(p);
        }
        for _ in 0..NPCS {
            let p = sim.spawn_point(150.0);
            sim.add_npc(p);
        }
        for i in 0..PICKUPS {
            let p = sim.spawn_point(120.0);
            let spin = if i < SPINNING_PICKUPS { 2.0 } else { 0.0 };
            sim.add(KIND_PICKUP, p, Brain::Pickup { spin });
        }
        for i in 0..PROPS {
            let p = sim.spawn_point(200.0);
            let door = (i < DOORS).then_some((0.0, 0.0));
            let next_swing = 60 + sim.rng.below(400) as u32;
            sim.add(KIND_PROP, p, Brain::Prop { door, next_swing });
        }
        sim
    }

    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.rng.unit()
    }

    fn chance(&mut self, p: f64) -> bool {
        self.rng.unit() < p
    }

    fn spawn_point(&mut self, half: f64) -> [f64; 3] {
        let x = self.uniform(-half, half);
        let y = self.uniform(-half, half);
        [x, y, terrain(x, y)]
    }

    fn fresh_id(&mut self) -> u16 {
        loop {
            let id = self.next_id;
            self.next_id = if id + 1 >= ID_SPACE { 1 } else { id + 1 };
            if self.ents.iter().all(|e| e.id != id) {
                return id;
            }
        }
    }

    fn add(&mut self, kind: u8, pos: [f64; 3], brain: Brain) {
        let id = self.fresh_id();
        let yaw = self.uniform(0.0, 360.0);
        let health = if kind == KIND_PROJECTILE { 1.0 } else { 100.0 };
        self.ents.push(Ent {
            id,
            kind,
            pos,
            vel: [0.0; 2],
            yaw,
            health,
            anim: ANIM_IDLE,
            brain,
        });
    }

    fn add_player(&mut self, pos: [f64; 3]) {
        let next_decision = self.rng.below(120) as u32;
        let target_yaw = self.uniform(0.0, 360.0);
        let brain = Brain::Player {
            target: [0.0; 2],
            target_yaw,
            next_decision,
            air: 0.0,
            vz: 0.0,
            firing_until: 0,
            next_shot: 0,
        };
        self.add(KIND_PLAYER, pos, brain);
    }

    fn add_npc(&mut self, pos: [f64; 3]) {
        let next_decision = self.rng.below(300) as u32;
        let brain = Brain::Npc {
            walk_to: None,
            turn_to: None,
            next_decision,
        };
        self.add(KIND_NPC, pos, brain);
    }

    /// The current state as wire values, ascending by id.
    fn snapshot(&self) -> WorldTick {
        let mut entities: Vec<WEntity> = self
            .ents
            .iter()
            .map(|e| WEntity {
                id: e.id,
                kind: e.kind,
                x: E_XY.q(e.pos[0]) as u32,
                y: E_XY.q(e.pos[1]) as u32,
                z: E_Z.q(e.pos[2]) as u16,
                yaw: E_YAW.q(wrap_deg(e.yaw)) as u16,
                vx: E_VEL.q(e.vel[0]) as u16,
                vy: E_VEL.q(e.vel[1]) as u16,
                health: e.health.round().clamp(0.0, 200.0) as u8,
                anim: e.anim,
            })
            .collect();
        entities.sort_by_key(|e| e.id);
        WorldTick {
            tick: FIRST_TICK + self.t,
            entities,
        }
    }

    fn step(&mut self) {
        self.t += 1;
        let mut ents = std::mem::take(&mut self.ents);
        let mut shots = Vec::new();
        for e in &mut ents {
            match e.kind {
                KIND_PLAYER => self.player(e, &mut shots),
                KIND_NPC => self.npc(e),
                KIND_PROJECTILE => projectile(e),
                KIND_PICKUP => pickup(e),
                _ => self.prop(e),
            }
        }
        // Removals: projectiles that ran out, killed NPCs, collected pickups.
        let t = self.t;
        let mut removed_pickups = Vec::new();
        ents.retain(|e| match (&e.brain, e.kind) {
            (Brain::Projectile { dies }, _) => *dies > t,
            (_, KIND_NPC) => e.health > 0.0,
            (_, KIND_PICKUP) if e.health <= 0.0 => {
                removed_pickups.push(e.pos);
                false
            }
            _ => true,
        });
        self.ents = ents;
        for p in removed_pickups {
            self.respawns.push((t + 300, p));
        }
        for (pos, yaw) in shots {
            self.fire(pos, yaw);
        }
        self.spawns();
    }

    fn spawns(&mut self) {
        let t = self.t;
        let due: Vec<[f64; 3]> = self
            .respawns
            .iter()
            .filter(|r| r.0 == t)
            .map(|r| r.1)
            .collect();
        self.respawns.retain(|r| r.0 != t);
        for p in due {
            self.add(KIND_PICKUP, p, Brain::Pickup { spin: 0.0 });
        }
        let npcs = self.ents.iter().filter(|e| e.kind == KIND_NPC).count();
        if t % 150 == 0 && npcs < NPCS {
            let p = self.spawn_point(150.0);
            self.add_npc(p);
        }
        for e in &mut self.ents {
            if e.kind == KIND_PICKUP && self.rng.unit() < 1.0 / 2400.0 {
                e.health = 0.0;
            }
            if e.kind == KIND_NPC && self.rng.unit() < 1.0 / 3000.0 {
                e.health = 0.0;
            }
        }
    }

    fn fire(&mut self, pos: [f64; 3], yaw: f64) {
        let (s, c) = sin_cos(rad(yaw));
        let life = 42 + self.rng.below(30) as u32;
        let start = [pos[0] + c, pos[1] + s, pos[2] + 1.4];
        self.add(
            KIND_PROJECTILE,
            start,
            Brain::Projectile {
                dies: self.t + life,
            },
        );
        let e = self.ents.last_mut().expect("just added");
        e.vel = [30.0 * c, 30.0 * s];
        e.yaw = yaw;
    }

    fn player(&mut self, e: &mut Ent, shots: &mut Vec<([f64; 3], f64)>) {
        let t = self.t;
        let Brain::Player {
            target,
            target_yaw,
            next_decision,
            air,
            vz,
            firing_until,
            next_shot,
        } = &mut e.brain
        else {
            return;
        };
        if t >= *next_decision {
            *next_decision = t + 30 + self.rng.below(150) as u32;
            let r = self.rng.unit();
            let speed = if r < 0.2 {
                0.0
            } else if r < 0.7 {
                3.0
            } else {
                6.0
            };
            // Head back towards the middle when far out.
            let out = e.pos[0].abs().max(e.pos[1].abs()) > 110.0;
            let dir = if out {
                wrap_deg(if e.pos[0] > 0.0 { 180.0 } else { 0.0 } + self.uniform(-40.0, 40.0))
            } else {
                self.uniform(0.0, 360.0)
            };
            let (s, c) = sin_cos(rad(dir));
            *target = [speed * c, speed * s];
            *target_yaw = if speed > 0.0 { dir } else { e.yaw };
            if self.chance(0.2) {
                *firing_until = t + 60 + self.rng.below(60) as u32;
            }
        }
        // Accelerate towards the target velocity (20 m/s²).
        let dv = [target[0] - e.vel[0], target[1] - e.vel[1]];
        let len = (dv[0] * dv[0] + dv[1] * dv[1]).sqrt();
        let max = 20.0 * DT;
        if len <= max {
            e.vel = *target;
        } else {
            e.vel = [e.vel[0] + dv[0] / len * max, e.vel[1] + dv[1] / len * max];
        }
        e.pos[0] += e.vel[0] * DT;
        e.pos[1] += e.vel[1] * DT;
        // Face the way we go (6°/tick); standing players look around.
        let speed = (e.vel[0] * e.vel[0] + e.vel[1] * e.vel[1]).sqrt();
        if speed < 0.5 && self.chance(0.02) {
            *target_yaw = wrap_deg(e.yaw + self.uniform(-60.0, 60.0));
        }
        let turn = turn_deg(e.yaw, *target_yaw).clamp(-6.0, 6.0);
        e.yaw = wrap_deg(e.yaw + turn);
        // Jumps.
        if *air == 0.0 && speed > 1.0 && self.chance(1.0 / 240.0) {
            *vz = 5.0;
        }
        if *vz != 0.0 || *air > 0.0 {
            *air += *vz * DT;
            *vz -= GRAVITY * DT;
            if *air <= 0.0 {
                *air = 0.0;
                *vz = 0.0;
            }
        }
        e.pos[2] = terrain(e.pos[0], e.pos[1]) + *air;
        // Firing.
        let firing = t < *firing_until;
        if firing && t >= *next_shot {
            *next_shot = t + 12;
            shots.push((e.pos, e.yaw));
        }
        e.anim = if *air > 0.0 {
            ANIM_JUMP
        } else if speed < 0.5 {
            ANIM_IDLE
        } else if speed < 4.0 {
            ANIM_WALK
        } else {
            ANIM_RUN
        } + if firing { ANIM_FIRE } else { 0 };
        self.player_health(e);
    }

    /// Hits, regeneration, and a respawn elsewhere when health reaches 0.
    fn player_health(&mut self, e: &mut Ent) {
        if self.chance(1.0 / 300.0) {
            e.health -= self.uniform(10.0, 35.0);
        } else if e.health < 100.0 && self.t % 20 == 0 {
            e.health = (e.health + 1.0).min(100.0);
        }
        if e.health > 0.0 {
            return;
        }
        e.health = 100.0;
        e.pos = self.spawn_point(100.0);
        e.vel = [0.0; 2];
        if let Brain::Player {
            target, air, vz, ..
        } = &mut e.brain
        {
            *target = [0.0; 2];
            *air = 0.0;
            *vz = 0.0;
        }
    }

    fn npc(&mut self, e: &mut Ent) {
        let t = self.t;
        let Brain::Npc {
            walk_to,
            turn_to,
            next_decision,
        } = &mut e.brain
        else {
            return;
        };
        if t >= *next_decision {
            *next_decision = t + 120 + self.rng.below(480) as u32;
            if self.chance(0.35) {
                let to = [
                    e.pos[0] + self.uniform(-15.0, 15.0),
                    e.pos[1] + self.uniform(-15.0, 15.0),
                ];
                *walk_to = Some(to);
            } else if self.chance(0.3) {
                *turn_to = Some(wrap_deg(e.yaw + self.uniform(-120.0, 120.0)));
            }
        }
        e.vel = [0.0; 2];
        if let Some(to) = *walk_to {
            let d = [to[0] - e.pos[0], to[1] - e.pos[1]];
            let len = (d[0] * d[0] + d[1] * d[1]).sqrt();
            let step = 1.5 * DT;
            if len <= step {
                e.pos[0] = to[0];
                e.pos[1] = to[1];
                *walk_to = None;
            } else {
                e.vel = [d[0] / len * 1.5, d[1] / len * 1.5];
                e.pos[0] += d[0] / len * step;
                e.pos[1] += d[1] / len * step;
                let (s, c) = (d[1] / len, d[0] / len);
                // The heading of (c, s) by turning towards it; no atan2 needed.
                let ahead = sin_cos(rad(e.yaw));
                let cross = ahead.1 * s - ahead.0 * c;
                e.yaw = wrap_deg(e.yaw + (cross * 40.0).clamp(-4.0, 4.0));
            }
            e.pos[2] = terrain(e.pos[0], e.pos[1]);
        }
        if let Some(to) = *turn_to {
            let turn = turn_deg(e.yaw, to).clamp(-3.0, 3.0);
            e.yaw = wrap_deg(e.yaw + turn);
            if turn == 0.0 {
                *turn_to = None;
            }
        }
        e.anim = if walk_to.is_some() {
            ANIM_WALK
        } else {
            ANIM_IDLE
        };
    }

    fn prop(&mut self, e: &mut Ent) {
        let t = self.t;
        let Brain::Prop { door, next_swing } = &mut e.brain else {
            return;
        };
        let Some((open, goal)) = door else {
            return;
        };
        if t >= *next_swing {
            *next_swing = t + 200 + self.rng.below(400) as u32;
            *goal = if *goal == 0.0 { 90.0 } else { 0.0 };
        }
        // 90° in 45 ticks.
        let step = (*goal - *open).clamp(-2.0, 2.0);
        *open += step;
        e.yaw = wrap_deg(e.yaw + step);
    }
}

fn projectile(e: &mut Ent) {
    e.pos[0] += e.vel[0] * DT;
    e.pos[1] += e.vel[1] * DT;
}

fn pickup(e: &mut Ent) {
    if let Brain::Pickup { spin } = e.brain {
        e.yaw = wrap_deg(e.yaw + spin);
    }
}
