// The baseline rings of delta snapshots (docs/framing.md §10): the shared envelope
// vectors (testdata/vectors/envelope) and the rules the vectors do not reach (wrap-around
// over 70,000 snapshots, ring bounds, errors). The socket test is in
// conformance/ts/src/net/baseline.ts.

import { readFileSync } from "node:fs";
import {
  BitwireError,
  type DeltaCodec,
  SnapshotError,
  SnapshotReceiver,
  SnapshotSender,
  RUNTIME_API_VERSION,
  decodeSnapshotHeader,
  encodeSnapshotHeader,
  error,
  lengthError,
  readEnvelope,
  requireApiVersion,
  writeEnvelope,
  seqNewer,
  snapshotBase,
} from "../src/index.js";
import { eq, test, thrown } from "./check.js";

const unhex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/**
 * The test codec of testdata/vectors/envelope/README.md: a list of at most 255 u32,
 * whose "delta" is each value's difference from the baseline's. It only stands in for
 * a generated delta message (spec §12 is the real delta encoding); the same codec is in
 * the Rust and Go tests of the rings.
 */
function writeList(values: readonly number[]): Uint8Array {
  if (values.length > 255) {
    throw lengthError(0, values.length, 255);
  }
  const out = new Uint8Array(1 + 4 * values.length);
  const view = new DataView(out.buffer);
  out[0] = values.length;
  values.forEach((v, i) => view.setUint32(1 + 4 * i, v, true));
  return out;
}

function readList(bytes: Uint8Array): number[] {
  if (bytes.length === 0) {
    throw error("Truncated", 0);
  }
  const n = bytes[0]!;
  const need = 1 + 4 * n;
  if (bytes.length < need) {
    throw error("Truncated", 8 + 32 * Math.floor((bytes.length - 1) / 4));
  }
  if (bytes.length > need) {
    throw error("TrailingData", 8 * need);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Array.from({ length: n }, (_, i) => view.getUint32(1 + 4 * i, true));
}

const listCodec: DeltaCodec<number[]> = {
  encode: writeList,
  encodeDelta: (base, value) => writeList(value.map((v, i) => (v - (base[i] ?? 0)) >>> 0)),
  decode: readList,
  decodeDelta: (base, bytes) => readList(bytes).map((d, i) => (d + (base[i] ?? 0)) >>> 0),
};

const kindOf = (e: unknown): string => (e instanceof SnapshotError ? e.kind : `not a SnapshotError: ${String(e)}`);
const innerKind = (e: unknown): string | undefined => (e instanceof SnapshotError && e.cause instanceof BitwireError ? e.cause.kind : undefined);

interface Step {
  send?: number[];
  header?: [number, number];
  packet?: string;
  ack?: number | null;
  request_full?: boolean;
  error?: string;
  message?: string;
  seq?: number;
  value?: number[];
  dropped?: boolean;
  need_full?: boolean;
}
interface Scenario {
  id: string;
  ring: number;
  steps: Step[];
}
interface Vectors {
  headers: { id: string; bytes: string; seq?: number; back?: number; base?: number; body?: string; error?: string }[];
  sender: Scenario[];
  receiver: Scenario[];
}

const vectors = JSON.parse(
  readFileSync(new URL("../../../../testdata/vectors/envelope/envelope.json", import.meta.url), "utf8"),
) as Vectors;

test("envelope vectors: headers", () => {
  eq(vectors.headers.length >= 7, true, "header cases");
  for (const c of vectors.headers) {
    const bytes = unhex(c.bytes);
    if (c.error !== undefined) {
      eq(kindOf(thrown(() => decodeSnapshotHeader(bytes))), c.error, c.id);
      continue;
    }
    const { header, body } = decodeSnapshotHeader(bytes);
    eq(`${header.seq} ${header.back} ${snapshotBase(header)} ${hex(body)}`, `${c.seq} ${c.back} ${c.base} ${c.body}`, c.id);
    eq(hex(encodeSnapshotHeader(header, body)), c.bytes, `${c.id}: written back`);
  }
});

test("envelope vectors: sender", () => {
  for (const c of vectors.sender) {
    const s = new SnapshotSender(listCodec, c.ring);
    c.steps.forEach((step, i) => {
      const at = `${c.id} step ${i}`;
      if (step.send !== undefined) {
        const value = step.send;
        if (step.error !== undefined) {
          const e = thrown(() => s.encode(value));
          eq(`${kindOf(e)} ${innerKind(e)}`, `${step.error} ${step.message}`, at);
          return;
        }
        const sent = s.encode(value);
        eq(`${hex(sent.bytes)} ${sent.seq} ${sent.back}`, `${step.packet} ${step.header?.[0]} ${step.header?.[1]}`, at);
      } else if (typeof step.ack === "number") {
        const seq = step.ack;
        if (step.error !== undefined) {
          eq(kindOf(thrown(() => s.ack(seq))), step.error, at);
        } else {
          s.ack(seq);
        }
      } else {
        eq(step.request_full, true, at);
        s.requestFull();
      }
    });
  }
});

test("envelope vectors: receiver", () => {
  for (const c of vectors.receiver) {
    const r = new SnapshotReceiver(listCodec, c.ring);
    c.steps.forEach((step, i) => {
      const at = `${c.id} step ${i}`;
      const packet = unhex(step.packet ?? "");
      if (step.error !== undefined) {
        const e = thrown(() => r.decode(packet));
        eq(`${kindOf(e)} ${innerKind(e)}`, `${step.error} ${step.message}`, at);
      } else {
        const got = r.decode(packet);
        const want = step.dropped === true ? "dropped" : `${step.seq} ${step.value?.join(",")}`;
        eq(got === undefined ? "dropped" : `${got.seq} ${got.value.join(",")}`, want, at);
      }
      eq(`${r.ack ?? null} ${r.needFull}`, `${step.ack ?? null} ${step.need_full}`, `${at}: ack, needFull`);
    });
  }
});

/** A second test codec: one u32 whose delta is its difference. */
const tickCodec: DeltaCodec<number> = {
  encode: (v) => writeList([v]),
  encodeDelta: (base, v) => writeList([(v - base) >>> 0]),
  decode: (b) => readList(b)[0] ?? -1,
  decodeDelta: (base, b) => ((readList(b)[0] ?? -1) + base) >>> 0,
};

test("baseline: sequence numbers wrap over 70,000 snapshots", () => {
  const s = new SnapshotSender(tickCodec, 8);
  const r = new SnapshotReceiver(tickCodec, 8);
  for (let i = 0; i < 70_000; i++) {
    const sent = s.encode((i * 7) >>> 0);
    if (i > 0 && sent.back !== 1 + ((i - 1) % 3)) {
      eq(sent.back, 1 + ((i - 1) % 3), `snapshot ${i}: back`);
    }
    const got = r.decode(sent.bytes);
    if (got?.seq !== (i & 0xffff) || got.value !== (i * 7) >>> 0) {
      eq(`${got?.seq} ${got?.value}`, `${i & 0xffff} ${(i * 7) >>> 0}`, `snapshot ${i}`);
    }
    if (i % 3 === 0) {
      s.ack(r.ack ?? -1);
    }
  }
});

test("baseline: serial arithmetic", () => {
  eq([seqNewer(1, 0), seqNewer(0, 0xffff), seqNewer(0x7fff, 0)], [true, true, true]);
  eq([seqNewer(0x8000, 0), seqNewer(5, 5), seqNewer(0xffff, 0)], [false, false, false]);
});

test("baseline: the ring holds N, and back = N is its oldest slot", () => {
  const r = new SnapshotReceiver(tickCodec, 3);
  for (let seq = 0; seq < 10; seq++) {
    r.decode(encodeSnapshotHeader({ seq, back: 0 }, writeList([seq])));
  }
  eq(kindOf(thrown(() => r.decode(encodeSnapshotHeader({ seq: 10, back: 4 }, writeList([1]))))), "BaselineStale");
  eq(r.decode(encodeSnapshotHeader({ seq: 10, back: 3 }, writeList([1])))?.value, 8);
  eq(r.latest()?.value, 8);
  eq(r.needFull, false);
});

test("baseline: bad arguments", () => {
  eq(thrown(() => new SnapshotSender(tickCodec, 0)) instanceof RangeError, true, "ring 0");
  eq(thrown(() => new SnapshotReceiver(tickCodec, 256)) instanceof RangeError, true, "ring 256");
  const s = new SnapshotSender(tickCodec);
  s.encode(1);
  for (const seq of [-1, 1.5, 65536, Number.NaN]) {
    eq(kindOf(thrown(() => s.ack(seq))), "AckNotSent", `ack ${seq}`);
  }
  eq(s.acked, undefined);
  s.ack(0);
  eq(s.acked, 0);
});

test("baseline: envelopes as the generated protocol reads and writes them", () => {
  const sent = new SnapshotSender(tickCodec).encode(7);
  const data = Uint8Array.of(9, ...sent.bytes, 9).subarray(1, 1 + sent.bytes.length);
  const read = readEnvelope(data);
  eq(read, sent.bytes, "read");
  data[0] = 0xff; // a copy: the frame's buffer can be reused
  eq(read[0], sent.bytes[0], "copied");
  eq(writeEnvelope(sent.bytes) === sent.bytes, true, "written as it is");
  eq(hex(readEnvelope(Uint8Array.of(5, 0, 0))), "050000", "a header alone");
  for (const short of [new Uint8Array(0), Uint8Array.of(1), Uint8Array.of(1, 2)]) {
    for (const f of [() => readEnvelope(short), () => writeEnvelope(short)]) {
      const e = thrown(f);
      eq(e instanceof BitwireError && e.kind === "Truncated" && e.bit === 0, true, `${short.length} bytes: ${String(e)}`);
    }
  }
  const e = thrown(() => writeEnvelope([1, 2, 3] as unknown as Uint8Array));
  eq(e instanceof BitwireError && e.kind === "Truncated", true, "not a Uint8Array");
});

test("baseline: files with a delta message need API 4, with bincode 5, others 3", () => {
  eq(RUNTIME_API_VERSION, 6);
  requireApiVersion(3 satisfies typeof RUNTIME_API_VERSION);
  requireApiVersion(4 satisfies typeof RUNTIME_API_VERSION);
  requireApiVersion(5 satisfies typeof RUNTIME_API_VERSION);
  requireApiVersion(6 satisfies typeof RUNTIME_API_VERSION);
  for (const v of [2, 7]) {
    eq(thrown(() => requireApiVersion(v)) instanceof Error, true, `API ${v}`);
  }
});

test("baseline: random packets give typed results and keep the invariants", () => {
  let x = 0x2545f491;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const r = new SnapshotReceiver(tickCodec, 4);
  let decoded = 0;
  let failed = 0;
  let dropped = 0;
  for (let i = 0; i < 50_000; i++) {
    // Mostly the test codec's 5-byte bodies (a count of 1 and a u32), some cut or too long.
    const packet = Uint8Array.from({ length: [0, 2, 3, 7, 8, 8, 8, 9][next() % 8]! }, () => next() & 0xff);
    if (packet.length >= 3) {
      // Numbers around a counter and small backs, so that every outcome happens.
      const seq = (i + (next() % 4)) & 0xffff;
      packet.set([seq & 0xff, seq >>> 8, packet[2]! % 6]);
    }
    if (packet.length >= 4) {
      packet[3] = 1;
    }
    const before = r.ack;
    let got: ReturnType<typeof r.decode>;
    try {
      got = r.decode(packet);
    } catch (e) {
      failed++;
      if (!(e instanceof SnapshotError) || !r.needFull || r.ack !== before) {
        eq(`${kindOf(e)} ${r.needFull} ${r.ack}`, `a SnapshotError, need full, ack ${before}`, "a failed decode");
      }
      continue;
    }
    if (got === undefined) {
      dropped++;
      eq(r.ack, before, "dropped");
    } else {
      decoded++;
      if (r.ack !== got.seq || r.needFull || (before !== undefined && !seqNewer(got.seq, before))) {
        eq(`${r.ack} ${r.needFull}`, `${got.seq} false`, `decoded after ${before}`);
      }
    }
  }
  eq(decoded > 100 && failed > 100 && dropped > 100, true, `${decoded} ${failed} ${dropped}`);
});
