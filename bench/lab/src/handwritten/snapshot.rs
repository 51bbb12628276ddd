//! `Snapshot`: varint tick, ack, a 7-bit entity count, then the entities' bit fields.

use crate::peers::plain::{Entity, Snapshot, Team, Vec2, Weapon};

use super::bits::{Quant, Reader, Writer};

const POS: Quant = Quant {
    min: -1024.0,
    max: 1024.0,
    steps: 131_072,
};
const VEL: Quant = Quant {
    min: -64.0,
    max: 63.875,
    steps: 1023,
};
const YAW: Quant = Quant {
    min: 0.0,
    max: 360.0,
    steps: 255,
};

/// The 4-bit weapon tag.
pub(super) fn weapon_tag(w: &Weapon) -> u64 {
    match w {
        Weapon::Fist => 0,
        Weapon::Pistol => 1,
        Weapon::Rifle => 2,
        Weapon::Shotgun => 3,
        Weapon::Sniper => 4,
        Weapon::Rocket => 9,
    }
}

/// The weapon of a 4-bit tag.
pub(super) fn weapon(tag: u64) -> Option<Weapon> {
    Some(match tag {
        0 => Weapon::Fist,
        1 => Weapon::Pistol,
        2 => Weapon::Rifle,
        3 => Weapon::Shotgun,
        4 => Weapon::Sniper,
        9 => Weapon::Rocket,
        _ => return None,
    })
}

fn team_tag(t: &Team) -> u64 {
    match t {
        Team::Red => 0,
        Team::Blue => 1,
        Team::Green => 2,
        Team::Spectator => 3,
    }
}

fn team(tag: u64) -> Team {
    match tag {
        0 => Team::Red,
        1 => Team::Blue,
        2 => Team::Green,
        _ => Team::Spectator,
    }
}

/// Appends the encoding of `m`.
pub fn encode_snapshot(m: &Snapshot, out: &mut Vec<u8>) {
    let mut w = Writer::new(out);
    w.varint(u64::from(m.tick), 32);
    w.put(u64::from(m.ack_seq), 16);
    w.put(m.entities.len() as u64, 7);
    for e in &m.entities {
        w.put(u64::from(e.id), 12);
        w.put(POS.q(e.pos.x), 18);
        w.put(POS.q(e.pos.y), 18);
        w.put(
            VEL.q(e.vel_x) | VEL.q(e.vel_y) << 10 | YAW.q(e.yaw) << 20,
            28,
        );
        w.put(
            u64::from(e.health)
                | weapon_tag(&e.weapon) << 8
                | team_tag(&e.team) << 12
                | u64::from(e.on_ground) << 14
                | u64::from(e.sprinting) << 15,
            16,
        );
        match e.target {
            Some(t) => w.put(1 | u64::from(t) << 1, 13),
            None => w.bit(false),
        }
        w.put(e.name.len() as u64, 5);
        w.bytes(e.name.as_bytes());
    }
    w.finish();
}

fn entity(r: &mut Reader<'_>) -> Option<Entity> {
    let id = r.get(12)? as u16;
    let x = POS.v(r.get(18)?);
    let y = POS.v(r.get(18)?);
    let motion = r.get(28)?;
    let flags = r.get(16)?;
    let target = if r.bit()? {
        Some(r.get(12)? as u16)
    } else {
        None
    };
    let len = r.get(5)? as usize;
    Some(Entity {
        id,
        pos: Vec2 { x, y },
        vel_x: VEL.v(motion & 0x3FF),
        vel_y: VEL.v(motion >> 10 & 0x3FF),
        yaw: YAW.v(motion >> 20),
        health: flags as u8,
        weapon: weapon(flags >> 8 & 0xF)?,
        team: team(flags >> 12 & 3),
        on_ground: flags >> 14 & 1 != 0,
        sprinting: flags >> 15 != 0,
        target,
        name: r.string(len)?,
    })
}

/// Decodes a snapshot; `None` if the input is too short.
pub fn decode_snapshot(bytes: &[u8]) -> Option<Snapshot> {
    let mut r = Reader::new(bytes);
    let tick = r.varint(32)? as u32;
    let ack_seq = r.get(16)? as u16;
    let n = r.get(7)? as usize;
    let mut entities = Vec::with_capacity(n);
    for _ in 0..n {
        entities.push(entity(&mut r)?);
    }
    Some(Snapshot {
        tick,
        ack_seq,
        entities,
    })
}
