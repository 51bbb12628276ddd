// The bit writer (spec §1): an LSB-first bit stream built 32 bits at a time into a
// reusable, growable Uint8Array.
//
// Why 32-bit words: JavaScript's bitwise operators work on 32-bit integers, which V8 and
// JavaScriptCore keep in registers without boxing. A 64-bit accumulator would need
// `bigint` (heap-allocated, an order of magnitude slower) or two 32-bit halves with
// carries between them on every write; flushing a full 32-bit word with one `setUint32`
// is the cheapest form that measured well on Node, Bun and Deno. Generated code splits
// 64-bit runs of fields into two 32-bit halves at compile time (see docs/typescript.md).

import { f64HiBits, f64LoBits } from "./float.js";

const TWO_32 = 4294967296;

/**
 * Writes an LSB-first bit stream into an internal buffer that grows as needed and is
 * kept across messages: after {@link BitWriter.reset}, encoding allocates nothing once
 * the buffer has reached the size of the largest message.
 */
export class BitWriter {
  /** The buffer; bytes `0..byteLen` hold flushed output. */
  private buf: Uint8Array;
  /** A view of `buf` for 32-bit little-endian stores (spec §1.1 byte order). */
  private view: DataView;
  /** Bytes flushed so far. */
  private byteLen = 0;
  /** Pending bits, the oldest in bit 0 (an int32; only the low `pending` bits count). */
  private acc = 0;
  /** Number of pending bits in `acc`, always below 32. */
  private pending = 0;
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

  /** Starts a new message at bit 0, keeping the buffer. */
  reset(): void {
    this.byteLen = 0;
    this.acc = 0;
    this.pending = 0;
  }

  /** Bits written since the last reset: the stream offset of the next value. */
  get bitPos(): number {
    return this.byteLen * 8 + this.pending;
  }

  /** Makes room for `n` more bytes. */
  private reserve(n: number): void {
    const need = this.byteLen + n;
    if (need <= this.buf.length) {
      return;
    }
    const grown = new Uint8Array(Math.max(need, this.buf.length * 2));
    grown.set(this.buf.subarray(0, this.byteLen));
    this.buf = grown;
    this.view = new DataView(grown.buffer);
  }

  /**
   * Writes the low `bits` bits of `value` (spec §1.2); `bits` is 0..32. Bits of `value`
   * at or above `bits` must be zero: generated code checks ranges before writing.
   */
  writeBits(value: number, bits: number): void {
    const p = this.pending;
    this.acc |= value << p;
    const total = p + bits;
    if (total < 32) {
      this.pending = total;
      return;
    }
    if (this.byteLen + 4 > this.buf.length) {
      this.reserve(4);
    }
    this.view.setUint32(this.byteLen, this.acc, true);
    this.byteLen += 4;
    // The bits of `value` that did not fit (JS shifts count modulo 32, so a shift by
    // 32 - 0 would keep them all: nothing is carried when `p` is 0).
    this.acc = p === 0 ? 0 : value >>> (32 - p);
    this.pending = total - 32;
  }

  /**
   * Writes a 33..64-bit run given as its low 32 bits and the `bits - 32` bits above
   * them. A 64-bit run at a byte boundary (a message that starts with one) is two
   * stores.
   */
  writeWord(lo: number, hi: number, bits: number): void {
    const n = this.byteLen;
    if (this.pending === 0 && n + 8 <= this.buf.length) {
      // At a word boundary (a message that starts with the run): the low half is one
      // store; the high half is a full word too, or stays pending (its bits above
      // `bits - 32` are zero, as `writeBits` requires).
      this.view.setUint32(n, lo, true);
      if (bits === 64) {
        this.view.setUint32(n + 4, hi, true);
        this.byteLen = n + 8;
      } else {
        this.byteLen = n + 4;
        this.acc = hi;
        this.pending = bits - 32;
      }
      return;
    }
    this.writeBits(lo, 32);
    this.writeBits(hi, bits - 32);
  }

  /**
   * A whole message of `bits` bits (1..64), given as its low 32 bits and the bits above
   * them, as `reset`, `writeWord` (or `writeBits`) and `finish` return it, in one call:
   * two stores at the start of the buffer (always at least 8 bytes). Bits of `lo` and
   * `hi` past `bits` must be zero (they are the padding): generated code checks ranges
   * first. For the top-level encoder of a type that is one run of at most 64 bits.
   */
  wordMessage(lo: number, hi: number, bits: number): Uint8Array {
    const view = this.view;
    view.setUint32(0, lo, true);
    view.setUint32(4, hi, true);
    const n = (bits + 7) >>> 3;
    this.byteLen = n;
    this.acc = 0;
    this.pending = 0;
    if (this.lastOf === this.buf && this.last.length === n) {
      return this.last;
    }
    return this.newView();
  }

  /** Writes one bit. */
  writeBool(value: boolean): void {
    this.writeBits(value ? 1 : 0, 1);
  }

  /**
   * Writes a non-negative integer below 2^53 in `bits` bits (up to 64: the bits above
   * 53 are zero, as for a length prefix of a bound at or above 2^53).
   */
  writeUint(value: number, bits: number): void {
    if (bits <= 32) {
      this.writeBits(value, bits);
    } else {
      this.writeBits(value >>> 0, 32);
      this.writeBits(Math.floor(value / TWO_32), bits - 32);
    }
  }

  /** Writes a `bigint` in `0..2^bits` in `bits` bits (up to 64). */
  writeBig(value: bigint, bits: number): void {
    const lo = Number(value & 0xffffffffn);
    if (bits <= 32) {
      this.writeBits(lo, bits);
    } else {
      this.writeBits(lo, 32);
      this.writeBits(Number(value >> 32n), bits - 32);
    }
  }

  /** Writes an `f64`, any NaN as the canonical NaN. */
  writeF64(value: number): void {
    const lo = f64LoBits(value);
    this.writeBits(lo, 32);
    this.writeBits(f64HiBits(), 32);
  }

  /** Writes bytes as consecutive `u8` values (spec §5.6). Unaligned: no padding first. */
  writeBytes(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.pending % 8 === 0) {
      // Whole bytes pending: flush them, then copy the input in one go.
      this.reserve(4 + n);
      const whole = this.pending >>> 3;
      for (let k = 0; k < whole; k++) {
        this.buf[this.byteLen++] = (this.acc >>> (8 * k)) & 0xff;
      }
      this.acc = 0;
      this.pending = 0;
      this.buf.set(bytes, this.byteLen);
      this.byteLen += n;
      return;
    }
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const word = bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24);
      this.writeBits(word, 32);
    }
    for (; i < n; i++) {
      this.writeBits(bytes[i], 8);
    }
  }

  /**
   * Writes a varint of a `width`-bit type (16 or 32) for a value that fits the width
   * (spec §5.4): `n - 1` one bits, a zero bit unless `n` is the longest form, then the
   * value in `4n` bits. Also writes unbounded lengths (width 64, any `number` length).
   */
  writeVaruint(value: number, width: number): void {
    // n = the number of 4-bit groups: powers of 16 are exact in binary64.
    let n = 1;
    for (let limit = 16; value >= limit; limit *= 16) {
      n++;
    }
    this.writePrefix(n, width >>> 2);
    if (4 * n <= 53) {
      this.writeUint(value, 4 * n);
    } else {
      this.writeBig(BigInt(value), 4 * n);
    }
  }

  /** Writes a `varu64` (spec §5.4) for a value in `0..2^64`. */
  writeVaru64(value: bigint): void {
    if (value < 0x10000000000000n) {
      // Below 2^52 the number path is exact and avoids bigint arithmetic.
      this.writeVaruint(Number(value), 64);
      return;
    }
    // One group per hex digit.
    const n = value.toString(16).length;
    this.writePrefix(n, 16);
    this.writeBig(value, 4 * n);
  }

  /** The unary group count of a varint: `n - 1` ones, then a zero unless `n = gmax`. */
  private writePrefix(n: number, gmax: number): void {
    const ones = (1 << (n - 1)) - 1;
    this.writeBits(ones, n < gmax ? n : n - 1);
  }

  /**
   * Writes the UTF-8 of `s` (spec §5.6) given `len = utf8Length(s)`, which has checked
   * that `s` is a string with a UTF-8 form (no lone surrogate). Unaligned: no padding
   * first.
   */
  writeUtf8(s: string, len: number): void {
    const n = s.length;
    if (len !== n) {
      // UTF-8 is longer than UTF-16 exactly when some code unit is not ASCII.
      this.writeUtf8Slow(s);
      return;
    }
    // ASCII: four characters per 32-bit write.
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      this.writeBits(
        s.charCodeAt(i) |
          (s.charCodeAt(i + 1) << 8) |
          (s.charCodeAt(i + 2) << 16) |
          (s.charCodeAt(i + 3) << 24),
        32,
      );
    }
    for (; i < n; i++) {
      this.writeBits(s.charCodeAt(i), 8);
    }
  }

  /**
   * Writes `s` with its length in a `bits`-bit prefix (`bits` ≤ 32) and returns true
   * when it is a string of at most `max` characters, all ASCII (then its UTF-8 is its
   * code units): one pass over the characters instead of {@link utf8Length}'s and
   * {@link BitWriter.writeUtf8}'s two. Otherwise it leaves the stream as it was and
   * returns false: the caller takes the general path, with its checks and errors.
   */
  writeAscii(s: unknown, bits: number, max: number): boolean {
    if (typeof s !== "string" || s.length > max) {
      return false;
    }
    const n = s.length;
    const start = this.byteLen * 8 + this.pending;
    this.writeBits(n, bits);
    // Non-ASCII code units write wrong bits past `start`, which the rewind drops.
    let high = 0;
    let i = 0;
    for (; i + 4 <= n; i += 4) {
      const a = s.charCodeAt(i);
      const b = s.charCodeAt(i + 1);
      const c = s.charCodeAt(i + 2);
      const d = s.charCodeAt(i + 3);
      high |= a | b | c | d;
      this.writeBits(a | (b << 8) | (c << 16) | (d << 24), 32);
    }
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      high |= c;
      this.writeBits(c, 8);
    }
    if (high < 0x80) {
      return true;
    }
    this.rewind(start);
    return false;
  }

  /** {@link BitWriter.writeUtf8} for a string with non-ASCII characters, byte by byte. */
  private writeUtf8Slow(s: string): void {
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) {
        this.writeBits(c, 8);
      } else if (c < 0x800) {
        this.writeBits(0xc0 | (c >>> 6) | ((0x80 | (c & 0x3f)) << 8), 16);
      } else if (c >= 0xd800 && c <= 0xdbff) {
        // A surrogate pair (`utf8Length` rejected lone surrogates).
        const cp = 0x10000 + ((c - 0xd800) << 10) + (s.charCodeAt(i + 1) - 0xdc00);
        this.writeBits(
          (0xf0 | (cp >>> 18)) |
            ((0x80 | ((cp >>> 12) & 0x3f)) << 8) |
            ((0x80 | ((cp >>> 6) & 0x3f)) << 16) |
            ((0x80 | (cp & 0x3f)) << 24),
          32,
        );
        i++;
      } else {
        this.writeBits((0xe0 | (c >>> 12)) | ((0x80 | ((c >>> 6) & 0x3f)) << 8) | ((0x80 | (c & 0x3f)) << 16), 24);
      }
    }
  }

  /**
   * Ends the message: pads with zero bits to the next byte boundary (spec §2.1) and
   * returns the bytes written since the last reset. The result is a view of the
   * writer's buffer, valid until the writer is used again; copy it (`.slice()`) to
   * keep it. While messages have the same length, the same view object is returned.
   */
  finish(): Uint8Array {
    if (this.pending > 0) {
      this.flushTail();
    }
    // Compared by buffer identity and length: reading a typed array's `.buffer` is
    // costly in V8 for small arrays, and a fresh subarray per message is an allocation.
    if (this.lastOf === this.buf && this.last.length === this.byteLen) {
      return this.last;
    }
    return this.newView();
  }

  /**
   * Writes the pending bits as whole bytes, the last one padded with zeros: one 32-bit
   * store of the accumulator (its bits above `pending` are zero), of which only the
   * bytes that hold pending bits count. The rest lies past the message and is
   * overwritten by the next one.
   */
  private flushTail(): void {
    if (this.byteLen + 4 > this.buf.length) {
      this.reserve(4);
    }
    this.view.setUint32(this.byteLen, this.acc, true);
    this.byteLen += (this.pending + 7) >>> 3;
    this.acc = 0;
    this.pending = 0;
  }

  // The delta encoder (spec §12) writes a value's delta speculatively and takes it back
  // when nothing changed, and compares and copies the full encodings it builds in a
  // second writer. These keep the invariant `writeBits` relies on: the bits of `acc`
  // above `pending` are zero.

  /**
   * Moves the position back to stream bit `pos` (at most {@link BitWriter.bitPos}),
   * dropping every bit written after it. The buffer is kept.
   */
  rewind(pos: number): void {
    const flushed = this.byteLen * 8;
    if (pos >= flushed) {
      // Still in the accumulator: drop its bits from `pos` on.
      const keep = pos - flushed;
      this.acc = keep === 0 ? 0 : this.acc & (0xffffffff >>> (32 - keep));
      this.pending = keep;
      return;
    }
    // Already flushed: the byte that holds `pos` becomes the accumulator again.
    const b = Math.floor(pos / 8);
    const keep = pos - b * 8;
    this.byteLen = b;
    this.pending = keep;
    this.acc = keep === 0 ? 0 : this.buf[b] & ((1 << keep) - 1);
  }

  /** Byte `i` of the stream written so far (zero past its end). */
  private byteAt(i: number): number {
    if (i < this.byteLen) {
      return this.buf[i];
    }
    const k = i - this.byteLen;
    return k < 4 ? (this.acc >>> (8 * k)) & 0xff : 0;
  }

  /** The 32 stream bits from byte `i` (zero past the end), as an int32. */
  private wordAt(i: number): number {
    return this.byteAt(i) | (this.byteAt(i + 1) << 8) | (this.byteAt(i + 2) << 16) | (this.byteAt(i + 3) << 24);
  }

  /** Whether `other` has written exactly the same bits as this writer since their resets. */
  sameBits(other: BitWriter): boolean {
    const n = this.bitPos;
    if (n !== other.bitPos) {
      return false;
    }
    // Bits past the end of the last byte are zero in both.
    const bytes = Math.ceil(n / 8);
    for (let i = 0; i < bytes; i++) {
      if (this.byteAt(i) !== other.byteAt(i)) {
        return false;
      }
    }
    return true;
  }

  /** Writes every bit `other` has written since its reset, 32 at a time. */
  append(other: BitWriter): void {
    const n = other.bitPos;
    let i = 0;
    for (; (i + 4) * 8 <= n; i += 4) {
      this.writeBits(other.wordAt(i), 32);
    }
    const rest = n - i * 8;
    if (rest > 0) {
      // The bits above `rest` are zero (past the end of `other`'s stream).
      this.writeBits(other.wordAt(i), rest);
    }
  }

  /** A new view of the bytes written, remembered for the next `finish`. */
  private newView(): Uint8Array {
    this.lastOf = this.buf;
    this.last = this.buf.subarray(0, this.byteLen);
    return this.last;
  }

}

/**
 * The length in bytes of the UTF-8 of `s`, for {@link BitWriter.writeUtf8}; -1 when `s`
 * is not a string, or holds a lone surrogate (UTF-16 with no UTF-8 form), which the
 * encoder rejects with `InvalidUtf8`. Allocates nothing; for ASCII it is `s.length`.
 */
export function utf8Length(s: unknown): number {
  if (typeof s !== "string") {
    return -1;
  }
  const n = s.length;
  let len = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      continue;
    }
    if (c < 0x800) {
      len += 1;
      continue;
    }
    if (c < 0xd800 || c > 0xdfff) {
      len += 2;
      continue;
    }
    // A surrogate: four bytes for a high one followed by a low one, else no UTF-8.
    const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
    if (c > 0xdbff || next < 0xdc00 || next > 0xdfff) {
      return -1;
    }
    len += 2;
    i++;
  }
  return len;
}
