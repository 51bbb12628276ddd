//! `bitwire-delta` over a run of ticks of a moving world, with the client's
//! acknowledgements lost, delayed, reordered and bogus, and envelopes delivered late or
//! twice: every snapshot the client decodes equals the one the server sent, late and
//! duplicate envelopes are dropped (`Ok(None)`), and the server falls back to full
//! snapshots when its baseline leaves the ring.

mod codec_support;

use std::collections::VecDeque;

use bitwire_sim::codec::{wire, ClientCodec, CodecKind};
use bitwire_sim::sim;
use bitwire_sim::world::rng::SplitMix64;

/// One tick of a world: entities move by a grid step or two, some change, one in a
/// while leaves or joins.
fn step(rng: &mut SplitMix64, s: &mut sim::Snapshot) {
    s.tick += 1;
    s.input_seq += 1;
    let nudge = |rng: &mut SplitMix64, grid: wire::Grid, v: f32| {
        let q = grid.q(v).unwrap() as i64 + rng.below(5) as i64 - 2;
        grid.value(q.clamp(0, grid.steps as i64) as u64).unwrap()
    };
    for e in &mut s.entities {
        if rng.below(3) == 0 {
            continue; // standing still: an unchanged row
        }
        e.x = nudge(rng, wire::X, e.x);
        e.y = nudge(rng, wire::Y, e.y);
        if rng.below(10) == 0 {
            e.yaw = codec_support::on_grid(rng, wire::YAW);
            e.health = rng.below(201) as u8;
        }
    }
    if rng.below(10) == 0 && s.entities.len() > 2 {
        let i = rng.below(s.entities.len() as u64) as usize;
        if s.entities[i].id != s.you {
            s.entities.remove(i);
        }
    }
    if rng.below(10) == 0 {
        let id = rng.below(4096) as u16;
        if let Err(at) = s.entities.binary_search_by_key(&id, |e| e.id) {
            s.entities.insert(at, codec_support::entity(rng, id));
        }
    }
}

/// What the test does with tick `t`'s envelope and acknowledgement.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Plan {
    /// Delivered, acknowledged (the ack may still be lost on its way).
    Normal,
    /// Delivered after the next tick's envelope: dropped as late.
    Late,
    /// Delivered twice: the second copy is dropped.
    Twice,
}

fn plan(t: u32) -> Plan {
    match t % 23 {
        7 => Plan::Late,
        15 => Plan::Twice,
        _ => Plan::Normal,
    }
}

/// Decodes `data`: the snapshot when it is decoded, checked against `sent` and its
/// acknowledgement against the envelope's Seq.
fn decode(client: &mut dyn ClientCodec, data: &[u8], sent: &sim::Snapshot) -> Option<u16> {
    let d = client.decode_snapshot(data).expect("decodes")?;
    assert_eq!(d.snapshot, sent, "tick {}", sent.tick);
    assert_eq!(d.ack, u16::from_le_bytes([data[0], data[1]]));
    Some(d.ack)
}

#[test]
fn every_snapshot_decodes_equal_through_lost_late_and_bogus_acks() {
    const TICKS: u32 = 600;
    let kind = CodecKind::BitwireDelta;
    let mut rng = SplitMix64::new(40);
    let mut server = kind.server();
    let mut client = kind.client();
    let mut world = codec_support::snapshot_of(&mut rng, 60);
    // The ack of a client before its first snapshot: a snapshot never sent, ignored.
    server.acknowledge(0);

    let mut backs = Vec::new();
    let mut sizes = [Vec::new(), Vec::new()]; // full, delta
    let (mut dropped, mut decoded) = (0, 0);
    let mut acks: VecDeque<u16> = VecDeque::new();
    let mut held: Option<(Vec<u8>, sim::Snapshot)> = None;
    for t in 0..TICKS {
        step(&mut rng, &mut world);
        let mut data = Vec::new();
        server.encode_snapshot(world.clone(), &mut data).unwrap();
        assert_eq!(u16::from_le_bytes([data[0], data[1]]), t as u16, "Seq");
        backs.push(data[2]);
        sizes[usize::from(data[2] != 0)].push(data.len());

        let mut got = Vec::new();
        match plan(t) {
            Plan::Late => held = Some((data, world.clone())),
            Plan::Twice => {
                got.extend(decode(client.as_mut(), &data, &world));
                assert_eq!(decode(client.as_mut(), &data, &world), None, "twice");
                dropped += 1;
            }
            Plan::Normal => {
                got.extend(decode(client.as_mut(), &data, &world));
                if let Some((late, sent)) = held.take() {
                    assert_eq!(decode(client.as_mut(), &late, &sent), None, "late");
                    dropped += 1;
                }
            }
        }
        decoded += got.len();

        // Acknowledgements: lost one time in four, none at all for ticks 200..260 (the
        // baseline leaves the ring), delivered a tick or more late, and now and then
        // one of a snapshot that left the ring or was never sent.
        let silent = (200..260).contains(&t);
        for ack in got {
            if !silent && rng.below(4) != 0 {
                acks.push_back(ack);
            }
        }
        if acks.len() > 1 {
            server.acknowledge(acks.pop_front().unwrap());
        }
        if t % 17 == 0 {
            server.acknowledge((t as u16).wrapping_sub(40)); // out of the ring: ignored
        }
        if t % 29 == 0 {
            server.acknowledge((t as u16).wrapping_add(3)); // never sent: ignored
        }
    }
    let late = (0..TICKS).filter(|&t| plan(t) == Plan::Late).count();
    let twice = (0..TICKS).filter(|&t| plan(t) == Plan::Twice).count();
    assert_eq!(decoded, TICKS as usize - late);
    assert_eq!(dropped, late + twice);
    // The first snapshot, and those sent after the baseline left the ring, are full.
    assert_eq!(backs[0], 0);
    assert!(
        backs[235..260].iter().all(|&b| b == 0),
        "{:?}",
        &backs[200..270]
    );
    assert!(backs.iter().all(|&b| b <= 32), "a delta beyond the ring");
    let mean = |v: &Vec<usize>| v.iter().sum::<usize>() / v.len();
    let (full, delta) = (mean(&sizes[0]), mean(&sizes[1]));
    assert!(sizes[1].len() > 500, "{} deltas", sizes[1].len());
    assert!(delta < full / 2, "delta {delta} B, full {full} B");
}

/// The client and the server agree on sequence numbers across their 16-bit wrap.
#[test]
fn sequence_numbers_wrap() {
    let kind = CodecKind::BitwireDelta;
    let mut rng = SplitMix64::new(41);
    let mut server = kind.server();
    let mut client = kind.client();
    let mut world = codec_support::snapshot_of(&mut rng, 2);
    for t in 0..70_000u32 {
        step(&mut rng, &mut world);
        let mut data = Vec::new();
        server.encode_snapshot(world.clone(), &mut data).unwrap();
        let ack = decode(client.as_mut(), &data, &world).expect("in order");
        assert_eq!(ack, t as u16);
        if t > 0 {
            assert_eq!(data[2], 1, "a delta against the previous tick at {t}");
        }
        server.acknowledge(ack);
    }
}
