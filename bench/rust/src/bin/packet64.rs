//! `packet64` encode and decode: generated Rust against the hand-written baseline.
//!
//!     cargo run --release -p bitwire-bench --bin packet64 [-- --quick]
//!
//! Prints ns/packet for each and the ratio generated / hand-written (goal: ≤ 1.10). The
//! hand-written encoder masks out-of-range fields; the generated one must reject them
//! (spec §3.1), so the encode ratio is also given against hand-written code that does
//! the same checks.

use bitwire::Packed;
use std::hint::black_box;

use bitwire_bench::{dataset, handwritten, harness};
use bitwire_example::game::Packet64;

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let (n, rounds) = if quick { (1_000, 5) } else { (10_000, 301) };
    let packets = dataset::packet64(n);

    // Same bytes first: a benchmark of two codecs that disagree would be meaningless.
    let mut wire = Vec::with_capacity(n * 8);
    let mut a = Vec::new();
    let mut b = Vec::new();
    for p in &packets {
        a.clear();
        b.clear();
        p.encode(&mut a).expect("dataset values are in range");
        handwritten::encode(p, &mut b);
        assert_eq!(a, b, "generated and hand-written bytes differ for {p:?}");
        wire.extend_from_slice(&a);
    }

    let (mut buf_gen, mut buf_hand, mut buf_checked) = (
        Vec::with_capacity(8),
        Vec::with_capacity(8),
        Vec::with_capacity(8),
    );
    let [gen_enc, hand_enc, checked_enc] = harness::compare(
        rounds,
        n,
        [
            &mut || {
                for p in black_box(&packets) {
                    buf_gen.clear();
                    black_box(p).encode(&mut buf_gen).unwrap();
                    black_box(&buf_gen);
                }
            },
            &mut || {
                for p in black_box(&packets) {
                    buf_hand.clear();
                    handwritten::encode(black_box(p), &mut buf_hand);
                    black_box(&buf_hand);
                }
            },
            &mut || {
                for p in black_box(&packets) {
                    buf_checked.clear();
                    assert!(handwritten::encode_checked(black_box(p), &mut buf_checked));
                    black_box(&buf_checked);
                }
            },
        ],
    );
    let [gen_dec, hand_dec] = harness::compare(
        rounds,
        n,
        [
            &mut || {
                for chunk in black_box(&wire).chunks_exact(8) {
                    black_box(Packet64::decode(black_box(chunk)).unwrap());
                }
            },
            &mut || {
                for chunk in black_box(&wire).chunks_exact(8) {
                    black_box(handwritten::decode(black_box(chunk)).unwrap());
                }
            },
        ],
    );

    println!(
        "packet64, {n} packets, median of {rounds} interleaved rounds{}",
        if quick { " (quick)" } else { "" }
    );
    println!(
        "{:<8} {:>14} {:>14} {:>8}",
        "", "generated", "hand-written", "ratio"
    );
    for (name, g, h) in [("encode", gen_enc, hand_enc), ("decode", gen_dec, hand_dec)] {
        println!("{name:<8} {:>11.2} ns {:>11.2} ns {:>7.2}x", g, h, g / h);
    }
    println!(
        "encode, hand-written with the same range checks: {checked_enc:.2} ns, generated / that = {:.2}x",
        gen_enc / checked_enc
    );
    println!("goal: ratio <= 1.10 (generated within 1.1x of hand-written)");
}
