// UTF-8 for the reader (spec §5.6): the validation a fatal `TextDecoder` does, and the
// decoding of short validated strings, both by hand — for strings of a few bytes a
// decoder call on a new view costs more than the loop.

/**
 * Whether bytes `from..to` of `d` are well-formed UTF-8 (Unicode Table 3-7: no overlong
 * forms, no surrogates, nothing above U+10FFFF, no cut-short sequences): exactly the
 * input a fatal `TextDecoder` accepts.
 */
export function isUtf8(d: Uint8Array, from: number, to: number): boolean {
  let i = from;
  while (i < to) {
    const b = d[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    if (b >= 0xc2 && b <= 0xdf) {
      if (i + 1 >= to || (d[i + 1] & 0xc0) !== 0x80) {
        return false;
      }
      i += 2;
      continue;
    }
    // The allowed range of the second byte depends on the first (Table 3-7).
    let lo = 0x80;
    let hi = 0xbf;
    let n: number;
    if (b >= 0xe0 && b <= 0xef) {
      n = 3;
      if (b === 0xe0) {
        lo = 0xa0;
      } else if (b === 0xed) {
        hi = 0x9f;
      }
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 4;
      if (b === 0xf0) {
        lo = 0x90;
      } else if (b === 0xf4) {
        hi = 0x8f;
      }
    } else {
      return false;
    }
    if (i + n > to) {
      return false;
    }
    const b1 = d[i + 1];
    if (b1 < lo || b1 > hi) {
      return false;
    }
    for (let k = 2; k < n; k++) {
      if ((d[i + k] & 0xc0) !== 0x80) {
        return false;
      }
    }
    i += n;
  }
  return true;
}

const fromCharCode = String.fromCharCode;

/**
 * The string of bytes `from..from + len` of `d` as code units (Latin-1; ASCII for the
 * callers, which have checked that every byte is below 0x80). Eight units per
 * `String.fromCharCode` call: a short string is then one or a few flat pieces, where
 * a `+=` per character makes a new string per character (and, past 12 characters in
 * V8, a rope of them that the garbage collector then traces and flattens).
 */
export function byteString(d: Uint8Array, from: number, len: number): string {
  let s = "";
  let i = from;
  const end = from + len;
  for (; i + 8 <= end; i += 8) {
    s += fromCharCode(d[i], d[i + 1], d[i + 2], d[i + 3], d[i + 4], d[i + 5], d[i + 6], d[i + 7]);
  }
  if (i + 4 <= end) {
    s += fromCharCode(d[i], d[i + 1], d[i + 2], d[i + 3]);
    i += 4;
  }
  for (; i < end; i++) {
    s += fromCharCode(d[i]);
  }
  return s;
}

/**
 * {@link byteString} for UTF-16 code units `0..len` of `u`. A copy rather than one
 * function over both array kinds, so that each hot loop reads a single typed-array kind.
 */
function unitString(u: Uint16Array, len: number): string {
  let s = "";
  let i = 0;
  for (; i + 8 <= len; i += 8) {
    s += fromCharCode(u[i], u[i + 1], u[i + 2], u[i + 3], u[i + 4], u[i + 5], u[i + 6], u[i + 7]);
  }
  if (i + 4 <= len) {
    s += fromCharCode(u[i], u[i + 1], u[i + 2], u[i + 3]);
    i += 4;
  }
  for (; i < len; i++) {
    s += fromCharCode(u[i]);
  }
  return s;
}

/**
 * The UTF-16 code units of a short string being decoded (a string's UTF-8 has at least
 * as many bytes as it has code units). Shared, but only within one call of
 * {@link decodeValidUtf8}, which runs no other code.
 */
const unitScratch = new Uint16Array(64);

/**
 * The string of bytes `0..len` of `d`, which {@link isUtf8} accepted: what a fatal
 * `TextDecoder` with `ignoreBOM` returns for them (a leading U+FEFF is kept).
 */
export function decodeValidUtf8(d: Uint8Array, len: number): string {
  const u = len <= unitScratch.length ? unitScratch : new Uint16Array(len);
  let n = 0;
  let i = 0;
  while (i < len) {
    const b = d[i];
    if (b < 0x80) {
      u[n++] = b;
      i++;
    } else if (b < 0xe0) {
      u[n++] = ((b & 0x1f) << 6) | (d[i + 1] & 0x3f);
      i += 2;
    } else if (b < 0xf0) {
      u[n++] = ((b & 0x0f) << 12) | ((d[i + 1] & 0x3f) << 6) | (d[i + 2] & 0x3f);
      i += 3;
    } else {
      const cp =
        ((b & 0x07) << 18) | ((d[i + 1] & 0x3f) << 12) | ((d[i + 2] & 0x3f) << 6) | (d[i + 3] & 0x3f);
      u[n++] = 0xd800 + ((cp - 0x10000) >>> 10);
      u[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff);
      i += 4;
    }
  }
  return unitString(u, n);
}
