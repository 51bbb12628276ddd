//! The pod benchmark (blocks of u64, u8 and f32 from the corpus; `bitwire_lab::pod`):
//!
//!     cargo run --release -p bitwire-lab --bin pod -- [--quick] [--corpus DIR] [--out FILE]
//!
//! Reads `pod_*.bin` from the corpus (default `target/lab/corpus`, or
//! `target/lab/corpus-quick` with `--quick`), checks their hashes, and writes a raw
//! result file (`bench/README.md`; default `target/lab/rust-pod.json`). A summary table
//! goes to stdout, progress to stderr.

use std::time::Instant;

use bitwire_lab::cli::Args;
use bitwire_lab::corpus;
use bitwire_lab::lab::alloc::CountingAlloc;
use bitwire_lab::pod::bench::{self, Record};
use bitwire_lab::pod::data;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn main() {
    let args = Args::from_env();
    let quick = args.flag("--quick");
    let dir = args
        .path("--corpus")
        .unwrap_or_else(|| corpus::default_dir(quick));
    let out = args
        .path("--out")
        .unwrap_or_else(|| corpus::default_dir(false).with_file_name("rust-pod.json"));
    let start = Instant::now();
    let files = data::read_all(&dir).unwrap_or_else(|e| {
        eprintln!("error: reading the pod corpus in {}: {e}", dir.display());
        eprintln!("(write it with: cargo run --release -p bitwire-lab --bin corpus)");
        std::process::exit(1);
    });
    let records = bench::run(files, false);
    let json = bench::results_json(&records, quick);
    let text = serde_json::to_string_pretty(&json).expect("JSON serializes") + "\n";
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).ok();
    }
    if let Err(e) = std::fs::write(&out, text) {
        eprintln!("error: writing {}: {e}", out.display());
        std::process::exit(1);
    }
    print_table(&records);
    println!(
        "{} records written to {} in {:.1} s",
        records.len(),
        out.display(),
        start.elapsed().as_secs_f64()
    );
}

/// Encode/decode ms, GiB/s of block bytes (the values' size) and the ratio of that to
/// memcpy's in the same run.
fn print_table(records: &[Record]) {
    println!(
        "{:<8} {:>6} {:<22} {:>11} {:>10} {:>10} {:>7} {:>7} {:>6} {:>6} {:>6} {:>6}",
        "dataset",
        "block",
        "library",
        "bytes",
        "enc ms",
        "dec ms",
        "enc G/s",
        "dec G/s",
        "enc %m",
        "dec %m",
        "enc al",
        "dec al"
    );
    for r in records {
        let block = data::block_bytes(&r.variant).unwrap_or(r.bytes) as f64;
        let gib = |ns: f64| block / ns * 1e9 / f64::from(1u32 << 30);
        let base = records
            .iter()
            .find(|m| m.dataset == r.dataset && m.variant == r.variant && m.library == "memcpy");
        let (ep, dp) = base.map_or((f64::NAN, f64::NAN), |m| {
            (
                100.0 * m.encode_ns / r.encode_ns,
                100.0 * m.decode_ns / r.decode_ns,
            )
        });
        println!(
            "{:<8} {:>6} {:<22} {:>11} {:>10.3} {:>10.3} {:>7.2} {:>7.2} {:>6.0} {:>6.0} {:>6} {:>6}",
            r.dataset,
            r.variant,
            r.library,
            r.bytes,
            r.encode_ns / 1e6,
            r.decode_ns / 1e6,
            gib(r.encode_ns),
            gib(r.decode_ns),
            ep,
            dp,
            allocs(r.encode_allocs),
            allocs(r.decode_allocs),
        );
    }
}

/// An allocation count for the table (`-` when not measured).
fn allocs(n: Option<f64>) -> String {
    n.map_or_else(|| "-".to_string(), |n| n.to_string())
}
