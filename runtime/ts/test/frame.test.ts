// The framer (docs/framing.md): VarInts, the incremental reader under every chunking,
// the writer, and bitwire's own zlib against node:zlib (Node, Bun and Deno all have it)
// on random and mutated streams. The frame vectors run in conformance/ts.

import { deflateSync, constants as zc } from "node:zlib";
import { FrameError, FrameReader, WsFrameReader, encodeFrame, jsZlib, readVarInt, putVarInt, varIntSize } from "../src/index.js";
import { nodeZlib } from "../src/node.js";
import { eq, test, thrown } from "./check.js";

const unhex = (s: string): Uint8Array => Uint8Array.from(s.replace(/ /g, "").match(/../g) ?? [], (h) => Number.parseInt(h, 16));
const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");
const kindAt = (e: unknown): string => (e instanceof FrameError ? `${e.kind}@${e.offset}` : `not a FrameError: ${String(e)}`);

/** A deterministic generator (xorshift32), the same on every runtime. */
function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** Frames and the error of `stream` read in chunks of the given sizes (cycled). */
function readAll(stream: Uint8Array, sizes: number[], threshold: number | null = null, maxFrame?: number): string[] {
  const r = new FrameReader(maxFrame === undefined ? { threshold } : { threshold, maxFrame });
  const out: string[] = [];
  let at = 0;
  let k = 0;
  try {
    while (at < stream.length) {
      const n = sizes[k++ % sizes.length] as number;
      r.push(stream.subarray(at, at + n));
      at += n;
      for (let f = r.next(); f !== undefined; f = r.next()) {
        out.push(`${f.id}:${hex(f.data)}@${f.offset}`);
      }
    }
    r.end();
    eq(r.next(), undefined, "after the end");
  } catch (e) {
    out.push(kindAt(e));
  }
  return out;
}

const CHUNKINGS = [[1 << 20], [1], [2], [3], [5, 1], [7, 2, 1]];

test("VarInt examples (docs/framing.md §1)", () => {
  for (const [v, h] of [[0, "00"], [1, "01"], [127, "7f"], [128, "80 01"], [300, "ac 02"], [2097151, "ff ff 7f"], [2147483647, "ff ff ff ff 07"]] as const) {
    const out = new Uint8Array(varIntSize(v));
    eq(putVarInt(out, 0, v), out.length);
    eq(hex(out), h, `${v}`);
    eq(JSON.stringify(readVarInt(out, 0, out.length)), JSON.stringify({ value: v, width: out.length }));
  }
  eq(readVarInt(unhex("80 00"), 0, 2), "nonminimal");
  eq(readVarInt(unhex("ff ff ff ff 08"), 0, 5), "long");
  eq(readVarInt(unhex("80 80 80 80 80 01"), 0, 6), "long");
  eq(readVarInt(unhex("80 80"), 0, 2), "short");
});

test("§8 examples read the same under every chunking", () => {
  const p64 = "0901a52bca0e4b40e204";
  const want = ["1:a5 2b ca 0e 4b 40 e2 04@0", "0:@10", "1:a5 2b ca 0e 4b 40 e2 04@12"];
  for (const sizes of CHUNKINGS) {
    eq(readAll(unhex(`${p64}0100${p64}`), sizes).join(","), want.join(","), `chunks ${sizes}`);
    eq(readAll(unhex("0a0001a52bca0e4b40e204"), sizes, 256).join(","), want[0] as string);
    eq(readAll(unhex("1209789c635caa7d8acfdbe1110b000f1d031b"), sizes, 0).join(","), want[0] as string);
  }
});

test("§8 rejected frames, with their offsets, under every chunking", () => {
  const cases: [string, string, number | null][] = [
    ["0901a52b", "Truncated@0", null],
    ["ffffff01", "LengthTooWide@0", null],
    ["00", "ZeroLength@0", null],
    ["8000", "NonMinimalVarInt@0", null],
    ["0981 00a52bca0e4b40e2", "NonMinimalVarInt@0", null],
    ["0100 0901a52b", "Truncated@2", null],
    ["1209789c635caa7d8acfdbe1110b000f1d031b", "BelowThreshold@0", 256],
  ];
  for (const sizes of CHUNKINGS) {
    for (const [s, want, t] of cases) {
      const got = readAll(unhex(s), sizes, t);
      eq(got[got.length - 1], want, `${s} in chunks ${sizes}`);
    }
  }
});

test("a length above maxFrame is refused before its body is buffered", () => {
  const r = new FrameReader({ maxFrame: 1024 });
  r.push(unhex("81"));
  eq(r.next(), undefined);
  r.push(unhex("08"));
  eq(kindAt(thrown(() => r.next())), "FrameTooLarge@0");
  eq(kindAt(thrown(() => r.next())), "FrameTooLarge@0", "the reader keeps failing");
  // The largest frame: 2,097,151 bytes assembled from 64 KiB chunks, nothing more held.
  const big = new Uint8Array(3 + 2097151);
  putVarInt(big, putVarInt(big, 0, 2097151), 7);
  const r2 = new FrameReader();
  let frames = 0;
  for (let at = 0; at < big.length; at += 65536) {
    r2.push(big.subarray(at, at + 65536));
    for (let f = r2.next(); f !== undefined; f = r2.next()) {
      frames++;
      eq(f.data.length, 2097150);
    }
    eq(r2.buffered <= 2097151 + 3, true, "bounded");
  }
  eq(frames, 1);
});

test("WebSocket messages hold exactly one frame (§5)", () => {
  const r = new WsFrameReader();
  r.push(unhex("0100"));
  eq(r.next()?.id, 0);
  eq(r.next(), undefined);
  r.push(unhex("01000100"));
  eq(r.next()?.id, 0);
  const e = thrown(() => r.next());
  eq(kindAt(e), "TrailingBytes@2");
  eq((e as FrameError).detail.wsMessage, 1);
  const r2 = new WsFrameReader();
  r2.push(unhex("0901a5"));
  eq(kindAt(thrown(() => r2.next())), "Truncated@0");
});

test("the writer: exact frames, the threshold rule, FrameTooLarge", () => {
  const data = unhex("a52bca0e4b40e204");
  eq(hex(encodeFrame(1, data)), "09 01 a5 2b ca 0e 4b 40 e2 04");
  eq(hex(encodeFrame(1, data, { threshold: 256 })), "0a 00 01 a5 2b ca 0e 4b 40 e2 04");
  eq(hex(encodeFrame(1, data, { threshold: 10 })), "0a 00 01 a5 2b ca 0e 4b 40 e2 04");
  eq(hex(encodeFrame(1, data, { threshold: 0, zlib: nodeZlib })), "12 09 78 9c 63 5c aa 7d 8a cf db e1 11 0b 00 0f 1d 03 1b");
  for (const zlib of [jsZlib, nodeZlib]) {
    const f = encodeFrame(300, data, { threshold: 9, zlib });
    eq(readAll(f, [1], 9).join(), "300:a5 2b ca 0e 4b 40 e2 04@0", zlib.name);
  }
  eq(kindAt(thrown(() => encodeFrame(1, data, { maxFrame: 8 }))), "FrameTooLarge@0");
  eq(thrown(() => encodeFrame(-1, data)) instanceof RangeError, true);
});

/** Random data of every texture: uniform, small alphabets, runs, repeats. */
function sample(next: () => number, n: number): Uint8Array {
  const d = new Uint8Array(n);
  const alphabet = 1 + Math.floor(next() * 256);
  for (let i = 0; i < n; i++) {
    d[i] = Math.floor(next() * alphabet);
  }
  if (next() < 0.5) {
    for (let i = 16; i + 8 < n; i += 1 + Math.floor(next() * 40)) {
      d.copyWithin(i, Math.floor(next() * i), Math.floor(next() * i) + 8);
    }
  }
  return d;
}

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

test("jsZlib inflates what node:zlib deflates, and the other way round", () => {
  const next = rng(7);
  for (let t = 0; t < 150; t++) {
    const d = sample(next, 1 + Math.floor(next() * (t % 10 === 0 ? 70000 : 3000)));
    for (const [level, strategy] of [[0, zc.Z_DEFAULT_STRATEGY], [1, zc.Z_FIXED], [6, zc.Z_DEFAULT_STRATEGY], [9, zc.Z_HUFFMAN_ONLY], [6, zc.Z_RLE]]) {
      const z = deflateSync(d, { level, strategy });
      const got = jsZlib.inflate(z, d.length);
      eq(got instanceof Uint8Array && same(got, d), true, `level ${level} strategy ${strategy}, ${d.length} bytes`);
    }
    const mine = jsZlib.deflate(d);
    const back = nodeZlib.inflate(mine, d.length);
    eq(back instanceof Uint8Array && same(back, d), true, `node inflates jsZlib's ${d.length} bytes`);
  }
});

test("jsZlib and node:zlib accept and refuse the same mutated streams", () => {
  const next = rng(11);
  let refused = 0;
  for (let t = 0; t < 3000; t++) {
    const d = sample(next, 1 + Math.floor(next() * 400));
    const z = t % 2 === 0 ? deflateSync(d, { level: Math.floor(next() * 10) }) : jsZlib.deflate(d);
    const m = z.slice();
    const flips = 1 + Math.floor(next() * 3);
    for (let i = 0; i < flips; i++) {
      const at = Math.floor(next() * m.length);
      m[at] = (m[at] as number) ^ (1 << Math.floor(next() * 8));
    }
    const size = next() < 0.8 ? d.length : 1 + Math.floor(next() * 500);
    const a = jsZlib.inflate(m, size);
    const b = nodeZlib.inflate(m, size);
    const describe = (r: Uint8Array | { kind: string }): string => (r instanceof Uint8Array ? `ok ${hex(r).slice(0, 40)}` : "refused");
    eq(describe(a), describe(b), `stream ${hex(m)} size ${size}`);
    if (!(a instanceof Uint8Array)) {
      refused++;
    }
  }
  eq(refused > 1000, true, "most mutations are refused");
});

test("a zlib bomb stops at DataLength + 1 bytes", () => {
  const bomb = deflateSync(new Uint8Array(64 << 20), { level: 9 });
  for (const zlib of [jsZlib, nodeZlib]) {
    const r = zlib.inflate(bomb, 1000);
    eq(r instanceof Uint8Array ? "accepted" : r.kind, "SizeMismatch", zlib.name);
  }
});
