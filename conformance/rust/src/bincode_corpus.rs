//! The differential corpus of the bincode encoding (docs/spec.md §13): the lines of
//! [`crate::corpus`] for the suites of `testdata/vectors/bincode/`, with the bincode
//! bytes and the reference bincode decoder's outcomes, each line marked
//! `"encoding": "bincode"`:
//!
//! - `{"seed": N, "cases": N, "encoding": "bincode"}` — the header;
//! - `{"encoding", "suite", "type", "value", "bytes"}` — a random valid value and its
//!   bincode bytes;
//! - `{"encoding", "suite", "type", "input", "outcome"}` — a mutation of those bytes and
//!   what the reference decoder makes of it (`{"value": …}` or `{"error": …}`).
//!
//! The Go and TypeScript runners (and the Rust runner, `tests/bincode_diff.rs`) decode
//! every input with their generated bincode decoders and compare.

use std::io::Write;

use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::{self, bincode, CodecError};
use bitwire_compiler::ir::{Schema, Type, TypeId};
use serde_json::{json, Value};

use crate::corpus::{Counts, Options, Suite};
use crate::mutate::mutations;
use crate::values::value_schema;

/// What the reference bincode decoder makes of `bytes` as a top-level `id`.
pub fn bincode_outcome(schema: &Schema, id: TypeId, bytes: &[u8]) -> Value {
    match bincode::decode(schema, id, bytes) {
        Ok(v) => json!({ "value": codec::value_to_json(schema, id, &v) }),
        Err(CodecError::Wire { kind, bit, path }) => {
            json!({ "error": { "kind": kind.name(), "bit": bit, "path": path } })
        }
        Err(e) => panic!("reference bincode decode gave a non-wire error: {e}"),
    }
}

/// Writes the bincode corpus of every named type of every suite to `out`
/// (`opts.adversarial` is not used: the adversarial inputs are built for packed).
pub fn write_bincode_corpus(
    out: &mut dyn Write,
    suites: &[Suite],
    opts: Options,
) -> std::io::Result<Counts> {
    let mut rng = Rng(opts.seed.max(1));
    let mut counts = Counts::default();
    writeln!(
        out,
        "{}",
        json!({ "seed": opts.seed, "cases": opts.cases, "encoding": "bincode" })
    )?;
    for suite in suites {
        let draw = value_schema(&suite.schema);
        for id in 0..suite.schema.types.len() {
            write_type(out, &mut rng, suite, &draw, id, opts.cases, &mut counts)?;
        }
    }
    Ok(counts)
}

/// `cases` random values of `id`, each with its bincode bytes and its mutations.
fn write_type(
    out: &mut dyn Write,
    rng: &mut Rng,
    suite: &Suite,
    draw: &Schema,
    id: TypeId,
    cases: u64,
    counts: &mut Counts,
) -> std::io::Result<()> {
    let (s, name) = (&suite.schema, suite.name.as_str());
    let ty = &s.types[id].name;
    let named = Type::Named {
        id,
        name: ty.clone(),
    };
    for _ in 0..cases {
        let value = random_value(rng, draw, &named);
        let json = codec::value_to_json(s, id, &value);
        let bytes = match bincode::encode(s, id, &value) {
            Ok(b) => b,
            Err(e) => {
                let what = format!("the reference bincode encoder rejects a random value: {e}");
                counts.rejected.push((name.into(), ty.clone(), what, json));
                continue;
            }
        };
        let line = json!({
            "encoding": "bincode", "suite": name, "type": ty,
            "value": json, "bytes": codec::to_hex(&bytes),
        });
        writeln!(out, "{line}")?;
        counts.values += 1;
        for input in mutations(rng, &bytes) {
            let line = json!({
                "encoding": "bincode", "suite": name, "type": ty,
                "input": codec::to_hex(&input), "outcome": bincode_outcome(s, id, &input),
            });
            writeln!(out, "{line}")?;
            counts.inputs += 1;
        }
    }
    Ok(())
}
