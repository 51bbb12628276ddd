//! Writes the differential corpus that the Go and TypeScript conformance runners check
//! against: for every named type of every suite (and of `examples/game.bw`), random
//! valid values with the reference codec's bytes, and hostile inputs (mutations of
//! those bytes) with the reference codec's outcome — the decoded value or the error
//! kind, bit offset and path. The Rust generated code is checked against the same
//! reference by `tests/properties.rs`, so when every runner passes, the four
//! implementations agree byte for byte and error for error.
//!
//!     cargo run -p bitwire-conformance --bin diffcorpus -- OUT.jsonl [--seed N] [--cases N]
//!
//! One JSON object per line. The first line is `{"seed": N, "cases": N}`; then
//! `{"suite", "type", "value", "bytes"}` (valid: encode `value` → `bytes`, decode back)
//! and `{"suite", "type", "input", "outcome": {"value": …} | {"error": {"kind", "bit", "path"}}}`.

use std::io::Write as _;

use bitwire_compiler::codec::random::{random_value, Rng};
use bitwire_compiler::codec::{self, CodecError};
use bitwire_compiler::ir::Type;
use bitwire_conformance::mutate::mutations;
use bitwire_conformance::registry;
use serde_json::{json, Value};

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name} takes a number"))
        })
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out_path = args
        .first()
        .filter(|a| !a.starts_with("--"))
        .expect("usage: diffcorpus OUT.jsonl [--seed N] [--cases N]");
    let seed = arg(&args, "--seed", 42);
    let cases = arg(&args, "--cases", 20);
    let mut rng = Rng(seed.max(1));
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(out_path).expect("create the corpus file"));
    let mut line = |v: Value| writeln!(out, "{v}").expect("write the corpus");
    line(json!({ "seed": seed, "cases": cases }));

    let (mut values, mut inputs) = (0usize, 0usize);
    let mut schema_of = None;
    for c in registry() {
        let schema = match &schema_of {
            Some((path, s)) if *path == c.schema => s,
            _ => {
                let s = bitwire_compiler::compile_file(c.schema.as_ref())
                    .unwrap_or_else(|d| panic!("{}", d.render()));
                &schema_of.insert((c.schema, s)).1
            }
        };
        let id = schema
            .type_by_name(c.type_name)
            .expect("registry type in schema");
        let named = Type::Named {
            id,
            name: c.type_name.into(),
        };
        for _ in 0..cases {
            let value = random_value(&mut rng, schema, &named);
            let bytes = codec::encode(schema, id, &value).expect("random values are valid");
            line(json!({
                "suite": c.suite, "type": c.type_name,
                "value": codec::value_to_json(schema, id, &value),
                "bytes": codec::to_hex(&bytes),
            }));
            values += 1;
            for input in mutations(&mut rng, &bytes) {
                let outcome = match codec::decode(schema, id, &input) {
                    Ok(v) => json!({ "value": codec::value_to_json(schema, id, &v) }),
                    Err(CodecError::Wire { kind, bit, path }) => {
                        json!({ "error": { "kind": kind.name(), "bit": bit, "path": path } })
                    }
                    Err(e) => panic!("reference decode gave a non-wire error: {e}"),
                };
                line(json!({
                    "suite": c.suite, "type": c.type_name,
                    "input": codec::to_hex(&input), "outcome": outcome,
                }));
                inputs += 1;
            }
        }
    }
    eprintln!("diffcorpus: {values} values and {inputs} hostile inputs (seed {seed}) → {out_path}");
}
