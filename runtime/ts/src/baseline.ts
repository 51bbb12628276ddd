// Baselines for delta snapshots (docs/framing.md §10, spec §12.8): the envelope that
// carries a snapshot's sequence number and baseline, the sender's ring of the last N
// snapshots sent to one peer, and the receiver's ring of the last N it decoded.
//
// A server keeps one SnapshotSender per connection; each tick `encode` writes the
// envelope — a 3-byte header (`seq` u16 little-endian, `back` u8) and the body, the
// snapshot encoded against the newest one the client acknowledged (spec §12) or in full
// (spec §2) when there is none. The client's input messages carry the receiver's `ack`
// and `needFull`; the server passes them to `ack()` and `requestFull()`. The envelope
// is a frame's Data, sent with the snapshot message's id: the generated `Message` union
// carries it as `{ kind: "World", envelope }` for a `delta message` World
// (docs/framing.md §10.8).

import { BitwireError, truncatedError, typeError } from "./errors.js";
import type { Limits } from "./limits.js";

/** The ring size by default: the last 32 snapshots (Quake 3's PACKET_BACKUP), half a second at 60 Hz. */
export const DEFAULT_RING = 32;
/** Bytes of a snapshot header on the wire. */
export const SNAPSHOT_HEADER_BYTES = 3;

/** Every snapshot error kind of docs/framing.md §10.5, in its order. */
export const SNAPSHOT_ERROR_KINDS = ["Truncated", "BaselineMissing", "BaselineStale", "Message", "AckNotSent"] as const;

/**
 * What went wrong (docs/framing.md §10.5): `Truncated` (shorter than the header),
 * `BaselineMissing` (the receiver never decoded the baseline), `BaselineStale` (`back`
 * above the receiver's ring size), `Message` (the body does not encode or decode; the
 * packed error is the `cause`), `AckNotSent` (an acknowledgement of nothing sent).
 */
export type SnapshotErrorKind = (typeof SNAPSHOT_ERROR_KINDS)[number];

/** A snapshot envelope that cannot be decoded, a body that cannot be encoded, or an acknowledgement of nothing sent. */
export class SnapshotError extends Error {
  /** The error kind (docs/framing.md §10.5): the contract; the message is not. */
  readonly kind: SnapshotErrorKind;
  /** For kind `Message`: the packed error of the body. */
  declare readonly cause?: BitwireError;

  /** A new snapshot error; `cause` is the packed error of a `Message` error. */
  constructor(kind: SnapshotErrorKind, message: string, cause?: BitwireError) {
    super(`${kind}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = "SnapshotError";
    this.kind = kind;
  }
}

/** The header of a snapshot envelope (docs/framing.md §10.1). */
export interface SnapshotHeader {
  /** The snapshot's sequence number modulo 2^16: the sender numbers the snapshots it sends to one peer 0, 1, 2, … */
  readonly seq: number;
  /** 0: the body is the full encoding (spec §2); `k`: the delta (spec §12) against snapshot `seq - k` (modulo 2^16). */
  readonly back: number;
}

/** The baseline's sequence number of a header, or `undefined` for a full snapshot. */
export function snapshotBase(h: SnapshotHeader): number | undefined {
  return h.back === 0 ? undefined : (h.seq - h.back) & 0xffff;
}

/** The envelope of header `h` and `body`: `seq` little-endian, `back`, then the body. */
export function encodeSnapshotHeader(h: SnapshotHeader, body: Uint8Array = new Uint8Array(0)): Uint8Array {
  const out = new Uint8Array(SNAPSHOT_HEADER_BYTES + body.length);
  out[0] = h.seq & 0xff;
  out[1] = (h.seq >>> 8) & 0xff;
  out[2] = h.back;
  out.set(body, SNAPSHOT_HEADER_BYTES);
  return out;
}

/**
 * The header at the front of an envelope and the body (a view of the rest). Fewer than
 * 3 bytes is a `SnapshotError` of kind `Truncated`; every header value is valid.
 */
export function decodeSnapshotHeader(packet: Uint8Array): { header: SnapshotHeader; body: Uint8Array } {
  if (packet.length < SNAPSHOT_HEADER_BYTES) {
    throw new SnapshotError("Truncated", `${packet.length} bytes, the header needs 3`);
  }
  const header = { seq: packet[0]! | (packet[1]! << 8), back: packet[2]! };
  return { header, body: packet.subarray(SNAPSHOT_HEADER_BYTES) };
}

/**
 * The envelope a frame's Data holds, copied: how the generated protocol decodes a frame
 * of a `delta message` (docs/framing.md §10.8). Fewer than 3 bytes is a `BitwireError`
 * `Truncated` at bit 0 (on a connection, a `FrameError` of kind `Message`); the body is
 * the receiver's to check.
 */
export function readEnvelope(data: Uint8Array): Uint8Array {
  if (data.length < SNAPSHOT_HEADER_BYTES) {
    throw truncatedError(0, 8 * SNAPSHOT_HEADER_BYTES, 8 * data.length);
  }
  return data.slice();
}

/**
 * The bytes the generated protocol writes for a `delta message`: the envelope itself
 * (`SentSnapshot.bytes`), which must hold at least the 3-byte header (`Truncated` at
 * bit 0 otherwise, as `readEnvelope` would say; `Truncated` with a type detail for
 * something that is not a `Uint8Array`, from untyped JavaScript).
 */
export function writeEnvelope(envelope: Uint8Array): Uint8Array {
  if (!(envelope instanceof Uint8Array)) {
    throw typeError("Truncated", 0, envelope, "a Uint8Array (a snapshot envelope)");
  }
  if (envelope.length < SNAPSHOT_HEADER_BYTES) {
    throw truncatedError(0, 8 * SNAPSHOT_HEADER_BYTES, 8 * envelope.length);
  }
  return envelope;
}

/** Whether sequence number `a` is newer than `b` in serial-number arithmetic on 16 bits (RFC 1982). */
export function seqNewer(a: number, b: number): boolean {
  const d = (a - b) & 0xffff;
  return d !== 0 && d < 0x8000;
}

/**
 * The encodings of a delta message: generated code's `encodeT`, `encodeDeltaT`,
 * `decodeT`, `decodeDeltaT` (an object of functions).
 */
export interface DeltaCodec<T> {
  /** The full top-level encoding (spec §2). */
  readonly encode: (value: T) => Uint8Array;
  /** The top-level delta encoding of `value` against `base` (spec §12). */
  readonly encodeDelta: (base: T, value: T) => Uint8Array;
  /** The value a full encoding holds, within `limits` (spec §11). */
  readonly decode: (bytes: Uint8Array, limits?: Limits) => T;
  /** The value a delta against `base` encodes, within `limits`. */
  readonly decodeDelta: (base: T, bytes: Uint8Array, limits?: Limits) => T;
}

/** A snapshot `SnapshotSender.encode` wrote: its header and the envelope. */
export interface SentSnapshot extends SnapshotHeader {
  /** The envelope: header and body (a frame's Data). */
  readonly bytes: Uint8Array;
}

/** A snapshot `SnapshotReceiver.decode` decoded. */
export interface ReceivedSnapshot<T> {
  /** Its sequence number. */
  readonly seq: number;
  /** Whether it came in full (`back` 0) rather than as a delta. */
  readonly full: boolean;
  /** The snapshot, as stored in the receiver's ring. */
  readonly value: T;
}

/**
 * The ring both ends keep: N slots, snapshot `e` in slot `e mod N`, where `e` is the
 * sequence number unwrapped (the wire carries its low 16 bits; serial-number arithmetic
 * recovers the rest, docs/framing.md §10.2). Each slot remembers its `e`.
 */
class Ring<T> {
  private readonly exts: number[];
  private readonly values: (T | undefined)[];

  constructor(n: number) {
    if (!Number.isInteger(n) || n < 1 || n > 255) {
      throw new RangeError(`the ring size must be an integer in 1..=255, not ${n}`);
    }
    this.exts = new Array<number>(n).fill(-1);
    this.values = new Array<T | undefined>(n).fill(undefined);
  }

  get size(): number {
    return this.exts.length;
  }

  has(ext: number): boolean {
    return ext >= 0 && this.exts[ext % this.size] === ext;
  }

  /** Snapshot `ext`; only after `has(ext)`. */
  get(ext: number): T {
    return this.values[ext % this.size] as T;
  }

  put(ext: number, value: T): void {
    this.exts[ext % this.size] = ext;
    this.values[ext % this.size] = value;
  }
}

/** `newest + d`, `d` = `seq - newest` modulo 2^16 read as a signed 16-bit number (may be below 0). */
function unwrapSeq(newest: number, seq: number): number {
  const d = (((seq - newest) & 0xffff) << 16) >> 16;
  return newest + d;
}

function isSeq(seq: unknown): seq is number {
  return typeof seq === "number" && Number.isInteger(seq) && seq >= 0 && seq <= 0xffff;
}

/**
 * The sending end for one peer (docs/framing.md §10.3): a ring of the last N snapshots
 * sent, the newest one the peer acknowledged, and whether it asked for a full snapshot.
 * `encode` keeps the value it is given (do not change it afterwards: build each
 * snapshot anew). Memory: at most N values.
 */
export class SnapshotSender<T> {
  private readonly codec: DeltaCodec<T>;
  private readonly ring: Ring<T>;
  private last = -1;
  private ackedExt = -1;
  private fullRequested = false;

  /**
   * A sender keeping the last `ring` snapshots (1..=255; the receiver's ring must be at
   * least as large, or deltas that far back are `BaselineStale` there).
   */
  constructor(codec: DeltaCodec<T>, ring: number = DEFAULT_RING) {
    this.codec = codec;
    this.ring = new Ring(ring);
  }

  /**
   * The peer decoded snapshot `seq` (the acknowledgement in its input message).
   * Acknowledgements older than the newest one so far, or of a snapshot no longer in the
   * ring, change nothing; one of a snapshot never sent (newer than the last one sent in
   * serial-number arithmetic, before the first, or not a sequence number at all) throws
   * a `SnapshotError` of kind `AckNotSent` and changes nothing either.
   */
  ack(seq: number): void {
    const ext = this.last >= 0 && isSeq(seq) ? unwrapSeq(this.last, seq) : -1;
    if (ext < 0 || ext > this.last) {
      const newest = this.last >= 0 ? ` (the newest is ${this.last & 0xffff})` : " (nothing was)";
      throw new SnapshotError("AckNotSent", `snapshot ${String(seq)} was not sent${newest}`);
    }
    if (ext > this.ackedExt && this.ring.has(ext)) {
      this.ackedExt = ext;
    }
  }

  /** The peer asked for a full snapshot (its receiver's `needFull`): the next `encode` sends one. */
  requestFull(): void {
    this.fullRequested = true;
  }

  /**
   * The envelope of the next snapshot: its header, then `value` encoded against the
   * newest acknowledged snapshot still in the ring, or in full (`back` 0) when there is
   * none or a full snapshot was requested; then keeps `value` under its sequence number.
   * An encoding error throws a `SnapshotError` of kind `Message` (the packed error its
   * `cause`) and leaves the sender as it was.
   */
  encode(value: T): SentSnapshot {
    const ext = this.last + 1;
    const delta = !this.fullRequested && this.ackedExt >= 0 && this.ring.has(this.ackedExt);
    let body: Uint8Array;
    try {
      body = delta ? this.codec.encodeDelta(this.ring.get(this.ackedExt), value) : this.codec.encode(value);
    } catch (e) {
      if (e instanceof BitwireError) {
        throw new SnapshotError("Message", `snapshot ${ext & 0xffff}: ${e.message}`, e);
      }
      throw e;
    }
    // The acknowledged snapshot is in the ring, so at most N back.
    const header = { seq: ext & 0xffff, back: delta ? ext - this.ackedExt : 0 };
    const bytes = encodeSnapshotHeader(header, body);
    this.ring.put(ext, value);
    this.last = ext;
    this.fullRequested = false;
    return { ...header, bytes };
  }

  /** The sequence number of the last snapshot encoded. */
  get lastSeq(): number | undefined {
    return this.last >= 0 ? this.last & 0xffff : undefined;
  }

  /** The newest acknowledged snapshot: the next delta's baseline while it is in the ring. */
  get acked(): number | undefined {
    return this.ackedExt >= 0 ? this.ackedExt & 0xffff : undefined;
  }

  /** The ring's size, N. */
  get ringSize(): number {
    return this.ring.size;
  }
}

/**
 * The receiving end (docs/framing.md §10.4): a ring of the last N snapshots decoded,
 * the newest one's sequence number (`ack`, what the client acknowledges) and whether to
 * ask for a full snapshot (`needFull`). Memory: at most N values; a header never makes it
 * allocate.
 */
export class SnapshotReceiver<T> {
  private readonly codec: DeltaCodec<T>;
  private readonly ring: Ring<T>;
  private readonly limits: Limits | undefined;
  private newest = -1;
  private needsFull = false;

  /** A receiver keeping the last `ring` snapshots (1..=255), decoding bodies within `limits` (spec §11). */
  constructor(codec: DeltaCodec<T>, ring: number = DEFAULT_RING, limits?: Limits) {
    this.codec = codec;
    this.ring = new Ring(ring);
    this.limits = limits;
  }

  /** The sequence number of the newest snapshot decoded, for the client's input messages. */
  get ack(): number | undefined {
    return this.newest >= 0 ? this.newest & 0xffff : undefined;
  }

  /** Whether to ask for a full snapshot: set when `decode` throws, cleared when it succeeds. */
  get needFull(): boolean {
    return this.needsFull;
  }

  /** The ring's size, N. */
  get ringSize(): number {
    return this.ring.size;
  }

  /** The newest snapshot decoded. */
  latest(): { seq: number; value: T } | undefined {
    return this.newest >= 0 ? { seq: this.newest & 0xffff, value: this.ring.get(this.newest) } : undefined;
  }

  /**
   * Decodes a snapshot envelope (a frame's Data), in the order of docs/framing.md §10.4:
   * fewer than 3 bytes throws `Truncated`; a sequence number not newer than the newest
   * decoded (a duplicate, a late packet) returns `undefined`, reading and changing
   * nothing; a delta whose `back` is above the ring size throws `BaselineStale`, one whose
   * baseline the ring does not hold `BaselineMissing` (both before reading the body); a
   * body that does not decode throws `Message`. Any throw sets `needFull` and changes
   * nothing else; a decoded snapshot clears it, is stored and becomes the newest.
   */
  decode(packet: Uint8Array): ReceivedSnapshot<T> | undefined {
    try {
      return this.decodeStep(packet);
    } catch (e) {
      this.needsFull = true;
      throw e;
    }
  }

  private decodeStep(packet: Uint8Array): ReceivedSnapshot<T> | undefined {
    const { header, body } = decodeSnapshotHeader(packet);
    let ext = header.seq;
    if (this.newest >= 0) {
      ext = unwrapSeq(this.newest, header.seq);
      if (ext <= this.newest) {
        return undefined;
      }
    }
    let value: T;
    try {
      // `baseline` throws its SnapshotError before any body bit is read.
      value = header.back === 0 ? this.codec.decode(body, this.limits) : this.codec.decodeDelta(this.baseline(ext, header), body, this.limits);
    } catch (e) {
      if (e instanceof BitwireError) {
        throw new SnapshotError("Message", `snapshot ${header.seq}: ${e.message}`, e);
      }
      throw e;
    }
    this.ring.put(ext, value);
    this.newest = ext;
    this.needsFull = false;
    return { seq: header.seq, full: header.back === 0, value };
  }

  /** The baseline of delta `header` (snapshot `ext`), or the error why there is none. */
  private baseline(ext: number, header: SnapshotHeader): T {
    const base = ext - header.back;
    if (header.back > this.ring.size) {
      throw new SnapshotError(
        "BaselineStale",
        `snapshot ${header.seq} is a delta against ${base & 0xffff}, ${header.back} back; the ring holds ${this.ring.size}`,
      );
    }
    if (!this.ring.has(base)) {
      throw new SnapshotError("BaselineMissing", `snapshot ${header.seq} is a delta against ${base & 0xffff}, which was not decoded`);
    }
    return this.ring.get(base);
  }
}
