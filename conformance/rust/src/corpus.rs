//! The differential corpus (README of `conformance/go`): JSON lines that the Go and
//! TypeScript runners (and the Rust runner of random schemas) check generated code
//! against. Each line is written from the reference codec:
//!
//! - `{"seed": N, "cases": N}` — the header;
//! - `{"suite", "type", "value", "bytes"}` — a random valid value and its bytes;
//! - `{"suite", "type", "input", "outcome"}` — a hostile input (mutations of those
//!   bytes) and what the reference decoder makes of it: `{"value": …}` or
//!   `{"error": {"kind", "bit", "path"}}`; adversarial inputs
//!   ([`crate::adversarial`]) also carry `"adversarial": "<what was built>"`;
//! - for every `delta message`, lines with a `"baseline"` (spec §12): pairs and their
//!   delta, hostile deltas and encoder errors ([`crate::delta_corpus`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::{self, CodecError};
use bitwire_compiler::ir::{Schema, Type, TypeId};
use serde_json::{json, Value};

use crate::adversarial::adversarial_inputs;
use crate::delta_corpus::write_delta;
use crate::mutate::mutations;
use crate::values::value_schema;

/// A schema file and its compiled IR; the suite is the file stem.
pub struct Suite {
    pub name: String,
    pub path: PathBuf,
    pub schema: Schema,
}

impl Suite {
    /// Compiles the schema at `path`.
    pub fn load(path: &Path) -> Result<Suite, String> {
        let schema = bitwire_compiler::compile_file(path)
            .map_err(|d| format!("{}: {}", path.display(), d.render()))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Suite {
            name,
            path: path.to_path_buf(),
            schema,
        })
    }
}

/// The `*.bw` files of `dir`, sorted.
pub fn schemas_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bw"))
        .collect();
    out.sort();
    Ok(out)
}

/// What to write for each named type.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Seed of the random values and mutations.
    pub seed: u64,
    /// Random values per type (each with its mutations).
    pub cases: u64,
    /// Target size in bytes of adversarial inputs; 0 writes none.
    pub adversarial: usize,
}

/// How many lines of each kind were written, and the reference codec's own
/// inconsistencies: random values (valid by construction) that it fails to encode
/// (or, for delta messages, pairs whose delta it fails to write or read back).
#[derive(Debug, Default, Clone)]
pub struct Counts {
    pub values: usize,
    pub inputs: usize,
    pub adversarial: usize,
    /// Delta lines ([`crate::delta_corpus`]): (baseline, value) pairs with their delta,
    pub deltas: usize,
    /// hostile deltas with the reference decoder's outcome,
    pub delta_inputs: usize,
    /// and pairs the reference encoder rejects.
    pub delta_encode_errors: usize,
    /// `(suite, type, what happened, the value)` per random value the reference
    /// rejected.
    pub rejected: Vec<(String, String, String, Value)>,
}

/// What the reference decoder makes of `bytes` as a top-level `id`: `{"value": …}`
/// or `{"error": {"kind", "bit", "path"}}`.
pub fn reference_outcome(schema: &Schema, id: TypeId, bytes: &[u8]) -> Value {
    match codec::decode(schema, id, bytes) {
        Ok(v) => json!({ "value": codec::value_to_json(schema, id, &v) }),
        Err(CodecError::Wire { kind, bit, path }) => {
            json!({ "error": { "kind": kind.name(), "bit": bit, "path": path } })
        }
        Err(e) => panic!("reference decode gave a non-wire error: {e}"),
    }
}

/// The corpus line of a hostile input.
pub fn input_line(suite: &str, schema: &Schema, id: TypeId, input: &[u8]) -> Value {
    json!({
        "suite": suite, "type": schema.types[id].name,
        "input": codec::to_hex(input), "outcome": reference_outcome(schema, id, input),
    })
}

/// Writes the corpus of every named type of every suite to `out`.
pub fn write_corpus(
    out: &mut dyn Write,
    suites: &[Suite],
    opts: Options,
) -> std::io::Result<Counts> {
    let mut rng = Rng(opts.seed.max(1));
    let mut counts = Counts::default();
    writeln!(out, "{}", json!({ "seed": opts.seed, "cases": opts.cases }))?;
    for suite in suites {
        let draw = value_schema(&suite.schema);
        for id in 0..suite.schema.types.len() {
            write_type(out, &mut rng, suite, &draw, id, opts, &mut counts)?;
            if suite.schema.types[id].delta {
                write_delta(out, &mut rng, suite, &draw, id, opts.cases, &mut counts)?;
            }
        }
    }
    Ok(counts)
}

/// Writes the lines of one named type `id` of `suite`: `opts.cases` random values
/// (drawn from `draw`, the suite's [`value_schema`]), each with its mutations, and
/// the adversarial inputs.
pub fn write_type(
    out: &mut dyn Write,
    rng: &mut Rng,
    suite: &Suite,
    draw: &Schema,
    id: TypeId,
    opts: Options,
    counts: &mut Counts,
) -> std::io::Result<()> {
    let (s, name) = (&suite.schema, suite.name.as_str());
    let ty = &s.types[id].name;
    let named = Type::Named {
        id,
        name: ty.clone(),
    };
    for _ in 0..opts.cases {
        let value = random_value(rng, draw, &named);
        let json = codec::value_to_json(s, id, &value);
        let bytes = match codec::encode(s, id, &value) {
            Ok(b) => b,
            Err(e) => {
                let what = format!("the reference codec cannot encode its own random value: {e}");
                counts.rejected.push((name.into(), ty.clone(), what, json));
                continue;
            }
        };
        let line =
            json!({ "suite": name, "type": ty, "value": json, "bytes": codec::to_hex(&bytes) });
        writeln!(out, "{line}")?;
        counts.values += 1;
        for input in mutations(rng, &bytes) {
            writeln!(out, "{}", input_line(name, s, id, &input))?;
            counts.inputs += 1;
        }
    }
    if opts.adversarial > 0 {
        for (what, input) in adversarial_inputs(s, id, opts.adversarial) {
            let mut line = input_line(name, s, id, &input);
            line["adversarial"] = json!(what);
            writeln!(out, "{line}")?;
            counts.adversarial += 1;
        }
    }
    Ok(())
}
