// The body of one frame (docs/framing.md §3.2, §4): after its Length, the optional
// DataLength and zlib stream, then the PacketID and the message bytes. Shared by the
// stream reader and the WebSocket reader.

import { FrameError } from "./errors.js";
import type { FrameSettings } from "./settings.js";
import { readVarInt } from "./varint.js";

/** One frame as a reader yields it (docs/framing.md §2, §3). */
export interface Frame {
  /** The PacketID: the schema's message id. */
  readonly id: number;
  /**
   * The message's packed bytes (Data), inflated when the frame was compressed. A view
   * into the reader's buffers or the chunk that held it: decode it (the generated
   * `decodeFrame`) or copy it before feeding the reader more bytes.
   */
  readonly data: Uint8Array;
  /** Byte offset of the frame's first byte in the stream (or WebSocket message). */
  readonly offset: number;
}

/**
 * Reads the body `b` (the bytes the Length counts) of the frame at stream offset
 * `offset`; `ws` is the WebSocket message index for errors, if any.
 */
export function readBody(s: FrameSettings, b: Uint8Array, offset: number, ws?: number): Frame {
  const at = ws === undefined ? {} : { wsMessage: ws };
  let body = b;
  if (s.threshold !== null) {
    const dl = readVarInt(b, 0, b.length);
    if (typeof dl === "string") {
      throw varIntError(dl, offset, at);
    }
    const rest = b.subarray(dl.width);
    if (dl.value !== 0) {
      if (dl.value < s.threshold) {
        throw new FrameError("BelowThreshold", offset, { ...at, dataLength: dl.value, threshold: s.threshold });
      }
      if (dl.value > s.maxData) {
        throw new FrameError("DataTooLarge", offset, { ...at, dataLength: dl.value, max: s.maxData });
      }
      const inflated = s.zlib.inflate(rest, dl.value);
      if (!(inflated instanceof Uint8Array)) {
        throw new FrameError(inflated.kind, offset, { ...at, dataLength: dl.value, note: inflated.note });
      }
      body = inflated;
    } else {
      body = rest;
    }
  }
  const id = readVarInt(body, 0, body.length);
  if (typeof id === "string") {
    throw varIntError(id, offset, at);
  }
  return { id: id.value, data: body.subarray(id.width), offset };
}

/** The error of a DataLength or PacketID that is not a VarInt of the frame format. */
function varIntError(r: "short" | "long" | "nonminimal", offset: number, at: { wsMessage?: number }): FrameError {
  switch (r) {
    case "short":
      return new FrameError("Truncated", offset, { ...at, note: "a VarInt runs past the end of its frame" });
    case "long":
      return new FrameError("VarIntTooLong", offset, { ...at, note: "a VarInt of more than 5 bytes or a value of 2^31 or more" });
    case "nonminimal":
      return new FrameError("NonMinimalVarInt", offset, { ...at, note: "a VarInt longer than needed" });
  }
}

/**
 * The Length (PacketLength) at `buf[at..end)` (docs/framing.md §2.2): its value and
 * width, `undefined` when more bytes are needed, or the error, checked in the order
 * LengthTooWide (as soon as a third byte with a continuation bit is seen),
 * NonMinimalVarInt, ZeroLength, FrameTooLarge.
 */
export function readLength(
  s: FrameSettings,
  buf: Uint8Array,
  at: number,
  end: number,
  offset: number,
  ws?: number,
): { length: number; width: number } | undefined {
  let value = 0;
  for (let i = 0; i < 3; i++) {
    if (at + i >= end) {
      return undefined;
    }
    const b = buf[at + i] as number;
    value |= (b & 0x7f) << (7 * i);
    if ((b & 0x80) !== 0) {
      continue;
    }
    const where = ws === undefined ? {} : { wsMessage: ws };
    if (b === 0 && i > 0) {
      throw new FrameError("NonMinimalVarInt", offset, { ...where, note: "a Length longer than needed" });
    }
    if (value === 0) {
      throw new FrameError("ZeroLength", offset, where);
    }
    if (value > s.maxFrame) {
      throw new FrameError("FrameTooLarge", offset, { ...where, length: value, max: s.maxFrame });
    }
    return { length: value, width: i + 1 };
  }
  throw new FrameError("LengthTooWide", offset, ws === undefined ? {} : { wsMessage: ws });
}
