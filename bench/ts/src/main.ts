// `packet64` encode and decode: generated TypeScript (from examples/game.bw) against the
// hand-written baseline, on whichever runtime runs this file (bench/ts/run.sh runs it
// on Node, Bun and Deno).
//
//     node build/src/main.js [--quick]
//
// Prints ns/packet for each and the ratio generated / hand-written (goal: ≤ 1.5). The
// hand-written encoder masks out-of-range fields; the generated one must reject them
// (spec §3.1), so the encode ratio is also given against hand-written code that does
// the same checks.

import { BitWriter } from "@bitwire/runtime";

import { type Packet64, decodePacket64, encodePacket64 } from "../gen/game.js";
import { RUST_DATASET_FNV, fnv1a64Hex, packet64 } from "./dataset.js";
import * as hand from "./handwritten.js";
import { compare } from "./harness.js";
import { args, runtime } from "./lab/host.js";

const quick = args.includes("--quick");
const [n, rounds] = quick ? [1_000, 5] : [10_000, 301];

// Same packets as the Rust benchmark: compare the encodings' hash with Rust's.
for (const [count, want] of RUST_DATASET_FNV) {
  if (count > Math.max(n, 10_000)) {
    continue;
  }
  const bytes = new Uint8Array(8 * count);
  packet64(count).forEach((p, i) => bytes.set(encodePacket64(p), 8 * i));
  const got = fnv1a64Hex(bytes);
  if (got !== want) {
    throw new Error(`dataset of ${count} packets differs from the Rust one (${got})`);
  }
}
const packets = packet64(n);

// Same bytes first: a benchmark of two codecs that disagree would be meaningless.
const wire = new Uint8Array(n * 8);
packets.forEach((p, i) => {
  const a = encodePacket64(p);
  const b = hand.encode(p);
  if (a.length !== 8 || a.some((x, k) => x !== b[k])) {
    throw new Error(`generated and hand-written bytes differ for ${JSON.stringify(p)}`);
  }
  wire.set(a, i * 8);
});
// One view per packet, made before timing (both decoders read the same views).
const views = packets.map((_, i) => wire.subarray(i * 8, i * 8 + 8));

const w = new BitWriter(8);
const [genEnc = 0, handEnc = 0, checkedEnc = 0] = compare(rounds, n, [
  () => {
    let s = 0;
    for (const p of packets) {
      s ^= encodePacket64(p, w)[7] ?? 0;
    }
    return s;
  },
  () => {
    let s = 0;
    for (const p of packets) {
      s ^= hand.encode(p)[7] ?? 0;
    }
    return s;
  },
  () => {
    let s = 0;
    for (const p of packets) {
      s ^= hand.encodeChecked(p)?.[7] ?? 0;
    }
    return s;
  },
]);
// Decoded packets are kept, as an application would keep them: otherwise an engine
// may optimize the objects away in one contender and not in the other.
const decoded: (Packet64 | undefined)[] = new Array<Packet64 | undefined>(n).fill(undefined);
const [genDec = 0, handDec = 0] = compare(rounds, n, [
  () => {
    for (let i = 0; i < n; i++) {
      decoded[i] = decodePacket64(views[i] as Uint8Array);
    }
    return decoded[n - 1]?.score ?? 0;
  },
  () => {
    for (let i = 0; i < n; i++) {
      decoded[i] = hand.decode(views[i] as Uint8Array);
    }
    return decoded[n - 1]?.score ?? 0;
  },
]);

const pad = (s: string, k: number): string => s.padStart(k);
console.log(`packet64 on ${runtime}, ${n} packets, median of ${rounds} interleaved rounds${quick ? " (quick)" : ""}`);
console.log(`${"".padEnd(8)} ${pad("generated", 14)} ${pad("hand-written", 14)} ${pad("ratio", 8)}`);
for (const [name, g, h] of [
  ["encode", genEnc, handEnc],
  ["decode", genDec, handDec],
] as const) {
  console.log(`${name.padEnd(8)} ${pad(g.toFixed(2), 11)} ns ${pad(h.toFixed(2), 11)} ns ${pad((g / h).toFixed(2), 7)}x`);
}
console.log(
  `encode, hand-written with the same range checks: ${checkedEnc.toFixed(2)} ns, generated / that = ${(genEnc / checkedEnc).toFixed(2)}x`,
);
console.log("goal: ratio <= 1.5 (generated within 1.5x of hand-written)");
