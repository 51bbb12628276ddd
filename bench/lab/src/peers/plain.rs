//! The plain Rust types a user of serde-style libraries would write for the game
//! messages — `f32` floats, `u16` ids, `String` names, `Option<u16>` target,
//! `Vec<Entity>` — with conversions from the bitwire-generated types.
//!
//! They derive serde (`bincode` 1.3, `postcard`), `bitcode`'s own derive, wincode's
//! `SchemaWrite`/`SchemaRead` and bincode 2's native `Encode`/`Decode`, the way each
//! library's documentation recommends. Nothing here knows the schema's bit widths or
//! ranges: that knowledge is exactly what bitwire adds.

use bitwire_example::game as bw;
use serde::{Deserialize, Serialize};

/// `Team`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub enum Team {
    Red,
    Blue,
    Green,
    Spectator,
}

/// `Weapon`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub enum Weapon {
    Fist,
    Pistol,
    Rifle,
    Shotgun,
    Sniper,
    Rocket,
}

/// `Packet64`, with the narrowest standard integer types.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Packet64 {
    pub is_alive: bool,
    pub weapon_id: u8,
    pub team_id: u8,
    pub health: u16,
    pub pos_x: i16,
    pub pos_y: i16,
    pub rotation: u8,
    pub score: u16,
}

/// `Buttons`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Buttons {
    pub fire: bool,
    pub aim: bool,
    pub jump: bool,
    pub crouch: bool,
    pub reload: bool,
    pub use_item: bool,
}

/// `Input`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Input {
    pub seq: u16,
    pub move_x: f32,
    pub move_y: f32,
    pub buttons: Buttons,
    pub yaw: f32,
    pub pitch: f32,
}

/// `Vec2`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

/// `Entity`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Entity {
    pub id: u16,
    pub pos: Vec2,
    pub vel_x: f32,
    pub vel_y: f32,
    pub yaw: f32,
    pub health: u8,
    pub weapon: Weapon,
    pub team: Team,
    pub on_ground: bool,
    pub sprinting: bool,
    pub target: Option<u16>,
    pub name: String,
}

/// `Snapshot`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Snapshot {
    pub tick: u32,
    pub ack_seq: u16,
    pub entities: Vec<Entity>,
}

/// `Kill`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Kill {
    pub killer: u16,
    pub victim: u16,
    pub weapon: Weapon,
    pub headshot: bool,
}

/// `Chat`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Chat {
    pub from: String,
    pub text: String,
}

/// `Event`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub enum Event {
    Chat(Chat),
    Kill(Kill),
    Join(String),
    Leave(u16),
    RoundOver,
}

/// `Events`.
#[derive(
    Debug,
    Clone,
    PartialEq,
    Serialize,
    Deserialize,
    bitcode::Encode,
    bitcode::Decode,
    ::wincode::SchemaWrite,
    ::wincode::SchemaRead,
    bincode2::Encode,
    bincode2::Decode,
)]
#[bincode(crate = "bincode2")]
pub struct Events {
    pub tick: u32,
    pub events: Vec<Event>,
}

impl From<bw::Team> for Team {
    fn from(t: bw::Team) -> Self {
        match t {
            bw::Team::Red => Team::Red,
            bw::Team::Blue => Team::Blue,
            bw::Team::Green => Team::Green,
            bw::Team::Spectator => Team::Spectator,
        }
    }
}

impl From<bw::Weapon> for Weapon {
    fn from(w: bw::Weapon) -> Self {
        match w {
            bw::Weapon::Fist => Weapon::Fist,
            bw::Weapon::Pistol => Weapon::Pistol,
            bw::Weapon::Rifle => Weapon::Rifle,
            bw::Weapon::Shotgun => Weapon::Shotgun,
            bw::Weapon::Sniper => Weapon::Sniper,
            bw::Weapon::Rocket => Weapon::Rocket,
        }
    }
}

impl From<&bw::Packet64> for Packet64 {
    fn from(p: &bw::Packet64) -> Self {
        Packet64 {
            is_alive: p.is_alive,
            weapon_id: p.weapon_id,
            team_id: p.team_id,
            health: p.health,
            pos_x: p.pos_x,
            pos_y: p.pos_y,
            rotation: p.rotation,
            score: p.score,
        }
    }
}

impl From<&bw::Input> for Input {
    fn from(i: &bw::Input) -> Self {
        let b = &i.buttons;
        Input {
            seq: i.seq,
            move_x: i.move_x,
            move_y: i.move_y,
            buttons: Buttons {
                fire: b.fire,
                aim: b.aim,
                jump: b.jump,
                crouch: b.crouch,
                reload: b.reload,
                use_item: b.use_item,
            },
            yaw: i.yaw,
            pitch: i.pitch,
        }
    }
}

impl From<&bw::Entity> for Entity {
    fn from(e: &bw::Entity) -> Self {
        Entity {
            id: e.id,
            pos: Vec2 {
                x: e.pos.x,
                y: e.pos.y,
            },
            vel_x: e.vel_x,
            vel_y: e.vel_y,
            yaw: e.yaw,
            health: e.health,
            weapon: e.weapon.into(),
            team: e.team.into(),
            on_ground: e.on_ground,
            sprinting: e.sprinting,
            target: e.target,
            name: e.name.clone(),
        }
    }
}

impl From<&bw::Snapshot> for Snapshot {
    fn from(s: &bw::Snapshot) -> Self {
        Snapshot {
            tick: s.tick,
            ack_seq: s.ack_seq,
            entities: s.entities.iter().map(Entity::from).collect(),
        }
    }
}

impl From<&bw::Event> for Event {
    fn from(e: &bw::Event) -> Self {
        match e {
            bw::Event::Chat(c) => Event::Chat(Chat {
                from: c.from.clone(),
                text: c.text.clone(),
            }),
            bw::Event::Kill(k) => Event::Kill(Kill {
                killer: k.killer,
                victim: k.victim,
                weapon: k.weapon.into(),
                headshot: k.headshot,
            }),
            bw::Event::Join(name) => Event::Join(name.clone()),
            bw::Event::Leave(id) => Event::Leave(*id),
            bw::Event::RoundOver => Event::RoundOver,
        }
    }
}

impl From<&bw::Events> for Events {
    fn from(e: &bw::Events) -> Self {
        Events {
            tick: e.tick,
            events: e.events.iter().map(Event::from).collect(),
        }
    }
}
