// The conformance runners' random numbers and hostile inputs, one copy for every runner
// (properties, delta vectors and properties, the comparison with the reference CLI).

/** mulberry32: a small, fast 32-bit generator, the same sequence on every runtime. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in `0..n`; 0 when `n` ≤ 0. */
  below(n: number): number {
    return n <= 0 ? 0 : this.next() % n;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    return Uint8Array.from({ length: n }, () => this.next() & 0xff);
  }

  /** True with probability `percent` / 100. */
  chance(percent: number): boolean {
    return this.below(100) < percent;
  }

  /** An integer in `lo..=hi`, its edges often. */
  int(lo: number, hi: number): number {
    switch (this.below(6)) {
      case 0:
        return lo;
      case 1:
        return hi;
      default:
        return lo + (this.next() % (hi - lo + 1));
    }
  }

  /** A `bits`-bit unsigned `bigint`, edges often. */
  big(bits: number): bigint {
    const max = (1n << BigInt(bits)) - 1n;
    switch (this.below(5)) {
      case 0:
        return 0n;
      case 1:
        return max;
      default:
        return ((BigInt(this.next()) << 32n) | BigInt(this.next())) & max;
    }
  }

  pick<T>(xs: readonly T[]): T {
    return xs[this.below(xs.length)];
  }

  /** A float in `lo..=hi` (not on any grid). */
  float(lo: number, hi: number): number {
    return this.chance(20) ? this.pick([lo, hi]) : lo + (hi - lo) * (this.next() / 4294967296);
  }
}

/** A hostile input derived from `seed`: bit flips, a cut, an extension, a replaced byte. */
export function mutate(rng: Rng, seed: Uint8Array): Uint8Array {
  const b = seed.slice();
  switch (rng.below(5)) {
    case 0:
    case 1:
      if (b.length > 0) {
        const bit = rng.below(b.length * 8);
        b[bit >>> 3] ^= 1 << (bit & 7);
      }
      return b;
    case 2:
      return b.slice(0, rng.below(b.length + 1));
    case 3: {
      const longer = new Uint8Array(b.length + 1);
      longer.set(b);
      longer[b.length] = rng.next() & 0xff;
      return longer;
    }
    default:
      if (b.length > 0) {
        b[rng.below(b.length)] = rng.next() & 0xff;
      }
      return b;
  }
}
