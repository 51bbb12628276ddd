// Throughput of the bincode encoding's bulk lanes (spec §13.8) against a plain copy of
// the same bytes, in one run: a list of 8 Mi u64 and of 8 Mi f64 (64 MiB on the wire),
// encoded into a reused ByteWriter and into a fresh one, decoded into typed arrays and
// into plain arrays (the generated code's default types: bigint[] / number[]). The
// calls are the ones generated `encodeBincodeX` / `decodeBincodeX` make for a
// `list<u64>` / `list<f64>` field (w.len + w.u64s, r.len + r.u64s).
//
//     npm run build && node --expose-gc bench/bincode-lanes.mjs [elements]     (in runtime/ts)
//     bun bench/bincode-lanes.mjs; deno run --allow-read --allow-env bench/bincode-lanes.mjs
//
// Prints GiB/s (2^30 bytes of wire per second), best of several rounds. "Fresh" and
// "new" rows include allocating (and the kernel mapping) 64 MiB per operation.

import process from "node:process";

import { ByteReader, ByteWriter } from "../dist/index.js";

const N = Number(process.argv[2] ?? 8 * 1024 * 1024);
const BYTES = 8 + 8 * N;
const INF = Number.POSITIVE_INFINITY;

/**
 * Best seconds of `rounds` runs of `f`, after warm-up runs (JavaScriptCore reaches its
 * fast path for the typed-array copies only after several).
 */
function best(rounds, f) {
  for (let i = 0; i < 6; i++) {
    f();
  }
  let min = Infinity;
  for (let i = 0; i < rounds; i++) {
    const t = process.hrtime.bigint();
    f();
    min = Math.min(min, Number(process.hrtime.bigint() - t) / 1e9);
  }
  return min;
}

const rows = [];
function row(what, seconds, bytes = BYTES) {
  rows.push([what, (bytes / seconds / 2 ** 30).toFixed(2)]);
}

// The baseline: copying the same number of bytes into a reused buffer.
const src = new Uint8Array(BYTES).map((_, i) => i * 7);
const dst = new Uint8Array(BYTES);
row("memcpy (Uint8Array.set, reused destination)", best(9, () => dst.set(src)));

const u64 = BigUint64Array.from({ length: N }, (_, i) => BigInt(i) * 0x9e3779b97f4a7c15n & 0xffffffffffffffffn);
const f64 = Float64Array.from({ length: N }, (_, i) => i / 3);
const gc = globalThis.gc ?? (() => {});

const w = new ByteWriter(BYTES);
const encode = (writer, put, list) => {
  writer.reset();
  writer.len(list.length, INF);
  put(writer, list);
  return writer.finish();
};
const putU64 = (wr, l) => wr.u64s(l);
const putF64 = (wr, l) => wr.f64s(l);
const u64Wire = encode(new ByteWriter(), putU64, u64).slice();
const f64Wire = encode(new ByteWriter(), putF64, f64).slice();
// An input at an odd offset, as a network buffer may be: the typed-array path copies.
const odd = new Uint8Array(BYTES + 1);
odd.set(u64Wire, 1);
const u64Odd = odd.subarray(1);
const decode = (bytes, get) => {
  const r = new ByteReader(bytes, { base: INF, perInputByte: 0 });
  const v = get(r, r.len(INF, 8, 8));
  r.finish();
  return v;
};

// Typed arrays first, before the plain arrays fill the heap (and the collector runs).
row("encode u64, BigUint64Array, reused writer", best(9, () => encode(w, putU64, u64)));
row("encode f64, Float64Array, reused writer", best(9, () => encode(w, putF64, f64)));
row("encode u64, BigUint64Array, fresh writer", best(5, () => encode(new ByteWriter(), putU64, u64)));
row("encode f64, Float64Array, fresh writer", best(5, () => encode(new ByteWriter(), putF64, f64)));
row("decode u64 → new BigUint64Array", best(9, () => decode(u64Wire, (r, n) => r.u64Array(n))));
row("decode u64 → new BigUint64Array, input at an odd offset", best(9, () => decode(u64Odd, (r, n) => r.u64Array(n))));
row("decode f64 → new Float64Array", best(9, () => decode(f64Wire, (r, n) => r.f64Array(n))));
gc();
const u64Plain = Array.from(u64);
const f64Plain = Array.from(f64);
row("encode u64, bigint[], reused writer", best(3, () => encode(w, putU64, u64Plain)));
row("encode f64, number[], reused writer", best(3, () => encode(w, putF64, f64Plain)));
row("decode u64 → bigint[]", best(3, () => decode(u64Wire, (r, n) => r.u64s(n))));
row("decode f64 → number[]", best(3, () => decode(f64Wire, (r, n) => r.f64s(n))));

const check = decode(u64Wire, (r, n) => r.u64Array(n));
if (check[N - 1] !== u64[N - 1] || decode(f64Wire, (r, n) => r.f64s(n))[N - 1] !== f64[N - 1]) {
  throw new Error("round trip failed");
}
const engine =
  "Bun" in globalThis ? `bun ${globalThis.Bun.version}` : "Deno" in globalThis ? `deno ${globalThis.Deno.version.deno}` : `node ${process.version}`;
console.log(`${N} elements (${(BYTES / 2 ** 20).toFixed(1)} MiB), ${engine}`);
for (const [what, gibs] of rows) {
  console.log(`${gibs.padStart(7)} GiB/s  ${what}`);
}
