//! The pod benchmark (blocks of u64, u8 and f32 from the corpus; `bitwire_lab::pod`):
//!
//!     cargo run --release -p bitwire-lab --bin pod -- [--quick] [--corpus DIR] [--out FILE]
//!
//! Reads `pod_*.bin` from the corpus (default `target/lab/corpus`, or
//! `target/lab/corpus-quick` with `--quick`), checks their hashes, and writes a raw
//! result file (`bench/README.md`; default `target/lab/rust-pod.json`). A summary table
//! goes to stdout, progress to stderr.

use std::path::PathBuf;
use std::time::Instant;

use bitwire_lab::corpus;
use bitwire_lab::pod::alloc::CountingAlloc;
use bitwire_lab::pod::bench::{self, Record};
use bitwire_lab::pod::data;

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

fn arg(args: &[String], name: &str) -> Option<PathBuf> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let dir = arg(&args, "--corpus").unwrap_or_else(|| {
        let d = corpus::default_dir();
        if quick {
            d.with_file_name("corpus-quick")
        } else {
            d
        }
    });
    let out = arg(&args, "--out")
        .unwrap_or_else(|| corpus::default_dir().with_file_name("rust-pod.json"));
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

/// Encode/decode ms and GB/s of block bytes (the values' size), ratio to hand-written.
fn print_table(records: &[Record]) {
    println!(
        "{:<8} {:>6} {:<12} {:>11} {:>10} {:>10} {:>7} {:>7} {:>7} {:>7}",
        "dataset",
        "block",
        "library",
        "bytes",
        "enc ms",
        "dec ms",
        "enc x",
        "dec x",
        "enc al",
        "dec al"
    );
    for r in records {
        let base = records.iter().find(|h| {
            h.dataset == r.dataset && h.variant == r.variant && h.library == "handwritten"
        });
        let (ex, dx) = base.map_or((f64::NAN, f64::NAN), |h| {
            (r.encode_ns / h.encode_ns, r.decode_ns / h.decode_ns)
        });
        println!(
            "{:<8} {:>6} {:<12} {:>11} {:>10.3} {:>10.3} {:>7.2} {:>7.2} {:>7} {:>7}",
            r.dataset,
            r.variant,
            r.library,
            r.bytes,
            r.encode_ns / 1e6,
            r.decode_ns / 1e6,
            ex,
            dx,
            r.encode_allocs,
            r.decode_allocs,
        );
    }
}
