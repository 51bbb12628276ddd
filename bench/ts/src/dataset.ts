// The `packet64` dataset of the product brief, from a fixed seed: the same packets as
// bench/rust/src/dataset.rs, generated with the same SplitMix64 sequence (in `bigint`
// arithmetic, modulo 2^64) and the same float operations.

import type { Packet64 } from "../gen/game.js";

const MASK = 0xffffffffffffffffn;

/** SplitMix64: tiny, fast, and the same sequence in every language. */
export class SplitMix64 {
  private state: bigint;

  constructor(seed: bigint) {
    this.state = seed;
  }

  /** The next 64 random bits. */
  nextU64(): bigint {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  /** Uniform in `0..n`. */
  below(n: number): number {
    return Number(this.nextU64() % BigInt(n));
  }

  /** Uniform in `[0, 1)`. */
  unit(): number {
    return Number(this.nextU64() >> 11n) / 2 ** 53;
  }

  /** Standard normal (Box-Muller). */
  normal(): number {
    const u1 = Math.max(this.unit(), 2.2250738585072014e-308);
    const u2 = this.unit();
    return Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
  }
}

/** Rust's `f64::round`: halfway cases away from zero (`Math.round` rounds them up). */
function roundHalfAway(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * `n` packets: seed 42, 90% alive, health skewed toward critical values, positions
 * normal with sigma 500 clamped to the 12-bit signed range.
 */
export function packet64(n: number): Packet64[] {
  const rng = new SplitMix64(42n);
  const pos = (): number => Math.min(Math.max(roundHalfAway(rng.normal() * 500.0), -2048), 2047) + 0;
  const out: Packet64[] = [];
  for (let i = 0; i < n; i++) {
    const isAlive = rng.below(10) !== 0;
    // Half the packets carry critical health (0..50), the rest anything up to 511.
    const health = rng.below(2) === 0 ? rng.below(50) : rng.below(512);
    const weaponId = rng.below(16);
    const teamId = rng.below(4);
    const posX = pos();
    const posY = pos();
    out.push({
      isAlive,
      weaponId,
      teamId,
      health: isAlive ? health : 0,
      posX,
      posY,
      rotation: rng.below(256),
      score: rng.below(65536),
    });
  }
  return out;
}

/**
 * FNV-1a (64-bit) of the encodings of the first 100, 10,000 and 1,000,000 packets as
 * printed by the Rust dataset: the TypeScript dataset must be the same packets.
 */
export const RUST_DATASET_FNV: ReadonlyMap<number, bigint> = new Map([
  [100, 0xe195e87814587764n],
  [10_000, 0x4659a47e3944433cn],
  [1_000_000, 0x4038a6a0bfdad901n],
]);

/** FNV-1a (64-bit) over a sequence of byte arrays. */
export function fnv1a(chunks: Iterable<Uint8Array>): bigint {
  let h = 0xcbf29ce484222325n;
  for (const c of chunks) {
    for (const b of c) {
      h = ((h ^ BigInt(b)) * 0x100000001b3n) & MASK;
    }
  }
  return h;
}
