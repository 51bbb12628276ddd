// Reads a corpus directory written by `cargo run -p bitwire-lab --bin corpus` (layout in
// bench/README.md and bench/lab/src/corpus.rs): the manifest, each dataset's frames
// (u32 little-endian length + bitwire bytes) and the pod blocks (raw little-endian
// values), checking sizes and FNV-1a 64 hashes. `node:fs` works on Node, Bun and Deno.

import { readFileSync } from "node:fs";

import { fnv1a64Hex } from "../dataset.js";

/** One dataset of examples/game.bw messages, as the manifest lists it. */
export interface DatasetEntry {
  name: string;
  type: string;
  seed: number;
  count: number;
  bin_bytes: number;
  payload_bytes: number;
  bin_fnv1a64: string;
  jsonl_fnv1a64: string;
}

/** One pod file: the raw values of the largest block; smaller blocks are prefixes. */
export interface PodEntry {
  name: string;
  type: string;
  elem: "u64" | "u8" | "f32";
  seed: number;
  bytes: number;
  blocks: number[];
  fnv1a64: string;
}

export interface Manifest {
  format: number;
  schema: string;
  schema_fingerprint: string;
  datasets: DatasetEntry[];
  pod?: PodEntry[];
}

function fail(msg: string): never {
  throw new Error(`corpus: ${msg}`);
}

export function readManifest(dir: string): Manifest {
  const m = JSON.parse(readFileSync(`${dir}/manifest.json`, "utf8")) as Manifest;
  if (m.format !== 1) {
    fail(`${dir}/manifest.json: format ${m.format}, this reader knows format 1`);
  }
  return m;
}

/** The dataset's frames (views of one buffer), after checking its size, hash and count. */
export function readFrames(dir: string, d: DatasetEntry): Uint8Array[] {
  const path = `${dir}/${d.name}.bin`;
  const bin = readFileSync(path);
  if (bin.length !== d.bin_bytes) {
    fail(`${path}: ${bin.length} bytes, the manifest says ${d.bin_bytes}`);
  }
  const h = fnv1a64Hex(bin);
  if (h !== d.bin_fnv1a64) {
    fail(`${path}: FNV-1a 64 is ${h}, the manifest says ${d.bin_fnv1a64}`);
  }
  const view = new DataView(bin.buffer, bin.byteOffset, bin.byteLength);
  const frames: Uint8Array[] = [];
  let payload = 0;
  for (let at = 0; at < bin.length; ) {
    if (at + 4 > bin.length) {
      fail(`${path}: truncated length at byte ${at}`);
    }
    const len = view.getUint32(at, true);
    if (at + 4 + len > bin.length) {
      fail(`${path}: frame at byte ${at} runs past the end`);
    }
    frames.push(bin.subarray(at + 4, at + 4 + len));
    payload += len;
    at += 4 + len;
  }
  if (frames.length !== d.count || payload !== d.payload_bytes) {
    fail(`${path}: ${frames.length} frames of ${payload} bytes, the manifest says ${d.count} of ${d.payload_bytes}`);
  }
  return frames;
}

/** Bytes per value of a pod element type. */
export const ELEM_SIZE = { u64: 8, u8: 1, f32: 4 } as const;

/** A pod file's values, checked, as a typed array of its element type (aligned copy). */
export function readPod(dir: string, p: PodEntry): BigUint64Array | Uint8Array | Float32Array {
  const path = `${dir}/${p.name}.bin`;
  const raw = readFileSync(path);
  if (raw.length !== p.bytes) {
    fail(`${path}: ${raw.length} bytes, the manifest says ${p.bytes}`);
  }
  const h = fnv1a64Hex(raw);
  if (h !== p.fnv1a64) {
    fail(`${path}: FNV-1a 64 is ${h}, the manifest says ${p.fnv1a64}`);
  }
  const size = ELEM_SIZE[p.elem];
  if (raw.length % size !== 0 || p.blocks.some((b) => b % size !== 0 || b > raw.length)) {
    fail(`${path}: blocks ${JSON.stringify(p.blocks)} do not fit ${raw.length} bytes of ${p.elem}`);
  }
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    fail("this reader assumes a little-endian machine");
  }
  const count = raw.length / size;
  const values = p.elem === "u64" ? new BigUint64Array(count) : p.elem === "f32" ? new Float32Array(count) : new Uint8Array(count);
  new Uint8Array(values.buffer).set(raw);
  return values;
}

/** A block size as the report labels it, as Go and Rust do: `64KB`, `1MB`, `256MB` (binary units). */
export function blockLabel(bytes: number): string {
  if (bytes % (1 << 20) === 0) {
    return `${bytes / (1 << 20)}MB`;
  }
  if (bytes % 1024 === 0) {
    return `${bytes / 1024}KB`;
  }
  return `${bytes}B`;
}
