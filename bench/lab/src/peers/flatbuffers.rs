//! FlatBuffers 25.12.19 on the code flatc generated from `bench/schemas/game.fbs`
//! ([`super::flatbuffers_generated`]). Encoding builds each message with one
//! `FlatBufferBuilder` reused across messages (`reset`, build, `finish`); decoding is
//! `flatbuffers::root` (which runs the verifier) and reads every field without
//! allocating, folding them into a checksum. For checking, the fields are also turned
//! back into the plain type (not timed).

use ::flatbuffers::{FlatBufferBuilder, WIPOffset};

use super::flatbuffers_generated::bitwire::bench::fb;
use super::plain as p;
use super::Codec;

/// Offsets collected while building a message, kept between messages.
#[derive(Default)]
pub struct Scratch {
    entities: Vec<WIPOffset<fb::Entity<'static>>>,
    events: Vec<WIPOffset<fb::EventItem<'static>>>,
    /// A page's profiles (`super::profiles`).
    pub(crate) profiles: Vec<WIPOffset<fb::Profile<'static>>>,
    /// One profile's badges.
    pub(crate) badges: Vec<WIPOffset<&'static str>>,
}

/// A plain type with a FlatBuffers table of the same fields.
pub trait FlatMessage: Sized {
    /// Builds `self` as the root of `fbb` and finishes the buffer.
    fn build(&self, fbb: &mut FlatBufferBuilder<'static>, scratch: &mut Scratch);
    /// Verifies `bytes` and reads every field; a checksum of the fields, or `None`.
    fn read(bytes: &[u8]) -> Option<u64>;
    /// Verifies `bytes` and converts them to the plain type.
    fn to_plain(bytes: &[u8]) -> Option<Self>;
}

/// The FlatBuffers codec: a reused builder.
#[derive(Default)]
pub struct Flatbuffers {
    fbb: FlatBufferBuilder<'static>,
    scratch: Scratch,
}

impl<M: FlatMessage> Codec<M> for Flatbuffers {
    type Out = u64;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        let mut none = Vec::new();
        out.extend_from_slice(self.encode(m, &mut none));
    }

    #[inline]
    fn encode<'a>(&'a mut self, m: &M, _out: &'a mut Vec<u8>) -> &'a [u8] {
        self.fbb.reset();
        m.build(&mut self.fbb, &mut self.scratch);
        self.fbb.finished_data()
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<u64> {
        M::read(bytes)
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        M::to_plain(bytes)
    }
}

/// Folds one field into a checksum.
#[inline(always)]
pub(crate) fn mix(acc: u64, v: u64) -> u64 {
    acc.rotate_left(5) ^ v
}

fn team(t: &p::Team) -> fb::Team {
    match t {
        p::Team::Red => fb::Team::Red,
        p::Team::Blue => fb::Team::Blue,
        p::Team::Green => fb::Team::Green,
        p::Team::Spectator => fb::Team::Spectator,
    }
}

fn team_back(t: fb::Team) -> Option<p::Team> {
    Some(match t {
        fb::Team::Red => p::Team::Red,
        fb::Team::Blue => p::Team::Blue,
        fb::Team::Green => p::Team::Green,
        fb::Team::Spectator => p::Team::Spectator,
        _ => return None,
    })
}

fn weapon(w: &p::Weapon) -> fb::Weapon {
    match w {
        p::Weapon::Fist => fb::Weapon::Fist,
        p::Weapon::Pistol => fb::Weapon::Pistol,
        p::Weapon::Rifle => fb::Weapon::Rifle,
        p::Weapon::Shotgun => fb::Weapon::Shotgun,
        p::Weapon::Sniper => fb::Weapon::Sniper,
        p::Weapon::Rocket => fb::Weapon::Rocket,
    }
}

fn weapon_back(w: fb::Weapon) -> Option<p::Weapon> {
    Some(match w {
        fb::Weapon::Fist => p::Weapon::Fist,
        fb::Weapon::Pistol => p::Weapon::Pistol,
        fb::Weapon::Rifle => p::Weapon::Rifle,
        fb::Weapon::Shotgun => p::Weapon::Shotgun,
        fb::Weapon::Sniper => p::Weapon::Sniper,
        fb::Weapon::Rocket => p::Weapon::Rocket,
        _ => return None,
    })
}

impl FlatMessage for p::Packet64 {
    fn build(&self, fbb: &mut FlatBufferBuilder<'static>, _: &mut Scratch) {
        let root = fb::Packet64::create(
            fbb,
            &fb::Packet64Args {
                is_alive: self.is_alive,
                weapon_id: self.weapon_id,
                team_id: self.team_id,
                health: self.health,
                pos_x: self.pos_x,
                pos_y: self.pos_y,
                rotation: self.rotation,
                score: self.score,
            },
        );
        fbb.finish(root, None);
    }

    #[inline]
    fn read(bytes: &[u8]) -> Option<u64> {
        let m = ::flatbuffers::root::<fb::Packet64>(bytes).ok()?;
        let mut a = u64::from(m.is_alive());
        a = mix(a, m.weapon_id().into());
        a = mix(a, m.team_id().into());
        a = mix(a, m.health().into());
        a = mix(a, m.pos_x() as u64);
        a = mix(a, m.pos_y() as u64);
        a = mix(a, m.rotation().into());
        Some(mix(a, m.score().into()))
    }

    fn to_plain(bytes: &[u8]) -> Option<Self> {
        let m = ::flatbuffers::root::<fb::Packet64>(bytes).ok()?;
        Some(p::Packet64 {
            is_alive: m.is_alive(),
            weapon_id: m.weapon_id(),
            team_id: m.team_id(),
            health: m.health(),
            pos_x: m.pos_x(),
            pos_y: m.pos_y(),
            rotation: m.rotation(),
            score: m.score(),
        })
    }
}

impl FlatMessage for p::Input {
    fn build(&self, fbb: &mut FlatBufferBuilder<'static>, _: &mut Scratch) {
        let b = &self.buttons;
        let buttons = fb::Buttons::new(b.fire, b.aim, b.jump, b.crouch, b.reload, b.use_item);
        let root = fb::Input::create(
            fbb,
            &fb::InputArgs {
                seq: self.seq,
                move_x: self.move_x,
                move_y: self.move_y,
                buttons: Some(&buttons),
                yaw: self.yaw,
                pitch: self.pitch,
            },
        );
        fbb.finish(root, None);
    }

    #[inline]
    fn read(bytes: &[u8]) -> Option<u64> {
        let m = ::flatbuffers::root::<fb::Input>(bytes).ok()?;
        let mut a = u64::from(m.seq());
        a = mix(a, m.move_x().to_bits().into());
        a = mix(a, m.move_y().to_bits().into());
        if let Some(b) = m.buttons() {
            for bit in [
                b.fire(),
                b.aim(),
                b.jump(),
                b.crouch(),
                b.reload(),
                b.use_item(),
            ] {
                a = mix(a, bit.into());
            }
        }
        a = mix(a, m.yaw().to_bits().into());
        Some(mix(a, m.pitch().to_bits().into()))
    }

    fn to_plain(bytes: &[u8]) -> Option<Self> {
        let m = ::flatbuffers::root::<fb::Input>(bytes).ok()?;
        let b = m.buttons()?;
        Some(p::Input {
            seq: m.seq(),
            move_x: m.move_x(),
            move_y: m.move_y(),
            buttons: p::Buttons {
                fire: b.fire(),
                aim: b.aim(),
                jump: b.jump(),
                crouch: b.crouch(),
                reload: b.reload(),
                use_item: b.use_item(),
            },
            yaw: m.yaw(),
            pitch: m.pitch(),
        })
    }
}

impl FlatMessage for p::Snapshot {
    fn build(&self, fbb: &mut FlatBufferBuilder<'static>, scratch: &mut Scratch) {
        scratch.entities.clear();
        for e in &self.entities {
            let name = fbb.create_string(&e.name);
            let entity = fb::Entity::create(
                fbb,
                &fb::EntityArgs {
                    id: e.id,
                    pos: Some(&fb::Vec2::new(e.pos.x, e.pos.y)),
                    vel_x: e.vel_x,
                    vel_y: e.vel_y,
                    yaw: e.yaw,
                    health: e.health,
                    weapon: weapon(&e.weapon),
                    team: team(&e.team),
                    on_ground: e.on_ground,
                    sprinting: e.sprinting,
                    target: e.target,
                    name: Some(name),
                },
            );
            scratch.entities.push(entity);
        }
        let entities = fbb.create_vector(&scratch.entities);
        let root = fb::Snapshot::create(
            fbb,
            &fb::SnapshotArgs {
                tick: self.tick,
                ack_seq: self.ack_seq,
                entities: Some(entities),
            },
        );
        fbb.finish(root, None);
    }

    #[inline]
    fn read(bytes: &[u8]) -> Option<u64> {
        let m = ::flatbuffers::root::<fb::Snapshot>(bytes).ok()?;
        let mut a = mix(m.tick().into(), m.ack_seq().into());
        for e in m.entities()? {
            a = mix(a, e.id().into());
            let pos = e.pos()?;
            a = mix(a, pos.x().to_bits().into());
            a = mix(a, pos.y().to_bits().into());
            a = mix(a, e.vel_x().to_bits().into());
            a = mix(a, e.vel_y().to_bits().into());
            a = mix(a, e.yaw().to_bits().into());
            a = mix(a, e.health().into());
            a = mix(a, e.weapon().0.into());
            a = mix(a, e.team().0.into());
            a = mix(a, e.on_ground().into());
            a = mix(a, e.sprinting().into());
            a = mix(a, e.target().map_or(u64::MAX, u64::from));
            a = mix(a, e.name()?.len() as u64);
        }
        Some(a)
    }

    fn to_plain(bytes: &[u8]) -> Option<Self> {
        let m = ::flatbuffers::root::<fb::Snapshot>(bytes).ok()?;
        let mut entities = Vec::new();
        for e in m.entities()? {
            let pos = e.pos()?;
            entities.push(p::Entity {
                id: e.id(),
                pos: p::Vec2 {
                    x: pos.x(),
                    y: pos.y(),
                },
                vel_x: e.vel_x(),
                vel_y: e.vel_y(),
                yaw: e.yaw(),
                health: e.health(),
                weapon: weapon_back(e.weapon())?,
                team: team_back(e.team())?,
                on_ground: e.on_ground(),
                sprinting: e.sprinting(),
                target: e.target(),
                name: e.name()?.to_string(),
            });
        }
        Some(p::Snapshot {
            tick: m.tick(),
            ack_seq: m.ack_seq(),
            entities,
        })
    }
}

fn event_item(
    fbb: &mut FlatBufferBuilder<'static>,
    e: &p::Event,
) -> WIPOffset<fb::EventItem<'static>> {
    let (event_type, event) = match e {
        p::Event::Chat(c) => {
            let from = fbb.create_string(&c.from);
            let text = fbb.create_string(&c.text);
            let args = fb::ChatArgs {
                from: Some(from),
                text: Some(text),
            };
            let t = fb::Chat::create(fbb, &args);
            (fb::Event::Chat, t.as_union_value())
        }
        p::Event::Kill(k) => {
            let args = fb::KillArgs {
                killer: k.killer,
                victim: k.victim,
                weapon: weapon(&k.weapon),
                headshot: k.headshot,
            };
            let t = fb::Kill::create(fbb, &args);
            (fb::Event::Kill, t.as_union_value())
        }
        p::Event::Join(name) => {
            let name = fbb.create_string(name);
            let t = fb::Join::create(fbb, &fb::JoinArgs { name: Some(name) });
            (fb::Event::Join, t.as_union_value())
        }
        p::Event::Leave(id) => {
            let t = fb::Leave::create(fbb, &fb::LeaveArgs { id: *id });
            (fb::Event::Leave, t.as_union_value())
        }
        p::Event::RoundOver => {
            let t = fb::RoundOver::create(fbb, &fb::RoundOverArgs {});
            (fb::Event::RoundOver, t.as_union_value())
        }
    };
    fb::EventItem::create(
        fbb,
        &fb::EventItemArgs {
            event_type,
            event: Some(event),
        },
    )
}

impl FlatMessage for p::Events {
    fn build(&self, fbb: &mut FlatBufferBuilder<'static>, scratch: &mut Scratch) {
        scratch.events.clear();
        for e in &self.events {
            let item = event_item(fbb, e);
            scratch.events.push(item);
        }
        let events = fbb.create_vector(&scratch.events);
        let root = fb::Events::create(
            fbb,
            &fb::EventsArgs {
                tick: self.tick,
                events: Some(events),
            },
        );
        fbb.finish(root, None);
    }

    #[inline]
    fn read(bytes: &[u8]) -> Option<u64> {
        let m = ::flatbuffers::root::<fb::Events>(bytes).ok()?;
        let mut a = u64::from(m.tick());
        for item in m.events()? {
            a = mix(a, item.event_type().0.into());
            match item.event_type() {
                fb::Event::Chat => {
                    let c = item.event_as_chat()?;
                    a = mix(a, c.from()?.len() as u64);
                    a = mix(a, c.text()?.len() as u64);
                }
                fb::Event::Kill => {
                    let k = item.event_as_kill()?;
                    a = mix(a, k.killer().into());
                    a = mix(a, k.victim().into());
                    a = mix(a, k.weapon().0.into());
                    a = mix(a, k.headshot().into());
                }
                fb::Event::Join => a = mix(a, item.event_as_join()?.name()?.len() as u64),
                fb::Event::Leave => a = mix(a, item.event_as_leave()?.id().into()),
                fb::Event::RoundOver => {
                    item.event_as_round_over()?;
                }
                _ => return None,
            }
        }
        Some(a)
    }

    fn to_plain(bytes: &[u8]) -> Option<Self> {
        let m = ::flatbuffers::root::<fb::Events>(bytes).ok()?;
        let mut events = Vec::new();
        for item in m.events()? {
            events.push(match item.event_type() {
                fb::Event::Chat => {
                    let c = item.event_as_chat()?;
                    p::Event::Chat(p::Chat {
                        from: c.from()?.to_string(),
                        text: c.text()?.to_string(),
                    })
                }
                fb::Event::Kill => {
                    let k = item.event_as_kill()?;
                    p::Event::Kill(p::Kill {
                        killer: k.killer(),
                        victim: k.victim(),
                        weapon: weapon_back(k.weapon())?,
                        headshot: k.headshot(),
                    })
                }
                fb::Event::Join => p::Event::Join(item.event_as_join()?.name()?.to_string()),
                fb::Event::Leave => p::Event::Leave(item.event_as_leave()?.id()),
                fb::Event::RoundOver => {
                    item.event_as_round_over()?;
                    p::Event::RoundOver
                }
                _ => return None,
            });
        }
        Some(p::Events {
            tick: m.tick(),
            events,
        })
    }
}
