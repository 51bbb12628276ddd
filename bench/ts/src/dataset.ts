// The `packet64` dataset of the product brief, from a fixed seed: the same packets as
// bench/rust/src/dataset.rs, generated with the same SplitMix64 sequence (64-bit
// arithmetic on 32-bit halves, modulo 2^64) and the same float operations.

import type { Packet64 } from "../gen/game.js";

const TWO_32 = 4294967296;

/**
 * The low 64 bits of (ah:al) * (bh:bl), as [hi, lo] uint32 halves. The 32 x 32 product of
 * the low halves is formed from 16-bit pieces (every partial sum exact in binary64); the
 * cross terms only matter modulo 2^32, which Math.imul gives.
 */
function mul64(ah: number, al: number, bh: number, bl: number): [number, number] {
  const a0 = al & 0xffff;
  const a1 = al >>> 16;
  const b0 = bl & 0xffff;
  const b1 = bl >>> 16;
  const mid = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (mid % 65536) * 65536;
  const lo = low >>> 0;
  const hi = a1 * b1 + Math.floor(mid / 65536) + Math.floor(low / TWO_32) + Math.imul(al, bh) + Math.imul(ah, bl);
  return [hi >>> 0, lo];
}

/**
 * SplitMix64: tiny, fast, and the same sequence in every language. The 64-bit state
 * lives in two 32-bit halves (plain numbers: bigint arithmetic made a million packets
 * take seconds); the result is checked against hashes of the Rust dataset.
 */
export class SplitMix64 {
  private hi: number;
  private lo: number;
  /** Halves of the last output. */
  private zh = 0;
  private zl = 0;

  constructor(seed: bigint) {
    this.hi = Number((seed >> 32n) & 0xffffffffn);
    this.lo = Number(seed & 0xffffffffn);
  }

  /** Advances and leaves the next 64 random bits in zh:zl. */
  private step(): void {
    const lo = this.lo + 0x7f4a7c15;
    this.lo = lo >>> 0;
    this.hi = (this.hi + 0x9e3779b9 + (lo >= TWO_32 ? 1 : 0)) >>> 0;
    let h = this.hi;
    let l = this.lo;
    // z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
    l = (l ^ ((l >>> 30) | (h << 2))) >>> 0;
    h = (h ^ (h >>> 30)) >>> 0;
    [h, l] = mul64(h, l, 0xbf58476d, 0x1ce4e5b9);
    // z = (z ^ (z >> 27)) * 0x94d049bb133111eb
    l = (l ^ ((l >>> 27) | (h << 5))) >>> 0;
    h = (h ^ (h >>> 27)) >>> 0;
    [h, l] = mul64(h, l, 0x94d049bb, 0x133111eb);
    // z ^ (z >> 31)
    this.zl = (l ^ ((l >>> 31) | (h << 1))) >>> 0;
    this.zh = (h ^ (h >>> 31)) >>> 0;
  }

  /** The next 64 random bits. */
  nextU64(): bigint {
    this.step();
    return (BigInt(this.zh) << 32n) | BigInt(this.zl);
  }

  /** Uniform in `0..n` (`n` up to 2^16): the next 64 bits modulo `n`. */
  below(n: number): number {
    this.step();
    return ((this.zh % n) * TWO_32 + this.zl) % n;
  }

  /** Uniform in `[0, 1)`: the top 53 bits of the next 64, over 2^53. */
  unit(): number {
    this.step();
    return (this.zh * 2097152 + (this.zl >>> 11)) / 2 ** 53;
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
 * FNV-1a 64 of the encodings of the first 100, 10,000 and 1,000,000 packets as printed
 * by the Rust dataset (`fnv1a64Hex` of the packets' bytes back to back): the TypeScript
 * dataset must be the same packets.
 */
export const RUST_DATASET_FNV: ReadonlyMap<number, string> = new Map([
  [100, "e195e87814587764"],
  [10_000, "4659a47e3944433c"],
  [1_000_000, "4038a6a0bfdad901"],
]);

/**
 * FNV-1a 64 of `bytes` as 16 lowercase hex digits. The 64-bit state is kept in four
 * 16-bit limbs so that everything stays in small integers (bigint would take minutes on
 * a 256 MB file): the prime is 2^40 + 0x1b3, so h * prime = h * 0x1b3 + (h << 40), and
 * h << 40 adds limb 0 shifted by 8 to limbs 2-3 and limb 1 shifted by 8 to limb 3.
 */
export function fnv1a64Hex(bytes: Uint8Array): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    h0 ^= bytes[i] as number;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (t1 >>> 16) + ((h0 << 8) & 0xffff);
    const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h0 >>> 8) + ((h1 << 8) & 0xffff);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  const hex = (x: number): string => x.toString(16).padStart(4, "0");
  return hex(h3) + hex(h2) + hex(h1) + hex(h0);
}
