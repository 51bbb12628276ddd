// Minecraft's VarInt (docs/framing.md §1): unsigned LEB128 of at most 5 bytes and
// values below 2^31, written in the shortest form. Readers reject longer, larger and
// non-minimal encodings; the framer decides which error kind (and offset) that is.

/** The largest value a VarInt of the frame format holds: 2^31 − 1. */
export const MAX_VARINT = 0x7fffffff;

/** Bytes of the shortest VarInt of `v` (0 ≤ v < 2^31). */
export function varIntSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

/** Writes the shortest VarInt of `v` (0 ≤ v < 2^31) at `at`; returns the end. */
export function putVarInt(out: Uint8Array, at: number, v: number): number {
  while (v >= 0x80) {
    out[at++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[at++] = v;
  return at;
}

/**
 * What reading a VarInt found: its value and width, or why it is not one —
 * `"short"` (the input ends inside it), `"long"` (a 5th byte with its high bit set, or
 * a 5-byte value of 2^31 or more), `"nonminimal"` (a last byte of 0 after others).
 */
export type VarIntRead = { value: number; width: number } | "short" | "long" | "nonminimal";

/** Reads a VarInt from `buf[at..end)` (docs/framing.md §1.2). */
export function readVarInt(buf: Uint8Array, at: number, end: number): VarIntRead {
  let value = 0;
  for (let i = 0; i < 5; i++) {
    if (at + i >= end) {
      return "short";
    }
    const b = buf[at + i] as number;
    if (i === 4) {
      // The 5th byte holds bits 28..31; above 0x07 the value is 2^31 or more, and a
      // continuation bit would make a 6th byte.
      if (b > 0x07) {
        return "long";
      }
      if (b === 0) {
        return "nonminimal";
      }
      return { value: value + b * 0x10000000, width: 5 };
    }
    value |= (b & 0x7f) << (7 * i);
    if ((b & 0x80) === 0) {
      if (b === 0 && i > 0) {
        return "nonminimal";
      }
      return { value, width: i + 1 };
    }
  }
  return "long";
}
