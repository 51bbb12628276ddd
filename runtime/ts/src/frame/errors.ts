// Frame errors (docs/framing.md §7): what a framer reports when a stream or a WebSocket
// message is not a valid frame. Kinds are the contract, shared with the Rust and Go
// framers and the frame vectors; messages are not.
//
// `FrameError` is a sibling of `BitwireError`, not a subclass: its kinds are a different
// closed list and its position is a byte offset in the stream, not a bit in a message.
// A frame whose message does not decode is a `FrameError` of kind `Message` whose
// `cause` is the packed `BitwireError` (kind, bit relative to the start of the
// message's data, field path).

import type { BitwireError } from "../errors.js";

/** Every frame error kind of docs/framing.md §7, in its order. */
export const FRAME_ERROR_KINDS = [
  "Truncated",
  "LengthTooWide",
  "ZeroLength",
  "FrameTooLarge",
  "VarIntTooLong",
  "NonMinimalVarInt",
  "BelowThreshold",
  "DataTooLarge",
  "BadZlib",
  "SizeMismatch",
  "TrailingBytes",
  "UnknownMessage",
  "Message",
] as const;

/** What is wrong with a frame (docs/framing.md §7). */
export type FrameErrorKind = (typeof FRAME_ERROR_KINDS)[number];

/**
 * The values and limits involved, for messages and for code that wants them (the
 * vectors' `length`, `max`, `data_length`, `threshold`, `message_id`). Not part of the
 * contract beyond what the vectors compare.
 */
export interface FrameErrorDetail {
  /** A declared Length or PacketLength. */
  readonly length?: number;
  /** The limit it broke (`max_frame`, `max_data`). */
  readonly max?: number;
  /** A declared DataLength. */
  readonly dataLength?: number;
  /** The compression threshold. */
  readonly threshold?: number;
  /** A PacketID no message has. */
  readonly messageId?: number;
  /** The index of the WebSocket message, for WebSocket framing. */
  readonly wsMessage?: number;
  /** Anything else worth saying (the zlib problem). */
  readonly note?: string;
}

/**
 * A malformed frame: its {@link FrameErrorKind}, the byte offset in the stream (or in
 * the WebSocket message) of the first byte of the frame being read — for
 * `TrailingBytes` after a WebSocket frame, of the first byte after it — and a detail.
 * The message reads `FrameTooLarge at byte 0: length 1025 above max_frame 1024`.
 */
export class FrameError extends Error {
  /** The error kind (docs/framing.md §7). */
  readonly kind: FrameErrorKind;
  /** Byte offset of the frame in the stream (docs/framing.md §7). */
  readonly offset: number;
  /** The values and limits involved. */
  readonly detail: FrameErrorDetail;
  /** For kind `Message`: the packed decoder's error. */
  declare readonly cause?: BitwireError;

  /** A new frame error; `cause` is the packed error of a `Message` error. */
  constructor(kind: FrameErrorKind, offset: number, detail: FrameErrorDetail = {}, cause?: BitwireError) {
    super(describe(kind, offset, detail, cause), cause === undefined ? undefined : { cause });
    this.name = "FrameError";
    this.kind = kind;
    this.offset = offset;
    this.detail = detail;
  }
}

function describe(kind: FrameErrorKind, offset: number, d: FrameErrorDetail, cause: BitwireError | undefined): string {
  let s = `${kind} at byte ${offset}`;
  if (d.wsMessage !== undefined) {
    s += ` of WebSocket message ${d.wsMessage}`;
  }
  const parts: string[] = [];
  if (d.length !== undefined) {
    parts.push(d.max !== undefined && d.dataLength === undefined ? `length ${d.length} above max_frame ${d.max}` : `length ${d.length}`);
  }
  if (d.dataLength !== undefined) {
    if (d.threshold !== undefined) {
      parts.push(`data length ${d.dataLength} below the threshold ${d.threshold}`);
    } else if (d.max !== undefined) {
      parts.push(`data length ${d.dataLength} above max_data ${d.max}`);
    } else {
      parts.push(`data length ${d.dataLength}`);
    }
  }
  if (d.messageId !== undefined) {
    parts.push(`no message has id ${d.messageId}`);
  }
  if (d.note !== undefined) {
    parts.push(d.note);
  }
  if (cause !== undefined) {
    parts.push(cause.message);
  }
  return parts.length === 0 ? s : `${s}: ${parts.join(", ")}`;
}
