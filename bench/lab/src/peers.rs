//! The plain Rust types a user of serde-style libraries would write for the same
//! messages — `f32` floats, `u16` ids, `String` names, `Option<u16>` target,
//! `Vec<Entity>` — with conversions from the bitwire-generated types, and the peer
//! libraries' encoders over them.
//!
//! The structs derive both serde (`bincode` 1.3, `postcard`) and `bitcode`'s own derive,
//! the way each library's documentation recommends. Nothing here knows the schema's bit
//! widths or ranges: that knowledge is exactly what bitwire adds.

use bitwire_example::game as bw;
use serde::{Deserialize, Serialize};

/// Derives for every plain type.
macro_rules! plain {
    ($($item:item)*) => {$(
        #[derive(Debug, Clone, PartialEq, Serialize, Deserialize, bitcode::Encode, bitcode::Decode)]
        $item
    )*};
}

plain! {
    /// `Team`.
    pub enum Team { Red, Blue, Green, Spectator }

    /// `Weapon`.
    pub enum Weapon { Fist, Pistol, Rifle, Shotgun, Sniper, Rocket }

    /// `Packet64`, with the narrowest standard integer types.
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
    pub struct Buttons {
        pub fire: bool,
        pub aim: bool,
        pub jump: bool,
        pub crouch: bool,
        pub reload: bool,
        pub use_item: bool,
    }

    /// `Input`.
    pub struct Input {
        pub seq: u16,
        pub move_x: f32,
        pub move_y: f32,
        pub buttons: Buttons,
        pub yaw: f32,
        pub pitch: f32,
    }

    /// `Vec2`.
    pub struct Vec2 { pub x: f32, pub y: f32 }

    /// `Entity`.
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
    pub struct Snapshot {
        pub tick: u32,
        pub ack_seq: u16,
        pub entities: Vec<Entity>,
    }

    /// `Kill`.
    pub struct Kill {
        pub killer: u16,
        pub victim: u16,
        pub weapon: Weapon,
        pub headshot: bool,
    }

    /// `Chat`.
    pub struct Chat { pub from: String, pub text: String }

    /// `Event`.
    pub enum Event {
        Chat(Chat),
        Kill(Kill),
        Join(String),
        Leave(u16),
        RoundOver,
    }

    /// `Events`.
    pub struct Events { pub tick: u32, pub events: Vec<Event> }
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

/// A peer library: its name and how it turns a plain value into bytes and back.
pub struct Peer<T> {
    /// The library and version line, as printed in tables (`bitcode 0.6`).
    pub name: &'static str,
    /// Encodes one message.
    pub encode: fn(&T) -> Vec<u8>,
    /// Decodes one message (`None` on any error).
    pub decode: fn(&[u8]) -> Option<T>,
}

/// The peers of this crate for plain type `T`, in table order.
pub fn peers<T>() -> Vec<Peer<T>>
where
    T: Serialize + for<'de> Deserialize<'de> + bitcode::Encode + for<'de> bitcode::Decode<'de>,
{
    vec![
        Peer {
            name: "bitcode 0.6",
            encode: |v| bitcode::encode(v),
            decode: |b| bitcode::decode(b).ok(),
        },
        Peer {
            name: "bincode 1.3",
            encode: |v| bincode::serialize(v).expect("bincode serializes plain data"),
            decode: |b| bincode::deserialize(b).ok(),
        },
        Peer {
            name: "postcard 1",
            encode: |v| postcard::to_allocvec(v).expect("postcard serializes plain data"),
            decode: |b| postcard::from_bytes(b).ok(),
        },
    ]
}
