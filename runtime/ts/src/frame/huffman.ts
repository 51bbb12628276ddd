// The constants and canonical Huffman codes of deflate (RFC 1951 §3.2), shared by the
// inflater and the deflater.

/** Base length of length symbols 257..285 (RFC 1951 §3.2.5). */
export const LENGTH_BASE = Uint16Array.of(3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258);
/** Extra bits of length symbols 257..285. */
export const LENGTH_EXTRA = Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0);
/** Base distance of distance symbols 0..29. */
export const DIST_BASE = Uint16Array.of(
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
);
/** Extra bits of distance symbols 0..29. */
export const DIST_EXTRA = Uint8Array.of(0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13);
/** The order code length code lengths are sent in (RFC 1951 §3.2.7). */
export const CODE_LENGTH_ORDER = Uint8Array.of(16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15);

/** The fixed literal/length code lengths (RFC 1951 §3.2.6): 288 symbols. */
export function fixedLiteralLengths(): Uint8Array {
  const lens = new Uint8Array(288);
  lens.fill(8, 0, 144);
  lens.fill(9, 144, 256);
  lens.fill(7, 256, 280);
  lens.fill(8, 280, 288);
  return lens;
}

/** `code`'s low `len` bits in reverse order: deflate sends Huffman codes first bit first. */
export function reverseBits(code: number, len: number): number {
  let r = 0;
  for (let i = 0; i < len; i++) {
    r = (r << 1) | ((code >>> i) & 1);
  }
  return r;
}

/**
 * The canonical codes of `lens` (RFC 1951 §3.2.2): for each symbol with a length, its
 * code with the bits reversed (ready to write LSB-first); 0 for symbols without one.
 */
export function canonicalCodes(lens: Uint8Array): Uint16Array {
  const count = new Uint16Array(16);
  for (const l of lens) {
    count[l] = (count[l] as number) + 1;
  }
  count[0] = 0;
  const next = new Uint16Array(16);
  let code = 0;
  for (let len = 1; len < 16; len++) {
    code = (code + (count[len - 1] as number)) << 1;
    next[len] = code;
  }
  const codes = new Uint16Array(lens.length);
  lens.forEach((len, sym) => {
    if (len !== 0) {
      const c = next[len] as number;
      next[len] = c + 1;
      codes[sym] = reverseBits(c, len);
    }
  });
  return codes;
}
