// Writing frames (docs/framing.md §2–§4): the PacketID, the message's bytes, and the
// Length in front; with a threshold, compressed iff the body is at least the threshold
// (vanilla's rule). A frame a reader with the same settings would reject is an error
// here, not bytes on the wire.

import { FrameError } from "./errors.js";
import { type FrameOptions, type FrameSettings, frameSettings } from "./settings.js";
import { MAX_VARINT, putVarInt, varIntSize } from "./varint.js";

/**
 * The frame of message id `id` with the packed bytes `data`, in a new array.
 * Throws a {@link FrameError} `FrameTooLarge` when the frame's Length would exceed
 * `maxFrame`, or `DataTooLarge` when a compressed body would exceed `maxData`, and a
 * `RangeError` for an id outside 0 ..= 2^31 − 1.
 */
export function encodeFrame(id: number, data: Uint8Array, options?: FrameOptions | FrameSettings): Uint8Array {
  const s = frameSettings(options);
  if (!(Number.isInteger(id) && id >= 0 && id <= MAX_VARINT)) {
    throw new RangeError(`bitwire: message id ${id} is not in 0..=2147483647`);
  }
  const n = varIntSize(id) + data.length;
  const t = s.threshold;
  if (t === null || n < t) {
    // PacketID ‖ Data, after a DataLength of 0 when there is a threshold.
    const prefix = t === null ? 0 : 1;
    const out = frame(s, prefix + n);
    let at = putVarInt(out, 0, prefix + n);
    if (prefix === 1) {
      out[at++] = 0;
    }
    out.set(data, putVarInt(out, at, id));
    return out;
  }
  if (n > s.maxData) {
    throw new FrameError("DataTooLarge", 0, { dataLength: n, max: s.maxData, note: "writing" });
  }
  const plain = new Uint8Array(n);
  plain.set(data, putVarInt(plain, 0, id));
  const z = s.zlib.deflate(plain);
  const length = varIntSize(n) + z.length;
  const out = frame(s, length);
  out.set(z, putVarInt(out, putVarInt(out, 0, length), n));
  return out;
}

/** An array for a frame whose Length is `length`; `FrameTooLarge` above `maxFrame`. */
function frame(s: FrameSettings, length: number): Uint8Array {
  if (length > s.maxFrame) {
    throw new FrameError("FrameTooLarge", 0, { length, max: s.maxFrame, note: "writing" });
  }
  return new Uint8Array(varIntSize(length) + length);
}
