// `node:zlib` as the framer's zlib (docs/framing.md §9): `inflateSync` with
// `maxOutputLength` (work and memory stop one byte past DataLength) and `info: true`,
// whose `engine.bytesWritten` tells how much input the stream used, so bytes after it
// are caught. Node, Bun and Deno behave the same here (research probes, and the frame
// vectors run on all three).

import { deflateSync, inflateSync } from "node:zlib";
import type { InflateProblem, Zlib } from "../frame/zlib.js";

interface InflateInfo {
  buffer: Uint8Array;
  engine: { bytesWritten: number };
}

function inflate(stream: Uint8Array, size: number): Uint8Array | InflateProblem {
  let r: InflateInfo;
  try {
    r = inflateSync(stream, { maxOutputLength: size, info: true }) as unknown as InflateInfo;
  } catch (e) {
    if ((e as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE") {
      return { kind: "SizeMismatch", note: "it inflates to more bytes than declared" };
    }
    return { kind: "BadZlib", note: e instanceof Error ? e.message : String(e) };
  }
  if (r.buffer.length !== size) {
    return { kind: "SizeMismatch", note: `it inflates to ${r.buffer.length} bytes, not ${size}` };
  }
  if (r.engine.bytesWritten !== stream.length) {
    return { kind: "TrailingBytes", note: `${stream.length - r.engine.bytesWritten} bytes after the zlib stream` };
  }
  return r.buffer;
}

/** The framer's zlib over `node:zlib` (level 6, zlib's default, when compressing). */
export const nodeZlib: Zlib = Object.freeze({
  name: "node:zlib",
  deflate: (data: Uint8Array): Uint8Array => deflateSync(data),
  inflate,
});
