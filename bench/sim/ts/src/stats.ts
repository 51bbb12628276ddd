// The distribution of round-trip times, in the shape of bench/net/rust/src/stats.rs
// `Latency` (the results' `rtt_us`): nearest-rank percentiles and a 100-point CDF, in
// microseconds, from samples in nanoseconds.

/** Latency of a set of samples, microseconds (stats.rs `Latency`). */
export interface Latency {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  /** 100 points `[fraction, µs]`, fraction 0.01 … 1.0. */
  cdf: [number, number][];
}

/** The nearest-rank percentile `q` (0 < q ≤ 1) of sorted, non-empty `sorted`. */
export function percentile(sorted: ArrayLike<number>, q: number): number {
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1] as number;
}

/**
 * The distribution of `ns` (integer nanoseconds), sorting it in place; `undefined` when
 * empty. Rounded as stats.rs rounds: values to the nanosecond, the mean to it too.
 */
export function summarize(ns: Float64Array): Latency | undefined {
  if (ns.length === 0) {
    return undefined;
  }
  ns.sort();
  let sum = 0;
  for (const v of ns) {
    sum += v;
  }
  const us = (v: number): number => v / 1000;
  const mean = sum / ns.length / 1000;
  const cdf: [number, number][] = [];
  for (let i = 1; i <= 100; i++) {
    cdf.push([i / 100, us(percentile(ns, i / 100))]);
  }
  return {
    mean: Math.round(mean * 1000) / 1000,
    p50: us(percentile(ns, 0.5)),
    p90: us(percentile(ns, 0.9)),
    p99: us(percentile(ns, 0.99)),
    p999: us(percentile(ns, 0.999)),
    max: us(ns[ns.length - 1] as number),
    cdf,
  };
}
