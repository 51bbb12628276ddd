// Raw frames on a connection (docs/framing.md): the simulator's frames carry different
// Data per codec (a packed Snapshot, or a snapshot envelope for `bitwire-delta`), so the
// clients read and write frames as `{ id, data }` over the runtime's stream framer and
// leave the Data to the codec (codec.ts). A `Protocol` of such frames is all the
// runtime's connections need.

import { type Protocol, varIntSize } from "@bitwire/runtime";

/** One frame: its PacketID, its Data, and when the connection read it (`performance.now()`, ms). */
export interface RawFrame {
  readonly id: number;
  readonly data: Uint8Array;
  readonly at: number;
}

/**
 * Frames as they are. Reading copies the Data (a runtime may reuse its read buffer: Deno's
 * adapter does) and stamps the time, so RTT counts from when the bytes were read rather
 * than from when the client got round to them; every id is accepted (the client, not the
 * connection, decides what an unexpected one means).
 */
export const rawProtocol: Protocol<RawFrame> = {
  messageId: (f) => f.id,
  isMessageId: () => true,
  encode: (f) => f.data,
  decode: (id, bytes) => ({ id, data: bytes.slice(), at: performance.now() }),
};

/** Bytes of a whole uncompressed frame with PacketID `id` and `dataLength` bytes of Data: Length, PacketID, Data. */
export function frameBytes(id: number, dataLength: number): number {
  const length = varIntSize(id) + dataLength;
  return varIntSize(length) + length;
}
