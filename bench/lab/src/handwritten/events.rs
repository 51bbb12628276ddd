//! `Events`: varint tick, varint count, then each event's 3-bit tag and payload.

use crate::peers::plain::{Chat, Event, Events, Kill};

use super::bits::{Reader, Writer};
use super::snapshot::{weapon, weapon_tag};

fn string(w: &mut Writer<'_>, s: &str, len_bits: u32) {
    w.put(s.len() as u64, len_bits);
    w.bytes(s.as_bytes());
}

/// Appends the encoding of `m`.
pub fn encode_events(m: &Events, out: &mut Vec<u8>) {
    let mut w = Writer::new(out);
    w.varint(u64::from(m.tick), 32);
    w.varint(m.events.len() as u64, 64);
    for e in &m.events {
        match e {
            Event::Chat(c) => {
                w.put(0, 3);
                string(&mut w, &c.from, 5);
                string(&mut w, &c.text, 9);
            }
            Event::Kill(k) => w.put(
                1 | u64::from(k.killer) << 3
                    | u64::from(k.victim) << 15
                    | weapon_tag(&k.weapon) << 27
                    | u64::from(k.headshot) << 31,
                32,
            ),
            Event::Join(name) => {
                w.put(2, 3);
                string(&mut w, name, 5);
            }
            Event::Leave(id) => w.put(3 | u64::from(*id) << 3, 15),
            Event::RoundOver => w.put(4, 3),
        }
    }
    w.finish();
}

fn event(r: &mut Reader<'_>) -> Option<Event> {
    Some(match r.get(3)? {
        0 => {
            let len = r.get(5)? as usize;
            let from = r.string(len)?;
            let len = r.get(9)? as usize;
            Event::Chat(Chat {
                from,
                text: r.string(len)?,
            })
        }
        1 => {
            let k = r.get(29)?;
            Event::Kill(Kill {
                killer: (k & 0xFFF) as u16,
                victim: (k >> 12 & 0xFFF) as u16,
                weapon: weapon(k >> 24 & 0xF)?,
                headshot: k >> 28 != 0,
            })
        }
        2 => {
            let len = r.get(5)? as usize;
            Event::Join(r.string(len)?)
        }
        3 => Event::Leave(r.get(12)? as u16),
        _ => Event::RoundOver,
    })
}

/// Decodes an events batch; `None` if the input is too short.
pub fn decode_events(bytes: &[u8]) -> Option<Events> {
    let mut r = Reader::new(bytes);
    let tick = r.varint(32)? as u32;
    let n = r.varint(64)? as usize;
    // Every event takes at least 3 bits: no allocation larger than the input allows.
    let mut events = Vec::with_capacity(n.min(bytes.len() * 8 / 3));
    for _ in 0..n {
        events.push(event(&mut r)?);
    }
    Some(Events { tick, events })
}
