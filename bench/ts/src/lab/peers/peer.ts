// What every peer on the game datasets (peers/packet64.ts, input.ts, snapshot.ts,
// events.ts) is made of: the `Peer` a dataset's module hands to main.ts, the notes shown in
// the report, the frame copies, the ring the decoded values are kept in, and msgpackr's
// peer, which is the same code on every dataset (its loops are still msgpackr's alone:
// no call site is shared between libraries).

import { FLOAT32_OPTIONS, Packr, isNativeAccelerationEnabled } from "msgpackr";

/** One library on one dataset, ready to time. */
export interface Peer {
  library: string;
  /** Shown in the report. */
  note: string | undefined;
  /** The library's encoding of each message (copies): decode input and byte count. */
  frames: Uint8Array[];
  /** One timed pass: encodes the first `count` messages. */
  encodeAll(count: number): number;
  /** One timed pass: decodes the first `count` frames. */
  decodeAll(count: number): number;
  /** Untimed: frame `i` decoded into bitwire's shape, for the comparison. */
  check(i: number): unknown;
  /** Whether the frames must be the corpus bytes (bitwire's wire format). */
  bitwireBytes: boolean;
}

export const NOTES = {
  bitwire: "generated encodeX into one reused BitWriter; decodeX builds the objects",
  handwritten: "DataView/bit-shift code written by hand, same bytes as bitwire (checked)",
  flatbuffers:
    "one Builder reused (clear()); decode = new ByteBuffer + getRootAsX + read every field in place (accessor objects reused; flatbuffers TS has no verifier)",
  "protobuf-es": "@bufbuild/protobuf v2: create() untimed, toBinary / fromBinary",
  msgpackr: `Packr({useRecords: false, useFloat32: ALWAYS}): plain msgpack maps of the same objects, f32 fields as float32; decode = unpack; native string acceleration (msgpackr-extract) ${isNativeAccelerationEnabled ? "on" : "off"}`,
} as const;

/** Allocation counts are not measured in JavaScript; said once, on the first record. */
export const ALLOC_NOTE = "JS has no allocation counter: encode_allocs/decode_allocs are null for every TS record";

function packr(): Packr {
  return new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
}

/**
 * Each message's encoding, copied into one shared buffer (one view per message: a million
 * separate copies would each carry an ArrayBuffer of their own).
 */
export function copies(n: number, enc: (i: number) => Uint8Array): Uint8Array[] {
  let buf = new Uint8Array(1 << 16);
  const ends: number[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const b = enc(i);
    if (at + b.length > buf.length) {
      const bigger = new Uint8Array(Math.max(buf.length * 2, at + b.length));
      bigger.set(buf.subarray(0, at));
      buf = bigger;
    }
    buf.set(b, at);
    at += b.length;
    ends.push(at);
  }
  const out: Uint8Array[] = [];
  let start = 0;
  for (const end of ends) {
    out.push(buf.subarray(start, end));
    start = end;
  }
  return out;
}

/**
 * Decoded values are stored, as an application would store them (an engine could
 * otherwise drop the objects of one contender and not another), in a ring of the last
 * 1024: they escape, but most die young. Keeping every decoded value of a large dataset
 * alive makes V8 pretenure whichever allocation site sees survivors first, which then
 * decides the comparison more than the decoders do.
 */
export const KEEP_MASK = 1023;

export function kept(): unknown[] {
  return new Array<unknown>(KEEP_MASK + 1).fill(undefined);
}

/** msgpackr on one dataset's values: `pack` the objects as they are, `unpack` them. */
export function msgpackrPeer(values: readonly unknown[]): Peer {
  const n = values.length;
  const pk = packr();
  const frames = copies(n, (i) => pk.pack(values[i]));
  const out = kept();
  return {
    library: "msgpackr",
    note: NOTES.msgpackr,
    frames,
    bitwireBytes: false,
    encodeAll(count) {
      let s = 0;
      for (let i = 0; i < count; i++) {
        s += pk.pack(values[i]).length;
      }
      return s;
    },
    decodeAll(count) {
      for (let i = 0; i < count; i++) {
        out[i & KEEP_MASK] = pk.unpack(frames[i] as Uint8Array);
      }
      return count;
    },
    check: (i) => pk.unpack(frames[i] as Uint8Array),
  };
}
