//! Protobuf via prost 0.14: the generated types of `bench/schemas/game.proto`
//! ([`super::prost_generated`]), conversions from and to the plain types (not timed),
//! and the [`Codec`]: `Message::encode` into a reused `Vec`, `Message::decode`.

use ::prost::Message;

use super::plain as p;
use super::prost_generated as pb;
use super::Codec;

/// prost's `Message::encode` / `Message::decode`.
#[derive(Default)]
pub struct Prost;

impl<M: Message + Default + PartialEq> Codec<M> for Prost {
    type Out = M;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        m.encode(out).expect("a Vec grows as needed");
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<M> {
        M::decode(bytes).ok()
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        self.decode(bytes)
    }
}

/// A whole dataset as protobuf streams it: length-delimited messages one after the
/// other (`encode_length_delimited` / `decode_length_delimited`).
#[derive(Default)]
pub struct ProstStream;

impl<M: Message + Default + PartialEq> Codec<Vec<M>> for ProstStream {
    type Out = Vec<M>;

    #[inline]
    fn append(&mut self, m: &Vec<M>, out: &mut Vec<u8>) {
        for v in m {
            v.encode_length_delimited(out)
                .expect("a Vec grows as needed");
        }
    }

    fn decode(&mut self, mut bytes: &[u8]) -> Option<Vec<M>> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            out.push(M::decode_length_delimited(&mut bytes).ok()?);
        }
        Some(out)
    }

    fn value(&mut self, bytes: &[u8]) -> Option<Vec<M>> {
        self.decode(bytes)
    }
}

fn team(t: &p::Team) -> i32 {
    (match t {
        p::Team::Red => pb::Team::Red,
        p::Team::Blue => pb::Team::Blue,
        p::Team::Green => pb::Team::Green,
        p::Team::Spectator => pb::Team::Spectator,
    }) as i32
}

fn weapon(w: &p::Weapon) -> i32 {
    (match w {
        p::Weapon::Fist => pb::Weapon::Fist,
        p::Weapon::Pistol => pb::Weapon::Pistol,
        p::Weapon::Rifle => pb::Weapon::Rifle,
        p::Weapon::Shotgun => pb::Weapon::Shotgun,
        p::Weapon::Sniper => pb::Weapon::Sniper,
        p::Weapon::Rocket => pb::Weapon::Rocket,
    }) as i32
}

fn team_back(t: i32) -> Option<p::Team> {
    Some(match pb::Team::try_from(t).ok()? {
        pb::Team::Red => p::Team::Red,
        pb::Team::Blue => p::Team::Blue,
        pb::Team::Green => p::Team::Green,
        pb::Team::Spectator => p::Team::Spectator,
    })
}

fn weapon_back(w: i32) -> Option<p::Weapon> {
    Some(match pb::Weapon::try_from(w).ok()? {
        pb::Weapon::Fist => p::Weapon::Fist,
        pb::Weapon::Pistol => p::Weapon::Pistol,
        pb::Weapon::Rifle => p::Weapon::Rifle,
        pb::Weapon::Shotgun => p::Weapon::Shotgun,
        pb::Weapon::Sniper => p::Weapon::Sniper,
        pb::Weapon::Rocket => p::Weapon::Rocket,
    })
}

/// Conversions between a plain type and its prost type.
pub trait ToProst: Sized {
    /// The prost message type.
    type Pb: Message + Default + PartialEq + std::fmt::Debug;
    /// The prost message holding the same values.
    fn to_prost(&self) -> Self::Pb;
    /// The plain value of a prost message; `None` if a field does not fit.
    fn from_prost(m: &Self::Pb) -> Option<Self>;
}

impl ToProst for p::Packet64 {
    type Pb = pb::Packet64;

    fn to_prost(&self) -> pb::Packet64 {
        pb::Packet64 {
            is_alive: self.is_alive,
            weapon_id: self.weapon_id.into(),
            team_id: self.team_id.into(),
            health: self.health.into(),
            pos_x: self.pos_x.into(),
            pos_y: self.pos_y.into(),
            rotation: self.rotation.into(),
            score: self.score.into(),
        }
    }

    fn from_prost(m: &pb::Packet64) -> Option<Self> {
        Some(p::Packet64 {
            is_alive: m.is_alive,
            weapon_id: m.weapon_id.try_into().ok()?,
            team_id: m.team_id.try_into().ok()?,
            health: m.health.try_into().ok()?,
            pos_x: m.pos_x.try_into().ok()?,
            pos_y: m.pos_y.try_into().ok()?,
            rotation: m.rotation.try_into().ok()?,
            score: m.score.try_into().ok()?,
        })
    }
}

impl ToProst for p::Input {
    type Pb = pb::Input;

    fn to_prost(&self) -> pb::Input {
        let b = &self.buttons;
        pb::Input {
            seq: self.seq.into(),
            move_x: self.move_x,
            move_y: self.move_y,
            buttons: Some(pb::Buttons {
                fire: b.fire,
                aim: b.aim,
                jump: b.jump,
                crouch: b.crouch,
                reload: b.reload,
                use_item: b.use_item,
            }),
            yaw: self.yaw,
            pitch: self.pitch,
        }
    }

    fn from_prost(m: &pb::Input) -> Option<Self> {
        let b = m.buttons.unwrap_or_default();
        Some(p::Input {
            seq: m.seq.try_into().ok()?,
            move_x: m.move_x,
            move_y: m.move_y,
            buttons: p::Buttons {
                fire: b.fire,
                aim: b.aim,
                jump: b.jump,
                crouch: b.crouch,
                reload: b.reload,
                use_item: b.use_item,
            },
            yaw: m.yaw,
            pitch: m.pitch,
        })
    }
}

fn entity(e: &p::Entity) -> pb::Entity {
    pb::Entity {
        id: e.id.into(),
        pos: Some(pb::Vec2 {
            x: e.pos.x,
            y: e.pos.y,
        }),
        vel_x: e.vel_x,
        vel_y: e.vel_y,
        yaw: e.yaw,
        health: e.health.into(),
        weapon: weapon(&e.weapon),
        team: team(&e.team),
        on_ground: e.on_ground,
        sprinting: e.sprinting,
        target: e.target.map(u32::from),
        name: e.name.clone(),
    }
}

fn entity_back(e: &pb::Entity) -> Option<p::Entity> {
    let pos = e.pos.unwrap_or_default();
    Some(p::Entity {
        id: e.id.try_into().ok()?,
        pos: p::Vec2 { x: pos.x, y: pos.y },
        vel_x: e.vel_x,
        vel_y: e.vel_y,
        yaw: e.yaw,
        health: e.health.try_into().ok()?,
        weapon: weapon_back(e.weapon)?,
        team: team_back(e.team)?,
        on_ground: e.on_ground,
        sprinting: e.sprinting,
        target: match e.target {
            Some(t) => Some(t.try_into().ok()?),
            None => None,
        },
        name: e.name.clone(),
    })
}

impl ToProst for p::Snapshot {
    type Pb = pb::Snapshot;

    fn to_prost(&self) -> pb::Snapshot {
        pb::Snapshot {
            tick: self.tick,
            ack_seq: self.ack_seq.into(),
            entities: self.entities.iter().map(entity).collect(),
        }
    }

    fn from_prost(m: &pb::Snapshot) -> Option<Self> {
        Some(p::Snapshot {
            tick: m.tick,
            ack_seq: m.ack_seq.try_into().ok()?,
            entities: m.entities.iter().map(entity_back).collect::<Option<_>>()?,
        })
    }
}

fn event(e: &p::Event) -> pb::Event {
    use pb::event::Kind;
    let kind = match e {
        p::Event::Chat(c) => Kind::Chat(pb::Chat {
            from: c.from.clone(),
            text: c.text.clone(),
        }),
        p::Event::Kill(k) => Kind::Kill(pb::Kill {
            killer: k.killer.into(),
            victim: k.victim.into(),
            weapon: weapon(&k.weapon),
            headshot: k.headshot,
        }),
        p::Event::Join(name) => Kind::Join(name.clone()),
        p::Event::Leave(id) => Kind::Leave((*id).into()),
        p::Event::RoundOver => Kind::RoundOver(pb::RoundOver {}),
    };
    pb::Event { kind: Some(kind) }
}

fn event_back(e: &pb::Event) -> Option<p::Event> {
    use pb::event::Kind;
    Some(match e.kind.as_ref()? {
        Kind::Chat(c) => p::Event::Chat(p::Chat {
            from: c.from.clone(),
            text: c.text.clone(),
        }),
        Kind::Kill(k) => p::Event::Kill(p::Kill {
            killer: k.killer.try_into().ok()?,
            victim: k.victim.try_into().ok()?,
            weapon: weapon_back(k.weapon)?,
            headshot: k.headshot,
        }),
        Kind::Join(name) => p::Event::Join(name.clone()),
        Kind::Leave(id) => p::Event::Leave((*id).try_into().ok()?),
        Kind::RoundOver(_) => p::Event::RoundOver,
    })
}

impl ToProst for p::Events {
    type Pb = pb::Events;

    fn to_prost(&self) -> pb::Events {
        pb::Events {
            tick: self.tick,
            events: self.events.iter().map(event).collect(),
        }
    }

    fn from_prost(m: &pb::Events) -> Option<Self> {
        Some(p::Events {
            tick: m.tick,
            events: m.events.iter().map(event_back).collect::<Option<_>>()?,
        })
    }
}
