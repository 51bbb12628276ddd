//! Generates Rust code (with JSON conversions) for every `testdata/vectors/*.bw` and
//! for the bundled example `examples/game.bw` (suite `game`, which has no vector file
//! but takes part in the property tests) into `OUT_DIR`, plus `suites.rs`: one module
//! per suite and a registry of every named type, so that a suite dropped into
//! `testdata/vectors/` is picked up with no other change (`build_suites.rs`).

use std::path::{Path, PathBuf};

#[path = "build_suites.rs"]
mod build_suites;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let vectors = root.join("testdata/vectors");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", vectors.display());
    let mut schemas = build_suites::schemas_in(&vectors);
    schemas.push(
        root.join("examples/game.bw")
            .canonicalize()
            .expect("examples/game.bw exists"),
    );
    build_suites::write_suites(&schemas, &out_dir);
}
