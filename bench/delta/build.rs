//! Generates `delta.rs` from `bench/delta/delta.bw` into `OUT_DIR` (docs/rust.md:
//! `bitwire-build`), so no generated bitwire code is committed here. Also records the
//! compiler's version (`rustc 1.95.0`) as `DELTA_LAB_RUSTC`, the `runtime` of `rust.json`.

fn main() {
    if let Err(e) = bitwire_build::compile(&["delta.bw"]) {
        panic!("{e}");
    }
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
    println!("cargo:rustc-env=DELTA_LAB_RUSTC={runtime}");
}
