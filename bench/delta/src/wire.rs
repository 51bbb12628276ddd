//! The scenarios' state as **wire values** (docs/spec.md §12.2): every field is the
//! unsigned integer the full encoding writes — `q` of a quantized float, `v - MIN` of a
//! bounded integer, the tag of an enum. This is what the generator writes (JSON lines),
//! what the other languages read, what the format measurement ([`crate::codes`]) works on,
//! and what the `bitcode (wire integers)` peer encodes. [`to_bitwire`](WorldTick::to_bitwire)
//! turns it into the generated types (floats on their grid, §4.3 decode), and
//! [`from_bitwire`](WorldTick::from_bitwire) back.
//!
//! [`Quant`] and the `*_FIELDS` tables restate `delta.bw`'s ranges; the test
//! `wire_tables_match_the_schema` checks them against the generated encoder bit for bit.

use crate::gen;
use serde::{Deserialize, Serialize};

/// A quantized float's grid (§4.3): `min`, `max` (rounded to binary32 as the compiler
/// does for `f32` fields) and the number of steps.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quant {
    /// Lowest value (grid index 0).
    pub min: f64,
    /// Highest value (grid index `steps`).
    pub max: f64,
    /// Grid intervals.
    pub steps: u64,
}

impl Quant {
    /// `f32 in min..=max step s`.
    pub const fn step(min: f32, max: f32, step: f64) -> Quant {
        let (min, max) = (min as f64, max as f64);
        Quant {
            min,
            max,
            steps: ((max - min) / step) as u64,
        }
    }

    /// `f32 in min..=max bits b`.
    pub const fn bits(min: f32, max: f32, bits: u32) -> Quant {
        Quant {
            min: min as f64,
            max: max as f64,
            steps: (1 << bits) - 1,
        }
    }

    /// The grid index of `v`, clamped into the range first (the simulations' values are
    /// kept in range; the clamp only guards their edges).
    pub fn q(&self, v: f64) -> u64 {
        let v = v.clamp(self.min, self.max);
        bitwire::quantize(v, self.min, self.max, self.steps, 0).expect("clamped into range")
    }

    /// The value of grid index `q`, as the generated decoder gives it.
    pub fn v(&self, q: u64) -> f32 {
        bitwire::dequantize(q, self.min, self.max, self.steps) as f32
    }

    /// The grid index of a decoded value (exact for values on the grid).
    pub fn of(&self, v: f32) -> u64 {
        self.q(f64::from(v))
    }
}

/// `Entity.x`, `Entity.y`: `f32 in -512.0..=512.0 step 0.015625` (17 bits).
pub const E_XY: Quant = Quant::step(-512.0, 512.0, 0.015625);
/// `Entity.z`: `f32 in 0.0..=32.0 step 0.015625` (12 bits).
pub const E_Z: Quant = Quant::step(0.0, 32.0, 0.015625);
/// `Entity.yaw`: `f32 in 0.0..=360.0 bits 10`.
pub const E_YAW: Quant = Quant::bits(0.0, 360.0, 10);
/// `Entity.vx`, `Entity.vy`: `f32 in -64.0..=63.875 step 0.125` (10 bits).
pub const E_VEL: Quant = Quant::step(-64.0, 63.875, 0.125);
/// `Cube.x`, `Cube.y`: `f32 in -256.0..=255.0 step 1/512` (18 bits).
pub const C_XY: Quant = Quant::step(-256.0, 255.0, 1.0 / 512.0);
/// `Cube.z`: `f32 in 0.0..=31.998046875 step 1/512` (14 bits).
pub const C_Z: Quant = Quant::step(0.0, 16383.0 / 512.0, 1.0 / 512.0);
/// `Cube.a`, `.b`, `.c`: `f32 in -0.7071..=0.7072 bits 9` (Fiedler's bounds, which
/// `delta.bw` writes as they are: not 1/√2).
#[allow(clippy::approx_constant)]
pub const C_ROT: Quant = Quant::bits(-0.7071, 0.7072, 9);

/// Width of `World.tick` and `Cubes.tick` (`u32`).
pub const TICK_WIDTH: u32 = 32;
/// Width of `World.entities`' length (`max 256`).
pub const WORLD_LEN_WIDTH: u32 = 9;
/// Width of `Cubes.cubes`' length (`max 901`).
pub const CUBES_LEN_WIDTH: u32 = 10;

/// A field of a list element: its name, its width on the wire, and its grid if it is a
/// quantized float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Field {
    /// The field's name in `delta.bw`.
    pub name: &'static str,
    /// Bits in the full encoding.
    pub width: u32,
    /// The grid of a quantized float.
    pub quant: Option<Quant>,
}

const fn int(name: &'static str, width: u32) -> Field {
    Field {
        name,
        width,
        quant: None,
    }
}

const fn float(name: &'static str, quant: Quant) -> Field {
    Field {
        name,
        width: 64 - quant.steps.leading_zeros(),
        quant: Some(quant),
    }
}

/// An `Entity`'s fields in schema order.
pub const ENTITY_FIELDS: [Field; 10] = [
    int("id", 12),
    int("kind", 3),
    float("x", E_XY),
    float("y", E_XY),
    float("z", E_Z),
    float("yaw", E_YAW),
    float("vx", E_VEL),
    float("vy", E_VEL),
    int("health", 8),
    int("anim", 4),
];

/// A `Cube`'s fields in schema order.
pub const CUBE_FIELDS: [Field; 9] = [
    int("id", 10),
    int("interacting", 1),
    float("x", C_XY),
    float("y", C_XY),
    float("z", C_Z),
    int("largest", 2),
    float("a", C_ROT),
    float("b", C_ROT),
    float("c", C_ROT),
];

/// One entity of the moving world, as wire values.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode,
)]
#[serde(deny_unknown_fields)]
pub struct WEntity {
    pub id: u16,
    pub kind: u8,
    pub x: u32,
    pub y: u32,
    pub z: u16,
    pub yaw: u16,
    pub vx: u16,
    pub vy: u16,
    pub health: u8,
    pub anim: u8,
}

/// One tick of the moving world, as wire values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
#[serde(deny_unknown_fields)]
pub struct WorldTick {
    pub tick: u32,
    pub entities: Vec<WEntity>,
}

/// One cube, as wire values.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode,
)]
#[serde(deny_unknown_fields)]
pub struct WCube {
    pub id: u16,
    pub interacting: bool,
    pub x: u32,
    pub y: u32,
    pub z: u16,
    pub largest: u8,
    pub a: u16,
    pub b: u16,
    pub c: u16,
}

/// One tick of the cube scene, as wire values.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
#[serde(deny_unknown_fields)]
pub struct CubesTick {
    pub tick: u32,
    pub cubes: Vec<WCube>,
}

/// An element of a keyed list, seen as its key and its scalars' wire values.
pub trait Element {
    /// The key's value.
    fn key(&self) -> u64;
    /// Every field's `(wire value, width)` in schema order, the key included (first).
    fn scalars(&self) -> Vec<(u64, u32)>;
}

impl Element for WEntity {
    fn key(&self) -> u64 {
        u64::from(self.id)
    }

    fn scalars(&self) -> Vec<(u64, u32)> {
        let v = [
            self.id.into(),
            self.kind.into(),
            self.x.into(),
            self.y.into(),
            self.z.into(),
            self.yaw.into(),
            self.vx.into(),
            self.vy.into(),
            self.health.into(),
            self.anim.into(),
        ];
        v.into_iter()
            .zip(ENTITY_FIELDS.iter().map(|f| f.width))
            .collect()
    }
}

impl Element for WCube {
    fn key(&self) -> u64 {
        u64::from(self.id)
    }

    fn scalars(&self) -> Vec<(u64, u32)> {
        let v = [
            self.id.into(),
            self.interacting.into(),
            self.x.into(),
            self.y.into(),
            self.z.into(),
            self.largest.into(),
            self.a.into(),
            self.b.into(),
            self.c.into(),
        ];
        v.into_iter()
            .zip(CUBE_FIELDS.iter().map(|f| f.width))
            .collect()
    }
}

/// A tick of either scenario: its `tick` and its keyed list.
pub trait Snapshot {
    /// The list's element.
    type Elem: Element;
    /// The `tick` field.
    fn tick(&self) -> u32;
    /// The keyed list, ascending by key.
    fn elements(&self) -> &[Self::Elem];
}

impl Snapshot for WorldTick {
    type Elem = WEntity;
    fn tick(&self) -> u32 {
        self.tick
    }
    fn elements(&self) -> &[WEntity] {
        &self.entities
    }
}

impl Snapshot for CubesTick {
    type Elem = WCube;
    fn tick(&self) -> u32 {
        self.tick
    }
    fn elements(&self) -> &[WCube] {
        &self.cubes
    }
}

fn kind(tag: u8) -> gen::Kind {
    match tag {
        0 => gen::Kind::Player,
        1 => gen::Kind::Npc,
        2 => gen::Kind::Projectile,
        3 => gen::Kind::Pickup,
        _ => gen::Kind::Prop,
    }
}

impl WorldTick {
    /// The generated bitwire value of this tick.
    pub fn to_bitwire(&self) -> gen::World {
        gen::World {
            tick: self.tick,
            entities: self
                .entities
                .iter()
                .map(|e| gen::Entity {
                    id: e.id,
                    kind: kind(e.kind),
                    x: E_XY.v(e.x.into()),
                    y: E_XY.v(e.y.into()),
                    z: E_Z.v(e.z.into()),
                    yaw: E_YAW.v(e.yaw.into()),
                    vx: E_VEL.v(e.vx.into()),
                    vy: E_VEL.v(e.vy.into()),
                    health: e.health,
                    anim: e.anim,
                })
                .collect(),
        }
    }

    /// The wire values of a generated bitwire value.
    pub fn from_bitwire(w: &gen::World) -> WorldTick {
        WorldTick {
            tick: w.tick,
            entities: w
                .entities
                .iter()
                .map(|e| WEntity {
                    id: e.id,
                    kind: e.kind as u8,
                    x: E_XY.of(e.x) as u32,
                    y: E_XY.of(e.y) as u32,
                    z: E_Z.of(e.z) as u16,
                    yaw: E_YAW.of(e.yaw) as u16,
                    vx: E_VEL.of(e.vx) as u16,
                    vy: E_VEL.of(e.vy) as u16,
                    health: e.health,
                    anim: e.anim,
                })
                .collect(),
        }
    }
}

impl CubesTick {
    /// The generated bitwire value of this tick.
    pub fn to_bitwire(&self) -> gen::Cubes {
        gen::Cubes {
            tick: self.tick,
            cubes: self
                .cubes
                .iter()
                .map(|c| gen::Cube {
                    id: c.id,
                    interacting: c.interacting,
                    x: C_XY.v(c.x.into()),
                    y: C_XY.v(c.y.into()),
                    z: C_Z.v(c.z.into()),
                    largest: c.largest,
                    a: C_ROT.v(c.a.into()),
                    b: C_ROT.v(c.b.into()),
                    c: C_ROT.v(c.c.into()),
                })
                .collect(),
        }
    }

    /// The wire values of a generated bitwire value.
    pub fn from_bitwire(w: &gen::Cubes) -> CubesTick {
        CubesTick {
            tick: w.tick,
            cubes: w
                .cubes
                .iter()
                .map(|c| WCube {
                    id: c.id,
                    interacting: c.interacting,
                    x: C_XY.of(c.x) as u32,
                    y: C_XY.of(c.y) as u32,
                    z: C_Z.of(c.z) as u16,
                    largest: c.largest,
                    a: C_ROT.of(c.a) as u16,
                    b: C_ROT.of(c.b) as u16,
                    c: C_ROT.of(c.c) as u16,
                })
                .collect(),
        }
    }
}
