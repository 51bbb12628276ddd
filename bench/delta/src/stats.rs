//! Summaries of a bytes-per-tick series: mean, percentiles, maximum, and the bit rate at
//! 60 Hz.

use serde::Serialize;

/// Ticks per second of both scenarios.
pub const TICK_HZ: f64 = 60.0;

/// A series' summary over the ticks it was taken on.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// Ticks summarized.
    pub ticks: usize,
    /// Mean bytes per tick.
    pub mean: f64,
    /// Median bytes per tick (nearest rank).
    pub p50: u64,
    /// 95th percentile (nearest rank).
    pub p95: u64,
    /// Largest tick.
    pub max: u64,
    /// `mean × 8 × 60 / 1000`: kbit/s at 60 ticks per second.
    pub kbit_s: f64,
}

/// kbit/s (1000 bits) of `bytes_per_tick` at 60 Hz.
pub fn kbit_s(bytes_per_tick: f64) -> f64 {
    bytes_per_tick * 8.0 * TICK_HZ / 1000.0
}

/// The nearest-rank percentile `p` (0 < p ≤ 100) of sorted values.
pub fn percentile(sorted: &[u64], p: f64) -> u64 {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

/// The summary of `bytes`, or `None` when it is empty.
pub fn summarize(bytes: &[u64]) -> Option<Summary> {
    if bytes.is_empty() {
        return None;
    }
    let mut sorted = bytes.to_vec();
    sorted.sort_unstable();
    let mean = bytes.iter().sum::<u64>() as f64 / bytes.len() as f64;
    Some(Summary {
        ticks: bytes.len(),
        mean,
        p50: percentile(&sorted, 50.0),
        p95: percentile(&sorted, 95.0),
        max: sorted[sorted.len() - 1],
        kbit_s: kbit_s(mean),
    })
}

/// The median of `values` (the mean of the middle two for an even count).
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_of_a_small_series() {
        let s = summarize(&[10, 20, 30, 40, 100]).unwrap();
        assert_eq!(s.mean, 40.0);
        assert_eq!((s.p50, s.p95, s.max), (30, 100, 100));
        assert_eq!(s.kbit_s, 40.0 * 8.0 * 60.0 / 1000.0);
        assert!(summarize(&[]).is_none());
    }

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<u64> = (1..=100).collect();
        assert_eq!(percentile(&v, 50.0), 50);
        assert_eq!(percentile(&v, 95.0), 95);
        assert_eq!(percentile(&v, 100.0), 100);
        assert_eq!(median(&mut [3.0, 1.0, 2.0, 10.0]), Some(2.5));
    }
}
