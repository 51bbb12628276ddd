// The bincode encoding's writer (spec §13): bincode 1.x / wincode bytes — fixed-width
// little-endian integers, `u64` lengths, `u32` variant indices, a `u8` option tag —
// built into a reusable, growable Uint8Array.
//
// Generated code (`encodeBincodeX`, `bitwire gen --encoding bincode`) calls one
// method per value. TypeScript values can be anything at run time, so every method
// checks what it is given before writing it, as the packed encoder does: a value of
// the wrong JavaScript type or outside its range is a BitwireError at the bit where
// the value would start (8 × its byte offset), never truncated or coerced. Path
// segments are added by the generated code while the error unwinds.
//
// Sequences of plain numbers (the plan's `Form::Bytes` and `Form::Lanes`) are written
// by the `*s` methods: a typed array of the lane's own type is one copy of its bytes
// on a little-endian host (the wire's byte order), a plain array goes element by
// element through a DataView.

import { atIndex, floatRangeError, lengthError, rangeError, typeError, utf8Error } from "./errors.js";
import { LITTLE_ENDIAN_HOST, bytesOf } from "./bincode_lanes.js";
import { utf8Length } from "./writer.js";

const TWO_32 = 4294967296;
const U64_MAX = 0xffffffffffffffffn;
const I64_MIN = -0x8000000000000000n;
const I64_MAX = 0x7fffffffffffffffn;

/** Strings longer than this are written by `TextEncoder.encodeInto`, shorter ones by a loop. */
const SHORT_STRING = 64;

const encoder = new TextEncoder();

/** A list of plain numbers as generated code holds it: an array, or its lane's typed array. */
export type Numbers<T extends ArrayBufferView> = readonly number[] | T;
/** A list of 64-bit integers: an array of `bigint`s, or its lane's typed array. */
export type Bigs<T extends ArrayBufferView> = readonly bigint[] | T;

/**
 * Writes the bincode encoding (spec §13) into an internal buffer that grows as needed
 * and is kept across messages: after {@link ByteWriter.reset}, encoding allocates
 * nothing once the buffer has reached the size of the largest message.
 */
export class ByteWriter {
  /** The buffer; bytes `0..pos` hold the output. */
  private buf: Uint8Array;
  /** A view of `buf` for little-endian stores. */
  private view: DataView;
  /** Bytes written since the last reset. */
  private pos = 0;
  /** The view `finish` returned last, handed out again while the length is the same. */
  private last: Uint8Array;
  /** The buffer `last` is a view of. */
  private lastOf: Uint8Array;

  /** A writer with an initial buffer of `capacity` bytes (it grows when needed). */
  constructor(capacity = 64) {
    this.buf = new Uint8Array(Math.max(8, capacity));
    this.view = new DataView(this.buf.buffer);
    this.last = this.buf.subarray(0, 0);
    this.lastOf = this.buf;
  }

  /** Starts a new message at byte 0, keeping the buffer. */
  reset(): void {
    this.pos = 0;
  }

  /** Bytes written since the last reset: the offset of the next value. */
  get bytePos(): number {
    return this.pos;
  }

  /** The stream bit offset of the next value (8 × {@link ByteWriter.bytePos}), for errors. */
  get bitPos(): number {
    return this.pos * 8;
  }

  /**
   * The bytes written since the last reset: a view of the writer's buffer, valid until
   * the writer is used again; copy it (`.slice()`) to keep it. While messages have the
   * same length, the same view object is returned.
   */
  finish(): Uint8Array {
    if (this.lastOf === this.buf && this.last.length === this.pos) {
      return this.last;
    }
    this.lastOf = this.buf;
    this.last = this.buf.subarray(0, this.pos);
    return this.last;
  }

  /** Makes room for `n` more bytes; returns the offset to write them at. */
  private room(n: number): number {
    const p = this.pos;
    if (p + n > this.buf.length) {
      this.grow(p + n);
    }
    return p;
  }

  /** Reallocates the buffer to hold at least `need` bytes (doubling, amortized). */
  private grow(need: number): void {
    const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.pos));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  // Scalars (spec §13.2). Each checks the JavaScript value, then writes it.

  /** A `bool`: one byte, 0 or 1. */
  bool(v: boolean): void {
    if (typeof v !== "boolean") {
      throw typeError("OutOfRange", this.bitPos, v, "a boolean");
    }
    const p = this.room(1);
    this.buf[p] = v ? 1 : 0;
    this.pos = p + 1;
  }

  /** A `u8` (0..=255). */
  u8(v: number): void {
    if (typeof v !== "number" || (v & 0xff) !== v) {
      throw rangeError(this.bitPos, v, 0, 255);
    }
    const p = this.room(1);
    this.buf[p] = v;
    this.pos = p + 1;
  }

  /** A `u16`. */
  u16(v: number): void {
    if (typeof v !== "number" || (v & 0xffff) !== v) {
      throw rangeError(this.bitPos, v, 0, 0xffff);
    }
    this.put16(v);
  }

  /** A `u32`. */
  u32(v: number): void {
    if (typeof v !== "number" || v >>> 0 !== v) {
      throw rangeError(this.bitPos, v, 0, 0xffffffff);
    }
    this.put32(v);
  }

  /** An `i8`. */
  i8(v: number): void {
    if (typeof v !== "number" || (v << 24) >> 24 !== v) {
      throw rangeError(this.bitPos, v, -128, 127);
    }
    const p = this.room(1);
    this.buf[p] = v;
    this.pos = p + 1;
  }

  /** An `i16`. */
  i16(v: number): void {
    if (typeof v !== "number" || (v << 16) >> 16 !== v) {
      throw rangeError(this.bitPos, v, -32768, 32767);
    }
    this.put16(v);
  }

  /** An `i32`. */
  i32(v: number): void {
    if (typeof v !== "number" || (v | 0) !== v) {
      throw rangeError(this.bitPos, v, -2147483648, 2147483647);
    }
    this.put32(v);
  }

  /** A `u64` held as a `bigint`. */
  u64(v: bigint): void {
    if (typeof v !== "bigint" || v < 0n || v > U64_MAX) {
      throw rangeError(this.bitPos, v, 0n, U64_MAX);
    }
    this.putBig(v);
  }

  /** An `i64` held as a `bigint`. */
  i64(v: bigint): void {
    if (typeof v !== "bigint" || v < I64_MIN || v > I64_MAX) {
      throw rangeError(this.bitPos, v, I64_MIN, I64_MAX);
    }
    this.putBig(v);
  }

  // Integers held as `number`s whose schema range `min..=max` is narrower than their
  // representation's (`u4`, `i12`, `u16 in 0..=1000`, a `u40`): checked against the
  // range, written two's complement in the representation's width. One small method
  // per width, so that engines inline them.

  /** An integer in `min..=max` in one byte. */
  int8(v: number, min: number, max: number): void {
    if (!Number.isInteger(v) || v < min || v > max) {
      throw rangeError(this.bitPos, v, min, max);
    }
    const p = this.room(1);
    this.buf[p] = v;
    this.pos = p + 1;
  }

  /** An integer in `min..=max` in two bytes. */
  int16(v: number, min: number, max: number): void {
    if (!Number.isInteger(v) || v < min || v > max) {
      throw rangeError(this.bitPos, v, min, max);
    }
    this.put16(v);
  }

  /** An integer in `min..=max` in four bytes. */
  int32(v: number, min: number, max: number): void {
    if (!Number.isInteger(v) || v < min || v > max) {
      throw rangeError(this.bitPos, v, min, max);
    }
    this.put32(v);
  }

  /** An integer in `min..=max` (a safe integer range) in eight bytes. */
  int64(v: number, min: number, max: number): void {
    if (!Number.isInteger(v) || v < min || v > max) {
      throw rangeError(this.bitPos, v, min, max);
    }
    // The low word modulo 2^32, the high word (sign included) as the floor of the
    // quotient: both exact for a safe integer.
    this.put32(v >>> 0);
    this.put32(Math.floor(v / TWO_32));
  }

  /**
   * A 64-bit integer held as a `bigint` whose range `min..=max` is narrower than the
   * representation's (`u54`, `u64 in 5..=2^64-1`).
   */
  big(v: bigint, min: bigint, max: bigint): void {
    if (typeof v !== "bigint" || v < min || v > max) {
      throw rangeError(this.bitPos, v, min, max);
    }
    this.putBig(v);
  }

  /** An `f32`: the value rounded to binary32, its bits as they are. */
  f32(v: number): void {
    if (typeof v !== "number") {
      throw typeError("OutOfRange", this.bitPos, v, "a number");
    }
    const p = this.room(4);
    this.view.setFloat32(p, v, true);
    this.pos = p + 4;
  }

  /** An `f64`, its bits as they are. */
  f64(v: number): void {
    if (typeof v !== "number") {
      throw typeError("OutOfRange", this.bitPos, v, "a number");
    }
    const p = this.room(8);
    this.view.setFloat64(p, v, true);
    this.pos = p + 8;
  }

  /**
   * A quantized `f32` (spec §13.2): the value rounded to binary32 must lie in
   * `min..=max` (NaN does not); written as it is, on no grid.
   */
  f32In(v: number, min: number, max: number): void {
    const x = typeof v === "number" ? Math.fround(v) : Number.NaN;
    if (!(x >= min && x <= max)) {
      throw floatRangeError(this.bitPos, v, min, max);
    }
    const p = this.room(4);
    this.view.setFloat32(p, x, true);
    this.pos = p + 4;
  }

  /** A quantized `f64`: in `min..=max` (NaN is not), written as it is. */
  f64In(v: number, min: number, max: number): void {
    if (!(typeof v === "number" && v >= min && v <= max)) {
      throw floatRangeError(this.bitPos, v, min, max);
    }
    const p = this.room(8);
    this.view.setFloat64(p, v, true);
    this.pos = p + 8;
  }

  /**
   * An enum's or union's variant index (spec §13.2, §13.4): a `u32`, from generated
   * code that has matched the value to a declared variant.
   */
  index(i: number): void {
    this.put32(i);
  }

  /** An optional's tag (spec §13.4): `01` when a value follows, else `00`. */
  option(present: boolean): void {
    const p = this.room(1);
    this.buf[p] = present ? 1 : 0;
    this.pos = p + 1;
  }

  /**
   * A list's length (spec §13.3): `InvalidLength` above `max` (`Infinity` when the
   * schema has no bound), else a `u64`.
   */
  len(n: number, max: number): void {
    if (n > max) {
      throw lengthError(this.bitPos, n, max);
    }
    this.putLen(n);
  }

  /**
   * A `string` (spec §13.3): its UTF-8 length as a `u64`, then the UTF-8. A value that
   * is not a string or has no UTF-8 form (a lone surrogate) is `InvalidUtf8`, a UTF-8
   * length above `max` `InvalidLength`.
   */
  string(s: string, max: number): void {
    const len = utf8Length(s);
    if (len < 0) {
      throw utf8Error(this.bitPos, s);
    }
    this.len(len, max);
    const p = this.room(len);
    if (len === s.length && len <= SHORT_STRING) {
      // ASCII: one byte per code unit.
      const buf = this.buf;
      for (let i = 0; i < len; i++) {
        buf[p + i] = s.charCodeAt(i);
      }
    } else {
      // `utf8Length` rejected lone surrogates, so this writes exactly `len` bytes.
      encoder.encodeInto(s, this.buf.subarray(p, p + len));
    }
    this.pos = p + len;
  }

  /**
   * A `bytes` value (spec §13.3): its length as a `u64`, then the bytes. Anything but
   * a Uint8Array is `InvalidLength` (no length to write), as is a length above `max`.
   */
  bytes(b: Uint8Array, max: number): void {
    if (!(b instanceof Uint8Array)) {
      throw typeError("InvalidLength", this.bitPos, b, "a Uint8Array");
    }
    this.len(b.length, max);
    this.copy(b);
  }

  // Sequences of plain numbers (spec §13.8). The caller has checked the length (and,
  // for a list, written it). An element of the wrong type or range is `OutOfRange` at
  // its own bit, with its index in the path.

  /** `u8` elements (`Form::Bytes`): a Uint8Array is copied as it is. */
  u8s(list: Numbers<Uint8Array>): void {
    if (list instanceof Uint8Array) {
      this.copy(list);
      return;
    }
    const n = list.length;
    const p = this.room(n);
    const buf = this.buf;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || (x & 0xff) !== x) {
        throw atIndex(rangeError(8 * (p + i), x, 0, 255), i);
      }
      buf[p + i] = x;
    }
    this.pos = p + n;
  }

  /** `i8` elements. */
  i8s(list: Numbers<Int8Array>): void {
    if (list instanceof Int8Array) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(n);
    const buf = this.buf;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || (x << 24) >> 24 !== x) {
        throw atIndex(rangeError(8 * (p + i), x, -128, 127), i);
      }
      buf[p + i] = x;
    }
    this.pos = p + n;
  }

  /** `u16` elements. */
  u16s(list: Numbers<Uint16Array>): void {
    if (list instanceof Uint16Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(2 * n);
    const view = this.view;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || (x & 0xffff) !== x) {
        throw atIndex(rangeError(8 * (p + 2 * i), x, 0, 0xffff), i);
      }
      view.setUint16(p + 2 * i, x, true);
    }
    this.pos = p + 2 * n;
  }

  /** `i16` elements. */
  i16s(list: Numbers<Int16Array>): void {
    if (list instanceof Int16Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(2 * n);
    const view = this.view;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || (x << 16) >> 16 !== x) {
        throw atIndex(rangeError(8 * (p + 2 * i), x, -32768, 32767), i);
      }
      view.setInt16(p + 2 * i, x, true);
    }
    this.pos = p + 2 * n;
  }

  /** `u32` elements. */
  u32s(list: Numbers<Uint32Array>): void {
    if (list instanceof Uint32Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(4 * n);
    const view = this.view;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || x >>> 0 !== x) {
        throw atIndex(rangeError(8 * (p + 4 * i), x, 0, 0xffffffff), i);
      }
      view.setUint32(p + 4 * i, x, true);
    }
    this.pos = p + 4 * n;
  }

  /** `i32` elements. */
  i32s(list: Numbers<Int32Array>): void {
    if (list instanceof Int32Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(4 * n);
    const view = this.view;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number" || (x | 0) !== x) {
        throw atIndex(rangeError(8 * (p + 4 * i), x, -2147483648, 2147483647), i);
      }
      view.setInt32(p + 4 * i, x, true);
    }
    this.pos = p + 4 * n;
  }

  /** `u64` elements, `bigint`s. */
  u64s(list: Bigs<BigUint64Array>): void {
    if (list instanceof BigUint64Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    this.bigs(list, 0n, U64_MAX, false);
  }

  /** `i64` elements, `bigint`s. */
  i64s(list: Bigs<BigInt64Array>): void {
    if (list instanceof BigInt64Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    this.bigs(list, I64_MIN, I64_MAX, true);
  }

  /**
   * 64-bit elements one by one, each checked to be a `bigint` in `min..=max`. Stored
   * through a typed array over the buffer when the position allows one (a multiple of
   * 8, as after a top-level length), which is about twice as fast as DataView's
   * `setBigUint64` on Node 20; else through the DataView.
   */
  private bigs(list: ArrayLike<bigint>, min: bigint, max: bigint, signed: boolean): void {
    const n = list.length;
    const p = this.room(8 * n);
    if (p % 8 === 0 && LITTLE_ENDIAN_HOST) {
      const lanes = signed ? new BigInt64Array(this.buf.buffer, p, n) : new BigUint64Array(this.buf.buffer, p, n);
      for (let i = 0; i < n; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || x < min || x > max) {
          throw atIndex(rangeError(8 * (p + 8 * i), x, min, max), i);
        }
        lanes[i] = x;
      }
    } else {
      const view = this.view;
      for (let i = 0; i < n; i++) {
        const x = list[i];
        if (typeof x !== "bigint" || x < min || x > max) {
          throw atIndex(rangeError(8 * (p + 8 * i), x, min, max), i);
        }
        if (signed) {
          view.setBigInt64(p + 8 * i, x, true);
        } else {
          view.setBigUint64(p + 8 * i, x, true);
        }
      }
    }
    this.pos = p + 8 * n;
  }

  /** `f32` elements (any number, rounded to binary32). */
  f32s(list: Numbers<Float32Array>): void {
    if (list instanceof Float32Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(4 * n);
    const view = this.view;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number") {
        throw atIndex(typeError("OutOfRange", 8 * (p + 4 * i), x, "a number"), i);
      }
      view.setFloat32(p + 4 * i, x, true);
    }
    this.pos = p + 4 * n;
  }

  /** `f64` elements. */
  f64s(list: Numbers<Float64Array>): void {
    if (list instanceof Float64Array && LITTLE_ENDIAN_HOST) {
      this.copy(bytesOf(list));
      return;
    }
    const n = list.length;
    const p = this.room(8 * n);
    const view = this.view;
    for (let i = 0; i < n; i++) {
      const x = list[i];
      if (typeof x !== "number") {
        throw atIndex(typeError("OutOfRange", 8 * (p + 8 * i), x, "a number"), i);
      }
      view.setFloat64(p + 8 * i, x, true);
    }
    this.pos = p + 8 * n;
  }

  // Raw stores, after the checks.

  /** Copies bytes in (one `set`: a memmove). */
  private copy(b: Uint8Array): void {
    const n = b.length;
    const p = this.room(n);
    this.buf.set(b, p);
    this.pos = p + n;
  }

  /** The low 16 bits of `v`, little-endian. */
  private put16(v: number): void {
    const p = this.room(2);
    const buf = this.buf;
    buf[p] = v;
    buf[p + 1] = v >>> 8;
    this.pos = p + 2;
  }

  /** The low 32 bits of `v`, little-endian. */
  private put32(v: number): void {
    const p = this.room(4);
    const buf = this.buf;
    buf[p] = v;
    buf[p + 1] = v >>> 8;
    buf[p + 2] = v >>> 16;
    buf[p + 3] = v >>> 24;
    this.pos = p + 4;
  }

  /** A `bigint` in `-2^63..2^64` as 64 bits, little-endian. */
  private putBig(v: bigint): void {
    const p = this.room(8);
    this.view.setBigUint64(p, BigInt.asUintN(64, v), true);
    this.pos = p + 8;
  }

  /** A length (a safe integer) as a `u64`. */
  private putLen(n: number): void {
    this.put32(n >>> 0);
    this.put32(Math.floor(n / TWO_32));
  }
}
