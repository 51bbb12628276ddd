// The files `deltabench scenarios` and `deltabench encodings` write (bench/delta/README.md):
// manifest.json describes the scenario files, encodings.json the binary files of bitwire
// bytes made from them (src/encodings.rs), which are read and checked here.

import { readFileSync } from "node:fs";

const ENCODINGS_FORMAT = "bitwire-delta-encodings/1";
const MANIFEST_FORMAT = "bitwire-delta-scenarios/1";

/** encodings.json. */
export interface EncodingsIndex {
  format: string;
  quick: boolean;
  ticks: number;
  ages: number[];
  scenarios: Record<string, string>;
  files: { scenario: string; message: string; file: string; records: number; fnv1a64: string }[];
}

/**
 * One scenario's bitwire bytes: `full[t]` is tick t's full encoding, `deltas[a][t - 1]` the
 * delta of tick t against tick max(0, t − ages[a]).
 */
export interface ScenarioBytes {
  name: string;
  full: Uint8Array[];
  deltas: Uint8Array[][];
}

/** FNV-1a 64 of `bytes` as 16 hex digits, in 16-bit limbs (bigint per byte is slow). */
export function fnv1a64(bytes: Uint8Array): string {
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  for (let i = 0; i < bytes.length; i++) {
    h0 ^= bytes[i];
    // h × (2^40 + 0x1b3) mod 2^64: each limb times 0x1b3, plus h shifted up 40 bits (limb
    // 0 into limbs 2 and 3, limb 1 into limb 3), then the carries.
    let t0 = h0 * 0x1b3;
    let t1 = h1 * 0x1b3;
    let t2 = h2 * 0x1b3 + ((h0 & 0xff) << 8);
    let t3 = h3 * 0x1b3 + ((h1 & 0xff) << 8) + (h0 >>> 8);
    t1 += t0 >>> 16;
    t2 += t1 >>> 16;
    t3 += t2 >>> 16;
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  }
  return [h3, h2, h1, h0].map((x) => x.toString(16).padStart(4, "0")).join("");
}

/** A binary file's records: a u32 little-endian length, then that many bytes. */
export function records(bytes: Uint8Array): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Uint8Array[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.length - at < 4) {
      throw new Error(`record ${out.length}: its length is cut short`);
    }
    const n = view.getUint32(at, true);
    at += 4;
    if (bytes.length - at < n) {
      throw new Error(`record ${out.length} claims ${n} bytes, ${bytes.length - at} left`);
    }
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, "utf8"));
}

/**
 * Reads `dir/encodings.json` and its binary files, checking the formats, that the bytes
 * were made from the scenario files `dir/manifest.json` describes, each file's hash and
 * its record count.
 */
export function readEncodings(dir: string): { index: EncodingsIndex; scenarios: Map<string, ScenarioBytes> } {
  const index = readJson(`${dir}/encodings.json`) as EncodingsIndex;
  if (index.format !== ENCODINGS_FORMAT) {
    throw new Error(`encodings.json: format ${index.format}, expected ${ENCODINGS_FORMAT}`);
  }
  const manifest = readJson(`${dir}/manifest.json`) as { format: string; files: { scenario: string; fnv1a64: string }[] };
  if (manifest.format !== MANIFEST_FORMAT) {
    throw new Error(`manifest.json: format ${manifest.format}, expected ${MANIFEST_FORMAT}`);
  }
  if (manifest.files.length !== Object.keys(index.scenarios).length) {
    throw new Error("encodings.json and manifest.json list different scenarios");
  }
  for (const f of manifest.files) {
    if (index.scenarios[f.scenario] !== f.fnv1a64) {
      throw new Error(
        `encodings.json was made from another ${f.scenario} file than manifest.json describes: run deltabench encodings`,
      );
    }
  }
  const scenarios = new Map<string, ScenarioBytes>();
  for (const f of index.files) {
    const path = `${dir}/${f.file}`;
    const bytes = readFileSync(path);
    const hash = fnv1a64(bytes);
    if (hash !== f.fnv1a64) {
      throw new Error(`${path}: FNV-1a 64 is ${hash}, encodings.json says ${f.fnv1a64}`);
    }
    const recs = records(bytes);
    const perAge = Math.max(index.ticks - 1, 0);
    const want = index.ticks + index.ages.length * perAge;
    if (index.ticks < 1 || recs.length !== want || f.records !== want) {
      throw new Error(
        `${path}: ${recs.length} records, encodings.json says ${f.records}, ${index.ticks} ticks at ${index.ages.length} ages make ${want}`,
      );
    }
    const deltas = index.ages.map((_, a) => recs.slice(index.ticks + a * perAge, index.ticks + (a + 1) * perAge));
    scenarios.set(f.scenario, { name: f.scenario, full: recs.slice(0, index.ticks), deltas });
  }
  return { index, scenarios };
}
