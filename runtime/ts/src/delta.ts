// The delta encoding's codes (spec §12): the difference code of a scalar's wire values
// (§12.4), the Exp-Golomb codes of a keyed list's gaps and added count (§12.5), and the
// helpers generated `encodeDeltaX` / `decodeDeltaX` functions share.
//
// Wire values of up to 32 bits are `number`s, worked on with 32-bit operators. Wider ones
// (33..53-bit integers, `f64` bits, 54..64-bit `bigint` fields) travel as two 32-bit
// halves, so that no `bigint` is allocated for them: the halves' arithmetic is 64-bit
// two's complement done by hand, and the high half of a result is read with
// {@link diffHi} right after the call, as `f64HiBits` follows `f64LoBits`.

import { type Int, PathError, error, lengthError, truncatedError } from "./errors.js";
import type { BitReader } from "./reader.js";
import { BitWriter } from "./writer.js";

const TWO_32 = 4294967296;

/** The high half of the last 64-bit result of {@link readDiff64} or {@link applyDiff64}. */
let hiHalf = 0;

/** The high 32 bits of the last result of {@link readDiff64} or {@link applyDiff64}. */
export function diffHi(): number {
  return hiHalf;
}

/**
 * Writes a changed bit and, when the wire values `ub` (baseline) and `uv` (value) of a
 * scalar of `width` bits (1..32) differ, their difference code (§12.4): the zigzag `z`
 * of `uv - ub` in `width` bits, `bits_for(z) - 1` in `prefixBits` bits, then the bits of
 * `z` below its top one. Returns whether they differed. Two's-complement values (the
 * raw bits of an `iN`, sign-extended) are as good as their unsigned bits: only the
 * difference modulo 2^width counts.
 */
export function writeChange(w: BitWriter, ub: number, uv: number, width: number, prefixBits: number): boolean {
  if (ub === uv) {
    w.writeBits(0, 1);
    return false;
  }
  const sh = 32 - width;
  // The difference as a `width`-bit two's-complement number, sign-extended to 32 bits.
  const s = ((uv - ub) << sh) >> sh;
  const z = ((s << 1) ^ (s >> 31)) >>> 0;
  const n = 32 - Math.clz32(z);
  // The top bit of `z` is always one and is not written.
  const low = z ^ (1 << (n - 1));
  if (prefixBits + n <= 32) {
    w.writeBits(1 | ((n - 1) << 1) | (low << (prefixBits + 1)), prefixBits + n);
  } else {
    w.writeBits(1 | ((n - 1) << 1), prefixBits + 1);
    w.writeBits(low, n - 1);
  }
  return true;
}

/**
 * {@link writeChange} for a scalar of `width` bits (33..64) given as 32-bit halves
 * (`bLo`, `bHi`: the baseline's; `vLo`, `vHi`: the value's; each an unsigned 32-bit
 * number or its int32 form).
 */
export function writeChange64(
  w: BitWriter,
  bLo: number,
  bHi: number,
  vLo: number,
  vHi: number,
  width: number,
  prefixBits: number,
): boolean {
  if ((bLo ^ vLo) === 0 && (bHi ^ vHi) === 0) {
    w.writeBits(0, 1);
    return false;
  }
  // d = v - b modulo 2^64, then sign-extended from bit `width - 1`.
  const dLo = (vLo >>> 0) - (bLo >>> 0);
  const borrow = dLo < 0 ? 1 : 0;
  const sh = 64 - width;
  const sHi = (((vHi >>> 0) - (bHi >>> 0) - borrow) << sh) >> sh;
  const sLo = dLo >>> 0;
  // Zigzag in 64 bits equals zigzag in `width` bits for a value that fits them.
  const m = sHi >> 31;
  const zHi = (((sHi << 1) | (sLo >>> 31)) ^ m) >>> 0;
  const zLo = ((sLo << 1) ^ m) >>> 0;
  const n = zHi !== 0 ? 64 - Math.clz32(zHi) : 32 - Math.clz32(zLo);
  w.writeBits(1 | ((n - 1) << 1), prefixBits + 1);
  if (n <= 32) {
    w.writeBits(zLo ^ (1 << (n - 1)), n - 1);
  } else {
    w.writeBits(zLo, 32);
    w.writeBits(zHi ^ (1 << (n - 33)), n - 33);
  }
  return true;
}

/**
 * Reads the difference code of a scalar of `width` bits (1..32) and returns its zigzag
 * value `z` (§12.4). A length prefix of `width` or more is `OutOfRange`, a code cut
 * short `Truncated`, both at the code's first bit. The caller computes the baseline's
 * wire value after this (its errors come second) and applies `z` with
 * {@link applyDiff}.
 */
export function readDiff(r: BitReader, width: number, prefixBits: number): number {
  const start = r.bitPos;
  const left = r.remainingBits;
  if (prefixBits > left) {
    throw error("Truncated", start);
  }
  const m = r.readBits(prefixBits);
  if (m >= width) {
    throw error("OutOfRange", start);
  }
  if (prefixBits + m > left) {
    throw error("Truncated", start);
  }
  return (r.readBits(m) | (1 << m)) >>> 0;
}

/**
 * The wire value `(ub + s) mod 2^width` (as an unsigned number), `s` the inverse zigzag
 * of `z`: the scalar a difference code read with {@link readDiff} gives against the
 * baseline's wire value `ub`.
 */
export function applyDiff(ub: number, z: number, width: number): number {
  const s = (z >>> 1) ^ -(z & 1);
  const u = ub + s;
  return width === 32 ? u >>> 0 : u & (0xffffffff >>> (32 - width));
}

/**
 * {@link readDiff} for a scalar of `width` bits (33..64): returns the low half of `z`;
 * the high half is {@link diffHi}.
 */
export function readDiff64(r: BitReader, width: number, prefixBits: number): number {
  const start = r.bitPos;
  const left = r.remainingBits;
  if (prefixBits > left) {
    throw error("Truncated", start);
  }
  const m = r.readBits(prefixBits);
  if (m >= width) {
    throw error("OutOfRange", start);
  }
  if (prefixBits + m > left) {
    throw error("Truncated", start);
  }
  if (m < 32) {
    hiHalf = 0;
    return (r.readBits(m) | (1 << m)) >>> 0;
  }
  const lo = r.readBits(32);
  hiHalf = (r.readBits(m - 32) | (1 << (m - 32))) >>> 0;
  return lo;
}

/**
 * {@link applyDiff} for a scalar of `width` bits (33..64) in halves: returns the low
 * half of the wire value; the high half (below 2^(width - 32)) is {@link diffHi}.
 */
export function applyDiff64(bLo: number, bHi: number, zLo: number, zHi: number, width: number): number {
  // s = (z >>> 1) ^ -(z & 1) in 64 bits, then u = b + s.
  const neg = -(zLo & 1);
  const sLo = (((zLo >>> 1) | (zHi << 31)) ^ neg) >>> 0;
  const sHi = ((zHi >>> 1) ^ neg) >>> 0;
  const lo = (bLo >>> 0) + sLo;
  const hi = (bHi >>> 0) + sHi + (lo >= TWO_32 ? 1 : 0);
  hiHalf = width === 64 ? hi >>> 0 : hi & (0xffffffff >>> (64 - width));
  return lo >>> 0;
}

/** Writes the Exp-Golomb code of `x` (§12.5): 0 is `1`, 1 is `010`, 2 is `011`, … */
export function writeGolomb(w: BitWriter, x: number): void {
  const x1 = x + 1;
  if (x1 < 65536) {
    // k ≤ 15: the k zeros, the one and the k bits below it in one write.
    const k = 31 - Math.clz32(x1);
    w.writeBits(((x1 ^ (1 << k)) << (k + 1)) | (1 << k), 2 * k + 1);
    return;
  }
  const k = x1 < TWO_32 ? 31 - Math.clz32(x1) : 63 - Math.clz32(Math.floor(x1 / TWO_32));
  for (let z = k; z > 0; z -= 32) {
    w.writeBits(0, z < 32 ? z : 32);
  }
  w.writeBits(1, 1);
  w.writeUint(x1 - 2 ** k, k);
}

/**
 * Writes an event of a keyed list delta (§12.5): the Exp-Golomb code of the gap `gap`
 * (the unchanged elements before it), then the op bit `op` (0: changed, 1: removed).
 */
export function writeEvent(w: BitWriter, gap: number, op: 0 | 1): void {
  const x1 = gap + 1;
  if (x1 < 32768) {
    // k ≤ 14: the code and the op bit in one write of at most 30 bits.
    const k = 31 - Math.clz32(x1);
    w.writeBits(((x1 ^ (1 << k)) << (k + 1)) | (1 << k) | (op << (2 * k + 1)), 2 * k + 2);
    return;
  }
  writeGolomb(w, gap);
  w.writeBits(op, 1);
}

/**
 * Reads a gap of a keyed list delta (§12.5) with `left` baseline elements left: at most
 * `bits_for(left + 1) - 1` leading zeros, and at most `left`, else `OutOfRange` at the
 * code.
 */
export function readGap(r: BitReader, left: number): number {
  const start = r.bitPos;
  const x = left + 1;
  const g = r.readGolomb(x >= TWO_32 ? 32 : 31 - Math.clz32(x));
  if (g > left) {
    throw error("OutOfRange", start);
  }
  return g;
}

/**
 * Reads the count of a keyed list delta's added elements (§12.5) and checks it, at the
 * count's first bit, in the order of §12.5 and §12.8: more than 63 leading zeros is
 * `OutOfRange`; `kept` plus the count above `max` (`Infinity` without one; a `bigint`
 * when it is 2^53 or more) is `InvalidLength`; added elements of at least `minBits` bits
 * each that cannot fit in the input left are `Truncated`; the decoded list's charge,
 * `perElem` per element plus one allocation, beyond the decode budget is
 * `LimitExceeded`.
 */
export function readAdded(r: BitReader, kept: number, max: number | bigint, minBits: number, perElem: number): number {
  const start = r.bitPos;
  const added = typeof max === "bigint" ? readCountExact(r, kept, max, start) : r.readGolomb(63);
  const total = kept + added;
  if (typeof max === "number" && total > max) {
    throw lengthError(start, total, max);
  }
  if (added * minBits > r.remainingBits) {
    throw truncatedError(start, added * minBits, r.remainingBits);
  }
  // The decoded list's charge (no bits per element: the check above was the one).
  r.checkLen(total, 0, perElem, start);
  return added;
}

/**
 * The count of added elements against a bound of 2^53 or more, read exactly, bit by
 * bit (such a bound is rare): `InvalidLength` when `kept` plus the count exceeds it.
 */
function readCountExact(r: BitReader, kept: number, max: bigint, start: number): number {
  let zeros = 0;
  for (;;) {
    if (r.remainingBits < 1) {
      throw error("Truncated", start);
    }
    if (r.readBits(1) === 1) {
      break;
    }
    zeros++;
    if (zeros > 63) {
      throw error("OutOfRange", start);
    }
  }
  if (zeros > r.remainingBits) {
    throw error("Truncated", start);
  }
  let rest = 0n;
  for (let i = 0; i < zeros; i += 32) {
    rest |= BigInt(r.readBits(zeros - i < 32 ? zeros - i : 32)) << BigInt(i);
  }
  const added = (1n << BigInt(zeros)) - 1n + rest;
  if (BigInt(kept) + added > max) {
    throw lengthError(start, BigInt(kept) + added, max);
  }
  return Number(added);
}

/** The two writers the delta encoder builds full encodings in, to compare and copy them. */
const scratch = [new BitWriter(64), new BitWriter(64)];

/**
 * Scratch writer `i` (0 or 1), reset: where a delta encoder or decoder builds the full
 * encoding of a value to compare it with another one (§12.2: values are equal when
 * their full encodings are). Shared by every generated module; full encoders, which
 * never call delta code, are all that runs while one is in use.
 */
export function deltaScratch(i: 0 | 1): BitWriter {
  const w = scratch[i];
  w.reset();
  return w;
}

/** Whether `list`, strictly ascending by `key`, has an element with key `k`. */
export function hasKey<T>(list: readonly T[], k: Int, key: (e: T) => Int): boolean {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const km = key(list[mid]);
    if (km === k) {
      return true;
    }
    if (km < k) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return false;
}

/** `a` and `b`, each ascending by `key` and with no key in both, merged into one list. */
export function mergeByKey<T>(a: readonly T[], b: readonly T[], key: (e: T) => Int): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (key(a[i]) < key(b[j])) {
      out.push(a[i++]);
    } else {
      out.push(b[j++]);
    }
  }
  while (i < a.length) {
    out.push(a[i++]);
  }
  while (j < b.length) {
    out.push(b[j++]);
  }
  return out;
}

/**
 * The top-level field an error's path starts with (`"entities"` for
 * `entities[3].pos.x`), or `undefined`: where the generated delta encoder looks for the
 * first error in the order of spec §12.7.
 */
export function firstField(e: unknown): string | undefined {
  if (e instanceof PathError) {
    const first = e.segments[0];
    return typeof first === "string" ? first : undefined;
  }
  return undefined;
}
