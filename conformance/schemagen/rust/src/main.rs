//! The Rust runner of random schemas: checks a differential corpus (written by
//! `diffcorpus --suites DIR` or the schemagen driver) with the Rust code generated
//! for the schemas of `$BITWIRE_SUITES_DIR` at build time, and writes what it got
//! where it disagrees (`bitwire_conformance::outcome`).
//!
//!     BITWIRE_SUITES_DIR=DIR cargo run -p bitwire-schemagen-rust -- CORPUS.jsonl OUTCOMES.jsonl
//!
//! Prints `rust: N passed, N failed`; exits 1 when a line failed.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use bitwire_compiler::ir::{Schema, TypeId};
use bitwire_conformance::check::{check_line, hex};
use bitwire_conformance::outcome::{measure_record, summary_record, Problem};
use bitwire_conformance::TypeCodec;
use bitwire_count_alloc::{peak_during, Counting};
use bitwire_schemagen_rust::suites;
use serde_json::{json, Value};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Every generated type by `(suite, type)`, with its schema for the reference codec.
struct Registry {
    schemas: HashMap<&'static str, Schema>,
    codecs: HashMap<(&'static str, &'static str), (TypeCodec, TypeId)>,
}

impl Registry {
    fn load() -> Registry {
        let mut schemas: HashMap<&'static str, Schema> = HashMap::new();
        let mut codecs = HashMap::new();
        for c in suites::registry() {
            let schema = schemas.entry(c.suite).or_insert_with(|| {
                bitwire_compiler::compile_file(c.schema.as_ref())
                    .unwrap_or_else(|d| panic!("{}", d.render()))
            });
            let id = schema
                .type_by_name(c.type_name)
                .expect("registry type in schema");
            codecs.insert((c.suite, c.type_name), (c, id));
        }
        Registry { schemas, codecs }
    }

    /// Checks one line; a panic is a problem too.
    fn check(&self, suite: &str, ty: &str, line: &Value) -> Result<(), Problem> {
        let Some((c, id)) = self.codecs.get(&(suite, ty)) else {
            return Err(Problem::new("missing", Value::Null, "no generated type"));
        };
        let s = &self.schemas[c.suite];
        match catch_unwind(AssertUnwindSafe(|| check_line(c, s, *id, line))) {
            Ok(r) => r,
            Err(payload) => {
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                Err(Problem::new("panic", json!({ "panic": msg }), "panicked"))
            }
        }
    }

    /// Peak bytes allocated decoding an adversarial input.
    fn measure(&self, suite: &str, ty: &str, input: &[u8]) -> usize {
        self.codecs
            .get(&(suite, ty))
            .map_or(0, |(c, _)| peak_during(|| (c.decode_only)(input)).1)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [corpus, outcomes] = &args[..] else {
        eprintln!("usage: schemagen-rust CORPUS.jsonl OUTCOMES.jsonl");
        std::process::exit(2);
    };
    std::panic::set_hook(Box::new(|_| {}));
    let registry = Registry::load();
    let file = std::fs::File::open(corpus).unwrap_or_else(|e| panic!("{corpus}: {e}"));
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(outcomes).expect("create outcomes"));
    let (mut passed, mut failed) = (0, 0);
    for (n, text) in std::io::BufReader::new(file).lines().enumerate() {
        let text = text.expect("read corpus");
        let line: Value = serde_json::from_str(&text).expect("corpus line is JSON");
        let (Some(suite), Some(ty)) = (line["suite"].as_str(), line["type"].as_str()) else {
            continue;
        };
        match registry.check(suite, ty, &line) {
            Ok(()) => passed += 1,
            Err(p) => {
                failed += 1;
                writeln!(out, "{}", p.record(n + 1, suite, ty)).expect("write outcomes");
            }
        }
        if let (Some(_), Some(input)) = (line.get("adversarial"), line["input"].as_str()) {
            let input = hex(input);
            let alloc = registry.measure(suite, ty, &input);
            writeln!(
                out,
                "{}",
                measure_record(n + 1, suite, ty, input.len(), alloc)
            )
            .expect("write outcomes");
        }
    }
    writeln!(out, "{}", summary_record("rust", passed, failed)).expect("write outcomes");
    out.flush().expect("write outcomes");
    println!("rust: {passed} passed, {failed} failed");
    std::process::exit(i32::from(failed > 0));
}
