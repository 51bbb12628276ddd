// Framing (docs/framing.md): VarInts, settings, the incremental reader, the WebSocket
// reader, the writer, the zlib interface with bitwire's own implementation, and the
// bridge to generated message dispatch. Standard JavaScript only, like the rest of the core.

export { FRAME_ERROR_KINDS, type FrameErrorKind, type FrameErrorDetail, FrameError } from "./errors.js";
export { MAX_VARINT, varIntSize, putVarInt, readVarInt, type VarIntRead } from "./varint.js";
export { MAX_FRAME, DEFAULT_MAX_DATA, type FrameOptions, type FrameSettings, frameSettings } from "./settings.js";
export type { Frame } from "./body.js";
export { FrameReader, WsFrameReader } from "./reader.js";
export { encodeFrame } from "./writer.js";
export { type Zlib, type InflateProblem, jsZlib } from "./zlib.js";
export { adler32 } from "./adler.js";
export { inflateZlib } from "./inflate.js";
export { deflateZlib } from "./deflate.js";
export { type Protocol, encodeMessageFrame, decodeMessageFrame } from "./protocol.js";
