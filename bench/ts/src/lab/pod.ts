// The pod peers: one block of plain numbers (u64, u8 or f32) as one message, encoded and
// decoded by bitwire (bench/schemas/pod.bw), by hand (a u32 count and the raw
// little-endian values, a typed-array copy each way), FlatBuffers, protobuf-es and
// msgpackr, against memcpy (the block's bytes copied with Uint8Array.set into reused
// buffers each way, the baseline); and bitwire's bincode encoding, generated with
// --encoding bincode --typed-arrays (gen/typed/pod.ts: the blocks as typed arrays, one
// copy each way), with a fresh and with a reused ByteWriter. Each library gets the values in the form it takes (converted untimed):
// bitwire `bigint[]` / `Uint8Array` / `number[]` (its TypeScript mapping), FlatBuffers
// and the hand-written code typed arrays, protobuf-es `bigint[]` for fixed64 and
// `number[]` for float, msgpackr the arrays an application would hand it.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter, ByteWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";
import { FLOAT32_OPTIONS, Packr } from "msgpackr";

import * as bw from "../../gen/pod.js";
import * as bwt from "../../gen/typed/pod.js";
import * as fb from "../peers/fb/bitwire/bench/fb.js";
import * as pb from "../peers/pb/game_pb.js";

export type Elem = "u64" | "u8" | "f32";
export type PodValues = BigUint64Array | Uint8Array | Float32Array;

export const POD_LIBRARIES = [
  "bitwire",
  "bitwire-bincode",
  "bitwire-bincode-reuse",
  "handwritten",
  "memcpy",
  "flatbuffers",
  "protobuf-es",
  "msgpackr",
] as const;
export type PodLibrary = (typeof POD_LIBRARIES)[number];

export interface PodPeer {
  library: PodLibrary;
  note: string;
  /** One timed pass: encodes the block; the result may be a view of a reused buffer. */
  encode(): Uint8Array;
  /** One timed pass: decodes a block. */
  decode(frame: Uint8Array): unknown;
  /** Untimed: where the decoded block differs from the values, or null. */
  check(decoded: unknown): string | null;
}

export const POD_NOTES: Readonly<Record<PodLibrary, string>> = {
  bitwire: "generated encodePodX into one reused BitWriter; decode builds bigint[] (u64), a Uint8Array copy (u8; the values follow a 29-bit length, so they are not byte-aligned) or number[] (f32)",
  "bitwire-bincode":
    "generated with --encoding bincode --typed-arrays: encodeBincodePodX into a new ByteWriter per call, decodeBincodePodX (a new typed array, one copy)",
  "bitwire-bincode-reuse":
    "as bitwire-bincode, encoding into one reused ByteWriter; TypeScript has no decode-into, so decode is decodeBincodePodX as in bitwire-bincode",
  handwritten: "u32 count + the raw little-endian values: typed-array copy on encode and on decode (not bitwire's bytes)",
  memcpy: "the baseline: the block's bytes copied (Uint8Array.set) into a reused Uint8Array, and back into a reused typed array of the values",
  flatbuffers:
    "one Builder reused (clear()); u64 added one by one from a BigUint64Array (no typed-array path), u8/f32 via createValuesVector; decode = getRootAsX + valuesArray() (a zero-copy view) for u8/f32, values(i) into a BigUint64Array for u64",
  "protobuf-es": "packed repeated fixed64 (bigint[]) / float (number[]), bytes for u8 (decoded as a view of the input, no copy); toBinary / fromBinary",
  msgpackr: "Packr({useRecords: false, useFloat32: ALWAYS}): an array of uint64 / float32, bin for u8 (unpacked as a view of the input, no copy); decode = unpack",
};

/** Where two lists of numbers or bigints first differ, or null. */
export function elemDifference(a: ArrayLike<number | bigint>, b: ArrayLike<number | bigint>): string | null {
  if (a.length !== b.length) {
    return `length ${a.length} vs ${b.length}`;
  }
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x !== y && !(x !== x && y !== y)) {
      return `[${i}]: ${String(x)} vs ${String(y)}`;
    }
  }
  return null;
}

/** Conversions shared by the peers of one block, made on first use (untimed). */
export class PodInputs {
  private big: bigint[] | undefined;
  private nums: number[] | undefined;

  constructor(readonly elem: Elem, readonly values: PodValues) {}

  /** The u64 values as `bigint[]`. */
  bigints(): bigint[] {
    if (this.big === undefined) {
      const v = this.values as BigUint64Array;
      const out = new Array<bigint>(v.length);
      for (let i = 0; i < v.length; i++) {
        out[i] = v[i] as bigint;
      }
      this.big = out;
    }
    return this.big;
  }

  /** The f32 values as `number[]`. */
  numbers(): number[] {
    if (this.nums === undefined) {
      const v = this.values as Float32Array;
      const out = new Array<number>(v.length);
      for (let i = 0; i < v.length; i++) {
        out[i] = v[i] as number;
      }
      this.nums = out;
    }
    return this.nums;
  }
}

function valuesOf(decoded: unknown): ArrayLike<number | bigint> {
  return (decoded as { values: ArrayLike<number | bigint> }).values;
}

export function podPeer(library: PodLibrary, inp: PodInputs): PodPeer {
  const note = POD_NOTES[library];
  const src = inp.values;
  const check = (decoded: unknown): string | null => elemDifference(valuesOf(decoded), src);
  switch (library) {
    case "bitwire":
      return bitwirePodPeer(inp, note, check);
    case "bitwire-bincode":
    case "bitwire-bincode-reuse":
      return bincodePodPeer(library, inp, note, check);
    case "handwritten":
      return handwrittenPodPeer(inp, note, check);
    case "memcpy":
      return memcpyPodPeer(inp, note, check);
    case "flatbuffers":
      return flatbuffersPodPeer(inp, note, check);
    case "protobuf-es":
      return protobufPodPeer(inp, note, check);
    case "msgpackr":
      return msgpackrPodPeer(inp, note, check);
  }
}

function bitwirePodPeer(inp: PodInputs, note: string, check: PodPeer["check"]): PodPeer {
  const library = "bitwire";
  const src = inp.values;
  const w = new BitWriter(1024);
  if (inp.elem === "u64") {
    const v: bw.PodU64 = { values: inp.bigints() };
    return { library, note, encode: () => bw.encodePodU64(v, w), decode: (f) => bw.decodePodU64(f), check };
  }
  if (inp.elem === "u8") {
    const v: bw.PodU8 = { values: src as Uint8Array };
    return { library, note, encode: () => bw.encodePodU8(v, w), decode: (f) => bw.decodePodU8(f), check };
  }
  const v: bw.PodF32 = { values: inp.numbers() };
  return { library, note, encode: () => bw.encodePodF32(v, w), decode: (f) => bw.decodePodF32(f), check };
}

function bincodePodPeer(
  library: "bitwire-bincode" | "bitwire-bincode-reuse",
  inp: PodInputs,
  note: string,
  check: PodPeer["check"],
): PodPeer {
  // A writer per call, as encodeBincodePodX makes by default, or one for every call.
  const shared = library === "bitwire-bincode-reuse" ? new ByteWriter(1024) : undefined;
  const writer = (): ByteWriter => shared ?? new ByteWriter(1024);
  const src = inp.values;
  if (inp.elem === "u64") {
    const v: bwt.PodU64 = { values: src as BigUint64Array };
    return { library, note, encode: () => bwt.encodeBincodePodU64(v, writer()), decode: (f) => bwt.decodeBincodePodU64(f), check };
  }
  if (inp.elem === "u8") {
    const v: bwt.PodU8 = { values: src as Uint8Array };
    return { library, note, encode: () => bwt.encodeBincodePodU8(v, writer()), decode: (f) => bwt.decodeBincodePodU8(f), check };
  }
  const v: bwt.PodF32 = { values: src as Float32Array };
  return { library, note, encode: () => bwt.encodeBincodePodF32(v, writer()), decode: (f) => bwt.decodeBincodePodF32(f), check };
}

function handwrittenPodPeer(inp: PodInputs, note: string, check: PodPeer["check"]): PodPeer {
  const library = "handwritten";
  const src = inp.values;
  const raw = new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  const out = new Uint8Array(4 + raw.length);
  new DataView(out.buffer).setUint32(0, src.length, true);
  const size = src.BYTES_PER_ELEMENT;
  return {
    library,
    note,
    encode() {
      // The count was written above (untimed); then the values' bytes (a
      // little-endian machine: readPod checked).
      out.set(raw, 4);
      return out;
    },
    decode(f) {
      const n = new DataView(f.buffer, f.byteOffset, f.byteLength).getUint32(0, true);
      if (f.length !== 4 + n * size) {
        throw new RangeError("block length does not match its count");
      }
      const values = podArray(inp.elem, n);
      new Uint8Array(values.buffer).set(f.subarray(4));
      return { values };
    },
    check,
  };
}

/** A typed array of `n` values of the block's element type. */
function podArray(elem: Elem, n: number): PodValues {
  return elem === "u64" ? new BigUint64Array(n) : elem === "u8" ? new Uint8Array(n) : new Float32Array(n);
}

function memcpyPodPeer(inp: PodInputs, note: string, check: PodPeer["check"]): PodPeer {
  const library = "memcpy";
  const src = inp.values;
  const raw = new Uint8Array(src.buffer, src.byteOffset, src.byteLength);
  const out = new Uint8Array(raw.length);
  const values = podArray(inp.elem, src.length);
  const dst = new Uint8Array(values.buffer);
  return {
    library,
    note,
    encode() {
      out.set(raw);
      return out;
    },
    decode(f) {
      if (f.length !== dst.length) {
        throw new RangeError(`a ${dst.length}-byte block expected, got ${f.length} bytes`);
      }
      dst.set(f);
      return { values };
    },
    check,
  };
}

function flatbuffersPodPeer(inp: PodInputs, note: string, check: PodPeer["check"]): PodPeer {
  const library = "flatbuffers";
  const src = inp.values;
  const b = new flatbuffers.Builder(1024);
  if (inp.elem === "u64") {
    const v = src as BigUint64Array;
    return {
      library,
      note,
      encode() {
        b.clear();
        fb.PodU64.startValuesVector(b, v.length);
        for (let i = v.length - 1; i >= 0; i--) {
          b.addInt64(v[i] as bigint);
        }
        const vec = b.endVector();
        b.finish(fb.PodU64.createPodU64(b, vec));
        return b.asUint8Array();
      },
      decode(f) {
        const root = fb.PodU64.getRootAsPodU64(new flatbuffers.ByteBuffer(f));
        const n = root.valuesLength();
        const values = new BigUint64Array(n);
        for (let i = 0; i < n; i++) {
          values[i] = root.values(i) ?? 0n;
        }
        return { values };
      },
      check,
    };
  }
  if (inp.elem === "u8") {
    const v = src as Uint8Array;
    return {
      library,
      note,
      encode() {
        b.clear();
        b.finish(fb.PodU8.createPodU8(b, fb.PodU8.createValuesVector(b, v)));
        return b.asUint8Array();
      },
      decode: (f) => ({ values: fb.PodU8.getRootAsPodU8(new flatbuffers.ByteBuffer(f)).valuesArray() }),
      check,
    };
  }
  const v = src as Float32Array;
  return {
    library,
    note,
    encode() {
      b.clear();
      b.finish(fb.PodF32.createPodF32(b, fb.PodF32.createValuesVector(b, v)));
      return b.asUint8Array();
    },
    decode: (f) => ({ values: fb.PodF32.getRootAsPodF32(new flatbuffers.ByteBuffer(f)).valuesArray() }),
    check,
  };
}

function protobufPodPeer(inp: PodInputs, note: string, check: PodPeer["check"]): PodPeer {
  const library = "protobuf-es";
  const src = inp.values;
  if (inp.elem === "u64") {
    const m = create(pb.PodU64Schema, { values: inp.bigints() });
    return { library, note, encode: () => toBinary(pb.PodU64Schema, m), decode: (f) => fromBinary(pb.PodU64Schema, f), check };
  }
  if (inp.elem === "u8") {
    const m = create(pb.PodU8Schema, { values: src as Uint8Array });
    return { library, note, encode: () => toBinary(pb.PodU8Schema, m), decode: (f) => fromBinary(pb.PodU8Schema, f), check };
  }
  const m = create(pb.PodF32Schema, { values: inp.numbers() });
  return { library, note, encode: () => toBinary(pb.PodF32Schema, m), decode: (f) => fromBinary(pb.PodF32Schema, f), check };
}

function msgpackrPodPeer(inp: PodInputs, note: string, check: PodPeer["check"]): PodPeer {
  const library = "msgpackr";
  const src = inp.values;
  const pk = new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
  const v = { values: inp.elem === "u64" ? inp.bigints() : inp.elem === "u8" ? src : inp.numbers() };
  return { library, note, encode: () => pk.pack(v), decode: (f) => pk.unpack(f), check };
}
