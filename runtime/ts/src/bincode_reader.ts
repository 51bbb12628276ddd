// The bincode encoding's reader (spec §13): reads bincode 1.x / wincode bytes from a
// Uint8Array, checking everything spec §13 says a decoder rejects, in its order, with
// the error at the failing value's first byte (bit = 8 × its byte offset). Path
// segments are added by the generated code while the error unwinds.
//
// Every top-level decode uses a reader of its own, which carries the decode budget of
// spec §11.5 (the same model as packed): `len` charges each list, string and bytes
// value before anything is allocated.

import { atIndex, budgetError, enumError, error, floatRangeError, lengthError, rangeError, truncatedError } from "./errors.js";
import { f32FromBits, f64FromBits } from "./float.js";
import { ALLOCATION_OVERHEAD, DEFAULT_LIMITS, type Limits, budgetFor } from "./limits.js";
import { LITTLE_ENDIAN_HOST, type LaneArray, lanesFrom } from "./bincode_lanes.js";
import { byteString, decodeValidUtf8, isUtf8 } from "./utf8.js";

const TWO_32 = 4294967296;
/** `2^53 / 2^32`: a length whose high word reaches it is not a safe integer. */
const UNSAFE_HIGH = 0x200000;

/** Strings are validated as UTF-8 and a leading U+FEFF is kept, as the packed reader does. */
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Strings up to this many bytes are decoded by a loop, longer ones by the TextDecoder. */
const SHORT_STRING = 64;

/**
 * Reads the bincode encoding (spec §13) from a byte array. Every read is checked
 * against the input: running past its end is `Truncated` at the first byte of the
 * value being read.
 */
export class ByteReader {
  private readonly data: Uint8Array;
  private readonly end: number;
  private pos = 0;
  /** Bytes of the decode budget left (spec §11.5); NaN until the first length needs it. */
  private budget = Number.NaN;
  private readonly limits: Limits;
  /** A view of the input for float lanes, made when first needed. */
  private dataView: DataView | undefined;

  /**
   * A reader positioned at the first byte of `data`, whose decode budget is what
   * `limits` gives an input of that length (by default 1 MiB plus 64 bytes per input
   * byte).
   */
  constructor(data: Uint8Array, limits: Limits = DEFAULT_LIMITS) {
    this.data = data;
    this.end = data.length;
    this.limits = limits;
  }

  /** Byte offset of the next read. */
  get bytePos(): number {
    return this.pos;
  }

  /** Stream bit offset of the next read (8 × {@link ByteReader.bytePos}), for errors. */
  get bitPos(): number {
    return this.pos * 8;
  }

  /** Bytes left in the input. */
  get remaining(): number {
    return this.end - this.pos;
  }

  /** Bytes left in the decode budget. */
  get budgetLeft(): number {
    return this.budget === this.budget ? this.budget : budgetFor(this.limits, this.end);
  }

  /**
   * Ends a top-level decode (spec §13.5): bytes after the value are `TrailingData` at
   * the first of them.
   */
  finish(): void {
    if (this.pos !== this.end) {
      throw error("TrailingData", this.pos * 8);
    }
  }

  /** The offset of a value of `n` bytes, which must be left (`Truncated` at it otherwise). */
  private need(n: number): number {
    const p = this.pos;
    if (n > this.end - p) {
      throw truncatedError(p * 8, n * 8, (this.end - p) * 8);
    }
    return p;
  }

  // Scalars (spec §13.2).

  /** A `bool`: a byte other than 0 or 1 is `OutOfRange`. */
  bool(): boolean {
    const p = this.need(1);
    const b = this.data[p];
    if (b > 1) {
      throw rangeError(p * 8, b, 0, 1);
    }
    this.pos = p + 1;
    return b === 1;
  }

  /** A `u8`. */
  u8(): number {
    const p = this.need(1);
    this.pos = p + 1;
    return this.data[p];
  }

  /** An `i8`. */
  i8(): number {
    const p = this.need(1);
    this.pos = p + 1;
    return (this.data[p] << 24) >> 24;
  }

  /** A `u16`. */
  u16(): number {
    const p = this.need(2);
    const d = this.data;
    this.pos = p + 2;
    return d[p] | (d[p + 1] << 8);
  }

  /** An `i16`. */
  i16(): number {
    const p = this.need(2);
    const d = this.data;
    this.pos = p + 2;
    return ((d[p] | (d[p + 1] << 8)) << 16) >> 16;
  }

  /** A `u32`. */
  u32(): number {
    const p = this.need(4);
    this.pos = p + 4;
    return this.word(p) >>> 0;
  }

  /** An `i32`. */
  i32(): number {
    const p = this.need(4);
    this.pos = p + 4;
    return this.word(p);
  }

  /** A `u64`, as a `bigint`. */
  u64(): bigint {
    const p = this.need(8);
    this.pos = p + 8;
    return (BigInt(this.word(p + 4) >>> 0) << 32n) | BigInt(this.word(p) >>> 0);
  }

  /** An `i64`, as a `bigint`. */
  i64(): bigint {
    const p = this.need(8);
    this.pos = p + 8;
    return (BigInt(this.word(p + 4)) << 32n) | BigInt(this.word(p) >>> 0);
  }

  // Integers held as `number`s whose schema range `min..=max` is narrower than their
  // representation's (`u4`, `i12`, `u16 in 0..=1000`, a `u40`): outside the range is
  // `OutOfRange`. One small method per width, so that engines inline them.

  /** A one-byte unsigned integer in `min..=max`. */
  u8In(min: number, max: number): number {
    const p = this.need(1);
    return this.inRange(p, 1, this.data[p], min, max);
  }

  /** A one-byte two's-complement integer in `min..=max`. */
  i8In(min: number, max: number): number {
    const p = this.need(1);
    return this.inRange(p, 1, (this.data[p] << 24) >> 24, min, max);
  }

  /** A two-byte unsigned integer in `min..=max`. */
  u16In(min: number, max: number): number {
    const p = this.need(2);
    const d = this.data;
    return this.inRange(p, 2, d[p] | (d[p + 1] << 8), min, max);
  }

  /** A two-byte two's-complement integer in `min..=max`. */
  i16In(min: number, max: number): number {
    const p = this.need(2);
    const d = this.data;
    return this.inRange(p, 2, ((d[p] | (d[p + 1] << 8)) << 16) >> 16, min, max);
  }

  /** A four-byte unsigned integer in `min..=max`. */
  u32In(min: number, max: number): number {
    const p = this.need(4);
    return this.inRange(p, 4, this.word(p) >>> 0, min, max);
  }

  /** A four-byte two's-complement integer in `min..=max`. */
  i32In(min: number, max: number): number {
    const p = this.need(4);
    return this.inRange(p, 4, this.word(p), min, max);
  }

  /**
   * An eight-byte unsigned integer in `min..=max` (a safe integer range): above 2^53
   * the sum rounds, but stays above `max`.
   */
  u64In(min: number, max: number): number {
    const p = this.need(8);
    return this.inRange(p, 8, (this.word(p + 4) >>> 0) * TWO_32 + (this.word(p) >>> 0), min, max);
  }

  /** An eight-byte two's-complement integer in `min..=max` (a safe integer range). */
  i64In(min: number, max: number): number {
    const p = this.need(8);
    return this.inRange(p, 8, this.word(p + 4) * TWO_32 + (this.word(p) >>> 0), min, max);
  }

  /** `v`, read at byte `p`, after its range check; moves past its `n` bytes. */
  private inRange(p: number, n: number, v: number, min: number, max: number): number {
    if (v < min || v > max) {
      throw rangeError(p * 8, v, min, max);
    }
    this.pos = p + n;
    return v;
  }

  /**
   * A 64-bit integer held as a `bigint` whose range `min..=max` is narrower than the
   * representation's (`u54`, `i64 in -5..=2^60`); two's complement when `signed`.
   */
  big(signed: boolean, min: bigint, max: bigint): bigint {
    const p = this.pos;
    const v = signed ? this.i64() : this.u64();
    if (v < min || v > max) {
      this.pos = p;
      throw rangeError(p * 8, v, min, max);
    }
    return v;
  }

  /** An `f32`, any bits. */
  f32(): number {
    const p = this.need(4);
    this.pos = p + 4;
    return f32FromBits(this.word(p));
  }

  /** An `f64`, any bits. */
  f64(): number {
    const p = this.need(8);
    this.pos = p + 8;
    return f64FromBits(this.word(p), this.word(p + 4));
  }

  /** A quantized `f32`: NaN or outside `min..=max` is `OutOfRange` (no grid, spec §13.2). */
  f32In(min: number, max: number): number {
    const p = this.pos;
    const v = this.f32();
    if (!(v >= min && v <= max)) {
      this.pos = p;
      throw floatRangeError(p * 8, v, min, max);
    }
    return v;
  }

  /** A quantized `f64`, as {@link ByteReader.f32In}. */
  f64In(min: number, max: number): number {
    const p = this.pos;
    const v = this.f64();
    if (!(v >= min && v <= max)) {
      this.pos = p;
      throw floatRangeError(p * 8, v, min, max);
    }
    return v;
  }

  /**
   * An enum's or union's variant index (spec §13.2, §13.4): a `u32` below `count`,
   * else `InvalidEnum`.
   */
  variant(count: number): number {
    const p = this.need(4);
    const i = this.word(p) >>> 0;
    if (i >= count) {
      throw enumError(p * 8, i);
    }
    this.pos = p + 4;
    return i;
  }

  /** An optional's tag (spec §13.4): whether a value follows; a tag above 1 is `InvalidEnum`. */
  option(): boolean {
    const p = this.need(1);
    const t = this.data[p];
    if (t > 1) {
      throw enumError(p * 8, t);
    }
    this.pos = p + 1;
    return t === 1;
  }

  /**
   * A list's, string's or bytes value's `u64` length (spec §13.3), checked before
   * anything is allocated, in this order, all at the length's first byte: above `max`
   * (`Infinity` for no bound; a `bigint` for bounds above 2^53 − 1) is
   * `InvalidLength`; `len × elemMin` above the bytes left `Truncated`; the charge
   * `len × charge + 32` (for `len > 0`) above the budget left `LimitExceeded`, else it
   * is taken from the budget.
   */
  len(max: number | bigint, elemMin: number, charge: number): number {
    const p = this.need(8);
    const lo = this.word(p) >>> 0;
    const hi = this.word(p + 4) >>> 0;
    this.pos = p + 8;
    if (hi >= UNSAFE_HIGH) {
      throw this.hugeLength(lo, hi, max, p * 8);
    }
    const n = hi * TWO_32 + lo;
    if (n > max) {
      throw lengthError(p * 8, n, max);
    }
    const left = this.end - this.pos;
    if (n * elemMin > left) {
      throw truncatedError(p * 8, n * elemMin * 8, left * 8);
    }
    if (n > 0) {
      if (this.budget !== this.budget) {
        // Computed here rather than in the constructor: most messages have no length.
        this.budget = budgetFor(this.limits, this.end);
      }
      const cost = n * charge + ALLOCATION_OVERHEAD;
      if (cost > this.budget) {
        throw budgetError(p * 8, cost, this.budget);
      }
      this.budget -= cost;
    }
    return n;
  }

  /**
   * The error for a length of 2^53 or more (no input holds that many elements):
   * `InvalidLength` when it is above `max`, else `Truncated`.
   */
  private hugeLength(lo: number, hi: number, max: number | bigint, at: number): never {
    const n = (BigInt(hi) << 32n) | BigInt(lo);
    if (typeof max === "bigint" ? n > max : max !== Number.POSITIVE_INFINITY) {
      throw lengthError(at, n, max);
    }
    throw truncatedError(at, Number(n) * 8, (this.end - this.pos) * 8);
  }

  /**
   * `len` bytes of UTF-8 (the length checked by {@link ByteReader.len}) of a string
   * whose length started at bit `start`: invalid UTF-8 is `InvalidUtf8` there.
   */
  string(len: number, start: number): string {
    const p = this.need(len);
    const d = this.data;
    this.pos = p + len;
    if (len <= SHORT_STRING) {
      let high = 0;
      for (let i = 0; i < len; i++) {
        high |= d[p + i];
      }
      if (high < 0x80) {
        return byteString(d, p, len);
      }
      if (!isUtf8(d, p, p + len)) {
        throw error("InvalidUtf8", start);
      }
      return decodeValidUtf8(d.subarray(p, p + len), len);
    }
    try {
      return utf8.decode(d.subarray(p, p + len));
    } catch {
      throw error("InvalidUtf8", start);
    }
  }

  /** `len` bytes (the length checked by {@link ByteReader.len}), copied out. */
  bytes(len: number): Uint8Array {
    const p = this.need(len);
    this.pos = p + len;
    return this.data.slice(p, p + len);
  }

  // Skipping, for the generated `verifyBincodeX` / `skipBincodeX`: the same checks and
  // errors as the reads, building nothing.

  /** Moves past `n` bytes (`Truncated` at the current position if fewer remain). */
  skip(n: number): void {
    this.pos = this.need(n) + n;
  }

  /** Moves past `len` bytes of UTF-8, checking them as {@link ByteReader.string} does. */
  skipString(len: number, start: number): void {
    const p = this.need(len);
    if (!isUtf8(this.data, p, p + len)) {
      throw error("InvalidUtf8", start);
    }
    this.pos = p + len;
  }

  /**
   * Moves past `count` elements of `size` bytes each (an array's or a list's plain
   * numbers): `Truncated` at the first that does not fit, with its index.
   */
  skipElements(count: number, size: number): void {
    this.pos = this.elements(count, size) + count * size;
  }

  // Sequences of plain numbers (spec §13.8), as plain arrays (the TypeScript types of
  // generated code) or as typed arrays. A list's length check made room for all of
  // them; an array has no length, so running out of input is `Truncated` at the first
  // element that does not fit, with its index in the path, as element-by-element
  // reads would report.

  /** The offset of `count` elements of `size` bytes, or `Truncated` at the first missing one. */
  private elements(count: number, size: number): number {
    const p = this.pos;
    const left = this.end - p;
    if (count * size > left) {
      const i = Math.floor(left / size);
      throw atIndex(truncatedError((p + i * size) * 8, size * 8, (left - i * size) * 8), i);
    }
    return p;
  }

  /** `count` `u8`s. */
  u8s(count: number): number[] {
    const p = this.elements(count, 1);
    const d = this.data;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push(d[p + i]);
    }
    this.pos = p + count;
    return out;
  }

  /** `count` `i8`s. */
  i8s(count: number): number[] {
    const p = this.elements(count, 1);
    const d = this.data;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push((d[p + i] << 24) >> 24);
    }
    this.pos = p + count;
    return out;
  }

  /** `count` `u16`s. */
  u16s(count: number): number[] {
    const p = this.elements(count, 2);
    const d = this.data;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = p + 2 * i;
      out.push(d[at] | (d[at + 1] << 8));
    }
    this.pos = p + 2 * count;
    return out;
  }

  /** `count` `i16`s. */
  i16s(count: number): number[] {
    const p = this.elements(count, 2);
    const d = this.data;
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = p + 2 * i;
      out.push(((d[at] | (d[at + 1] << 8)) << 16) >> 16);
    }
    this.pos = p + 2 * count;
    return out;
  }

  /** `count` `u32`s. */
  u32s(count: number): number[] {
    const p = this.elements(count, 4);
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push(this.word(p + 4 * i) >>> 0);
    }
    this.pos = p + 4 * count;
    return out;
  }

  /** `count` `i32`s. */
  i32s(count: number): number[] {
    const p = this.elements(count, 4);
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push(this.word(p + 4 * i));
    }
    this.pos = p + 4 * count;
    return out;
  }

  /** `count` `u64`s, as `bigint`s. */
  u64s(count: number): bigint[] {
    return this.bigs(count, false);
  }

  /** `count` `i64`s, as `bigint`s. */
  i64s(count: number): bigint[] {
    return this.bigs(count, true);
  }

  /**
   * `count` 64-bit elements as `bigint`s, read from a typed array over the input
   * where its offset allows one, else from a typed-array copy of the bytes: on Node 20
   * about twice as fast as DataView's `getBigUint64` per element.
   */
  private bigs(count: number, signed: boolean): bigint[] {
    const p = this.elements(count, 8);
    this.pos = p + 8 * count;
    const d = this.data;
    const at = d.byteOffset + p;
    let lanes: BigInt64Array | BigUint64Array;
    if (at % 8 === 0 && LITTLE_ENDIAN_HOST) {
      lanes = signed ? new BigInt64Array(d.buffer, at, count) : new BigUint64Array(d.buffer, at, count);
    } else if (signed) {
      lanes = lanesFrom(d, p, count, 8, (b) => new BigInt64Array(b), (v, i) => v.getBigInt64(i, true));
    } else {
      lanes = lanesFrom(d, p, count, 8, (b) => new BigUint64Array(b), (v, i) => v.getBigUint64(i, true));
    }
    const out = new Array<bigint>(count);
    for (let i = 0; i < count; i++) {
      out[i] = lanes[i] as bigint;
    }
    return out;
  }

  /** `count` `f32`s, any bits. */
  f32s(count: number): number[] {
    const p = this.elements(count, 4);
    const view = this.view();
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push(view.getFloat32(p + 4 * i, true));
    }
    this.pos = p + 4 * count;
    return out;
  }

  /** `count` `f64`s, any bits. */
  f64s(count: number): number[] {
    const p = this.elements(count, 8);
    const view = this.view();
    const out: number[] = [];
    for (let i = 0; i < count; i++) {
      out.push(view.getFloat64(p + 8 * i, true));
    }
    this.pos = p + 8 * count;
    return out;
  }

  /** `count` `u8`s as a new Uint8Array (one copy). */
  u8Array(count: number): Uint8Array {
    const p = this.elements(count, 1);
    this.pos = p + count;
    return this.data.slice(p, p + count);
  }

  /** `count` `i8`s as a new Int8Array (one copy). */
  i8Array(count: number): Int8Array {
    return this.lanes(count, 1, (b) => new Int8Array(b), (v, at) => v.getInt8(at));
  }

  /** `count` `u16`s as a new Uint16Array (one copy on a little-endian host). */
  u16Array(count: number): Uint16Array {
    return this.lanes(count, 2, (b) => new Uint16Array(b), (v, at) => v.getUint16(at, true));
  }

  /** `count` `i16`s as a new Int16Array. */
  i16Array(count: number): Int16Array {
    return this.lanes(count, 2, (b) => new Int16Array(b), (v, at) => v.getInt16(at, true));
  }

  /** `count` `u32`s as a new Uint32Array. */
  u32Array(count: number): Uint32Array {
    return this.lanes(count, 4, (b) => new Uint32Array(b), (v, at) => v.getUint32(at, true));
  }

  /** `count` `i32`s as a new Int32Array. */
  i32Array(count: number): Int32Array {
    return this.lanes(count, 4, (b) => new Int32Array(b), (v, at) => v.getInt32(at, true));
  }

  /** `count` `u64`s as a new BigUint64Array. */
  u64Array(count: number): BigUint64Array {
    return this.lanes(count, 8, (b) => new BigUint64Array(b), (v, at) => v.getBigUint64(at, true));
  }

  /** `count` `i64`s as a new BigInt64Array. */
  i64Array(count: number): BigInt64Array {
    return this.lanes(count, 8, (b) => new BigInt64Array(b), (v, at) => v.getBigInt64(at, true));
  }

  /** `count` `f32`s as a new Float32Array (bits as they are). */
  f32Array(count: number): Float32Array {
    return this.lanes(count, 4, (b) => new Float32Array(b), (v, at) => v.getFloat32(at, true));
  }

  /** `count` `f64`s as a new Float64Array (bits as they are). */
  f64Array(count: number): Float64Array {
    return this.lanes(count, 8, (b) => new Float64Array(b), (v, at) => v.getFloat64(at, true));
  }

  /**
   * `count` elements of `size` bytes from the input as the typed array `view` makes,
   * allocated once the input is known to hold them (a list's length was charged to
   * the budget; an array's is fixed by the schema).
   */
  private lanes<T extends LaneArray>(
    count: number,
    size: number,
    view: (buffer: ArrayBuffer) => T,
    get: (view: DataView, at: number) => number | bigint,
  ): T {
    const p = this.elements(count, size);
    this.pos = p + count * size;
    return lanesFrom(this.data, p, count, size, view, get);
  }

  /** The little-endian 32-bit word at byte `p` (an int32). */
  private word(p: number): number {
    const d = this.data;
    return d[p] | (d[p + 1] << 8) | (d[p + 2] << 16) | (d[p + 3] << 24);
  }

  /** A DataView of the input (made once per reader, for the number lanes). */
  private view(): DataView {
    if (this.dataView === undefined) {
      const d = this.data;
      this.dataView = new DataView(d.buffer, d.byteOffset, d.byteLength);
    }
    return this.dataView;
  }
}
