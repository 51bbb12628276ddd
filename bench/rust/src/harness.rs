//! A small timing harness: interleaved rounds, median, ns per item. Benchmarks print
//! numbers; nothing here asserts on them.

use std::time::Instant;

/// Runs the contenders' rounds interleaved (A, B, A, B, ...) so that frequency scaling
/// and noise from the other core hit both alike; returns each one's median ns/item.
pub fn compare<const N: usize>(
    rounds: usize,
    items: usize,
    mut fs: [&mut dyn FnMut(); N],
) -> [f64; N] {
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); N];
    for f in fs.iter_mut() {
        f();
    }
    for _ in 0..rounds {
        for (f, s) in fs.iter_mut().zip(samples.iter_mut()) {
            let t = Instant::now();
            f();
            s.push(t.elapsed().as_nanos() as f64 / items as f64);
        }
    }
    let mut out = [0.0; N];
    for (o, mut s) in out.iter_mut().zip(samples) {
        s.sort_by(f64::total_cmp);
        *o = s[s.len() / 2];
    }
    out
}
