// Adler-32 (RFC 1950 §8.2), the checksum at the end of every zlib stream.

/** Adler-32 of `data` (RFC 1950 §8.2), as an unsigned 32-bit number. */
export function adler32(data: Uint8Array, start = 1): number {
  let a = start & 0xffff;
  let b = start >>> 16;
  let i = 0;
  const n = data.length;
  while (i < n) {
    // 5552 is the most bytes before b can pass 2^32 (RFC 1950's NMAX); numbers stay
    // exact far beyond that, but the modulo keeps them in small-integer range.
    const end = Math.min(i + 5552, n);
    for (; i < end; i++) {
      a += data[i] as number;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return (b * 65536 + a) >>> 0;
}
