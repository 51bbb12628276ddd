// The clients' random numbers: small, fast and the same in every runtime, from a u64 seed
// (`SEED + i` for client `i`, bench/sim/README.md). Not the Rust client's generator —
// the behaviour is the same kind, not the same sequence.

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64's output for `seed` (spreads nearby seeds apart). */
function splitmix64(seed: bigint): bigint {
  let z = (seed + 0x9e3779b97f4a7c15n) & MASK64;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

/** Mulberry32 seeded through SplitMix64: uniform numbers in [0, 1). */
export class Rng {
  private state: number;

  /** A generator for the u64 `seed` (taken modulo 2^64). */
  constructor(seed: bigint) {
    const z = splitmix64(BigInt.asUintN(64, seed));
    this.state = Number((z ^ (z >> 32n)) & 0xffffffffn) | 0;
  }

  /** The next 32 random bits, as an unsigned integer. */
  nextU32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }

  /** A number in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
}
