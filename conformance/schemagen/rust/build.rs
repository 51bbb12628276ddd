//! Generates Rust code (with JSON conversions) for every `*.bw` in
//! `$BITWIRE_SUITES_DIR` — the random schemas the schemagen driver wrote — with the
//! build script of the vector suites (`conformance/rust/build_suites.rs`). Without the
//! variable there are no suites, and the runner has nothing to check.

use std::path::PathBuf;

#[path = "../../rust/build_suites.rs"]
mod build_suites;

fn main() {
    println!("cargo:rerun-if-env-changed=BITWIRE_SUITES_DIR");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let schemas = match std::env::var_os("BITWIRE_SUITES_DIR") {
        Some(dir) if !dir.is_empty() => {
            let dir = PathBuf::from(dir);
            println!("cargo:rerun-if-changed={}", dir.display());
            build_suites::schemas_in(&dir)
        }
        _ => Vec::new(),
    };
    build_suites::write_suites(&schemas, &out_dir);
}
