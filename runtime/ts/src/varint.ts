// Zigzag mapping of signed varints (spec §5.4): 0, -1, 1, -2 become 0, 1, 2, 3, so
// that small magnitudes of either sign get short encodings. The varint shape itself is
// written by `BitWriter.writeVaruint` and read by `BitReader.readVaruint`.

/** Zigzag of a `vari16` / `vari32` value (an int32) to its unsigned form. */
export function zigzag32(v: number): number {
  return ((v << 1) ^ (v >> 31)) >>> 0;
}

/** Inverse of {@link zigzag32}. */
export function unzigzag32(u: number): number {
  return (u >>> 1) ^ -(u & 1);
}

/** Zigzag of a `vari64` value (a `bigint` in the `i64` range) to its unsigned form. */
export function zigzag64(v: bigint): bigint {
  return BigInt.asUintN(64, (v << 1n) ^ (v >> 63n));
}

/** Inverse of {@link zigzag64}. */
export function unzigzag64(u: bigint): bigint {
  return (u >> 1n) ^ -(u & 1n);
}
