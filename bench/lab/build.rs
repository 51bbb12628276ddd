//! Generates the Rust code for the `pod` dataset's schema (`bench/schemas/pod.bw`), with
//! the bincode encoding next to the packed one, into `OUT_DIR/pod.rs` with the compiler's
//! Rust backend; `bitwire_lab::pod::gen` includes it.
//! Also records the compiler's version (`rustc 1.95.0`) as `BITWIRE_LAB_RUSTC`, the
//! `runtime` of the Rust result files.

use std::path::{Path, PathBuf};

use bitwire_compiler::codegen::{generate_rust, RustOptions};

fn main() {
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schemas/pod.bw");
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rerun-if-changed=build.rs");
    let schema = match bitwire_compiler::compile_file(&path) {
        Ok(s) => s,
        Err(d) => panic!("{} does not compile:\n{}", path.display(), d.render()),
    };
    // Both encodings: the packed one (`bitwire`) and the bincode one (`bitwire-bincode`).
    let opts = RustOptions {
        json: false,
        bincode: true,
        source_name: schema.root_file.clone(),
        ..Default::default()
    };
    std::fs::write(out_dir.join("pod.rs"), generate_rust(&schema, &opts))
        .expect("write generated code");

    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .unwrap_or_default();
    // `rustc 1.95.0 (59807616e 2026-04-14)` -> `rustc 1.95.0`.
    let short: Vec<&str> = version.split_whitespace().take(2).collect();
    let runtime = if short.len() == 2 {
        short.join(" ")
    } else {
        "rustc (unknown version)".to_string()
    };
    println!("cargo:rustc-env=BITWIRE_LAB_RUSTC={runtime}");
}
