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

/**
 * The string of bytes `0..len` of `d`, which {@link isUtf8} accepted: what a fatal
 * `TextDecoder` with `ignoreBOM` returns for them (a leading U+FEFF is kept).
 */
export function decodeValidUtf8(d: Uint8Array, len: number): string {
  let s = "";
  let i = 0;
  while (i < len) {
    const b = d[i];
    if (b < 0x80) {
      s += String.fromCharCode(b);
      i++;
    } else if (b < 0xe0) {
      s += String.fromCharCode(((b & 0x1f) << 6) | (d[i + 1] & 0x3f));
      i += 2;
    } else if (b < 0xf0) {
      s += String.fromCharCode(((b & 0x0f) << 12) | ((d[i + 1] & 0x3f) << 6) | (d[i + 2] & 0x3f));
      i += 3;
    } else {
      const cp =
        ((b & 0x07) << 18) | ((d[i + 1] & 0x3f) << 12) | ((d[i + 2] & 0x3f) << 6) | (d[i + 3] & 0x3f);
      s += String.fromCharCode(0xd800 + ((cp - 0x10000) >>> 10), 0xdc00 + ((cp - 0x10000) & 0x3ff));
      i += 4;
    }
  }
  return s;
}
