// bitwire's own bounded inflater: zlib (RFC 1950) around deflate (RFC 1951), written
// from the RFCs for runtimes without a synchronous bounded one (browsers).
//
// It inflates into a buffer of exactly the declared size and stops at the first byte
// past it, so no input makes it allocate or work more than that (a zlib bomb is
// `SizeMismatch` after `size + 1` bytes). It accepts exactly what zlib's own inflater
// accepts (checked against node:zlib on valid and mutated streams): the same header
// checks, the same rules for over-subscribed and incomplete Huffman codes, invalid
// symbols and distances, stored-block lengths and the Adler-32.

import { adler32 } from "./adler.js";
import {
  CODE_LENGTH_ORDER,
  DIST_BASE,
  DIST_EXTRA,
  LENGTH_BASE,
  LENGTH_EXTRA,
  fixedLiteralLengths,
  reverseBits,
} from "./huffman.js";
import type { InflateProblem } from "./zlib.js";

/** Thrown inside the inflater; turned into an {@link InflateProblem} at its boundary. */
class Stop {
  constructor(
    readonly kind: InflateProblem["kind"],
    readonly note: string,
  ) {}
}

const early = (): Stop => new Stop("BadZlib", "the stream stops early");
const bad = (note: string): Stop => new Stop("BadZlib", note);

/** What a Huffman table is for: zlib's rules for incomplete codes differ. */
const enum Use {
  CodeLengths,
  Literals,
  Distances,
}

/**
 * A decoding table: indexed by the next `bits` input bits (first bit lowest), each entry
 * is `symbol << 4 | length`, or 0 where no code starts with those bits.
 */
interface Table {
  entries: Int32Array;
  bits: number;
}

const count = new Uint16Array(16);
const next = new Uint16Array(16);

/** Builds `t` from `lens[0..n)` (reusing its array); throws unless zlib would accept the code. */
function build(t: Table, lens: Uint8Array, n: number, use: Use): void {
  count.fill(0);
  for (let s = 0; s < n; s++) {
    count[lens[s] as number]++;
  }
  let max = 15;
  while (max > 0 && count[max] === 0) {
    max--;
  }
  let left = 1;
  for (let len = 1; len <= 15; len++) {
    left = (left << 1) - (count[len] as number);
    if (left < 0) {
      throw bad("an over-subscribed Huffman code");
    }
  }
  // zlib accepts an incomplete code only for literals or distances with one code of
  // length 1, and a distance code with no codes at all (a block without matches).
  if (max === 0 ? use === Use.CodeLengths : left > 0 && (use === Use.CodeLengths || max !== 1)) {
    throw bad("an incomplete Huffman code");
  }
  const size = 1 << max;
  if (t.entries.length < size) {
    t.entries = new Int32Array(size);
  }
  t.entries.fill(0, 0, size);
  t.bits = max;
  let code = 0;
  count[0] = 0;
  for (let len = 1; len <= max; len++) {
    code = (code + (count[len - 1] as number)) << 1;
    next[len] = code;
  }
  for (let s = 0; s < n; s++) {
    const len = lens[s] as number;
    if (len !== 0) {
      const c = next[len] as number;
      next[len] = c + 1;
      for (let i = reverseBits(c, len); i < size; i += 1 << len) {
        t.entries[i] = (s << 4) | len;
      }
    }
  }
}

const fixedLiterals: Table = { entries: new Int32Array(0), bits: 0 };
const fixedDistances: Table = { entries: new Int32Array(0), bits: 0 };
const literals: Table = { entries: new Int32Array(512), bits: 0 };
const distances: Table = { entries: new Int32Array(512), bits: 0 };
const codeLengths: Table = { entries: new Int32Array(128), bits: 0 };
const lengths = new Uint8Array(286 + 30);

function fixedTables(): void {
  if (fixedLiterals.bits === 0) {
    build(fixedLiterals, fixedLiteralLengths(), 288, Use.Literals);
    build(fixedDistances, new Uint8Array(32).fill(5), 32, Use.Distances);
  }
}

/** One inflation: the input, its bit position, and the bounded output. */
class Inflation {
  private pos: number;
  private bitBuf = 0;
  private bitCount = 0;
  readonly out: Uint8Array;
  outPos = 0;

  constructor(
    private readonly input: Uint8Array,
    start: number,
    size: number,
  ) {
    this.pos = start;
    this.out = new Uint8Array(size);
  }

  /** Tops the bit buffer up to at least 24 bits while input lasts. */
  private fill(): void {
    while (this.bitCount < 24 && this.pos < this.input.length) {
      this.bitBuf |= (this.input[this.pos++] as number) << this.bitCount;
      this.bitCount += 8;
    }
  }

  /** The next `n` (≤ 16) bits, first bit lowest. */
  bits(n: number): number {
    if (this.bitCount < n) {
      this.fill();
      if (this.bitCount < n) {
        throw early();
      }
    }
    const v = this.bitBuf & ((1 << n) - 1);
    this.bitBuf >>>= n;
    this.bitCount -= n;
    return v;
  }

  /** The next symbol of table `t`. */
  symbol(t: Table, what: string): number {
    if (this.bitCount < t.bits) {
      this.fill();
    }
    const e = t.entries[this.bitBuf & ((1 << t.bits) - 1)] as number;
    const len = e & 15;
    if (len > this.bitCount) {
      throw early();
    }
    if (len === 0) {
      throw this.bitCount < t.bits ? early() : bad(`an invalid ${what} code`);
    }
    this.bitBuf >>>= len;
    this.bitCount -= len;
    return e >>> 4;
  }

  /** Drops the bits up to the next byte boundary and gives unused buffered bytes back. */
  alignToByte(): void {
    this.pos -= this.bitCount >>> 3;
    this.bitBuf = 0;
    this.bitCount = 0;
  }

  /** The next `n` whole bytes (after {@link alignToByte}). */
  bytes(n: number): Uint8Array {
    if (this.pos + n > this.input.length) {
      throw early();
    }
    const b = this.input.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  /** Input bytes consumed so far (after {@link alignToByte}). */
  get consumed(): number {
    return this.pos;
  }

  /** A stored block (RFC 1951 §3.2.4). */
  stored(): void {
    this.alignToByte();
    const h = this.bytes(4);
    const len = (h[0] as number) | ((h[1] as number) << 8);
    const nlen = (h[2] as number) | ((h[3] as number) << 8);
    if ((len ^ 0xffff) !== nlen) {
      throw bad("a stored block whose length and its complement differ");
    }
    // Overflow is checked before input: zlib reports what it can write first.
    const room = this.out.length - this.outPos;
    const take = Math.min(len, room);
    this.out.set(this.bytes(take), this.outPos);
    this.outPos += take;
    if (len > room) {
      throw overflow();
    }
  }

  /** The code lengths of a dynamic block (RFC 1951 §3.2.7) into `literals`, `distances`. */
  dynamicTables(): void {
    const nlen = this.bits(5) + 257;
    const ndist = this.bits(5) + 1;
    const ncode = this.bits(4) + 4;
    if (nlen > 286 || ndist > 30) {
      throw bad("too many length or distance symbols");
    }
    lengths.fill(0, 0, 19);
    for (let i = 0; i < ncode; i++) {
      lengths[CODE_LENGTH_ORDER[i] as number] = this.bits(3);
    }
    const cl = lengths.slice(0, 19);
    build(codeLengths, cl, 19, Use.CodeLengths);
    const total = nlen + ndist;
    let have = 0;
    while (have < total) {
      const sym = this.symbol(codeLengths, "code length");
      if (sym < 16) {
        lengths[have++] = sym;
        continue;
      }
      let fill = 0;
      let times: number;
      if (sym === 16) {
        if (have === 0) {
          throw bad("a repeat with no previous length");
        }
        fill = lengths[have - 1] as number;
        times = 3 + this.bits(2);
      } else if (sym === 17) {
        times = 3 + this.bits(3);
      } else {
        times = 11 + this.bits(7);
      }
      if (have + times > total) {
        throw bad("code lengths repeated past their end");
      }
      lengths.fill(fill, have, have + times);
      have += times;
    }
    if (lengths[256] === 0) {
      throw bad("no end-of-block code");
    }
    build(literals, lengths, nlen, Use.Literals);
    build(distances, lengths.subarray(nlen, total), ndist, Use.Distances);
  }

  /** The symbols of a Huffman block, up to its end-of-block code. */
  codes(lit: Table, dist: Table): void {
    const out = this.out;
    for (;;) {
      const sym = this.symbol(lit, "literal/length");
      if (sym < 256) {
        if (this.outPos >= out.length) {
          throw overflow();
        }
        out[this.outPos++] = sym;
        continue;
      }
      if (sym === 256) {
        return;
      }
      if (sym > 285) {
        throw bad("an invalid literal/length code");
      }
      const li = sym - 257;
      const len = (LENGTH_BASE[li] as number) + this.bits(LENGTH_EXTRA[li] as number);
      const ds = this.symbol(dist, "distance");
      if (ds > 29) {
        throw bad("an invalid distance code");
      }
      const d = (DIST_BASE[ds] as number) + this.bits(DIST_EXTRA[ds] as number);
      if (d > this.outPos) {
        throw bad("a distance too far back");
      }
      const room = out.length - this.outPos;
      const n = Math.min(len, room);
      let from = this.outPos - d;
      for (let i = 0; i < n; i++) {
        out[this.outPos++] = out[from++] as number;
      }
      if (len > room) {
        throw overflow();
      }
    }
  }
}

const overflow = (): Stop => new Stop("SizeMismatch", "it inflates to more bytes than declared");

/** The zlib header (RFC 1950 §2.2): deflate, a window of at most 32 KiB, no dictionary. */
function checkHeader(input: Uint8Array): void {
  if (input.length < 2) {
    throw early();
  }
  const cmf = input[0] as number;
  const flg = input[1] as number;
  if ((cmf & 15) !== 8 || cmf >>> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0) {
    throw bad("not a zlib header");
  }
  if ((flg & 0x20) !== 0) {
    throw bad("a preset dictionary");
  }
}

/**
 * Inflates the zlib stream `input` into exactly `size` bytes (the `Zlib.inflate`
 * contract of `zlib.ts`): the bytes, or `BadZlib`, `SizeMismatch` or `TrailingBytes`.
 */
export function inflateZlib(input: Uint8Array, size: number): Uint8Array | InflateProblem {
  try {
    checkHeader(input);
    const z = new Inflation(input, 2, size);
    let last = 0;
    while (last === 0) {
      last = z.bits(1);
      const type = z.bits(2);
      if (type === 0) {
        z.stored();
      } else if (type === 1) {
        fixedTables();
        z.codes(fixedLiterals, fixedDistances);
      } else if (type === 2) {
        z.dynamicTables();
        z.codes(literals, distances);
      } else {
        throw bad("a block of reserved type 3");
      }
    }
    z.alignToByte();
    const a = z.bytes(4);
    const want = (((a[0] as number) << 24) | ((a[1] as number) << 16) | ((a[2] as number) << 8) | (a[3] as number)) >>> 0;
    if (adler32(z.out.subarray(0, z.outPos)) !== want) {
      throw bad("a wrong Adler-32");
    }
    if (z.outPos !== size) {
      return { kind: "SizeMismatch", note: `it inflates to ${z.outPos} bytes, not ${size}` };
    }
    if (z.consumed !== input.length) {
      return { kind: "TrailingBytes", note: `${input.length - z.consumed} bytes after the zlib stream` };
    }
    return z.out;
  } catch (e) {
    if (e instanceof Stop) {
      return { kind: e.kind, note: e.note };
    }
    throw e;
  }
}
