//! Writes the lab's corpus files (see `bitwire_lab::corpus` for the format).
//!
//!     cargo run --release -p bitwire-lab --bin corpus [-- --quick] [--out DIR]
//!
//! `DIR` defaults to `target/lab/corpus` (`target/lab/corpus-quick` with `--quick`).

use bitwire_lab::cli::Args;
use bitwire_lab::corpus;
use bitwire_lab::datasets::Scale;

fn main() {
    let args = Args::from_env();
    let quick = args.flag("--quick");
    let dir = args
        .path("--out")
        .unwrap_or_else(|| corpus::default_dir(quick));
    let scale = if quick { Scale::QUICK } else { Scale::FULL };
    let manifest = corpus::write(&dir, scale).unwrap_or_else(|e| {
        eprintln!("error: writing the corpus to {}: {e}", dir.display());
        std::process::exit(1);
    });
    let shown = dir.canonicalize().unwrap_or(dir);
    println!("corpus written to {}", shown.display());
    for d in manifest["datasets"].as_array().into_iter().flatten() {
        println!(
            "  {:<9} {:>6} x {:<9} {:>9} payload bytes  fnv1a64 {}",
            d["name"].as_str().unwrap_or(""),
            d["count"],
            d["type"].as_str().unwrap_or(""),
            d["payload_bytes"],
            d["bin_fnv1a64"].as_str().unwrap_or(""),
        );
    }
    for d in manifest["pod"].as_array().into_iter().flatten() {
        println!(
            "  {:<9} {:>10} bytes of {:<3} (blocks {}) fnv1a64 {}",
            d["name"].as_str().unwrap_or(""),
            d["bytes"],
            d["elem"].as_str().unwrap_or(""),
            d["blocks"],
            d["fnv1a64"].as_str().unwrap_or(""),
        );
    }
}
