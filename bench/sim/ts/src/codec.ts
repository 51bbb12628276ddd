// The clients' codecs (bench/sim/README.md, "Codecs"): what goes in a frame's Data, as
// bench/sim/rust/src/codec/mod.rs's `ClientCodec` has it. `bitwire`: the generated packed
// Input and Snapshot. `bitwire-delta`: packed inputs; snapshots in envelopes
// (docs/framing.md §10), decoded by the runtime's `SnapshotReceiver` (a ring of 32) with
// the generated delta decoder.

import { BitWriter, BitwireError, DEFAULT_RING, SnapshotError, SnapshotReceiver } from "@bitwire/runtime";
import { type Input, type Snapshot, decodeSnapshot, encodeInput, snapshotDeltaCodec } from "../gen/sim.js";

/** The codecs a TypeScript client runs. */
export const CODECS = ["bitwire", "bitwire-delta"] as const;
/** A codec's flag name (`--codec NAME`). */
export type CodecName = (typeof CODECS)[number];

/** Whether `name` is a codec the TypeScript clients run. */
export function isCodecName(name: string): name is CodecName {
  return (CODECS as readonly string[]).includes(name);
}

/** A snapshot that did not decode: the codec's name and the library's error. */
export class CodecError extends Error {
  /** The codec's flag name. */
  readonly codec: CodecName;

  constructor(codec: CodecName, cause: Error) {
    super(`${codec}: ${cause.message}`, { cause });
    this.name = "CodecError";
    this.codec = codec;
  }
}

/** A decoded snapshot and the value the client acknowledges it with (`Input.ack`). */
export interface Decoded {
  readonly snapshot: Snapshot;
  readonly ack: number;
}

/** One connection's codec on a client: encodes its inputs, decodes its snapshots. */
export interface ClientCodec {
  /** The codec's flag name. */
  readonly name: CodecName;
  /** The Data of the frame carrying `input` (a view of a reused buffer: frame it before the next call). */
  encodeInput(input: Input): Uint8Array;
  /**
   * The snapshot in the Data of a snapshot frame; `undefined` when the codec drops it (a
   * `bitwire-delta` envelope not newer than the newest decoded, §10.4). Throws a
   * {@link CodecError} for Data that does not decode.
   */
  decodeSnapshot(data: Uint8Array): Decoded | undefined;
}

/** A new client side of codec `name`, for one connection. */
export function clientCodec(name: CodecName): ClientCodec {
  return name === "bitwire" ? new PackedClient() : new DeltaClient();
}

/** `bitwire`: a full packed snapshot every tick, acknowledged with its tick's low 16 bits. */
class PackedClient implements ClientCodec {
  readonly name = "bitwire";
  private readonly writer = new BitWriter(16);

  encodeInput(input: Input): Uint8Array {
    return encodeInput(input, this.writer);
  }

  decodeSnapshot(data: Uint8Array): Decoded {
    let snapshot: Snapshot;
    try {
      snapshot = decodeSnapshot(data);
    } catch (e) {
      throw e instanceof BitwireError ? new CodecError(this.name, e) : e;
    }
    return { snapshot, ack: snapshot.tick & 0xffff };
  }
}

/** `bitwire-delta`: envelopes through a receiver ring, acknowledged with the envelope's Seq. */
class DeltaClient implements ClientCodec {
  readonly name = "bitwire-delta";
  private readonly writer = new BitWriter(16);
  private readonly receiver = new SnapshotReceiver(snapshotDeltaCodec, DEFAULT_RING);

  encodeInput(input: Input): Uint8Array {
    return encodeInput(input, this.writer);
  }

  decodeSnapshot(data: Uint8Array): Decoded | undefined {
    try {
      const got = this.receiver.decode(data);
      return got === undefined ? undefined : { snapshot: got.value, ack: got.seq };
    } catch (e) {
      throw e instanceof SnapshotError ? new CodecError(this.name, e) : e;
    }
  }
}
