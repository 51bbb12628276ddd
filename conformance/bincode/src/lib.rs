//! The bincode vectors (`testdata/vectors/bincode/`), written from the real crates.
//!
//! Every suite is a schema (`<suite>.bw`) and serde + wincode types that mirror it — the
//! Rust types generated code declares for the schema (docs/spec.md §13.6) — with cases
//! whose bytes come from `bincode::serialize` (1.3.3) and `wincode::serialize` (0.6,
//! default configuration), asserted equal. `cargo run -p bitwire-bincode-peers` rewrites
//! the case files; `-- --check` (and this crate's tests) fail when a committed file
//! differs from what the crates write today.

pub mod boxed;
pub mod mirror;
pub mod shape;
pub mod suite;
pub mod suites;

use std::fs;

pub use suite::{vectors_dir, Suite};

/// A case file that differs from what the generator writes.
#[derive(Debug)]
pub struct Stale {
    pub file: String,
    pub why: String,
}

/// Writes every suite's case file; returns `(suite, cases)` per suite.
pub fn write_all() -> std::io::Result<Vec<(&'static str, usize)>> {
    let mut counts = Vec::new();
    for s in suites::all() {
        fs::write(vectors_dir().join(format!("{}.json", s.name)), s.render())?;
        counts.push((s.name, s.len()));
    }
    Ok(counts)
}

/// Compares every committed case file with what the generator writes now, and checks
/// that the folder holds no case file or schema without a suite.
pub fn check_all() -> Vec<Stale> {
    let mut stale = Vec::new();
    let suites = suites::all();
    for s in &suites {
        let file = format!("{}.json", s.name);
        match fs::read_to_string(vectors_dir().join(&file)) {
            Ok(text) if text == s.render() => {}
            Ok(_) => stale.push(Stale {
                file,
                why: "differs from the generator's output".into(),
            }),
            Err(e) => stale.push(Stale {
                file,
                why: e.to_string(),
            }),
        }
    }
    let names: Vec<&str> = suites.iter().map(|s| s.name).collect();
    let entries = fs::read_dir(vectors_dir()).map(|d| d.flatten().collect::<Vec<_>>());
    for entry in entries.unwrap_or_default() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let stem = file
            .strip_suffix(".json")
            .or_else(|| file.strip_suffix(".bw"));
        if let Some(stem) = stem {
            if !names.contains(&stem) {
                stale.push(Stale {
                    file,
                    why: "no suite of the generator writes it".into(),
                });
            }
        }
    }
    stale
}
