//! The round trip the server runs before it starts (a run counts only if its codec
//! round-trips, bench/sim/README.md "Codecs"): real snapshots of a small world over a
//! few ticks (acknowledged, so a delta codec encodes against a baseline) and inputs at
//! the edges of their ranges, through a server and a client side of the codec.

use crate::codec::CodecKind;
use crate::sim;
use crate::world::view::ViewScratch;
use crate::world::World;

/// Ticks of snapshots sent through the codec.
const TICKS: u32 = 5;

/// Round-trips sample snapshots and inputs through `kind`; the first difference or
/// error, if any.
pub fn roundtrip(kind: CodecKind) -> Result<(), String> {
    let mut server = kind.server();
    let mut client = kind.client();
    let mut world = World::new();
    let players: Vec<u16> = (0..3).filter_map(|_| world.join().ok()).collect();
    let me = players[0];
    let mut scratch = ViewScratch::default();
    let mut data = Vec::new();
    for t in 1..=TICKS {
        let steer = sim::Input {
            seq: t,
            move_x: if t % 2 == 0 { 1.0 } else { -1.0 },
            move_y: 1.0,
            aim: 0.0,
            fire: t == 3,
            ..Default::default()
        };
        world.control(me, &steer);
        world.step();
        world.view(me, &mut scratch);
        let sent = sim::Snapshot {
            tick: world.tick() as u32,
            input_seq: t,
            you: me,
            entities: world.collect(&scratch),
        };
        data.clear();
        server
            .encode_snapshot(sent.clone(), &mut data)
            .map_err(|e| format!("snapshot of tick {t} does not encode: {e}"))?;
        let ack = match client
            .decode_snapshot(&data)
            .map_err(|e| format!("snapshot of tick {t} does not decode: {e}"))?
        {
            Some(decoded) if *decoded.snapshot == sent => decoded.ack,
            Some(decoded) => {
                return Err(format!(
                    "snapshot of tick {t} decodes to something else: sent {sent:?}, got {:?}",
                    decoded.snapshot
                ))
            }
            None => return Err(format!("the client dropped the snapshot of tick {t}")),
        };
        server.acknowledge(ack);
    }
    for input in sample_inputs() {
        data.clear();
        client
            .encode_input(&input, &mut data)
            .map_err(|e| format!("input {} does not encode: {e}", input.seq))?;
        let got = server
            .decode_input(&data)
            .map_err(|e| format!("input {} does not decode: {e}", input.seq))?;
        if got != input {
            return Err(format!(
                "input decodes to something else: sent {input:?}, got {got:?}"
            ));
        }
    }
    Ok(())
}

/// Inputs at the edges of every field's range (values on the wire grid).
fn sample_inputs() -> [sim::Input; 3] {
    [
        sim::Input {
            seq: 1,
            ack: 0,
            move_x: -1.0,
            move_y: 1.0,
            aim: 0.0,
            fire: false,
            rtt_us: None,
        },
        sim::Input {
            seq: 30,
            ack: 29,
            move_x: 1.0,
            move_y: -1.0,
            aim: 360.0,
            fire: true,
            rtt_us: Some(1234),
        },
        sim::Input {
            seq: u32::MAX,
            ack: u16::MAX,
            move_x: 1.0,
            move_y: 1.0,
            aim: 360.0,
            fire: true,
            rtt_us: Some(u32::MAX),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bitwire_codec_round_trips() {
        assert_eq!(roundtrip(CodecKind::Bitwire), Ok(()));
    }
}
