// The bit reader (spec §1, §2.2, §5.4, §5.6): reads an LSB-first bit stream from a
// Uint8Array, 32 bits per load.
//
// JavaScript's bitwise operators are 32-bit, so a run of up to 64 bits of fixed-width
// fields is loaded as two 32-bit halves (`chunkLo`, `chunkHi`) from which generated code
// extracts each field with constant shifts. Values wider than 53 bits (the integers a
// `number` holds exactly) are assembled as `bigint` only where a field needs them.

import { type BitwireError, atIndex, budgetError, error, truncatedError } from "./errors.js";
import { f32FromBits, f64FromBits, isNonCanonicalF32, isNonCanonicalF64 } from "./float.js";
import { ALLOCATION_OVERHEAD, DEFAULT_LIMITS, type Limits, budgetFor } from "./limits.js";
import { byteString, decodeValidUtf8, isUtf8 } from "./utf8.js";

const TWO_32 = 4294967296;

/** Strings are validated as UTF-8 and a leading U+FEFF is kept (canonical round trip). */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Strings up to this many bytes are decoded by {@link BitReader.readString} itself. */
const SHORT_STRING = 64;
/**
 * The bytes of a short string being read. Shared, but only within one call of
 * {@link BitReader.readString}, which runs no other code: readers stay independent.
 */
const stringScratch = new Uint8Array(SHORT_STRING);

/**
 * The scalars of a run, for {@link BitReader.chunkTruncated}: `[offset, bits, path]` in
 * stream order, the path from the struct being read (`["buttons", "fire"]`).
 */
export type RunTable = readonly (readonly [number, number, readonly string[]])[];

/** The byte that holds stream bit `p` (`p >>> 3` wraps above 2^31 bits). */
function byteOf(p: number): number {
  return p < 0x80000000 ? p >>> 3 : Math.floor(p / 8);
}

/**
 * Reads an LSB-first bit stream from a byte array. Every read is checked against the
 * input; running past the end is `Truncated` at the start of the value being read
 * (spec §7.2).
 *
 * Runs of fixed-width fields are read with {@link BitReader.loadChunk}, which fills the
 * public `chunk*` fields; generated code reads them directly.
 *
 * Every top-level decode uses a reader of its own (nothing is shared between decodes),
 * which also carries the decode budget (spec §11): {@link BitReader.checkLen} charges
 * each list, string and bytes value against it before anything is allocated.
 */
export class BitReader {
  private readonly data: Uint8Array;
  private readonly bitLen: number;
  private pos = 0;
  /** Bytes of the decode budget left (spec §11); NaN until the first length needs it. */
  private budget = Number.NaN;
  /** The limits the budget comes from. */
  private readonly limits: Limits;
  /** Bits 0..31 of the last chunk (an int32: extract with `>>>` and masks). */
  chunkLo = 0;
  /** Bits 32..63 of the last chunk, when it was wider than 32 bits. */
  chunkHi = 0;
  /** How many bits of the last chunk the input held. */
  chunkAvail = 0;
  /** The high half of the last varint read by {@link BitReader.readVarint}. */
  private varHi = 0;

  /**
   * A reader positioned at the first bit of `data`, whose decode budget is what `limits`
   * gives an input of that length (by default 1 MiB plus 64 bytes per input byte).
   */
  constructor(data: Uint8Array, limits: Limits = DEFAULT_LIMITS) {
    this.data = data;
    this.bitLen = data.length * 8;
    this.limits = limits;
  }

  /** Bytes left in the decode budget. */
  get budgetLeft(): number {
    return this.budget === this.budget ? this.budget : budgetFor(this.limits, this.data.length);
  }

  /**
   * Stream offset of the last chunk's first bit: the chunk moved the position past
   * its `chunkAvail` bits, and nothing has moved it since (for errors only).
   */
  get chunkStart(): number {
    return this.pos - this.chunkAvail;
  }

  /** Bit position of the next read. */
  get bitPos(): number {
    return this.pos;
  }

  /** Bits left in the input. */
  get remainingBits(): number {
    return this.bitLen - this.pos;
  }

  /** The 32 stream bits from bit `p`, zero past the end of the input (an int32). */
  private peek32(p: number): number {
    const d = this.data;
    const b = byteOf(p);
    const sh = p & 7;
    if (b + 4 <= d.length) {
      // Four byte loads assembled in registers: no allocation, no DataView per input.
      const w = d[b] | (d[b + 1] << 8) | (d[b + 2] << 16) | (d[b + 3] << 24);
      if (sh === 0) {
        return w;
      }
      const next = b + 4 < d.length ? d[b + 4] : 0;
      return (w >>> sh) | (next << (32 - sh));
    }
    return this.peekTail(b, sh);
  }

  /**
   * {@link BitReader.peek32} near the end of the input, where fewer than four bytes
   * are left from byte `b`: they are the whole word, zeros above them.
   */
  private peekTail(b: number, sh: number): number {
    const d = this.data;
    const n = d.length - b;
    if (n <= 0) {
      return 0;
    }
    let w = d[b];
    if (n > 1) {
      w |= d[b + 1] << 8;
      if (n > 2) {
        w |= d[b + 2] << 16;
      }
    }
    return w >>> sh;
  }

  /**
   * Loads the next `bits` (up to 64) stream bits into `chunkLo` / `chunkHi` and moves
   * past them, or to the end of the input if it is shorter: then `chunkAvail` says how
   * many bits are real, and the bits past the end read as zero. Generated code extracts
   * fields that need no validation unchecked and compares `chunkAvail` once
   * ({@link BitReader.chunkTruncated}). Runs of up to 32 bits use
   * {@link BitReader.loadChunk32}.
   *
   * The fast paths here are kept small in bytecode so that engines inline them at every
   * call site (V8 inlines by bytecode size, with a budget per optimized function).
   */
  loadChunk(bits: number): void {
    const p = this.pos;
    const d = this.data;
    const b = p >>> 3;
    if (b + 8 <= d.length && p < 0x80000000) {
      // Eight bytes from the chunk's first, and the ninth if there is one (an unaligned
      // chunk may reach it; past the end it reads as zero).
      const sh = p & 7;
      const lo = d[b] | (d[b + 1] << 8) | (d[b + 2] << 16) | (d[b + 3] << 24);
      const hi = d[b + 4] | (d[b + 5] << 8) | (d[b + 6] << 16) | (d[b + 7] << 24);
      const next = b + 8 < d.length ? d[b + 8] : 0;
      // `(x << (31 - sh)) << 1` is `x << (32 - sh)`, and 0 when `sh` is 0.
      this.chunkLo = (lo >>> sh) | ((hi << (31 - sh)) << 1);
      this.chunkHi = (hi >>> sh) | ((next << (31 - sh)) << 1);
      const left = this.bitLen - p;
      const avail = bits < left ? bits : left;
      this.chunkAvail = avail;
      this.pos = p + avail;
      return;
    }
    this.loadChunkAt(bits);
  }

  /**
   * {@link BitReader.loadChunk} for a run of at most 32 bits (fills `chunkLo` only):
   * one word load from the chunk's first byte when four bytes are left there.
   */
  loadChunk32(bits: number): void {
    const p = this.pos;
    const d = this.data;
    const b = p >>> 3;
    if (b + 4 <= d.length && p < 0x80000000) {
      // Four bytes from the chunk's first, and the fifth if there is one.
      const sh = p & 7;
      const w = d[b] | (d[b + 1] << 8) | (d[b + 2] << 16) | (d[b + 3] << 24);
      const next = b + 4 < d.length ? d[b + 4] : 0;
      this.chunkLo = (w >>> sh) | ((next << (31 - sh)) << 1);
      const left = this.bitLen - p;
      const avail = bits < left ? bits : left;
      this.chunkAvail = avail;
      this.pos = p + avail;
      return;
    }
    this.loadChunkAt(bits);
  }

  /** {@link BitReader.loadChunk} anywhere: unaligned, or near the end of the input. */
  private loadChunkAt(bits: number): void {
    const p = this.pos;
    const left = this.bitLen - p;
    const avail = bits < left ? bits : left;
    this.chunkAvail = avail;
    this.chunkLo = this.peek32(p);
    if (bits > 32) {
      this.chunkHi = this.peek32(p + 32);
    }
    this.pos = p + avail;
  }

  /**
   * The `Truncated` error of a run whose input ended early: `fields` lists scalars of
   * the run in order as `[offset, bits, path]` (the path from the struct being read,
   * `["buttons", "fire"]` for a field of a nested struct), and the error names the
   * first one that reaches past the end, as a field-by-field decoder would (spec §7.2).
   */
  chunkTruncated(fields: RunTable): BitwireError {
    const avail = this.chunkAvail;
    for (const [offset, bits, path] of fields) {
      if (offset + bits > avail) {
        return truncatedError(this.chunkStart + offset, bits, Math.max(0, avail - offset), [...path]);
      }
    }
    return truncatedError(this.chunkStart + avail, 0, 0);
  }

  /** Reads a `bits`-bit unsigned value, `bits` in 0..32 (a uint32 `number`). */
  readBits(bits: number): number {
    const p = this.pos;
    if (bits > this.bitLen - p) {
      throw error("Truncated", p);
    }
    this.pos = p + bits;
    const v = this.peek32(p);
    return bits === 32 ? v >>> 0 : v & ((1 << bits) - 1);
  }

  /** Reads one bit. */
  readBool(): boolean {
    return this.readBits(1) !== 0;
  }

  /** Reads a `bits`-bit two's-complement value (`bits` in 1..32) and sign-extends it. */
  readInt(bits: number): number {
    const s = 32 - bits;
    return (this.readBits(bits) << s) >> s;
  }

  /** Reads a `bits`-bit unsigned value, `bits` in 0..53 (exact in a `number`). */
  readUint(bits: number): number {
    if (bits <= 32) {
      return this.readBits(bits);
    }
    this.need(bits);
    const lo = this.readBits(32);
    return lo + this.readBits(bits - 32) * TWO_32;
  }

  /** Reads a `bits`-bit two's-complement value, `bits` in 33..53, sign-extended. */
  readInt53(bits: number): number {
    this.need(bits);
    const lo = this.readBits(32);
    const s = 64 - bits;
    const hi = (this.readBits(bits - 32) << s) >> s;
    return hi * TWO_32 + lo;
  }

  /** Reads a `bits`-bit unsigned value (`bits` up to 64) as a `bigint`. */
  readBig(bits: number): bigint {
    if (bits <= 32) {
      return BigInt(this.readBits(bits));
    }
    this.need(bits);
    const lo = this.readBits(32);
    const hi = this.readBits(bits - 32);
    return (BigInt(hi) << 32n) | BigInt(lo);
  }

  /** Reads a `bits`-bit two's-complement value (`bits` up to 64) as a `bigint`. */
  readBigInt(bits: number): bigint {
    return BigInt.asIntN(bits, this.readBig(bits));
  }

  /** Fails with `Truncated` at the current position unless `bits` bits remain. */
  private need(bits: number): void {
    if (bits > this.bitLen - this.pos) {
      throw error("Truncated", this.pos);
    }
  }

  /** Reads an `f32`; a non-canonical NaN is `NonCanonical` at the value (spec §3.2). */
  readF32(): number {
    const at = this.pos;
    const bits = this.readBits(32);
    if (isNonCanonicalF32(bits)) {
      throw error("NonCanonical", at);
    }
    return f32FromBits(bits);
  }

  /** Reads an `f64`; a non-canonical NaN is `NonCanonical` at the value (spec §3.2). */
  readF64(): number {
    const at = this.pos;
    this.need(64);
    const lo = this.readBits(32);
    const hi = this.readBits(32);
    if (isNonCanonicalF64(lo, hi)) {
      throw error("NonCanonical", at);
    }
    return f64FromBits(lo, hi);
  }

  /**
   * Reads a prefix varint of a `width`-bit type (16, 32 or 64, spec §5.4) as two 32-bit
   * halves: returns the low one, keeps the high one in `varHi` (see
   * {@link BitReader.readVaruint} and friends for typed results).
   * Non-minimal forms are `NonCanonical`, a varint cut short `Truncated`, both at the
   * varint's first bit.
   */
  private readVarint(width: number): number {
    const start = this.pos;
    const gmax = width >>> 2;
    // Count the unary prefix (at most gmax - 1 ones, at most 15) in one load: bits past
    // the end of the input read as zero, so they end the count.
    const inv = ~this.peek32(start);
    const trailing = inv === 0 ? 32 : 31 - Math.clz32(inv & -inv);
    const ones = trailing < gmax - 1 ? trailing : gmax - 1;
    const prefix = ones < gmax - 1 ? ones + 1 : ones;
    const n = ones + 1;
    if (prefix + 4 * n > this.bitLen - start) {
      throw error("Truncated", start);
    }
    this.pos = start + prefix;
    const bits = 4 * n;
    const lo = this.readBits(bits < 32 ? bits : 32);
    const hi = bits > 32 ? this.readBits(bits - 32) : 0;
    // Minimal form: the top group is not zero (else a shorter form exists).
    const top = bits <= 32 ? lo >>> (bits - 4) : hi >>> (bits - 36);
    if (n > 1 && (top & 15) === 0) {
      throw error("NonCanonical", start);
    }
    this.varHi = hi;
    return lo;
  }

  /** Reads a `varu16` / `varu32` (`width` 16 or 32). */
  readVaruint(width: number): number {
    return this.readVarint(width);
  }

  /** Reads a `varu64` as a `bigint`. */
  readVaru64(): bigint {
    const lo = this.readVarint(64);
    return (BigInt(this.varHi) << 32n) | BigInt(lo);
  }

  /**
   * Reads an unbounded length (a `varu64`, spec §5.6) as a `number`. Lengths above 2^53
   * lose precision, which is harmless: {@link BitReader.checkLen} rejects every length
   * that large, since no input holds that many elements.
   */
  readLength(): number {
    const lo = this.readVarint(64);
    return this.varHi * TWO_32 + lo;
  }

  /**
   * Reads an Exp-Golomb code (spec §12.5: `k` zero bits, a one, `k` more bits) with at
   * most `maxZeros` leading zeros. More zeros are `OutOfRange`, an input that ends
   * inside the code `Truncated`, both at the code's first bit. Exact below 2^53 (with
   * `maxZeros` ≤ 52); only the count of added elements may be larger, and any value
   * that large fails its checks whatever its low bits.
   */
  readGolomb(maxZeros: number): number {
    const start = this.pos;
    const left = this.bitLen - start;
    // Count the zeros a word at a time; past the end of the input they read as zero.
    let zeros = 0;
    for (;;) {
      const word = this.peek32(start + zeros);
      if (word !== 0) {
        zeros += 31 - Math.clz32(word & -word);
        break;
      }
      zeros += 32;
      if (zeros > maxZeros || zeros >= left) {
        break;
      }
    }
    if (zeros > maxZeros) {
      // Too many zeros, unless the input ended before there were that many.
      throw error(left > maxZeros ? "OutOfRange" : "Truncated", start);
    }
    if (2 * zeros + 1 > left) {
      throw error("Truncated", start);
    }
    this.pos = start + zeros + 1;
    if (zeros <= 32) {
      return 2 ** zeros - 1 + this.readBits(zeros);
    }
    const lo = this.readBits(32);
    return 2 ** zeros - 1 + this.readBits(zeros - 32) * TWO_32 + lo;
  }

  /**
   * Checks a length `len` just read for a list, string or bytes value that started at
   * bit `start` (spec §5.6, §11), before anything is allocated, in this order:
   * `Truncated` when `len` elements of at least `minBits` bits each cannot fit in the
   * rest of the input; `LimitExceeded` when the charge of `len` elements of `perElem`
   * bytes (plus one allocation's overhead, for `len > 0`) is more than the decode
   * budget left, which it then takes from; `LimitExceeded` when `len` is not a safe
   * integer (unreachable: such a length never fits in an input). All at `start`.
   */
  checkLen(len: number, minBits: number, perElem: number, start: number): void {
    const left = this.bitLen - this.pos;
    if (len * minBits > left) {
      throw truncatedError(start, len * minBits, left);
    }
    if (len > 0) {
      const cost = len * perElem + ALLOCATION_OVERHEAD;
      if (this.budget !== this.budget) {
        // Computed here rather than in the constructor: most messages have no length.
        this.budget = budgetFor(this.limits, this.data.length);
      }
      if (cost > this.budget) {
        throw budgetError(start, cost, this.budget);
      }
      this.budget -= cost;
    }
    if (!Number.isSafeInteger(len)) {
      throw error("LimitExceeded", start);
    }
  }

  /** Reads `len` bytes (length already checked) as a new array. */
  readBytes(len: number): Uint8Array {
    this.need(len * 8);
    const p = this.pos;
    if ((p & 7) === 0) {
      const b = byteOf(p);
      this.pos = p + len * 8;
      return this.data.slice(b, b + len);
    }
    const out = new Uint8Array(len);
    let i = 0;
    for (; i + 4 <= len; i += 4) {
      const w = this.peek32(this.pos);
      out[i] = w;
      out[i + 1] = w >>> 8;
      out[i + 2] = w >>> 16;
      out[i + 3] = w >>> 24;
      this.pos += 32;
    }
    for (; i < len; i++) {
      out[i] = this.peek32(this.pos);
      this.pos += 8;
    }
    return out;
  }

  /**
   * Reads `len` bytes of UTF-8 (length already checked) for a string value that started
   * at bit `start`; invalid UTF-8 is `InvalidUtf8` at `start` (spec §5.6).
   */
  readString(len: number, start: number): string {
    if (len > SHORT_STRING) {
      const bytes = (this.pos & 7) === 0 ? this.alignedView(len) : this.readBytes(len);
      try {
        return utf8.decode(bytes);
      } catch {
        throw error("InvalidUtf8", start);
      }
    }
    // Short strings (names, tags): copied to a scratch buffer, four bytes per load when
    // unaligned, then built directly, cheaper than a decoder call on a new view.
    this.need(len * 8);
    const p = this.pos;
    const sb = stringScratch;
    let high = 0;
    if ((p & 7) === 0) {
      const d = this.data;
      const b = byteOf(p);
      for (let i = 0; i < len; i++) {
        const c = d[b + i];
        sb[i] = c;
        high |= c;
      }
    } else {
      let i = 0;
      for (; i + 4 <= len; i += 4) {
        const w = this.peek32(p + i * 8);
        sb[i] = w;
        sb[i + 1] = w >>> 8;
        sb[i + 2] = w >>> 16;
        sb[i + 3] = w >>> 24;
        high |= w;
      }
      for (; i < len; i++) {
        const c = this.peek32(p + i * 8) & 0xff;
        sb[i] = c;
        high |= c;
      }
    }
    this.pos = p + len * 8;
    if ((high & 0x80808080) === 0) {
      return byteString(sb, 0, len);
    }
    if (!isUtf8(sb, 0, len)) {
      throw error("InvalidUtf8", start);
    }
    return decodeValidUtf8(sb, len);
  }

  // Sequences of plain numbers (the plan's "lanes", docs/typescript.md): `count`
  // elements read in one loop. A list's length check (spec §5.6) already made room for
  // all of them; an array has no length, so running out of input is `Truncated` at the
  // first element that does not fit, with its index in the path, as reading them one
  // by one would be.

  /** Fails with `Truncated` at the first of `count` `bits`-bit elements that does not fit. */
  private needElements(count: number, bits: number): void {
    const p = this.pos;
    const left = this.bitLen - p;
    if (count * bits > left) {
      const i = Math.floor(left / bits);
      throw atIndex(truncatedError(p + i * bits, bits, left - i * bits), i);
    }
  }

  /**
   * Fails with `Truncated` at element `i` (at the current position, path `[i]`) unless
   * its `bits` bits are left: for floats, whose elements are checked one by one, so
   * that a bad NaN before the end of the input is reported first (spec §7.2).
   */
  private needElement(i: number, bits: number): void {
    const left = this.bitLen - this.pos;
    if (bits > left) {
      throw atIndex(truncatedError(this.pos, bits, left), i);
    }
  }

  /** Reads `count` unsigned `bits`-bit elements (`bits` in 1..32: `u8`, `u16`, `u32`). */
  readUints(count: number, bits: number): number[] {
    this.needElements(count, bits);
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const v = this.peek32(this.pos);
      this.pos += bits;
      out.push(bits === 32 ? v >>> 0 : v & ((1 << bits) - 1));
    }
    return out;
  }

  /** Reads `count` two's-complement `bits`-bit elements (`bits` in 1..32: `i8`..`i32`). */
  readInts(count: number, bits: number): number[] {
    this.needElements(count, bits);
    const s = 32 - bits;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const v = this.peek32(this.pos);
      this.pos += bits;
      out.push((v << s) >> s);
    }
    return out;
  }

  /** Reads `count` 64-bit elements as `bigint`s, two's complement when `signed` (`u64`, `i64`). */
  readBigs(count: number, signed: boolean): bigint[] {
    this.needElements(count, 64);
    const out: bigint[] = [];
    for (let i = 0; i < count; i++) {
      const lo = this.peek32(this.pos) >>> 0;
      const hi = this.peek32(this.pos + 32) >>> 0;
      this.pos += 64;
      const v = (BigInt(hi) << 32n) | BigInt(lo);
      out.push(signed ? BigInt.asIntN(64, v) : v);
    }
    return out;
  }

  /**
   * Reads `count` `f32`s, in order: a non-canonical NaN is `NonCanonical` at the element,
   * an element cut short `Truncated` at it, path `[i]` either way.
   */
  readF32s(count: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = this.pos;
      this.needElement(i, 32);
      const bits = this.peek32(at);
      this.pos = at + 32;
      if (isNonCanonicalF32(bits)) {
        throw atIndex(error("NonCanonical", at), i);
      }
      out.push(f32FromBits(bits));
    }
    return out;
  }

  /** Reads `count` `f64`s, as {@link BitReader.readF32s} reads `f32`s. */
  readF64s(count: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = this.pos;
      this.needElement(i, 64);
      const lo = this.peek32(at);
      const hi = this.peek32(at + 32);
      this.pos = at + 64;
      if (isNonCanonicalF64(lo, hi)) {
        throw atIndex(error("NonCanonical", at), i);
      }
      out.push(f64FromBits(lo, hi));
    }
    return out;
  }

  // Skipping, for the generated `verifyX` / `skipX` (docs/typescript.md, "Verify"): the
  // same checks, in the same order and with the same errors, as the reads above, but
  // nothing is built.

  /** Moves past `bits` bits (`Truncated` at the current position if fewer remain). */
  skip(bits: number): void {
    const p = this.pos;
    if (bits > this.bitLen - p) {
      throw error("Truncated", p);
    }
    this.pos = p + bits;
  }

  /**
   * Moves past `count` elements of `bits` bits each (an array of values with nothing to
   * check but the bounds): the error {@link BitReader.readUints} gives for the same input.
   */
  skipElements(count: number, bits: number): void {
    this.needElements(count, bits);
    this.pos += count * bits;
  }

  /** Moves past `count` `f32`s, checking them as {@link BitReader.readF32s} does. */
  skipF32s(count: number): void {
    for (let i = 0; i < count; i++) {
      const at = this.pos;
      this.needElement(i, 32);
      this.pos = at + 32;
      if (isNonCanonicalF32(this.peek32(at))) {
        throw atIndex(error("NonCanonical", at), i);
      }
    }
  }

  /** Moves past `count` `f64`s, checking them as {@link BitReader.readF64s} does. */
  skipF64s(count: number): void {
    for (let i = 0; i < count; i++) {
      const at = this.pos;
      this.needElement(i, 64);
      this.pos = at + 64;
      if (isNonCanonicalF64(this.peek32(at), this.peek32(at + 32))) {
        throw atIndex(error("NonCanonical", at), i);
      }
    }
  }

  /** Moves past an `f32`, checking it as {@link BitReader.readF32} does. */
  skipF32(): void {
    const at = this.pos;
    if (isNonCanonicalF32(this.readBits(32))) {
      throw error("NonCanonical", at);
    }
  }

  /** Moves past an `f64`, checking it as {@link BitReader.readF64} does. */
  skipF64(): void {
    const at = this.pos;
    this.need(64);
    const lo = this.readBits(32);
    if (isNonCanonicalF64(lo, this.readBits(32))) {
      throw error("NonCanonical", at);
    }
  }

  /** Moves past a varint of a `width`-bit type, checking it as the `readVar*` do. */
  skipVarint(width: number): void {
    this.readVarint(width);
  }

  /**
   * Moves past `len` bytes of UTF-8 (length already checked) of a string value that
   * started at bit `start`, checking them as {@link BitReader.readString} does
   * (`InvalidUtf8` at `start`) without creating a string.
   */
  skipString(len: number, start: number): void {
    const p = this.pos;
    let ok: boolean;
    if ((p & 7) === 0) {
      this.need(len * 8);
      const b = byteOf(p);
      ok = isUtf8(this.data, b, b + len);
      this.pos = p + len * 8;
    } else {
      this.need(len * 8);
      // Unaligned ASCII (the common case) is checked in place, four bytes per load;
      // anything else is copied out and validated.
      let i = 0;
      while (i + 4 <= len && (this.peek32(p + i * 8) & 0x80808080) === 0) {
        i += 4;
      }
      while (i < len && i + 4 > len && (this.peek32(p + i * 8) & 0x80) === 0) {
        i++;
      }
      if (i === len) {
        ok = true;
        this.pos = p + len * 8;
      } else {
        ok = isUtf8(this.readBytes(len), 0, len);
      }
    }
    if (!ok) {
      throw error("InvalidUtf8", start);
    }
  }

  /** The next `len` bytes as a view (the position is byte-aligned), moving past them. */
  private alignedView(len: number): Uint8Array {
    this.need(len * 8);
    const b = byteOf(this.pos);
    this.pos += len * 8;
    return this.data.subarray(b, b + len);
  }

  /**
   * Ends a top-level decode (spec §2.2): the padding up to the next byte boundary must
   * be zero (`InvalidPadding`), and no bytes may follow it (`TrailingData`).
   */
  finish(): void {
    // Ended exactly at the end of the input: no padding, nothing after it. The rest is
    // out of line so that this check inlines into every decode function.
    if (this.pos !== this.bitLen) {
      this.finishPartial();
    }
  }

  /** {@link BitReader.finish} when the value ended before the end of the input. */
  private finishPartial(): void {
    const p = this.pos;
    const pad = (8 - (p & 7)) & 7;
    if (pad !== 0 && (this.peek32(p) & ((1 << pad) - 1)) !== 0) {
      throw error("InvalidPadding", p);
    }
    const end = p + pad;
    if (end < this.bitLen) {
      throw error("TrailingData", end);
    }
  }
}
