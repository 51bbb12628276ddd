//! `verify` against `decode`: checking a message without building it.
//!
//!     cargo run --release -p bitwire-bench --bin verify [-- --quick]
//!
//! Prints ns/message for each on `Snapshot` messages of the example (16 and 64
//! entities) and on the `packet64` dataset, and the speedup decode / verify (goal on
//! snapshot: ≥ 3x). Both must agree on every input before anything is timed.

use bitwire::Packed;
use std::hint::black_box;

use bitwire_bench::{dataset, harness};
use bitwire_example::game::{Packet64, Snapshot};
use bitwire_example::samples;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 5 } else { 201 };
    println!(
        "verify vs decode, median of {rounds} interleaved rounds{}",
        if quick { " (quick)" } else { "" }
    );
    println!(
        "{:<14} {:>8} {:>12} {:>12} {:>8}",
        "message", "bytes", "decode", "verify", "speedup"
    );

    for n in [16, 64] {
        let wire = samples::snapshot(n)
            .encode_to_vec()
            .expect("sample encodes");
        let reps = if quick { 100 } else { 2_000 };
        Snapshot::verify(&wire).expect("verify accepts the sample");
        Snapshot::decode(&wire).expect("decode accepts the sample");
        let [dec, ver] = harness::compare(
            rounds,
            reps,
            [
                &mut || {
                    for _ in 0..reps {
                        black_box(Snapshot::decode(black_box(&wire)).unwrap());
                    }
                },
                &mut || {
                    for _ in 0..reps {
                        Snapshot::verify(black_box(&wire)).unwrap();
                    }
                },
            ],
        );
        report(&format!("snapshot({n})"), wire.len(), dec, ver);
    }

    let count = if quick { 1_000 } else { 10_000 };
    let mut wire = Vec::with_capacity(count * 8);
    for p in dataset::packet64(count) {
        p.encode(&mut wire).expect("dataset values are in range");
    }
    for chunk in wire.chunks_exact(8) {
        assert_eq!(
            Packet64::verify(chunk),
            Packet64::decode(chunk).map(drop),
            "verify and decode disagree"
        );
    }
    let [dec, ver] = harness::compare(
        rounds,
        count,
        [
            &mut || {
                for chunk in black_box(&wire).chunks_exact(8) {
                    black_box(Packet64::decode(black_box(chunk)).unwrap());
                }
            },
            &mut || {
                for chunk in black_box(&wire).chunks_exact(8) {
                    Packet64::verify(black_box(chunk)).unwrap();
                }
            },
        ],
    );
    report("packet64", 8, dec, ver);
    println!("goal: verify >= 3x faster than decode on snapshot");
}

fn report(name: &str, bytes: usize, dec: f64, ver: f64) {
    println!(
        "{name:<14} {bytes:>8} {dec:>9.1} ns {ver:>9.1} ns {:>7.2}x",
        dec / ver
    );
}
