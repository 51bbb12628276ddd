//! The integers bitwire puts on the wire for the simulator's messages, as the peer codecs
//! carry them (bench/sim/README.md, "Codecs"): each quantized float as its grid index
//! `q` (docs/spec.md §4.3), every other field as its value, in the narrowest Rust integer
//! type that holds it. This is the one conversion between [`sim`]'s values and those
//! integers: bitcode and wincode encode [`Snapshot`] and [`Input`] (one set of types, both
//! derives), FlatBuffers builds its tables from them.
//!
//! Quantizing is bitwire's own arithmetic ([`bitwire::quantize`], [`bitwire::dequantize`],
//! the spec's formulas in binary64) on the grids the generated code declares
//! (`sim::Entity::X_MIN` ...), so a peer's `q` is the bitwire encoder's, bit for bit
//! (`tests/codec_wire.rs` compares them with the bits of bitwire's encodings), and a
//! decoded value is the bitwire decoder's. Conversions check what bitwire's encoder and
//! decoder check — ranges, bounds, the enum tag, the list bound — so every codec accepts
//! and rejects the same values.

use std::fmt;

use crate::sim;

/// The grid of a quantized float (docs/spec.md §4.3): `q` in `0..=steps` stands for
/// `min + (max - min) × q / steps`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grid {
    /// The field, for errors.
    pub field: &'static str,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// The number of steps: `q` is at most this.
    pub steps: u64,
}

/// `Entity.x`.
pub const X: Grid = Grid {
    field: "x",
    min: sim::Entity::X_MIN,
    max: sim::Entity::X_MAX,
    steps: sim::Entity::X_STEPS,
};
/// `Entity.y`.
pub const Y: Grid = Grid {
    field: "y",
    min: sim::Entity::Y_MIN,
    max: sim::Entity::Y_MAX,
    steps: sim::Entity::Y_STEPS,
};
/// `Entity.yaw`.
pub const YAW: Grid = Grid {
    field: "yaw",
    min: sim::Entity::YAW_MIN,
    max: sim::Entity::YAW_MAX,
    steps: sim::Entity::YAW_STEPS,
};
/// `Entity.vx`.
pub const VX: Grid = Grid {
    field: "vx",
    min: sim::Entity::VX_MIN,
    max: sim::Entity::VX_MAX,
    steps: sim::Entity::VX_STEPS,
};
/// `Entity.vy`.
pub const VY: Grid = Grid {
    field: "vy",
    min: sim::Entity::VY_MIN,
    max: sim::Entity::VY_MAX,
    steps: sim::Entity::VY_STEPS,
};
/// `Input.move_x`.
pub const MOVE_X: Grid = Grid {
    field: "move_x",
    min: sim::Input::MOVE_X_MIN,
    max: sim::Input::MOVE_X_MAX,
    steps: sim::Input::MOVE_X_STEPS,
};
/// `Input.move_y`.
pub const MOVE_Y: Grid = Grid {
    field: "move_y",
    min: sim::Input::MOVE_Y_MIN,
    max: sim::Input::MOVE_Y_MAX,
    steps: sim::Input::MOVE_Y_STEPS,
};
/// `Input.aim`.
pub const AIM: Grid = Grid {
    field: "aim",
    min: sim::Input::AIM_MIN,
    max: sim::Input::AIM_MAX,
    steps: sim::Input::AIM_STEPS,
};

impl Grid {
    /// The grid index of `v` (spec §4.3 encode): NaN and values outside `min..=max` are
    /// errors, as in bitwire's encoder.
    #[inline]
    pub fn q(self, v: f32) -> Result<u64, WireError> {
        bitwire::quantize(f64::from(v), self.min, self.max, self.steps, 0)
            .map_err(|_| WireError::new(self.field, Problem::Float(v)))
    }

    /// The value of grid index `q` (spec §4.3 decode, rounded to `f32`): `q` above
    /// `steps` is an error, as in bitwire's decoder.
    #[inline]
    pub fn value(self, q: u64) -> Result<f32, WireError> {
        if q > self.steps {
            return Err(WireError::new(self.field, Problem::Above(q, self.steps)));
        }
        Ok(bitwire::dequantize(q, self.min, self.max, self.steps) as f32)
    }

    /// `v` moved to the nearest grid point (what a bitwire round trip gives back).
    #[inline]
    pub fn snap(self, v: f32) -> Result<f32, WireError> {
        self.value(self.q(v)?)
    }

    /// [`Grid::value`] of a peer's integer, which may be negative after corruption.
    #[inline]
    fn value_of(self, q: impl TryInto<u64> + Copy + Into<i64>) -> Result<f32, WireError> {
        match q.try_into() {
            Ok(q) => self.value(q),
            Err(_) => Err(WireError::new(self.field, Problem::Negative(q.into()))),
        }
    }
}

/// A value that has no encoding, or an integer that stands for no value.
#[derive(Debug, Clone, PartialEq)]
pub struct WireError {
    /// The field.
    pub field: &'static str,
    /// What is wrong with it.
    pub problem: Problem,
}

/// What is wrong with a field (see [`WireError`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A float that is NaN or outside its grid's range.
    Float(f32),
    /// An integer above its largest value (the value, the largest).
    Above(u64, u64),
    /// A negative grid index.
    Negative(i64),
    /// A list longer than its bound (the length, the bound).
    TooLong(usize, usize),
}

impl WireError {
    fn new(field: &'static str, problem: Problem) -> WireError {
        WireError { field, problem }
    }
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let field = self.field;
        match self.problem {
            Problem::Float(v) => write!(f, "{field}: {v} is NaN or outside its range"),
            Problem::Above(v, max) => write!(f, "{field}: {v} is above {max}"),
            Problem::Negative(v) => write!(f, "{field}: {v} is negative"),
            Problem::TooLong(n, max) => write!(f, "{field}: {n} items, at most {max}"),
        }
    }
}

impl std::error::Error for WireError {}

/// An unsigned field checked against its largest value.
#[inline]
fn at_most<T: Into<u64> + Copy>(field: &'static str, v: T, max: T) -> Result<T, WireError> {
    if v.into() > max.into() {
        return Err(WireError::new(field, Problem::Above(v.into(), max.into())));
    }
    Ok(v)
}

/// `sim.bw`'s `Entity` as wire integers.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    bitcode::Encode,
    bitcode::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
)]
pub struct Entity {
    /// `0..=4095`.
    pub id: u16,
    /// The `Kind` tag: 0 `Player`, 1 `Npc`.
    pub kind: u8,
    /// [`X`]'s `q`, `0..=65536`.
    pub x: i32,
    /// [`Y`]'s `q`.
    pub y: i32,
    /// [`YAW`]'s `q`, `0..=1023`.
    pub yaw: u16,
    /// [`VX`]'s `q`, `0..=1023`.
    pub vx: i16,
    /// [`VY`]'s `q`.
    pub vy: i16,
    /// `0..=200`.
    pub health: u8,
    /// `0..=15`.
    pub anim: u8,
}

impl Entity {
    /// The wire integers of `e`.
    #[inline]
    pub fn from_sim(e: &sim::Entity) -> Result<Entity, WireError> {
        Ok(Entity {
            id: at_most("id", e.id, sim::Entity::ID_MAX)?,
            kind: e.kind as u8,
            // The grids' largest `q` (65536 and 1023) fit these types.
            x: X.q(e.x)? as i32,
            y: Y.q(e.y)? as i32,
            yaw: YAW.q(e.yaw)? as u16,
            vx: VX.q(e.vx)? as i16,
            vy: VY.q(e.vy)? as i16,
            health: at_most("health", e.health, sim::Entity::HEALTH_MAX)?,
            anim: at_most("anim", e.anim, sim::Entity::ANIM_MAX)?,
        })
    }

    /// The entity these integers stand for.
    #[inline]
    pub fn to_sim(&self) -> Result<sim::Entity, WireError> {
        let kind = sim::Kind::from_value(self.kind.into())
            .ok_or_else(|| WireError::new("kind", Problem::Above(self.kind.into(), 1)))?;
        Ok(sim::Entity {
            id: at_most("id", self.id, sim::Entity::ID_MAX)?,
            kind,
            x: X.value_of(self.x)?,
            y: Y.value_of(self.y)?,
            yaw: YAW.value(self.yaw.into())?,
            vx: VX.value_of(self.vx)?,
            vy: VY.value_of(self.vy)?,
            health: at_most("health", self.health, sim::Entity::HEALTH_MAX)?,
            anim: at_most("anim", self.anim, sim::Entity::ANIM_MAX)?,
        })
    }
}

/// `sim.bw`'s `Snapshot` as wire integers.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Eq,
    Default,
    bitcode::Encode,
    bitcode::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
)]
pub struct Snapshot {
    /// The server's tick.
    pub tick: u32,
    /// The newest input of the client the server applied.
    pub input_seq: u32,
    /// The client's entity, `0..=4095`.
    pub you: u16,
    /// At most 1024.
    pub entities: Vec<Entity>,
}

impl Snapshot {
    /// Sets `self` to the wire integers of `s`, reusing its list.
    pub fn fill_from(&mut self, s: &sim::Snapshot) -> Result<(), WireError> {
        let max = sim::Snapshot::ENTITIES_MAX_LEN;
        if s.entities.len() > max {
            let problem = Problem::TooLong(s.entities.len(), max);
            return Err(WireError::new("entities", problem));
        }
        self.tick = s.tick;
        self.input_seq = s.input_seq;
        self.you = at_most("you", s.you, sim::Snapshot::YOU_MAX)?;
        self.entities.clear();
        for e in &s.entities {
            self.entities.push(Entity::from_sim(e)?);
        }
        Ok(())
    }

    /// Sets `out` to the snapshot these integers stand for, reusing its list (`out` is
    /// unspecified after an error).
    pub fn fill_sim(&self, out: &mut sim::Snapshot) -> Result<(), WireError> {
        let entities = self.entities.iter().copied();
        fill_sim(
            self.tick,
            self.input_seq,
            self.you,
            self.entities.len(),
            entities,
            out,
        )
    }
}

/// Sets `out` to the snapshot of these wire integers (`len` entities), reusing its
/// list (`out` is unspecified after an error): the decoding side of every peer.
pub fn fill_sim(
    tick: u32,
    input_seq: u32,
    you: u16,
    len: usize,
    entities: impl Iterator<Item = Entity>,
    out: &mut sim::Snapshot,
) -> Result<(), WireError> {
    let max = sim::Snapshot::ENTITIES_MAX_LEN;
    if len > max {
        return Err(WireError::new("entities", Problem::TooLong(len, max)));
    }
    out.tick = tick;
    out.input_seq = input_seq;
    out.you = at_most("you", you, sim::Snapshot::YOU_MAX)?;
    out.entities.clear();
    out.entities.reserve(len);
    for e in entities {
        out.entities.push(e.to_sim()?);
    }
    Ok(())
}

/// `sim.bw`'s `Input` as wire integers.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Default,
    bitcode::Encode,
    bitcode::Decode,
    wincode::SchemaWrite,
    wincode::SchemaRead,
)]
pub struct Input {
    /// 1, 2, 3, ... per connection.
    pub seq: u32,
    /// The newest snapshot the client decoded.
    pub ack: u16,
    /// [`MOVE_X`]'s `q`, `0..=255`.
    pub move_x: u8,
    /// [`MOVE_Y`]'s `q`.
    pub move_y: u8,
    /// [`AIM`]'s `q`, `0..=1023`.
    pub aim: u16,
    /// Firing.
    pub fire: bool,
    /// The client's round-trip time, microseconds, when it reports one.
    pub rtt_us: Option<u32>,
}

impl Input {
    /// The wire integers of `i`.
    #[inline]
    pub fn from_sim(i: &sim::Input) -> Result<Input, WireError> {
        Ok(Input {
            seq: i.seq,
            ack: i.ack,
            // The grids' largest `q` (255 and 1023) fit these types.
            move_x: MOVE_X.q(i.move_x)? as u8,
            move_y: MOVE_Y.q(i.move_y)? as u8,
            aim: AIM.q(i.aim)? as u16,
            fire: i.fire,
            rtt_us: i.rtt_us,
        })
    }

    /// The input these integers stand for.
    #[inline]
    pub fn to_sim(&self) -> Result<sim::Input, WireError> {
        Ok(sim::Input {
            seq: self.seq,
            ack: self.ack,
            move_x: MOVE_X.value(self.move_x.into())?,
            move_y: MOVE_Y.value(self.move_y.into())?,
            aim: AIM.value(self.aim.into())?,
            fire: self.fire,
            rtt_us: self.rtt_us,
        })
    }
}
