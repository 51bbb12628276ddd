//! The **cube scene**, after Glenn Fiedler's "Snapshot Compression" (2015): 901 cubes at
//! 60 Hz, his quantization ([`crate::wire`]: position 1/512 m, smallest-three orientation
//! at 9 bits a component, an `interacting` flag, no velocity), from a fixed seed.
//!
//! Not a physics engine; motion that looks like one:
//!
//! - 900 cubes of 1 m stand in a 30 × 30 grid 2 m apart (a little jitter, any heading) and
//!   are **dropped** at tick 0 from 0.1–1.5 m, tumbling a little; they fall, bounce once
//!   if fast, tip back onto a face and **come to rest** (from then on their wire values do
//!   not change at all), within about a second;
//! - cube 0 is the **player**, a 2 m cube outside the grid; from 1.5 s on it rolls along a
//!   path that enters the grid and circles through it at up to
//!   5 m/s (turning over its edges: its height
//!   rises and falls with each quarter turn);
//! - a cube the player touches is **pushed** out of its way, slides (friction 0.5 g),
//!   spins and tips a little, pushes the cubes it runs into in turn, and comes to rest
//!   again; it is `interacting` from the push until it rests. The player is `interacting`
//!   while it rolls.

use crate::math::{sin_cos, Quat};
use crate::wire::{CubesTick, WCube, C_ROT, C_XY, C_Z};
use bitwire_bench::dataset::SplitMix64;
use std::collections::HashMap;
use std::f64::consts::{FRAC_PI_2, TAU};

/// The generator's seed.
pub const SEED: u64 = 0xC0BE_5CE7_0002;
/// Cubes in the scene (Fiedler's 901: the player and a 30 × 30 grid).
pub const CUBES: usize = 901;
/// The tick at which the player starts to roll.
pub const ROLL_START: u32 = 90;

const DT: f64 = 1.0 / 60.0;
const GRAVITY: f64 = 9.81;
const GRID: usize = 30;
const SPACING: f64 = 2.0;
/// Half the side of a small cube and of the player cube, in metres.
const HALF: f64 = 0.5;
const PLAYER_HALF: f64 = 1.0;
const PLAYER_SPEED: f64 = 5.0;
/// Speed lost to friction per tick (0.5 g).
const FRICTION: f64 = 0.5 * GRAVITY * DT;

#[derive(Debug, Clone)]
struct Cube {
    pos: [f64; 3],
    vel: [f64; 3],
    /// Heading in radians and its rate.
    yaw: f64,
    spin: f64,
    /// Tilt off the resting face: angle (rad) about a horizontal axis, and its rate.
    tilt: f64,
    tilt_rate: f64,
    tilt_axis: [f64; 3],
    interacting: bool,
}

impl Cube {
    fn at_rest(&self) -> bool {
        self.vel == [0.0; 3] && self.tilt == 0.0 && self.spin == 0.0
    }

    fn orientation(&self) -> Quat {
        let yaw = Quat::axis_angle([0.0, 0.0, 1.0], self.yaw);
        (yaw * Quat::axis_angle(self.tilt_axis, self.tilt)).normalized()
    }

    /// Height of the centre when resting on an edge tilted by `tilt`.
    fn ground(&self) -> f64 {
        let t = self.tilt.abs().min(FRAC_PI_2);
        let (s, c) = sin_cos(t);
        HALF * (c + s)
    }
}

/// The player: where it is on its path, how fast, and its rolled orientation.
#[derive(Debug, Clone)]
struct Player {
    pos: [f64; 3],
    vel: [f64; 2],
    travelled: f64,
    speed: f64,
    rolled: f64,
    rot: Quat,
    rolling: bool,
}

struct Sim {
    t: u32,
    cubes: Vec<Cube>,
    player: Player,
}

/// Where the player is after rolling `s` metres: 20 m straight along y = -8 from outside
/// the grid (x = -34), then left round a circle of radius 14 through the grid.
fn path(s: f64) -> [f64; 2] {
    const STRAIGHT: f64 = 20.0;
    const RADIUS: f64 = 14.0;
    if s <= STRAIGHT {
        return [-34.0 + s, -8.0];
    }
    let (sin, cos) = sin_cos((s - STRAIGHT) / RADIUS);
    [-14.0 + RADIUS * sin, 6.0 - RADIUS * cos]
}

/// `ticks` ticks of the cube scene (600 = 10 s in the lab).
pub fn generate(ticks: usize) -> Vec<CubesTick> {
    let mut sim = Sim::new();
    let mut out = Vec::with_capacity(ticks);
    for _ in 0..ticks {
        out.push(sim.snapshot());
        sim.step();
    }
    out
}

fn horizontal_axis(angle: f64) -> [f64; 3] {
    let (s, c) = sin_cos(angle);
    [c, s, 0.0]
}

impl Sim {
    fn new() -> Sim {
        let mut rng = SplitMix64::new(SEED);
        let mut u = |lo: f64, hi: f64| lo + (hi - lo) * rng.unit();
        let origin = -(GRID as f64 - 1.0) * SPACING / 2.0;
        let mut cubes = Vec::with_capacity(CUBES - 1);
        for i in 0..GRID {
            for j in 0..GRID {
                let x = origin + i as f64 * SPACING + u(-0.3, 0.3);
                let y = origin + j as f64 * SPACING + u(-0.3, 0.3);
                cubes.push(Cube {
                    pos: [x, y, HALF + u(0.1, 1.5)],
                    vel: [0.0; 3],
                    yaw: u(0.0, TAU),
                    spin: 0.0,
                    tilt: u(0.0, 0.4),
                    tilt_rate: u(-3.0, 3.0),
                    tilt_axis: horizontal_axis(u(0.0, TAU)),
                    interacting: false,
                });
            }
        }
        let start = path(0.0);
        Sim {
            t: 0,
            cubes,
            player: Player {
                pos: [start[0], start[1], PLAYER_HALF],
                vel: [0.0; 2],
                travelled: 0.0,
                speed: 0.0,
                rolled: 0.0,
                rot: Quat::IDENTITY,
                rolling: false,
            },
        }
    }

    fn snapshot(&self) -> CubesTick {
        let p = &self.player;
        let mut cubes = Vec::with_capacity(CUBES);
        cubes.push(wire(0, p.rolling, p.pos, p.rot));
        for (i, c) in self.cubes.iter().enumerate() {
            cubes.push(wire(i + 1, c.interacting, c.pos, c.orientation()));
        }
        CubesTick {
            tick: self.t,
            cubes,
        }
    }

    fn step(&mut self) {
        self.t += 1;
        if self.t >= ROLL_START {
            self.roll();
        }
        self.push_by_player();
        self.push_between_cubes();
        for c in &mut self.cubes {
            move_cube(c);
        }
    }

    fn roll(&mut self) {
        let p = &mut self.player;
        p.rolling = true;
        p.speed = (p.speed + 5.0 * DT).min(PLAYER_SPEED);
        p.travelled += p.speed * DT;
        let next = path(p.travelled);
        let d = [next[0] - p.pos[0], next[1] - p.pos[1]];
        let dist = (d[0] * d[0] + d[1] * d[1]).sqrt();
        p.vel = [d[0] / DT, d[1] / DT];
        if dist > 0.0 {
            // Roll about the horizontal axis across the motion.
            let axis = [-d[1] / dist, d[0] / dist, 0.0];
            p.rot = (Quat::axis_angle(axis, dist / PLAYER_HALF) * p.rot).normalized();
        }
        p.rolled += dist / PLAYER_HALF;
        let quarter = p.rolled % FRAC_PI_2;
        let (s, c) = sin_cos(quarter);
        p.pos = [next[0], next[1], PLAYER_HALF * (c + s)];
    }

    fn push_by_player(&mut self) {
        let p = &self.player;
        let reach = PLAYER_HALF + HALF;
        for c in &mut self.cubes {
            let d = [c.pos[0] - p.pos[0], c.pos[1] - p.pos[1]];
            let dist = (d[0] * d[0] + d[1] * d[1]).sqrt();
            if dist >= reach || dist == 0.0 {
                continue;
            }
            let n = [d[0] / dist, d[1] / dist];
            c.pos[0] = p.pos[0] + n[0] * reach;
            c.pos[1] = p.pos[1] + n[1] * reach;
            let along = (p.vel[0] * n[0] + p.vel[1] * n[1]).max(0.5);
            c.vel[0] = n[0] * along * 1.1;
            c.vel[1] = n[1] * along * 1.1;
            kick(c, n, along);
        }
    }

    /// Moving cubes push the cubes they run into (a spatial hash of 1 m cells).
    fn push_between_cubes(&mut self) {
        let cell = |x: f64| (x / (2.0 * HALF)).floor() as i32;
        let mut grid: HashMap<(i32, i32), Vec<usize>> = HashMap::new();
        for (i, c) in self.cubes.iter().enumerate() {
            grid.entry((cell(c.pos[0]), cell(c.pos[1])))
                .or_default()
                .push(i);
        }
        for i in 0..self.cubes.len() {
            if self.cubes[i].vel[0] == 0.0 && self.cubes[i].vel[1] == 0.0 {
                continue;
            }
            let (cx, cy) = (cell(self.cubes[i].pos[0]), cell(self.cubes[i].pos[1]));
            let mut near = Vec::new();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(v) = grid.get(&(cx + dx, cy + dy)) {
                        near.extend(v.iter().copied().filter(|&j| j != i));
                    }
                }
            }
            near.sort_unstable();
            for j in near {
                collide(&mut self.cubes, i, j);
            }
        }
    }
}

/// Separates cube `j` from the moving cube `i` and hands it part of `i`'s momentum.
fn collide(cubes: &mut [Cube], i: usize, j: usize) {
    let (a, b) = (&cubes[i], &cubes[j]);
    let d = [b.pos[0] - a.pos[0], b.pos[1] - a.pos[1]];
    let dist = (d[0] * d[0] + d[1] * d[1]).sqrt();
    let reach = 2.0 * HALF;
    if dist >= reach || dist == 0.0 {
        return;
    }
    let n = [d[0] / dist, d[1] / dist];
    let along = a.vel[0] * n[0] + a.vel[1] * n[1];
    let base = [a.pos[0], a.pos[1]];
    let b = &mut cubes[j];
    b.pos[0] = base[0] + n[0] * reach;
    b.pos[1] = base[1] + n[1] * reach;
    if along > 0.0 {
        let give = along * 0.8;
        b.vel[0] += n[0] * give;
        b.vel[1] += n[1] * give;
        kick(b, n, give);
        let a = &mut cubes[i];
        a.vel[0] -= n[0] * give;
        a.vel[1] -= n[1] * give;
    }
}

/// A pushed cube tips a little over the push direction and starts to spin.
fn kick(c: &mut Cube, n: [f64; 2], speed: f64) {
    c.interacting = true;
    c.tilt_axis = [-n[1], n[0], 0.0];
    c.tilt = c.tilt.max((0.05 * speed).min(0.3));
    c.tilt_rate = 0.0;
    let side = if n[0] * 0.7 + n[1] * 0.3 > 0.0 {
        1.0
    } else {
        -1.0
    };
    c.spin = side * (0.4 * speed).min(3.0);
}

/// One tick of a cube: fall and bounce, slide with friction, spin down, tip back.
fn move_cube(c: &mut Cube) {
    if c.at_rest() && c.pos[2] <= c.ground() {
        c.interacting = false;
        return;
    }
    let airborne = c.pos[2] > c.ground() || c.vel[2] != 0.0;
    if airborne {
        c.vel[2] -= GRAVITY * DT;
        c.pos[2] += c.vel[2] * DT;
        c.tilt += c.tilt_rate * DT;
        if c.pos[2] <= c.ground() {
            c.pos[2] = c.ground();
            c.vel[2] = if c.vel[2] < -3.0 {
                -c.vel[2] * 0.3
            } else {
                0.0
            };
            c.tilt_rate = 0.0;
        }
        return;
    }
    // On the ground: slide, spin down, tip back onto the face.
    let speed = (c.vel[0] * c.vel[0] + c.vel[1] * c.vel[1]).sqrt();
    if speed <= FRICTION {
        c.vel = [0.0; 3];
    } else {
        let k = (speed - FRICTION) / speed;
        c.vel[0] *= k;
        c.vel[1] *= k;
        c.pos[0] += c.vel[0] * DT;
        c.pos[1] += c.vel[1] * DT;
    }
    c.yaw += c.spin * DT;
    c.spin *= 0.9;
    if c.spin.abs() < 0.05 {
        c.spin = 0.0;
    }
    c.tilt *= 0.8;
    if c.tilt.abs() < 0.01 {
        c.tilt = 0.0;
    }
    c.pos[2] = c.ground();
    if c.at_rest() {
        c.interacting = false;
    }
}

/// A cube's wire values.
fn wire(id: usize, interacting: bool, pos: [f64; 3], rot: Quat) -> WCube {
    let (largest, rest) = rot.smallest_three();
    WCube {
        id: id as u16,
        interacting,
        x: C_XY.q(pos[0]) as u32,
        y: C_XY.q(pos[1]) as u32,
        z: C_Z.q(pos[2]) as u16,
        largest,
        a: C_ROT.q(rest[0]) as u16,
        b: C_ROT.q(rest[1]) as u16,
        c: C_ROT.q(rest[2]) as u16,
    }
}
