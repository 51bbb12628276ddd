//! The latency distribution of a cell: every measured round trip, in microseconds.

use serde::{Deserialize, Serialize};

/// Latency of the round trips of a cell (results.json `latency_us`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Latency {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 90th percentile.
    pub p90: f64,
    /// 99th percentile.
    pub p99: f64,
    /// 99.9th percentile.
    pub p999: f64,
    /// Largest.
    pub max: f64,
    /// 100 points `[fraction, µs]`, fraction 0.01 … 1.0: the latency below which that
    /// fraction of the round trips lies.
    pub cdf: Vec<[f64; 2]>,
}

/// Microseconds, rounded to the nanosecond the clock measured.
fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// The nearest-rank percentile `q` (0 < q ≤ 1) of sorted, non-empty `ns`.
fn percentile(sorted: &[u64], q: f64) -> u64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The distribution of `ns` (round trips in nanoseconds), sorting it; `None` when it is
/// empty (a cell that measured nothing).
pub fn summarize(ns: &mut [u64]) -> Option<Latency> {
    if ns.is_empty() {
        return None;
    }
    ns.sort_unstable();
    let sum: u128 = ns.iter().map(|&v| u128::from(v)).sum();
    let mean = sum as f64 / ns.len() as f64 / 1000.0;
    let cdf = (1..=100)
        .map(|i| {
            let f = f64::from(i) / 100.0;
            [f, us(percentile(ns, f))]
        })
        .collect();
    Some(Latency {
        mean: (mean * 1000.0).round() / 1000.0,
        p50: us(percentile(ns, 0.5)),
        p90: us(percentile(ns, 0.9)),
        p99: us(percentile(ns, 0.99)),
        p999: us(percentile(ns, 0.999)),
        max: us(ns[ns.len() - 1]),
        cdf,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_by_nearest_rank() {
        let mut ns: Vec<u64> = (1..=1000).rev().map(|v| v * 1000).collect();
        let l = summarize(&mut ns).unwrap();
        assert_eq!(
            (l.p50, l.p90, l.p99, l.p999, l.max),
            (500.0, 900.0, 990.0, 999.0, 1000.0)
        );
        assert_eq!(l.mean, 500.5);
        assert_eq!(l.cdf.len(), 100);
        assert_eq!(l.cdf[0], [0.01, 10.0]);
        assert_eq!(l.cdf[99], [1.0, 1000.0]);
    }

    #[test]
    fn one_sample_and_none() {
        let l = summarize(&mut [1500]).unwrap();
        assert_eq!((l.p50, l.p999, l.max, l.mean), (1.5, 1.5, 1.5, 1.5));
        assert!(summarize(&mut []).is_none());
    }
}
