//! How much of the decode budget (spec §11) real messages use: decodes every message of
//! the corpus with an unlimited budget and reports the bytes charged per input byte,
//! next to the default limit (1 MiB + 64 bytes per input byte). The measurement behind
//! the defaults in docs/spec.md §11.5:
//!
//!     cargo run --release -p bitwire-lab --bin budget -- [--quick] [--corpus DIR]

use bitwire::{BitReader, Limits, Packed};
use bitwire_example::game::{Events, Input, Packet64, Profiles, Snapshot};
use bitwire_lab::cli::Args;
use bitwire_lab::corpus;

/// Charges of one dataset: per message, bytes charged and input bytes.
struct Use {
    name: &'static str,
    charged: Vec<(u64, usize)>,
}

/// Decodes each frame as `T` with no budget limit and records what it was charged.
fn measure<T: Packed>(name: &'static str, frames: &[&[u8]]) -> Use {
    let charged = frames
        .iter()
        .map(|bytes| {
            let mut r = BitReader::with_limits(bytes, &Limits::fixed(u64::MAX));
            T::read(&mut r).unwrap_or_else(|e| panic!("{name}: a corpus message fails: {e}"));
            (u64::MAX - r.budget_left(), bytes.len())
        })
        .collect();
    Use { name, charged }
}

fn main() {
    let args = Args::from_env();
    let dir = args
        .path("--corpus")
        .unwrap_or_else(|| corpus::default_dir(args.flag("--quick")));
    let read = |file: &str| {
        std::fs::read(dir.join(file)).unwrap_or_else(|e| {
            eprintln!("error: {}: {e}", dir.join(file).display());
            eprintln!("(write it with: cargo run --release -p bitwire-lab --bin corpus)");
            std::process::exit(1);
        })
    };
    let files: Vec<(&str, Vec<u8>)> = ["packet64", "input", "snapshot", "events", "profiles"]
        .iter()
        .map(|n| (*n, read(&format!("{n}.bin"))))
        .collect();
    let frames = |i: usize| corpus::read_bin(&files[i].1).expect("length-prefixed frames");
    let uses = [
        measure::<Packet64>("packet64", &frames(0)),
        measure::<Input>("input", &frames(1)),
        measure::<Snapshot>("snapshot", &frames(2)),
        measure::<Events>("events", &frames(3)),
        measure::<Profiles>("profiles", &frames(4)),
    ];
    println!(
        "decode budget use per message (spec §11), corpus {}",
        dir.display()
    );
    println!(
        "{:<10} {:>9} {:>14} {:>16} {:>18}",
        "dataset", "messages", "max charged", "max per byte", "of default budget"
    );
    for u in &uses {
        let max = u.charged.iter().map(|c| c.0).max().unwrap_or(0);
        let per_byte = u
            .charged
            .iter()
            .map(|&(c, n)| c as f64 / n.max(1) as f64)
            .fold(0.0, f64::max);
        let share = u
            .charged
            .iter()
            .map(|&(c, n)| c as f64 / Limits::DEFAULT.budget(n) as f64)
            .fold(0.0, f64::max);
        println!(
            "{:<10} {:>9} {:>12} B {:>14.1} B {:>17.2}%",
            u.name,
            u.charged.len(),
            max,
            per_byte,
            share * 100.0
        );
    }
}
