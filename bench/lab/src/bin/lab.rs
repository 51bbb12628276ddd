//! The Rust part of the benchmark lab: every library on every game dataset of the
//! corpus, and packet64 scaling; writes the raw result JSON of `bench/README.md`.
//!
//!     cargo run --release -p bitwire-lab --bin lab -- [--quick] [--corpus DIR] [--out FILE]
//!
//! The corpus defaults to `target/lab/corpus` (`target/lab/corpus-quick` with `--quick`).
//! Progress goes to stderr, one line per step; without `--out` the JSON goes to stdout.

use bitwire_lab::cli::Args;
use bitwire_lab::corpus;
use bitwire_lab::lab::alloc::CountingAlloc;
use bitwire_lab::lab::{run, Options};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() {
    let args = Args::from_env();
    let quick = args.flag("--quick");
    let dir = args
        .path("--corpus")
        .unwrap_or_else(|| corpus::default_dir(quick));
    let started = std::time::Instant::now();
    let result = run(&Options::new(quick, dir)).unwrap_or_else(|e| {
        eprintln!("[rust] error: {e}");
        std::process::exit(1);
    });
    let text = serde_json::to_string_pretty(&result).expect("JSON serializes") + "\n";
    match args.path("--out") {
        Some(out) => {
            if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
                let _ = std::fs::create_dir_all(parent);
            }
            std::fs::write(&out, text).unwrap_or_else(|e| {
                eprintln!("[rust] error: writing {}: {e}", out.display());
                std::process::exit(1);
            });
            eprintln!(
                "[rust] wrote {} in {:.1} s",
                out.display(),
                started.elapsed().as_secs_f64()
            );
        }
        None => print!("{text}"),
    }
}
