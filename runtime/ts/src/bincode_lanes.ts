// Bulk copies of plain numbers for the bincode encoding (spec §13.8): the wire holds a
// list of `u16`…`u64`, `i8`…`i64`, `f32` or `f64` as the little-endian bytes of the
// numbers, which is exactly the memory of the matching typed array on a little-endian
// host. Encoding one is then one `set` of its bytes; decoding one is one copy into a
// new typed array, whatever the input's alignment (a typed array *view* of the input
// would need its offset to be a multiple of the element size, and would alias it).
// On a big-endian host (none of the runtimes' usual platforms), element by element
// through a DataView.

/**
 * Whether typed arrays hold numbers in the wire's byte order: true on every platform
 * Node, Bun, Deno and the major browsers run on; checked once, at load.
 */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A typed array of one of the lanes. */
export type LaneArray =
  | Int8Array
  | Uint16Array
  | Int16Array
  | Uint32Array
  | Int32Array
  | Float32Array
  | Float64Array
  | BigUint64Array
  | BigInt64Array;

/** The bytes of a typed array, as a view of the same memory. */
export function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * `count` elements of `size` bytes from the wire's bytes at `src[from..]`, as a new
 * typed array that `view` makes over a buffer of exactly their bytes: on a
 * little-endian host, a copy of the bytes (`slice`, which needs no zeroing first:
 * about twice as fast as a new array and a `set` on Bun, the same on Node); else a new
 * buffer filled by `get` per element (a DataView getter reading little-endian).
 * `littleEndian` is the host's byte order (a parameter for the tests).
 */
export function lanesFrom<T extends LaneArray>(
  src: Uint8Array,
  from: number,
  count: number,
  size: number,
  view: (buffer: ArrayBuffer) => T,
  get: (view: DataView, at: number) => number | bigint,
  littleEndian: boolean = LITTLE_ENDIAN_HOST,
): T {
  if (littleEndian) {
    return view(src.slice(from, from + count * size).buffer);
  }
  const out = view(new ArrayBuffer(count * size));
  const data = new DataView(src.buffer, src.byteOffset, src.byteLength);
  const dst = out as unknown as { [i: number]: number | bigint };
  for (let i = 0; i < count; i++) {
    dst[i] = get(data, from + i * size);
  }
  return out;
}
