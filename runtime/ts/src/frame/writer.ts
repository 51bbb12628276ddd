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
export function encodeFrame(id: number, data: Uint8Array, options: FrameOptions | FrameSettings = {}): Uint8Array {
  const s = frameSettings(options);
  if (!(Number.isInteger(id) && id >= 0 && id <= MAX_VARINT)) {
    throw new RangeError(`bitwire: message id ${id} is not in 0..=2147483647`);
  }
  const idSize = varIntSize(id);
  const n = idSize + data.length;
  if (s.threshold === null) {
    return frame(s, 0, n, (out, at) => {
      out.set(data, putVarInt(out, at, id));
    });
  }
  if (n < s.threshold) {
    return frame(s, 1, n, (out, at) => {
      out[at] = 0;
      out.set(data, putVarInt(out, at + 1, id));
    });
  }
  if (n > s.maxData) {
    throw new FrameError("DataTooLarge", 0, { dataLength: n, max: s.maxData, note: "writing" });
  }
  const plain = new Uint8Array(n);
  plain.set(data, putVarInt(plain, 0, id));
  const z = s.zlib.deflate(plain);
  return frame(s, varIntSize(n), z.length, (out, at) => {
    out.set(z, putVarInt(out, at, n));
  });
}

/**
 * A frame whose Length counts `prefix + len` bytes, `fill` writing them from `at`;
 * `FrameTooLarge` above `maxFrame`.
 */
function frame(s: FrameSettings, prefix: number, len: number, fill: (out: Uint8Array, at: number) => void): Uint8Array {
  const length = prefix + len;
  if (length > s.maxFrame) {
    throw new FrameError("FrameTooLarge", 0, { length, max: s.maxFrame, note: "writing" });
  }
  const out = new Uint8Array(varIntSize(length) + length);
  fill(out, putVarInt(out, 0, length));
  return out;
}
