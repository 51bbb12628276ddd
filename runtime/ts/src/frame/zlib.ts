// The zlib the framer calls (docs/framing.md §3): one interface, two implementations.
//
// Inflating must be synchronous and bounded everywhere: into a buffer of exactly the
// declared DataLength, stopping one byte past it, so a zlib bomb costs at most
// `maxData` bytes. Browsers' `DecompressionStream` is asynchronous and its strictness
// differs between engines, so the default here is bitwire's own inflater
// (`inflate.ts`, RFC 1950/1951) and deflater (`deflate.ts`), in plain JavaScript.
// `@bitwire/runtime/node` provides `nodeZlib` over `node:zlib` (Node, Bun and Deno all
// have it), which the core must not import: browsers have no `node:zlib`.

import { deflateZlib } from "./deflate.js";
import { inflateZlib } from "./inflate.js";

/** Why a compressed body was refused; the framer reports it as that kind. */
export type InflateProblem = {
  readonly kind: "BadZlib" | "SizeMismatch" | "TrailingBytes";
  /** What the inflater found, for the error's message. */
  readonly note: string;
};

/** A synchronous, bounded zlib (RFC 1950) for the framer. */
export interface Zlib {
  /** A name for messages and tests (`"js"`, `"node:zlib"`). */
  readonly name: string;
  /** The zlib stream of `data` (any valid stream will do: readers accept all). */
  deflate(data: Uint8Array): Uint8Array;
  /**
   * Inflates the zlib stream `stream`, which must inflate to exactly `size` bytes
   * (1 ≤ size) and end at its last byte. Returns the bytes, or the problem:
   * `BadZlib` (bad header, deflate data or Adler-32, a stream that stops early),
   * `SizeMismatch` (more or fewer bytes than `size`: work stops at `size + 1`),
   * `TrailingBytes` (bytes after the stream).
   */
  inflate(stream: Uint8Array, size: number): Uint8Array | InflateProblem;
}

/** bitwire's own zlib, in plain JavaScript: runs unchanged on every runtime and browser. */
export const jsZlib: Zlib = Object.freeze({
  name: "js",
  deflate: deflateZlib,
  inflate: inflateZlib,
});
