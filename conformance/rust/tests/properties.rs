//! Property and differential tests over every named type of every suite (and of the
//! bundled example), generated Rust code against the reference codec:
//!
//! 1. round trip: a random valid value encodes to the same bytes in both, each decodes
//!    the other's bytes back to the value, and the JSON mapping agrees;
//! 2. hostile input: random and mutated byte strings are accepted or rejected alike by
//!    both — same value, or same error kind, bit offset and path — never a panic; what
//!    is accepted re-encodes to the same bytes (canonical form, spec §2.4);
//! 3. bounded allocation: decoding any of those inputs allocates at most the default
//!    decode budget for its length plus the value's fixed part (spec §11), measured
//!    by a counting allocator;
//! 4. verify: the generated `verify` accepts exactly what `decode` accepts, fails with
//!    the same error (kind, bit offset, path) otherwise, and allocates nothing.
//!
//! Bounded for CI: `BITWIRE_PROP_CASES` (default 200 values per type) and
//! `BITWIRE_SEED` (default 42) make longer or different runs; a failure prints the seed.

use bitwire::PathSegment;
use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::{self, CodecError, Value};
use bitwire_compiler::ir::{Schema, Type, TypeId};
use bitwire_conformance::mutate::mutations;
use bitwire_conformance::{registry, Failure, TypeCodec};
use bitwire_count_alloc::{peak_during, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Peak bytes allocated by building an error equal to `e` the way generated code does
/// (innermost path segment first).
fn error_allocation(e: &bitwire::Error) -> usize {
    let segs: Vec<PathSegment> = e.path().cloned().collect();
    let (rebuilt, peak) = peak_during(|| {
        segs.iter().rev().fold(
            bitwire::Error::new(e.kind(), e.bit()),
            |err, seg| match seg {
                PathSegment::Field(name) => err.in_field(name),
                PathSegment::Index(i) => err.at_index(*i),
            },
        )
    });
    assert_eq!(&rebuilt, e);
    peak
}

/// What one implementation made of an input: the decoded value, or the error.
#[derive(Debug, PartialEq)]
enum Outcome {
    Value(Value),
    Error {
        kind: String,
        bit: u64,
        path: String,
    },
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Suite {
    schema: Schema,
    codecs: Vec<(TypeCodec, TypeId)>,
}

fn suites() -> Vec<Suite> {
    let mut out: Vec<Suite> = Vec::new();
    for c in registry() {
        if out.last().is_none_or(|s| s.codecs[0].0.suite != c.suite) {
            let schema = bitwire_compiler::compile_file(c.schema.as_ref())
                .unwrap_or_else(|d| panic!("{}: {}", c.schema, d.render()));
            out.push(Suite {
                schema,
                codecs: Vec::new(),
            });
        }
        let suite = out.last_mut().expect("just pushed");
        let id = suite
            .schema
            .type_by_name(c.type_name)
            .expect("registry type in schema");
        suite.codecs.push((c, id));
    }
    out
}

/// The generated decoder's outcome, mapped into reference-codec values through JSON.
fn generated_outcome(s: &Schema, id: TypeId, c: &TypeCodec, bytes: &[u8]) -> Outcome {
    match (c.decode)(bytes) {
        Ok(json) => Outcome::Value(
            codec::value_from_json(s, id, &json)
                .unwrap_or_else(|e| panic!("generated JSON {json} not readable: {e}")),
        ),
        Err(Failure::Wire(e)) => Outcome::Error {
            kind: e.kind().name().into(),
            bit: e.bit(),
            path: e.path_string(),
        },
        Err(Failure::Json(e)) => panic!("decode gave a JSON error: {e:?}"),
    }
}

fn reference_outcome(s: &Schema, id: TypeId, bytes: &[u8]) -> Outcome {
    match codec::decode(s, id, bytes) {
        Ok(v) => Outcome::Value(v),
        Err(CodecError::Wire { kind, bit, path }) => Outcome::Error {
            kind: kind.name().into(),
            bit,
            path,
        },
        Err(e) => panic!("reference decode gave a non-wire error: {e}"),
    }
}

/// Allocation allowed for decoding `len` input bytes as the named type `id` (spec
/// §11): the default decode budget, plus the value's fixed part (its footprint in the
/// memory model, arrays held out of line included), plus what an error may take.
fn allowed_allocation(s: &Schema, id: TypeId, len: usize) -> usize {
    let top = Type::Named {
        id,
        name: s.types[id].name.clone(),
    };
    let fixed = bitwire_compiler::plan::memory::footprint(s, &top);
    bitwire::Limits::DEFAULT.budget(len) as usize + fixed as usize + 4096
}

#[test]
fn generated_code_and_reference_codec_agree_on_random_and_hostile_input() {
    let seed = env_u64("BITWIRE_SEED", 42);
    let cases = env_u64("BITWIRE_PROP_CASES", 200);
    let mut rng = Rng(seed.max(1));
    let (mut values, mut hostile, mut worst_ratio) = (0u64, 0u64, 0.0f64);
    for suite in suites() {
        let s = &suite.schema;
        for (c, id) in &suite.codecs {
            let named = Type::Named {
                id: *id,
                name: c.type_name.into(),
            };
            let ctx = format!("seed {seed}, {}.{}", c.suite, c.type_name);
            // Large values (a 4,800-byte array, say) get fewer cases: at most 64 KiB of
            // encodings per type, through the bit-by-bit reference codec.
            let mut bytes_seen = 0usize;
            for n in 0..cases {
                if n >= 5 && bytes_seen > 64 * 1024 {
                    break;
                }
                let value = random_value(&mut rng, s, &named);
                let reference = codec::encode(s, *id, &value)
                    .unwrap_or_else(|e| panic!("{ctx}: reference encode: {e}"));
                bytes_seen += reference.len();
                let json = codec::value_to_json(s, *id, &value);
                let generated = (c.encode)(&json)
                    .unwrap_or_else(|e| panic!("{ctx}: generated encode of {json}: {e:?}"));
                assert_eq!(generated, reference, "{ctx}: bytes differ for {json}");
                assert_eq!(
                    generated_outcome(s, *id, c, &reference),
                    Outcome::Value(value.clone()),
                    "{ctx}: {json}"
                );
                values += 1;

                let (ok, peak) = peak_during(|| (c.verify)(&reference));
                assert_eq!(ok, Ok(()), "{ctx}: verify rejects valid {json}");
                assert_eq!(peak, 0, "{ctx}: verify allocated on valid {json}");

                for bytes in mutations(&mut rng, &reference) {
                    let (decoded, peak) = peak_during(|| (c.decode_only)(&bytes));
                    let (verified, verify_peak) = peak_during(|| (c.verify)(&bytes));
                    assert_eq!(
                        verified,
                        decoded,
                        "{ctx}: verify and decode disagree on {}",
                        codec::to_hex(&bytes)
                    );
                    // An error is a boxed value with a path vector: the one allocation
                    // verify may make is that of the error it returns.
                    let error_cost = verified.as_ref().err().map_or(0, error_allocation);
                    assert!(
                        verify_peak <= error_cost,
                        "{ctx}: verify allocated {verify_peak} bytes on {} (its error alone: {error_cost})",
                        codec::to_hex(&bytes)
                    );
                    let got = generated_outcome(s, *id, c, &bytes);
                    let want = reference_outcome(s, *id, &bytes);
                    let hex = codec::to_hex(&bytes);
                    assert_eq!(
                        got, want,
                        "{ctx}: generated and reference disagree on {hex}"
                    );
                    assert!(
                        peak <= allowed_allocation(s, *id, bytes.len()),
                        "{ctx}: decoding {} bytes allocated {peak} bytes ({hex})",
                        bytes.len()
                    );
                    worst_ratio = worst_ratio.max(peak as f64 / (bytes.len() as f64 + 1.0));
                    if let Outcome::Value(v) = &got {
                        let again =
                            codec::encode(s, *id, v).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                        assert_eq!(again, bytes, "{ctx}: accepted input {hex} is not canonical");
                    }
                    hostile += 1;
                }
            }
        }
    }
    println!(
        "{values} random values and {hostile} hostile inputs agreed (seed {seed}); \
         worst decode allocation {worst_ratio:.1} bytes per input byte"
    );
    assert!(values > 0, "no suites found");
}
