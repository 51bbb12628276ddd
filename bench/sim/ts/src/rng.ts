// SplitMix64, the simulator's fixed-seed randomness, as the Rust world has it
// (bench/sim/rust/src/world/rng.rs): the same sequence from the same u64 seed, so the
// TypeScript clients draw what the Rust clients draw (`SEED + i` for client `i`) and
// find the world's hot spots where the server put them.

const MASK64 = (1n << 64n) - 1n;
const TWO_53 = 2 ** 53;

/** A SplitMix64 generator. */
export class SplitMix64 {
  private state: bigint;

  /** A generator from the u64 `seed` (taken modulo 2^64). */
  constructor(seed: bigint) {
    this.state = BigInt.asUintN(64, seed);
  }

  /** The next 64 random bits. */
  nextU64(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }

  /** Uniform in [0, 1): the top 53 bits. */
  unit(): number {
    return Number(this.nextU64() >> 11n) / TWO_53;
  }

  /** Uniform in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.unit();
  }

  /** Uniform in `0..n` (`n` > 0): the next 64 bits modulo `n`, as Rust's `below`. */
  below(n: number): number {
    return Number(this.nextU64() % BigInt(n));
  }

  /** Standard normal (Box-Muller, as Rust's `normal`). */
  normal(): number {
    // f64::MIN_POSITIVE: the smallest normal double, so the log is finite.
    const u1 = Math.max(this.unit(), 2.2250738585072014e-308);
    const u2 = this.unit();
    return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
  }
}
