// Frames of a schema's messages: the bridge between the framer and the dispatch that
// generated code provides (`Message`, `messageId`, `encodeMessage`, `decodeMessage`).
// Generated code hands its functions over as a `Protocol` and prints one-line calls;
// every wire decision stays here, in the framer.

import { BitwireError } from "../errors.js";
import type { Limits } from "../limits.js";
import type { BitWriter } from "../writer.js";
import type { Frame } from "./body.js";
import { FrameError } from "./errors.js";
import type { FrameOptions, FrameSettings } from "./settings.js";
import { encodeFrame } from "./writer.js";

/**
 * A schema's messages, as generated code exports them (`protocol`): what a framer or
 * connection needs to turn a frame into a typed message and back.
 */
export interface Protocol<M> {
  /** The dispatch id of a message. */
  readonly messageId: (m: M) => number;
  /** Whether some message of the schema has dispatch id `id`. */
  readonly isMessageId: (id: number) => boolean;
  /** The packed bytes of a message (a view of `w`'s buffer when given one). */
  readonly encode: (m: M, w?: BitWriter) => Uint8Array;
  /** The message with dispatch id `id` (a declared one) from its packed bytes. */
  readonly decode: (id: number, bytes: Uint8Array, limits?: Limits) => M;
}

/** The frame of message `m` (see {@link encodeFrame} for its errors). */
export function encodeMessageFrame<M>(
  protocol: Protocol<M>,
  m: M,
  options?: FrameOptions | FrameSettings,
  w?: BitWriter,
): Uint8Array {
  return encodeFrame(protocol.messageId(m), protocol.encode(m, w), options);
}

/**
 * The message a frame carries: `UnknownMessage` for an id the schema does not have,
 * `Message` (with the packed error as `cause`) for bytes that do not decode.
 */
export function decodeMessageFrame<M>(protocol: Protocol<M>, frame: Frame, limits?: Limits): M {
  if (!protocol.isMessageId(frame.id)) {
    throw new FrameError("UnknownMessage", frame.offset, { messageId: frame.id });
  }
  try {
    return protocol.decode(frame.id, frame.data, limits);
  } catch (e) {
    if (e instanceof BitwireError) {
      throw new FrameError("Message", frame.offset, { messageId: frame.id }, e);
    }
    throw e;
  }
}
