// The benchmark lab's TypeScript part, on whichever runtime runs it (bench/ts/lab.sh runs
// it on Node, Bun and Deno):
//
//     node build/src/lab/main.js --corpus DIR [--quick] [--out FILE]
//     node build/src/lab/main.js --corpus DIR --check
//
// Reads the corpus (bench/README.md), decodes every frame with the generated bitwire
// code, checks every peer (bitwire, hand-written — none on profiles —, FlatBuffers,
// protobuf-es, msgpackr) round-trips every message and that the hand-written encoders
// write the corpus bytes, then times encode and decode per dataset, packet64 throughput
// at 100 … 1M packets and the pod blocks, and writes the raw result file (format 1).
// `--check` stops after the checks and exits non-zero if any failed. Progress goes to
// stderr, a summary to stdout.

import { writeFileSync } from "node:fs";

import * as game from "../../gen/game.js";
import { RUST_DATASET_FNV, fnv1a64Hex, packet64 as makePackets } from "../dataset.js";
import { difference, sameBytes } from "./compare.js";
import { type DatasetEntry, ELEM_SIZE, type PodEntry, blockLabel, readFrames, readManifest, readPod } from "./corpus.js";
import { args, exit, flag, log, runtime } from "./host.js";
import { eventsPeers } from "./peers/events.js";
import { inputPeers } from "./peers/input.js";
import { packet64Peers } from "./peers/packet64.js";
import { ALLOC_NOTE, type Peer } from "./peers/peer.js";
import { profilesPeers } from "./peers/profiles.js";
import { snapshotPeers } from "./peers/snapshot.js";
import { POD_LIBRARIES, type PodLibrary, PodInputs, type PodPeer, type PodValues, podPeer } from "./pod.js";
import { type Budget, keep, timeInterleaved } from "./timing.js";

const quick = args.includes("--check") || args.includes("--quick");
const checkOnly = args.includes("--check");
const corpusDir = flag("--corpus");
const outFile = flag("--out");
if (corpusDir === undefined) {
  log("usage: main.js --corpus DIR [--quick] [--out FILE] | --corpus DIR --check");
  exit(2);
}

interface RawRecord {
  dataset: string;
  variant: string;
  library: string;
  messages: number;
  bytes: number;
  encode_ns: number | null;
  decode_ns: number | null;
  encode_allocs: null;
  decode_allocs: null;
  note?: string;
}
interface RawScaling {
  library: string;
  packets: number;
  encode_pps: number | null;
  decode_pps: number | null;
}

const records: RawRecord[] = [];
const scaling: RawScaling[] = [];
const failures: string[] = [];
const started = performance.now();

/** Seconds since start, for progress lines. */
function t(): string {
  return `${((performance.now() - started) / 1e3).toFixed(1)}s`;
}

function failed(msg: string): void {
  failures.push(msg);
  log(`FAIL ${msg}`);
}

// Budgets: seconds per measurement (all contenders and rounds together), chosen so that a
// full run stays near 90 s per runtime on a 2-core machine (quick: 15 s).
const GAME: Budget = quick
  ? { target: 0.4, minRounds: 5, maxRounds: 201, warmup: 3 }
  : { target: 2, minRounds: 11, maxRounds: 2001, warmup: 5 };
// Scaling: the same peers serve every size, so only the first size warms up.
const SCALE: Budget = quick
  ? { target: 0.3, minRounds: 3, maxRounds: 101, warmup: 2 }
  : { target: 1, minRounds: 3, maxRounds: 1001, warmup: 2 };
// Pod: the untimed check pass is the warm-up.
const POD: Budget = quick
  ? { target: 0.3, minRounds: 3, maxRounds: 51, warmup: 0 }
  : { target: 0.8, minRounds: 3, maxRounds: 201, warmup: 0 };
/**
 * A pod library is skipped from the block where one pass is predicted to take longer:
 * its last median scaled by the block size, times 2 because large blocks grow faster
 * than linearly in JavaScript (fresh memory, GC of big arrays).
 */
const POD_PASS_LIMIT = quick ? 0.5 : 0.25;
const POD_GROWTH_MARGIN = 2;
/** Seconds per pod element type; larger blocks are left out once it is spent. */
const POD_ELEM_BUDGET = quick ? 4 : 11;
/**
 * Packet counts for throughput. 10M is left out: ten million packet objects per copy
 * (the values, each library's decoded copies) come to several GB of heap, and one pass
 * of the slower libraries alone would take longer than the time budget of a whole run.
 */
const SCALE_SIZES = quick ? [100, 1_000, 10_000] : [100, 1_000, 10_000, 100_000, 1_000_000];

const manifest = readManifest(corpusDir);
const fingerprint = game.SCHEMA_FINGERPRINT.toString(16).padStart(16, "0");
if (manifest.schema_fingerprint !== fingerprint) {
  log(`the corpus was written for schema ${manifest.schema_fingerprint}, this code is ${fingerprint}`);
  exit(1);
}
log(`${runtime}, corpus ${corpusDir}${checkOnly ? " (check)" : quick ? " (quick)" : ""}`);

// ---- game datasets ---------------------------------------------------------------------

type Decoder = (b: Uint8Array) => unknown;
const CODECS: Record<string, { decode: Decoder; peers: (values: never[]) => Peer[] }> = {
  packet64: { decode: game.decodePacket64, peers: packet64Peers },
  snapshot: { decode: game.decodeSnapshot, peers: snapshotPeers },
  input: { decode: game.decodeInput, peers: inputPeers },
  events: { decode: game.decodeEvents, peers: eventsPeers },
  profiles: { decode: game.decodeProfiles, peers: profilesPeers },
};

/** Checks every peer against the values and the corpus bytes; returns the ones that pass. */
function checkPeers(name: string, peers: Peer[], values: unknown[], corpus: Uint8Array[]): Peer[] {
  return peers.filter((p) => {
    for (let i = 0; i < values.length; i++) {
      const frame = p.frames[i] as Uint8Array;
      if (p.bitwireBytes && !sameBytes(frame, corpus[i] as Uint8Array)) {
        failed(`${name} ${p.library}: message ${i} encodes to other bytes than the corpus (bitwire's)`);
        return false;
      }
      let d: string | null;
      try {
        d = difference(p.check(i), values[i]);
      } catch (e) {
        d = `decoding threw ${String(e)}`;
      }
      if (d !== null) {
        failed(`${name} ${p.library}: message ${i} does not round-trip: ${d}`);
        return false;
      }
    }
    return true;
  });
}

function runDataset(d: DatasetEntry): unknown[] | undefined {
  const codec = CODECS[d.name];
  if (codec === undefined) {
    log(`${d.name}: no TypeScript codec for this dataset, skipped`);
    return undefined;
  }
  const frames = readFrames(corpusDir as string, d);
  // The bitwire peer's encodings are compared with these frames in checkPeers. Each value
  // is a copy, and the decoded original dies at once: keeping thousands of objects made at
  // bitwire's allocation sites would make V8 pretenure those sites (allocate their objects
  // in the old generation from then on), which slowed bitwire's decoding in every later
  // measurement 5-10x on Node (Input 117 ns instead of 21, Packet64 114 instead of 12;
  // `node --no-allocation-site-pretenuring` gave the same figures as this copy).
  const values = frames.map((f) => structuredClone(codec.decode(f)));
  log(`${d.name}: ${values.length} ${d.type} messages decoded, FNV-1a 64 ok; checking peers (${t()})`);
  const peers = checkPeers(d.name, codec.peers(values as never[]), values, frames);
  if (checkOnly) {
    log(`${d.name}: ${peers.map((p) => p.library).join(", ")} round-trip`);
    return values;
  }
  const n = values.length;
  const fs = peers.flatMap((p) => [() => p.encodeAll(n), () => p.decodeAll(n)]);
  log(`${d.name}: timing ${peers.map((p) => p.library).join(", ")}, ${n} messages per pass (${t()})`);
  const { secs, rounds } = timeInterleaved(fs, GAME);
  peers.forEach((p, k) => {
    const enc = ((secs[2 * k] as number) * 1e9) / n;
    const dec = ((secs[2 * k + 1] as number) * 1e9) / n;
    const bytes = p.frames.reduce((a, f) => a + f.length, 0);
    const note = records.length === 0 ? `${p.note}. ${ALLOC_NOTE}` : p.note;
    records.push({ dataset: d.name, variant: "", library: p.library, messages: n, bytes, encode_ns: enc, decode_ns: dec, encode_allocs: null, decode_allocs: null, ...(note === undefined ? {} : { note }) });
    log(`${d.name} ${p.library.padEnd(11)} enc ${enc.toFixed(1).padStart(9)} ns  dec ${dec.toFixed(1).padStart(9)} ns  ${(bytes / n).toFixed(1).padStart(8)} B/msg  (${rounds} rounds)`);
  });
  return values;
}

let corpusPackets: game.Packet64[] = [];
for (const name of ["packet64", "snapshot", "input", "events", "profiles"]) {
  const d = manifest.datasets.find((x) => x.name === name);
  if (d === undefined) {
    log(`${name}: not in the corpus, skipped`);
    continue;
  }
  const values = runDataset(d);
  if (name === "packet64" && values !== undefined) {
    corpusPackets = values as game.Packet64[];
  }
}

// ---- packet64 throughput by dataset size -----------------------------------------------

{
  const max = SCALE_SIZES[SCALE_SIZES.length - 1] as number;
  log(`packet64 scaling: generating ${max} packets (seed 42, src/dataset.ts) (${t()})`);
  const packets = makePackets(checkOnly ? Math.min(max, 10_000) : max);
  // The generator must give the corpus's packets: compare the first ones.
  const same = Math.min(packets.length, corpusPackets.length);
  for (let i = 0; i < same; i++) {
    const d = difference(packets[i], corpusPackets[i]);
    if (d !== null) {
      failed(`packet64: src/dataset.ts packet ${i} is not the corpus's: ${d}`);
      break;
    }
  }
  // And the same packets as the Rust generator: hashes of the first 100, 10K, 1M.
  const wire = new Uint8Array(8 * packets.length);
  packets.forEach((p, i) => wire.set(game.encodePacket64(p), 8 * i));
  for (const [count, want] of RUST_DATASET_FNV) {
    if (count <= packets.length && fnv1a64Hex(wire.subarray(0, 8 * count)) !== want) {
      failed(`packet64: the first ${count} generated packets are not the Rust dataset's`);
    }
  }
  log(`packet64 scaling: the first ${same} generated packets are the corpus's, hashes match the Rust dataset (${t()})`);
  if (!checkOnly) {
    const all = packet64Peers(packets);
    const first = packets.slice(0, 1_000);
    const peers = checkPeers("packet64 (generated)", all, first, (all[0] as Peer).frames.slice(0, first.length));
    SCALE_SIZES.forEach((n, k) => {
      // Small sizes repeat the pass within one sample (at least 10,000 packets), so that
      // the timer's own cost and resolution stay small next to what is measured.
      const reps = Math.max(1, Math.ceil(10_000 / n));
      const fs = peers.flatMap((p) => [
        () => {
          let s = 0;
          for (let r = 0; r < reps; r++) {
            s += p.encodeAll(n);
          }
          return s;
        },
        () => {
          let s = 0;
          for (let r = 0; r < reps; r++) {
            s += p.decodeAll(n);
          }
          return s;
        },
      ]);
      const { secs, rounds } = timeInterleaved(fs, k === 0 ? SCALE : { ...SCALE, warmup: 0 });
      const line: string[] = [];
      peers.forEach((p, k) => {
        const encPps = (n * reps) / (secs[2 * k] as number);
        const decPps = (n * reps) / (secs[2 * k + 1] as number);
        scaling.push({ library: p.library, packets: n, encode_pps: encPps, decode_pps: decPps });
        line.push(`${p.library} ${(encPps / 1e6).toFixed(1)}/${(decPps / 1e6).toFixed(1)}`);
      });
      log(`packet64 scaling ${n}: Mpps enc/dec ${line.join(", ")} (${rounds} rounds, ${t()})`);
    });
  }
}

// ---- pod -------------------------------------------------------------------------------

function runPod(p: PodEntry): void {
  const all = readPod(corpusDir as string, p);
  const size = ELEM_SIZE[p.elem];
  const blocks = [...p.blocks].sort((a, b) => a - b).filter((b) => !checkOnly || b <= 8 << 20);
  log(`${p.name}: ${all.length} ${p.elem} values, FNV-1a 64 ok; blocks ${blocks.map(blockLabel).join(", ")} (${t()})`);
  /** Per library: the block size and slower pass time of its last measurement. */
  const last = new Map<PodLibrary, { block: number; secs: number }>();
  const dropped = new Set<PodLibrary>();
  const elemStart = performance.now();
  for (const block of blocks) {
    const label = blockLabel(block);
    const spent = (performance.now() - elemStart) / 1e3;
    if (!checkOnly && spent > POD_ELEM_BUDGET) {
      log(`${p.name} ${label} and above: skipped, this element type's ${POD_ELEM_BUDGET} s are spent (${spent.toFixed(1)} s)`);
      break;
    }
    const values = all.subarray(0, block / size) as PodValues;
    const inputs = new PodInputs(p.elem, values);
    const live: { peer: PodPeer; frame: Uint8Array }[] = [];
    for (const lib of POD_LIBRARIES) {
      if (dropped.has(lib)) {
        continue;
      }
      const prev = last.get(lib);
      if (prev !== undefined && !checkOnly) {
        const predicted = (POD_GROWTH_MARGIN * prev.secs * block) / prev.block;
        if (predicted > POD_PASS_LIMIT) {
          log(`${p.name} ${label} ${lib}: skipped here and above: one pass took ${prev.secs.toFixed(2)} s at ${blockLabel(prev.block)}, so maybe ${predicted.toFixed(1)} s here (${POD_GROWTH_MARGIN}x linear; limit ${POD_PASS_LIMIT} s per pass)`);
          dropped.add(lib);
          continue;
        }
      }
      let peer: PodPeer;
      let frame: Uint8Array;
      try {
        peer = podPeer(lib, inputs);
        let t0 = performance.now();
        frame = peer.encode().slice();
        const enc = (performance.now() - t0) / 1e3;
        t0 = performance.now();
        const decoded = peer.decode(frame);
        const dec = (performance.now() - t0) / 1e3;
        const d = peer.check(decoded);
        if (d !== null) {
          failed(`${p.name} ${label} ${lib}: does not round-trip: ${d}`);
          dropped.add(lib);
          continue;
        }
        last.set(lib, { block, secs: Math.max(enc, dec) });
      } catch (e) {
        failed(`${p.name} ${label} ${lib}: ${String(e)}`);
        dropped.add(lib);
        continue;
      }
      live.push({ peer, frame });
    }
    if (checkOnly) {
      log(`${p.name} ${label}: ${live.map((l) => l.peer.library).join(", ")} round-trip`);
      continue;
    }
    if (live.length === 0) {
      continue;
    }
    const kept: unknown[] = live.map(() => undefined);
    const fs = live.flatMap((l, k) => [
      () => l.peer.encode().length,
      () => {
        kept[k] = l.peer.decode(l.frame);
        return 1;
      },
    ]);
    const { secs, rounds } = timeInterleaved(fs, POD);
    keep(kept.length);
    live.forEach((l, k) => {
      const enc = secs[2 * k] as number;
      const dec = secs[2 * k + 1] as number;
      // The prediction for the next block uses the medians (the first pass ran cold).
      last.set(l.peer.library, { block, secs: Math.max(enc, dec) });
      records.push({ dataset: p.name, variant: label, library: l.peer.library, messages: 1, bytes: l.frame.length, encode_ns: enc * 1e9, decode_ns: dec * 1e9, encode_allocs: null, decode_allocs: null, note: l.peer.note });
      const mbs = (x: number): string => ((block / x / 1e6).toFixed(0) + " MB/s").padStart(11);
      log(`${p.name} ${label} ${l.peer.library.padEnd(11)} enc ${(enc * 1e3).toFixed(2).padStart(9)} ms ${mbs(enc)}  dec ${(dec * 1e3).toFixed(2).padStart(9)} ms ${mbs(dec)}  ${l.frame.length} B  (${rounds} rounds)`);
    });
  }
}

if (manifest.pod === undefined || manifest.pod.length === 0) {
  log("pod: not in the corpus, skipped");
} else {
  for (const p of manifest.pod) {
    runPod(p);
  }
}

// ---- result ----------------------------------------------------------------------------

if (failures.length > 0) {
  log(`${failures.length} check(s) failed (${t()})`);
  for (const f of failures) {
    console.log(`FAIL ${f}`);
  }
  if (checkOnly) {
    exit(1);
  }
}
if (checkOnly) {
  console.log(`${runtime}: every peer round-trips the corpus, hand-written bytes are bitwire's (${t()})`);
  exit(0);
}
const raw = { format: 1, language: "ts", runtime, quick, records, scaling };
if (outFile !== undefined) {
  writeFileSync(outFile, `${JSON.stringify(raw, null, 2)}\n`);
  log(`wrote ${outFile}: ${records.length} records, ${scaling.length} scaling points (${t()})`);
}
console.log(`${runtime}: ${records.length} records, ${scaling.length} scaling points, ${failures.length} failed checks, ${t()}`);
