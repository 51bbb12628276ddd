//! Encode and decode throughput of the generated bincode codec on a `list<u64>` of
//! 8 Mi elements (64 MiB, `conformance/rust/schemas/bulk.bw`'s `Words`), with buffer
//! reuse and without, against a plain copy of the same bytes in the same run. A quick
//! check of the bulk path (docs/spec.md §13.8); the benchmark lab measures it properly.
//!
//! ```sh
//! cargo run --release -p bitwire-conformance --example bincode_speed
//! ```

use std::hint::black_box;
use std::time::{Duration, Instant};

use bitwire::{Bincode, Limits};
use bitwire_conformance::suites::extra::bulk::Words;

const N: usize = 8 << 20;
const ROUNDS: usize = 15;

/// The best times of `ROUNDS` rounds of `fs`, after one warm-up round; each round runs
/// every function once, so that they share whatever else the machine is doing.
fn best<const K: usize>(fs: &mut [&mut dyn FnMut(); K]) -> [Duration; K] {
    fs.iter_mut().for_each(|f| f());
    let mut best = [Duration::MAX; K];
    for _ in 0..ROUNDS {
        for (f, b) in fs.iter_mut().zip(&mut best) {
            let t = Instant::now();
            f();
            *b = (*b).min(t.elapsed());
        }
    }
    best
}

fn gib_s(bytes: usize, t: Duration) -> f64 {
    bytes as f64 / t.as_secs_f64() / f64::from(1 << 30)
}

fn main() {
    let words = Words {
        w: (0..N as u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect(),
    };
    let wire = words.encode_bincode_to_vec().expect("encodes");
    let payload = wire.len() - 8;
    let limits = Limits {
        base: 1 << 20,
        per_input_byte: 64,
    };

    let mut out = Vec::with_capacity(wire.len());
    let mut out2 = Vec::with_capacity(wire.len());
    let [memcpy_enc, enc, enc_fresh] = best(&mut [
        &mut || {
            out.clear();
            out.extend_from_slice(black_box(&wire));
        },
        &mut || {
            out2.clear();
            black_box(&words)
                .encode_bincode(&mut out2)
                .expect("encodes");
        },
        &mut || {
            black_box(words.encode_bincode_to_vec().expect("encodes"));
        },
    ]);
    assert_eq!(out2, wire);

    let mut dst = vec![0u8; payload];
    let mut into = Words { w: vec![0; N] };
    let [memcpy_dec, dec, dec_fresh] = best(&mut [
        &mut || dst.copy_from_slice(black_box(&wire[8..])),
        &mut || {
            into.decode_bincode_into(black_box(&wire), &limits)
                .expect("decodes");
        },
        &mut || {
            black_box(Words::decode_bincode_with(&wire, &limits).expect("decodes"));
        },
    ]);
    assert_eq!(into, words);

    println!(
        "list<u64> of {N} elements ({payload} bytes), best of {ROUNDS} interleaved rounds, GiB/s:"
    );
    let row = |name: &str, t: Duration, base: Duration| {
        let pct = 100.0 * base.as_secs_f64() / t.as_secs_f64();
        println!(
            "  {name:<36} {:>6.2}  ({pct:>3.0}% of memcpy)",
            gib_s(payload, t)
        );
    };
    row("encode memcpy (extend_from_slice)", memcpy_enc, memcpy_enc);
    row("encode_bincode, reused buffer", enc, memcpy_enc);
    row("encode_bincode_to_vec (fresh)", enc_fresh, memcpy_enc);
    row("decode memcpy (copy_from_slice)", memcpy_dec, memcpy_dec);
    row("decode_bincode_into, reused value", dec, memcpy_dec);
    row("decode_bincode_with (fresh)", dec_fresh, memcpy_dec);
}
