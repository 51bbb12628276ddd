//! Timing: the interleaved-rounds median of `bitwire_bench::harness::compare`,
//! generalized to any number of contenders, with each contender's sample repeated until
//! it lasts long enough to time. Nothing here asserts on timings.

use std::time::{Duration, Instant};

/// How long and how often to measure.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// Interleaved rounds (samples per contender).
    pub rounds: usize,
    /// Shortest sample: a contender's pass is repeated until one sample lasts this long.
    pub min_sample: Duration,
}

/// Runs `fs` (each one pass over `items` items): one warm-up pass each (which also sets
/// how many passes make a sample), then `plan.rounds` rounds in which every contender
/// takes one sample in turn (A, B, C, A, B, C, ...) so that noise and frequency changes
/// hit all alike. Returns each one's median ns per item.
pub fn compare(plan: Plan, items: usize, fs: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let reps: Vec<u32> = fs
        .iter_mut()
        .map(|f| {
            let t = Instant::now();
            f();
            let once = t.elapsed().max(Duration::from_nanos(1));
            (plan.min_sample.as_nanos() / once.as_nanos()).clamp(1, 1 << 20) as u32
        })
        .collect();
    let mut samples = vec![Vec::with_capacity(plan.rounds); fs.len()];
    for _ in 0..plan.rounds.max(1) {
        for ((f, s), &n) in fs.iter_mut().zip(&mut samples).zip(&reps) {
            let t = Instant::now();
            for _ in 0..n {
                f();
            }
            s.push(t.elapsed().as_nanos() as f64 / (f64::from(n) * items.max(1) as f64));
        }
    }
    samples.into_iter().map(median).collect()
}

/// The median of `xs` (the upper one of an even count); `xs` must not be empty.
pub fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}
