// bitwire's own deflater: a zlib stream (RFC 1950) of one deflate block with the fixed
// Huffman codes (RFC 1951 §3.2.6), its matches found by a hash chain (LZ77).
//
// Why fixed codes: any valid zlib stream will do (readers accept all of them), and the
// fixed codes need no code tables in the stream nor code to build them, so the
// deflater stays small; the matches give most of the gain on game data (repeated
// names, zeroed fields, similar entities). Stored blocks alone would make every
// compressed frame larger than its body. Measured on the frame vectors' 306-byte chat
// line: 92 bytes here, 83 with node:zlib's level 6 (dynamic codes). Where size
// matters more than code size, use `nodeZlib` (`@bitwire/runtime/node`).

import { adler32 } from "./adler.js";
import { DIST_BASE, DIST_EXTRA, LENGTH_BASE, LENGTH_EXTRA, canonicalCodes, fixedLiteralLengths } from "./huffman.js";

const WINDOW = 32768;
const MIN_MATCH = 3;
const MAX_MATCH = 258;
/** How many earlier positions with the same hash are tried per byte. */
const MAX_CHAIN = 32;
/** The most hash-table bits (a table of 2^15 entries); small inputs get smaller tables. */
const MAX_HASH_BITS = 15;

let literalCodes: Uint16Array | undefined;
let literalLens: Uint8Array | undefined;
/** Length (3..258) → index of its length symbol in `LENGTH_BASE`. */
let lengthIndex: Uint8Array | undefined;

function tables(): { codes: Uint16Array; lens: Uint8Array; lengthIdx: Uint8Array } {
  if (literalCodes === undefined || literalLens === undefined || lengthIndex === undefined) {
    literalLens = fixedLiteralLengths();
    literalCodes = canonicalCodes(literalLens);
    lengthIndex = new Uint8Array(MAX_MATCH + 1);
    for (let i = 0; i < LENGTH_BASE.length; i++) {
      const end = i + 1 < LENGTH_BASE.length ? (LENGTH_BASE[i + 1] as number) : MAX_MATCH + 1;
      lengthIndex.fill(i, LENGTH_BASE[i] as number, end);
    }
    // 258 has a symbol of its own (285), not 284 with all extra bits set.
    lengthIndex[MAX_MATCH] = LENGTH_BASE.length - 1;
  }
  return { codes: literalCodes, lens: literalLens, lengthIdx: lengthIndex };
}

/** The index of the distance symbol of `d` (1..32768). */
function distanceIndex(d: number): number {
  let lo = 0;
  let hi = DIST_BASE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((DIST_BASE[mid] as number) <= d) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

/** An LSB-first bit sink into a buffer sized for the worst case. */
class Bits {
  private acc = 0;
  private n = 0;
  pos = 0;
  constructor(readonly out: Uint8Array) {}

  /** Writes the low `len` (≤ 16) bits of `v`. */
  put(v: number, len: number): void {
    this.acc |= v << this.n;
    this.n += len;
    while (this.n >= 8) {
      this.out[this.pos++] = this.acc & 255;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  /** Pads to a byte with zero bits. */
  flush(): void {
    if (this.n > 0) {
      this.out[this.pos++] = this.acc & 255;
      this.acc = 0;
      this.n = 0;
    }
  }
}

/** The zlib stream of `data`: header `78 01`, one fixed-code block, Adler-32. */
export function deflateZlib(data: Uint8Array): Uint8Array {
  const { codes, lens, lengthIdx } = tables();
  const n = data.length;
  // At most 9 bits per literal, plus header, block header, end code and checksum.
  const bits = new Bits(new Uint8Array(Math.ceil((n * 9) / 8) + 16));
  bits.put(0x78, 8);
  bits.put(0x01, 8);
  bits.put(1, 1); // BFINAL
  bits.put(1, 2); // BTYPE 01: fixed codes
  const literal = (b: number): void => bits.put(codes[b] as number, lens[b] as number);
  // Tables sized to the input: a frame of a few hundred bytes should not pay for
  // clearing 128 KiB of hash heads.
  const hashBits = Math.max(8, Math.min(MAX_HASH_BITS, 32 - Math.clz32(n)));
  const head = new Int32Array(1 << hashBits).fill(-1);
  const ring = Math.min(WINDOW, 1 << (32 - Math.clz32(Math.max(n - 1, 1))));
  const prev = new Int32Array(ring);
  const hashAt = (i: number): number =>
    Math.imul(((data[i] as number) << 16) | ((data[i + 1] as number) << 8) | (data[i + 2] as number), 0x9e3779b1) >>> (32 - hashBits);
  const insert = (i: number): void => {
    if (i + MIN_MATCH <= n) {
      const h = hashAt(i);
      prev[i & (ring - 1)] = head[h] as number;
      head[h] = i;
    }
  };
  let i = 0;
  while (i < n) {
    let bestLen = 0;
    let bestDist = 0;
    if (i + MIN_MATCH <= n) {
      const limit = Math.min(MAX_MATCH, n - i);
      let cand = head[hashAt(i)] as number;
      for (let chain = 0; chain < MAX_CHAIN && cand >= 0 && i - cand <= WINDOW; chain++) {
        let len = 0;
        while (len < limit && data[cand + len] === data[i + len]) {
          len++;
        }
        if (len > bestLen) {
          bestLen = len;
          bestDist = i - cand;
          if (len === limit) {
            break;
          }
        }
        const p = prev[cand & (ring - 1)] as number;
        // Older entries of the ring may have been overwritten: only go further back.
        cand = p < cand ? p : -1;
      }
    }
    if (bestLen >= MIN_MATCH) {
      const li = lengthIdx[bestLen] as number;
      const sym = 257 + li;
      bits.put(codes[sym] as number, lens[sym] as number);
      bits.put(bestLen - (LENGTH_BASE[li] as number), LENGTH_EXTRA[li] as number);
      const di = distanceIndex(bestDist);
      // Fixed distance codes are the 5-bit index, sent first bit first.
      bits.put(reverse5(di), 5);
      bits.put(bestDist - (DIST_BASE[di] as number), DIST_EXTRA[di] as number);
      for (let k = 0; k < bestLen; k++) {
        insert(i + k);
      }
      i += bestLen;
    } else {
      insert(i);
      literal(data[i] as number);
      i++;
    }
  }
  literal(256);
  bits.flush();
  const a = adler32(data);
  bits.put(a >>> 24, 8);
  bits.put((a >>> 16) & 255, 8);
  bits.put((a >>> 8) & 255, 8);
  bits.put(a & 255, 8);
  return bits.out.slice(0, bits.pos);
}

function reverse5(v: number): number {
  return ((v & 1) << 4) | ((v & 2) << 2) | (v & 4) | ((v & 8) >>> 2) | ((v & 16) >>> 4);
}
