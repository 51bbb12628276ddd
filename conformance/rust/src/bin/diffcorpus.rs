//! Writes the differential corpus (`bitwire_conformance::corpus`) that the Go and
//! TypeScript conformance runners check against: for every named type of every
//! suite, random valid values with the reference codec's bytes, and hostile inputs
//! (mutations of those bytes) with the reference codec's outcome — the decoded value
//! or the error kind, bit offset and path. The Rust generated code is checked against
//! the same reference by `tests/properties.rs`, so when every runner passes, the four
//! implementations agree byte for byte and error for error.
//!
//!     cargo run -p bitwire-conformance --bin diffcorpus -- OUT.jsonl [--seed N] [--cases N]
//!         [--suites DIR] [--adversarial BYTES]
//!
//! The suites are the `*.bw` files of `--suites DIR` (else `$BITWIRE_SUITES_DIR`,
//! else `testdata/vectors/`, `examples/game.bw` and the delta schemas
//! `testdata/vectors/delta/delta.bw` and `conformance/rust/schemas/delta_edges.bw`).
//! Every `delta message` also gets delta lines (`bitwire_conformance::delta_corpus`):
//! (baseline, value) pairs with their delta, hostile deltas, encoder errors. `--adversarial BYTES` adds, per
//! type, inputs of about that size built to make decoders work hard (long lists of
//! the cheapest elements; `bitwire_conformance::adversarial`).
//!
//! `--bincode` writes the bincode encoding's corpus instead
//! (`bitwire_conformance::bincode_corpus`, docs/spec.md §13), by default over the suites
//! of `testdata/vectors/bincode/`.

use std::path::{Path, PathBuf};

use bitwire_conformance::bincode_corpus::write_bincode_corpus;
use bitwire_conformance::corpus::{schemas_in, write_corpus, Options, Suite};

fn arg<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

fn number(args: &[String], name: &str, default: u64) -> u64 {
    arg(args, name).map_or(default, |v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} takes a number"))
    })
}

/// The schemas to cover: `--suites`, `$BITWIRE_SUITES_DIR`, or the vector suites
/// (with the delta schemas).
fn schemas(args: &[String]) -> Vec<PathBuf> {
    let dir = arg(args, "--suites")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("BITWIRE_SUITES_DIR").map(PathBuf::from));
    if let Some(dir) = dir {
        return schemas_in(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if args.iter().any(|a| a == "--bincode") {
        let dir = root.join("testdata/vectors/bincode");
        return schemas_in(&dir).expect("testdata/vectors/bincode");
    }
    let mut out = schemas_in(&root.join("testdata/vectors")).expect("testdata/vectors");
    out.push(root.join("examples/game.bw"));
    out.push(root.join("testdata/vectors/delta/delta.bw"));
    out.push(root.join("conformance/rust/schemas/delta_edges.bw"));
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out_path = args.first().filter(|a| !a.starts_with("--")).expect(
        "usage: diffcorpus OUT.jsonl [--seed N] [--cases N] [--suites DIR] [--adversarial BYTES] [--bincode]",
    );
    let opts = Options {
        seed: number(&args, "--seed", 42),
        cases: number(&args, "--cases", 20),
        adversarial: number(&args, "--adversarial", 0) as usize,
    };
    let suites: Vec<Suite> = schemas(&args)
        .iter()
        .map(|p| Suite::load(p).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let mut out =
        std::io::BufWriter::new(std::fs::File::create(out_path).expect("create the corpus file"));
    let c = if args.iter().any(|a| a == "--bincode") {
        write_bincode_corpus(&mut out, &suites, opts).expect("write the bincode corpus")
    } else {
        write_corpus(&mut out, &suites, opts).expect("write the corpus")
    };
    for (suite, ty, what, _) in &c.rejected {
        eprintln!("diffcorpus: {suite}.{ty}: {what}");
    }
    eprintln!(
        "diffcorpus: {} values, {} hostile and {} adversarial inputs; {} deltas, {} hostile \
         deltas and {} encoder errors; from {} suites (seed {}) → {out_path}",
        c.values,
        c.inputs,
        c.adversarial,
        c.deltas,
        c.delta_inputs,
        c.delta_encode_errors,
        suites.len(),
        opts.seed
    );
    assert!(
        c.rejected.is_empty(),
        "the reference codec rejected its own random values or pairs"
    );
}
