//! Property and differential tests of the generated delta codecs (spec §12) on the
//! delta suite (`testdata/vectors/delta/delta.bw`), with random baselines and values
//! close to them (`codec::random_delta`: parts kept, changed or replaced; keyed list
//! elements kept, changed, removed and added), or unrelated ones:
//!
//! 1. round trip: `decode_delta(b, encode_delta(b, v))` has the full encoding of `v`,
//!    `verify_delta` accepts the delta, re-encoding the decoded value against `b` gives
//!    the same bytes, and they are the reference codec's; a value against itself is
//!    `ceil(k / 8)` zero bytes;
//! 2. hostile input: mutated deltas never panic, `verify_delta` agrees with
//!    `decode_delta`, whatever decodes re-encodes to exactly the input (canonical form,
//!    §12.6), and the reference codec decodes the same value or fails with the same
//!    kind, bit and path;
//! 3. wire equality (§12.2): `-0.0` against `0.0` is a change, NaNs with other payloads
//!    and floats on the same quantization step are not.
//!
//! `BITWIRE_PROP_CASES` (default 200 pairs per message) and `BITWIRE_SEED` (default 42)
//! make longer or different runs; a failure prints the seed.

use bitwire::Delta;
use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::random_delta::{perturb, sort_keys};
use bitwire_compiler::codec::{self, CodecError, Value};
use bitwire_compiler::ir::{Schema, Type};
use bitwire_compiler::plan::delta::DeltaPlan;
use bitwire_compiler::plan::CodecPlan;
use bitwire_conformance::mutate::mutations;
use bitwire_conformance::suites::delta;
use bitwire_conformance::{delta_registry, DeltaCodec, Failure};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn schema() -> Schema {
    let path = delta_registry()[0].schema;
    bitwire_compiler::compile_file(path.as_ref()).unwrap_or_else(|d| panic!("{}", d.render()))
}

/// Encodes `v` against `b` with the generated codec, decodes it back and checks the
/// round-trip properties; returns the delta.
fn round_trip(c: &DeltaCodec, b: &serde_json::Value, v: &serde_json::Value, ctx: &str) -> Vec<u8> {
    let bytes = (c.encode)(b, v).unwrap_or_else(|e| panic!("{ctx}: encode_delta: {e:?}"));
    let limits = bitwire::Limits::DEFAULT;
    let decoded = (c.decode)(b, &bytes, &limits)
        .unwrap_or_else(|e| panic!("{ctx}: decode_delta of {}: {e:?}", codec::to_hex(&bytes)));
    (c.verify)(b, &bytes).unwrap_or_else(|e| panic!("{ctx}: verify_delta: {e:?}"));
    let full = |j: &serde_json::Value| (c.encode_full)(j).expect("full encoding");
    assert_eq!(
        full(&decoded),
        full(v),
        "{ctx}: decoded {decoded}, sent {v}"
    );
    let again = (c.encode)(b, &decoded).expect("decoded value encodes");
    assert_eq!(again, bytes, "{ctx}: re-encoding the decoded value differs");
    bytes
}

/// What a decoder made of a delta: the value (in the reference codec's terms), or the
/// error's kind, bit and path.
#[derive(Debug, PartialEq)]
enum Outcome {
    Value(Value),
    Error(String, u64, String),
}

#[test]
fn deltas_round_trip_and_agree_with_the_reference_codec() {
    let seed = env_u64("BITWIRE_SEED", 42);
    let cases = env_u64("BITWIRE_PROP_CASES", 200);
    let mut rng = Rng(seed.max(1));
    let s = schema();
    let vs = bitwire_conformance::values::value_schema(&s);
    let plan = DeltaPlan::build(&s, &CodecPlan::build(&s));
    let (mut pairs, mut hostile, mut accepted) = (0u64, 0u64, 0u64);
    for c in delta_registry() {
        let id = s.type_by_name(c.type_name).expect("a delta message");
        let ty = Type::Named {
            id,
            name: c.type_name.into(),
        };
        let k = plan.get(id, None).fields.len();
        for n in 0..cases {
            let ctx = format!("seed {seed}, {} #{n}", c.type_name);
            let b = sort_keys(&s, &ty, &random_value(&mut rng, &vs, &ty));
            // Mostly a few changes, as consecutive snapshots have; sometimes everything.
            let v = match n % 4 {
                0 => random_value(&mut rng, &vs, &ty),
                _ => perturb(&mut rng, &vs, &ty, &b, 30),
            };
            let v = sort_keys(&s, &ty, &v);
            let (bj, vj) = (
                codec::value_to_json(&s, id, &b),
                codec::value_to_json(&s, id, &v),
            );
            let bytes = round_trip(&c, &bj, &vj, &format!("{ctx}: {bj} → {vj}"));
            let reference = codec::encode_delta(&s, id, &b, &v)
                .unwrap_or_else(|e| panic!("{ctx}: reference encode_delta: {e}"));
            assert_eq!(
                bytes, reference,
                "{ctx}: generated and reference deltas differ"
            );
            let same = round_trip(&c, &bj, &bj, &ctx);
            assert_eq!(same, vec![0; k.div_ceil(8)], "{ctx}: unchanged {bj}");
            pairs += 1;
            for m in mutations(&mut rng, &bytes) {
                let limits = bitwire::Limits::DEFAULT;
                let decoded = (c.decode)(&bj, &m, &limits);
                let verified = (c.verify)(&bj, &m);
                let hex = codec::to_hex(&m);
                let got = match (&decoded, &verified) {
                    (Ok(d), Ok(())) => {
                        let again = (c.encode)(&bj, d).expect("decoded value encodes");
                        assert_eq!(again, m, "{ctx}: accepted {hex} is not canonical");
                        accepted += 1;
                        let d = codec::value_from_json(&s, id, d).expect("generated JSON");
                        Outcome::Value(d)
                    }
                    (Err(Failure::Wire(d)), Err(Failure::Wire(v))) => {
                        assert_eq!(d, v, "{ctx}: decode and verify disagree on {hex}");
                        Outcome::Error(d.kind().name().into(), d.bit(), d.path_string())
                    }
                    _ => panic!("{ctx}: decode {decoded:?}, verify {verified:?} on {hex}"),
                };
                let want = match codec::decode_delta(&s, id, &b, &m) {
                    Ok(v) => Outcome::Value(v),
                    Err(CodecError::Wire { kind, bit, path }) => {
                        Outcome::Error(kind.name().into(), bit, path)
                    }
                    Err(e) => panic!("{ctx}: reference decode_delta: {e}"),
                };
                assert_eq!(
                    got, want,
                    "{ctx}: generated and reference disagree on {hex}"
                );
                hostile += 1;
            }
        }
    }
    println!(
        "{pairs} delta round trips, {hostile} mutated deltas ({accepted} accepted, each \
         canonical), every one as the reference codec (seed {seed})"
    );
    assert!(pairs > 0);
}

fn scalars() -> delta::Scalars {
    delta::Scalars {
        flag: false,
        small: 3,
        byte: 200,
        signed: -5,
        wide: u64::MAX,
        swide: i64::MIN,
        bounded: -1000,
        fixed: 7,
        quant: 0.5,
        quant64: 50.0,
        single: 0.0,
        double: 1.5,
        kind: delta::Kind::Bullet,
        team: delta::Team::Red,
        vu: 7,
        vi: -3,
    }
}

#[test]
fn unchanged_is_judged_on_the_wire() {
    let b = scalars();
    // 15 fields can change (`fixed` cannot): two zero bytes.
    assert_eq!(b.encode_delta_to_vec(&b).unwrap(), [0, 0]);
    let mut v = b;
    v.quant = 0.5001; // the same 12-bit step as 0.5
    v.single = f32::NAN;
    let mut nan_base = b;
    nan_base.single = f32::from_bits(0xffc0_0001);
    assert_eq!(v.encode_delta_to_vec(&nan_base).unwrap(), [0, 0]);
    v = b;
    v.single = -0.0;
    let bytes = v.encode_delta_to_vec(&b).unwrap();
    assert_ne!(bytes, [0, 0]);
    let got = delta::Scalars::decode_delta(&b, &bytes).unwrap();
    assert_eq!(got.single.to_bits(), (-0.0f32).to_bits());
    // A bool flips in its changed bit alone; a u64 wraps around in one step.
    v = b;
    v.flag = true;
    v.wide = 0;
    let bytes = v.encode_delta_to_vec(&b).unwrap();
    // flag: 1 (no code); small, byte, signed: 0; wide: 1, then +1 (z = 2): m = 1 in
    // 6 bits and z's low bit; the other 10 fields: 0.
    assert_eq!(bytes, [0b0011_0001, 0, 0]);
    assert_eq!(delta::Scalars::decode_delta(&b, &bytes).unwrap(), v);
}

#[test]
fn encoder_errors_name_the_field_first_checked() {
    let b = scalars();
    let mut v = b;
    v.small = 9;
    let e = v.encode_delta_to_vec(&b).unwrap_err();
    assert_eq!(
        (e.kind().name(), e.bit(), e.path_string()),
        ("OutOfRange", 0, "small".into())
    );
    // The baseline is checked too, before the value.
    let mut bad = b;
    bad.bounded = 2000;
    v.small = 3;
    v.bounded = 3000;
    let e = v.encode_delta_to_vec(&bad).unwrap_err();
    assert_eq!(
        (e.kind().name(), e.path_string()),
        ("OutOfRange", "bounded".into())
    );
    // Keyed lists must be strictly ascending; the full encoder's checks come first.
    let entity = |id: u16| delta::Entity {
        id,
        ..Default::default()
    };
    let world = |ids: &[u16]| delta::World {
        tick: 1,
        entities: ids.iter().map(|&i| entity(i)).collect(),
    };
    let e = world(&[2, 1])
        .encode_delta_to_vec(&world(&[1]))
        .unwrap_err();
    assert_eq!(
        (e.kind().name(), e.path_string()),
        ("InvalidKey", "entities".into())
    );
    let e = world(&[1])
        .encode_delta_to_vec(&world(&[1, 1]))
        .unwrap_err();
    assert_eq!(
        (e.kind().name(), e.path_string()),
        ("InvalidKey", "entities".into())
    );
    let mut w = world(&[2, 1]);
    w.entities[1].yaw = 400.0;
    let e = w.encode_delta_to_vec(&world(&[1])).unwrap_err();
    assert_eq!(
        (e.kind().name(), e.path_string()),
        ("OutOfRange", "entities[1].yaw".into())
    );
    // Equal lists are unchanged whatever their order: no delta of them, no error.
    assert_eq!(
        world(&[2, 1]).encode_delta_to_vec(&world(&[2, 1])).unwrap(),
        [0]
    );
    let mut out = vec![9];
    assert!(world(&[2, 1]).encode_delta(&world(&[1]), &mut out).is_err());
    assert_eq!(out, [9], "a failed encode leaves the buffer as it was");
}

#[test]
fn decoder_rejects_an_unordered_baseline_and_limits_the_list() {
    let entity = |id: u16| delta::Entity {
        id,
        ..Default::default()
    };
    let base = delta::World {
        tick: 0,
        entities: vec![entity(5), entity(3)],
    };
    // Changed bit of `tick` 0, of `entities` 1: the baseline is checked there.
    let e = delta::World::decode_delta(&base, &[0b10]).unwrap_err();
    assert_eq!(
        (e.kind().name(), e.bit(), e.path_string()),
        ("InvalidKey", 0, "entities".into())
    );
    // Not reached when the list did not change.
    assert_eq!(delta::World::decode_delta(&base, &[0]).unwrap(), base);
    let base = delta::World::default();
    let cur = delta::World {
        tick: 0,
        entities: (0..64).map(entity).collect(),
    };
    let bytes = cur.encode_delta_to_vec(&base).unwrap();
    // The decoded list: 64 entities of 72 bytes and one allocation (their names and
    // items are empty, charged nothing).
    let budget = 64 * 72 + 32;
    let ok = delta::World::decode_delta_with(&base, &bytes, &bitwire::Limits::fixed(budget));
    assert_eq!(ok.unwrap(), cur);
    let e = delta::World::decode_delta_with(&base, &bytes, &bitwire::Limits::fixed(budget - 1))
        .unwrap_err();
    assert_eq!(e.kind().name(), "LimitExceeded");
}

/// Random pairs of one message of `conformance/rust/schemas/delta_edges.bw` (test-only
/// shapes, no JSON mapping: values go to the generated type through their full
/// encoding), compared with the reference codec: the delta's bytes, its decoding, and
/// the outcome of every mutated delta.
fn edge_pairs<T: Delta>(s: &Schema, name: &str, rng: &mut Rng, cases: u64) -> u64 {
    let vs = bitwire_conformance::values::value_schema(s);
    let id = s.type_by_name(name).expect("an edge message");
    let ty = Type::Named {
        id,
        name: name.into(),
    };
    let mut hostile = 0;
    for n in 0..cases {
        let ctx = format!("{name} #{n}");
        let b = sort_keys(s, &ty, &random_value(rng, &vs, &ty));
        let v = sort_keys(s, &ty, &perturb(rng, &vs, &ty, &b, 40));
        let (bb, vb) = (
            codec::encode(s, id, &b).unwrap(),
            codec::encode(s, id, &v).unwrap(),
        );
        let (bt, vt) = (T::decode(&bb).unwrap(), T::decode(&vb).unwrap());
        let bytes = vt.encode_delta_to_vec(&bt).expect("encode_delta");
        let reference = codec::encode_delta(s, id, &b, &v).expect("reference encode_delta");
        assert_eq!(
            bytes, reference,
            "{ctx}: generated and reference deltas differ"
        );
        let back = T::decode_delta(&bt, &bytes).expect("decode_delta");
        assert_eq!(
            back.encode_to_vec().unwrap(),
            vb,
            "{ctx}: decoded another value"
        );
        for m in mutations(rng, &bytes) {
            let got = match T::decode_delta(&bt, &m) {
                Ok(x) => Outcome::Value(codec::decode(s, id, &x.encode_to_vec().unwrap()).unwrap()),
                Err(e) => Outcome::Error(e.kind().name().into(), e.bit(), e.path_string()),
            };
            let want = match codec::decode_delta(s, id, &b, &m) {
                Ok(x) => Outcome::Value(x),
                Err(CodecError::Wire { kind, bit, path }) => {
                    Outcome::Error(kind.name().into(), bit, path)
                }
                Err(e) => panic!("{ctx}: reference decode_delta: {e}"),
            };
            assert_eq!(got, want, "{ctx}: disagree on {}", codec::to_hex(&m));
            hostile += 1;
        }
    }
    hostile
}

#[test]
fn edge_shapes_agree_with_the_reference_codec() {
    use bitwire_conformance::suites::extra::delta_edges::{Edges, Empty, Nothing, Outer};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schemas/delta_edges.bw");
    let s = bitwire_compiler::compile_file(path.as_ref()).expect("compiles");
    let seed = env_u64("BITWIRE_SEED", 42);
    let cases = env_u64("BITWIRE_PROP_CASES", 200);
    let mut rng = Rng(seed.max(1));
    let mut hostile = edge_pairs::<Edges>(&s, "Edges", &mut rng, cases);
    hostile += edge_pairs::<Empty>(&s, "Empty", &mut rng, 5);
    hostile += edge_pairs::<Nothing>(&s, "Nothing", &mut rng, 5);
    hostile += edge_pairs::<Outer>(&s, "Outer", &mut rng, cases);
    assert_eq!(Empty {}.encode_delta_to_vec(&Empty {}).unwrap(), [0u8; 0]);
    println!("edge shapes: {hostile} mutated deltas as the reference codec (seed {seed})");
}
