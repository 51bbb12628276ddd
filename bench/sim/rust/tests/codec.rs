//! Every codec of the simulator (bench/sim/README.md, "Codecs") round-trips random
//! snapshots and inputs to equal values, and turns truncated, corrupted or trailing
//! bytes into a `CodecError` — never a panic, never a value bitwire could not encode.

mod codec_support;

use bitwire::Packed;
use bitwire_sim::codec::{wire, CodecKind, ServerCodec};
use bitwire_sim::rules::VIEW_CAP;
use bitwire_sim::sim;
use bitwire_sim::world::rng::SplitMix64;
use codec_support as gen;

/// The Data of the frame carrying `s`.
fn encode(server: &mut dyn ServerCodec, s: &sim::Snapshot) -> Vec<u8> {
    let mut out = Vec::new();
    server
        .encode_snapshot(s.clone(), &mut out)
        .expect("encodes");
    out
}

/// `data` decoded by a new client of `kind`.
fn decode_fresh(kind: CodecKind, data: &[u8]) -> Result<sim::Snapshot, String> {
    let mut client = kind.client();
    match client.decode_snapshot(data) {
        Ok(Some(d)) => Ok(d.snapshot.clone()),
        Ok(None) => Err("dropped".into()),
        Err(e) => {
            assert_eq!(e.codec, kind.name());
            Err(e.to_string())
        }
    }
}

#[test]
fn snapshots_and_inputs_round_trip_through_every_codec() {
    for kind in CodecKind::ALL {
        let mut rng = SplitMix64::new(15);
        let mut server = kind.server();
        let mut client = kind.client();
        let mut sizes = Vec::new();
        for i in 0..300 {
            // The ends of the range first, then random lengths.
            let n = match i {
                0 => 0,
                1 => VIEW_CAP,
                _ => rng.below(VIEW_CAP as u64 + 1) as usize,
            };
            let s = gen::snapshot_of(&mut rng, n);
            let data = encode(server.as_mut(), &s);
            sizes.push(data.len());
            let d = client
                .decode_snapshot(&data)
                .unwrap_or_else(|e| panic!("{kind} snapshot {i}: {e}"))
                .unwrap_or_else(|| panic!("{kind} snapshot {i} dropped"));
            assert_eq!(d.snapshot, &s, "{kind} snapshot {i}");
            // No acknowledgement reached the server: bitwire-delta sends every one in full.
            if kind == CodecKind::BitwireDelta {
                assert_eq!(data[2], 0, "back of snapshot {i}");
            }

            let input = gen::input(&mut rng);
            let mut bytes = Vec::new();
            client.encode_input(&input, &mut bytes).expect("encodes");
            let back = server.decode_input(&bytes);
            assert_eq!(back.as_ref(), Ok(&input), "{kind} input {i}");
        }
        assert!(sizes.iter().all(|&len| len > 0), "{kind}");
    }
}

#[test]
fn the_peers_encode_what_bitwire_encodes_and_reject_what_it_rejects() {
    let bad: [Spoil; 6] = [
        |e: &mut sim::Entity| e.x = 512.5,
        |e: &mut sim::Entity| e.yaw = f32::NAN,
        |e: &mut sim::Entity| e.vx = 64.0,
        |e: &mut sim::Entity| e.health = 201,
        |e: &mut sim::Entity| e.anim = 16,
        |e: &mut sim::Entity| e.id = 4096,
    ];
    let mut rng = SplitMix64::new(16);
    for (i, spoil) in bad.iter().enumerate() {
        let mut s = gen::snapshot_of(&mut rng, 3);
        spoil(&mut s.entities[1]);
        assert!(s.encode_to_vec().is_err(), "bitwire accepts case {i}");
        for kind in CodecKind::ALL {
            let mut out = vec![7];
            let r = kind.server().encode_snapshot(s.clone(), &mut out);
            let e = r.expect_err(&format!("{kind} accepts case {i}"));
            assert_eq!(e.codec, kind.name());
            assert_eq!(out, [7], "{kind} wrote part of case {i}");
        }
    }
    let input = sim::Input {
        aim: 361.0,
        ..sim::Input::default()
    };
    for kind in CodecKind::ALL {
        let mut out = Vec::new();
        let r = kind.client().encode_input(&input, &mut out);
        assert!(r.is_err(), "{kind} accepts aim 361");
    }
}

#[test]
fn every_truncation_is_an_error() {
    let mut rng = SplitMix64::new(17);
    for kind in CodecKind::ALL {
        for n in [0, 1, 2, 5, 40] {
            let s = gen::snapshot_of(&mut rng, n);
            let data = encode(kind.server().as_mut(), &s);
            for len in 0..data.len() {
                let r = decode_fresh(kind, &data[..len]);
                assert!(r.is_err(), "{kind}, {n} entities, cut at {len}: {r:?}");
            }
            let input = gen::input(&mut rng);
            let mut bytes = Vec::new();
            kind.client().encode_input(&input, &mut bytes).unwrap();
            for len in 0..bytes.len() {
                let r = kind.server().decode_input(&bytes[..len]);
                assert!(r.is_err(), "{kind} input cut at {len}: {r:?}");
            }
        }
    }
}

#[test]
fn trailing_bytes_are_an_error_except_in_flatbuffers() {
    let mut rng = SplitMix64::new(18);
    for kind in CodecKind::ALL {
        let s = gen::snapshot_of(&mut rng, 7);
        let mut data = encode(kind.server().as_mut(), &s);
        data.push(0);
        let r = decode_fresh(kind, &data);
        if kind == CodecKind::Flatbuffers {
            // A FlatBuffer is reached through offsets from its start: its verifier checks
            // what they reach, not the bytes after it.
            assert_eq!(r, Ok(s), "{kind}");
        } else {
            assert!(r.is_err(), "{kind}: {r:?}");
        }
    }
}

/// Flips random bits of snapshot encodings: decoding never panics, and whatever decodes
/// is a snapshot bitwire can encode (every value in its range); many flips are errors.
#[test]
fn corrupted_snapshots_are_errors_or_valid_snapshots() {
    for kind in CodecKind::ALL {
        let mut rng = SplitMix64::new(19);
        let mut errors = 0;
        let rounds = 2000;
        for round in 0..rounds {
            let n = 1 + rng.below(20) as usize;
            let s = gen::snapshot_of(&mut rng, n);
            let mut data = encode(kind.server().as_mut(), &s);
            for _ in 0..1 + rng.below(3) {
                let bit = rng.below(data.len() as u64 * 8);
                data[(bit / 8) as usize] ^= 1 << (bit % 8);
            }
            match decode_fresh(kind, &data) {
                Ok(got) => {
                    let r = got.encode_to_vec();
                    assert!(r.is_ok(), "{kind} round {round}: {got:?} {r:?}");
                }
                Err(_) => errors += 1,
            }
        }
        assert!(errors > rounds / 20, "{kind}: {errors} errors in {rounds}");
    }
}

/// Flips random bits of input encodings: never a panic; what decodes re-encodes.
#[test]
fn corrupted_inputs_are_errors_or_valid_inputs() {
    for kind in CodecKind::ALL {
        let mut rng = SplitMix64::new(20);
        for round in 0..2000 {
            let input = gen::input(&mut rng);
            let mut data = Vec::new();
            kind.client().encode_input(&input, &mut data).unwrap();
            let bit = rng.below(data.len() as u64 * 8);
            data[(bit / 8) as usize] ^= 1 << (bit % 8);
            if let Ok(got) = kind.server().decode_input(&data) {
                let r = got.encode_to_vec();
                assert!(r.is_ok(), "{kind} round {round}: {got:?} {r:?}");
            }
        }
    }
}

/// A wire integer that stands for no value, in each field that can hold one: bitcode and
/// wincode decode the integers, and the conversion rejects them.
#[test]
fn out_of_range_wire_integers_are_errors() {
    let ok = wire::Entity {
        id: 5,
        kind: 1,
        x: 100,
        y: 200,
        yaw: 300,
        vx: 400,
        vy: 500,
        health: 150,
        anim: 3,
    };
    let spoilt = [
        wire::Entity { id: 4096, ..ok },
        wire::Entity { kind: 2, ..ok },
        wire::Entity { x: 65537, ..ok },
        wire::Entity { y: -1, ..ok },
        wire::Entity { yaw: 1024, ..ok },
        wire::Entity { vx: 1024, ..ok },
        wire::Entity { vy: -3, ..ok },
        wire::Entity { health: 201, ..ok },
        wire::Entity { anim: 16, ..ok },
    ];
    let snapshot = |e: wire::Entity| wire::Snapshot {
        tick: 1,
        input_seq: 2,
        you: 5,
        entities: vec![e],
    };
    // The unspoilt entity decodes, so each error below is its field's.
    for (kind, data) in peer_encodings(&snapshot(ok)) {
        let got = decode_fresh(kind, &data).expect("the valid entity");
        assert_eq!(got.entities[0].health, 150);
    }
    for (i, e) in spoilt.into_iter().enumerate() {
        for (kind, data) in peer_encodings(&snapshot(e)) {
            let r = decode_fresh(kind, &data);
            assert!(r.is_err(), "{kind} case {i}: {r:?}");
        }
    }
    let you = wire::Snapshot {
        you: 4096,
        ..snapshot(ok)
    };
    for (kind, data) in peer_encodings(&you) {
        assert!(decode_fresh(kind, &data).is_err(), "{kind} you 4096");
    }
    let long = wire::Snapshot {
        entities: vec![ok; sim::Snapshot::ENTITIES_MAX_LEN + 1],
        ..snapshot(ok)
    };
    for (kind, data) in peer_encodings(&long) {
        assert!(decode_fresh(kind, &data).is_err(), "{kind} 1025 entities");
    }
}

/// `s` encoded as bitcode's and wincode's users would, outside the codecs (which
/// refuse to encode such values).
fn peer_encodings(s: &wire::Snapshot) -> Vec<(CodecKind, Vec<u8>)> {
    vec![
        (CodecKind::Bitcode, bitcode::encode(s)),
        (CodecKind::Wincode, wincode::serialize(s).unwrap()),
    ]
}

/// A change to one field of an entity.
type Spoil = fn(&mut sim::Entity);

/// FlatBuffers' structs hold each field at a fixed place: the byte that differs between
/// two encodings that differ in one field, set to a value out of range, is an error.
#[test]
fn flatbuffers_out_of_range_fields_are_errors() {
    let mut rng = SplitMix64::new(21);
    let base = gen::snapshot_of(&mut rng, 3);
    let kind = CodecKind::Flatbuffers;
    let fields: [(&str, Spoil, u8); 3] = [
        ("health", |e| e.health ^= 1, 201),
        ("anim", |e| e.anim ^= 1, 16),
        ("kind", |e| e.kind = sim::Kind::Npc, 2),
    ];
    for (name, change, bad) in fields {
        let mut a = base.clone();
        a.entities[1].kind = sim::Kind::Player;
        a.entities[1].health = 100;
        a.entities[1].anim = 4;
        let mut b = a.clone();
        change(&mut b.entities[1]);
        let da = encode(kind.server().as_mut(), &a);
        let db = encode(kind.server().as_mut(), &b);
        let at: Vec<usize> = (0..da.len()).filter(|&i| da[i] != db[i]).collect();
        assert_eq!(at.len(), 1, "{name}: {at:?}");
        let mut spoilt = da.clone();
        spoilt[at[0]] = bad;
        let r = decode_fresh(kind, &spoilt);
        assert!(r.is_err(), "{name} {bad}: {r:?}");
    }
}
