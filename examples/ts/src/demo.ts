// The TypeScript leg of the cross-language demo (./run demo): reads the sample messages the
// Rust demo wrote, in the packed encoding (<Name>.bin) and the bincode one
// (<Name>.bincode.bin), decodes them with the generated TypeScript (generated with
// --encoding bincode), checks both decode to the same value, encodes them again and writes
// <Name>.ts.bin and <Name>.bincode.ts.bin for the Rust demo to compare with its own bytes.
// Runs unchanged on Node, Bun and Deno (Deno needs --allow-read --allow-write):
//
//     node build/src/demo.js DIR

import { readFileSync, writeFileSync } from "node:fs";

import { BitWriter, ByteWriter } from "@bitwire/runtime";

import * as game from "../gen/game.js";

interface Host {
  Deno?: { args: string[]; version: { deno: string } };
  Bun?: { version: string };
  process?: { argv: string[]; version: string };
}
const host = globalThis as Host;
const args = host.Deno?.args ?? host.process?.argv.slice(2) ?? [];
const runtime =
  host.Bun !== undefined
    ? `bun ${host.Bun.version}`
    : host.Deno !== undefined
      ? `deno ${host.Deno.version.deno}`
      : `node ${host.process?.version ?? "?"}`;
const dir = args[0] ?? "../../target/demo";

// One writer per encoding, reused for every message: each grows to the largest message.
const bitWriter = new BitWriter(512);
const byteWriter = new ByteWriter(1024);

/** Reads `<stem>.bin`, decodes it, encodes the value again, checks the bytes are Rust's and
 * writes them to `<stem>.ts.bin`; returns the value and the size. */
function roundTrip<T>(
  stem: string,
  decode: (b: Uint8Array) => T,
  encode: (v: T) => Uint8Array,
): { value: T; size: number } {
  const bytes = readFileSync(`${dir}/${stem}.bin`);
  const value = decode(bytes);
  const again = encode(value);
  // Both encodings write a decoded value back exactly, so re-encoding must give the same
  // bytes.
  if (!sameBytes(again, bytes)) {
    throw new Error(`${stem}: re-encoded bytes differ from Rust's`);
  }
  writeFileSync(`${dir}/${stem}.ts.bin`, again);
  return { value, size: bytes.length };
}

/** Both files of one message through the generated code: the sizes and a few fields. */
type Demo = (name: string) => { packed: number; bincode: number; summary: string };

// Ties each message's codecs and summary to one type, so the table below can hold all four.
function message<T>(
  decode: (b: Uint8Array) => T,
  encode: (v: T, w: BitWriter) => Uint8Array,
  decodeBincode: (b: Uint8Array) => T,
  encodeBincode: (v: T, w: ByteWriter) => Uint8Array,
  summary: (v: T) => string,
): Demo {
  return (name) => {
    const packed = roundTrip(name, decode, (v) => encode(v, bitWriter));
    const bincode = roundTrip(`${name}.bincode`, decodeBincode, (v) =>
      encodeBincode(v, byteWriter));
    if (!deepEqual(packed.value, bincode.value)) {
      throw new Error(`${name}: the bincode bytes decode to another value than the packed ones`);
    }
    return { packed: packed.size, bincode: bincode.size, summary: summary(packed.value) };
  };
}

const messages: [string, Demo][] = [
  [
    "Packet64",
    message(
      game.decodePacket64,
      game.encodePacket64,
      game.decodeBincodePacket64,
      game.encodeBincodePacket64,
      (p) => `health ${p.health}, pos (${p.posX}, ${p.posY}), score ${p.score}`,
    ),
  ],
  [
    "Input",
    message(
      game.decodeInput,
      game.encodeInput,
      game.decodeBincodeInput,
      game.encodeBincodeInput,
      (i) => `seq ${i.seq}, yaw ${i.yaw.toFixed(2)}, fire ${i.buttons.fire}`,
    ),
  ],
  [
    "Snapshot",
    message(
      game.decodeSnapshot,
      game.encodeSnapshot,
      game.decodeBincodeSnapshot,
      game.encodeBincodeSnapshot,
      (s) => `tick ${s.tick}, ${s.entities.length} entities, first "${s.entities[0]?.name ?? ""}"`,
    ),
  ],
  [
    "Events",
    message(
      game.decodeEvents,
      game.encodeEvents,
      game.decodeBincodeEvents,
      game.encodeBincodeEvents,
      (e) => `tick ${e.tick}, ${e.events.map((ev) => ev.kind).join(" ")}`,
    ),
  ],
];

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Whether two decoded values are equal: the same primitives (`Object.is`, so -0 is not 0),
 * arrays of equal elements, objects with the same keys and equal values. */
function deepEqual(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Object.is(a, b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k) => k in rb && deepEqual(ra[k], rb[k]));
}

for (const [name, demo] of messages) {
  const { packed, bincode, summary } = demo(name);
  const label = `TS (${runtime}):`.padEnd(21);
  const sizes = `${String(packed).padStart(4)} B packed, ${String(bincode).padStart(4)} B bincode`;
  console.log(`${label} ${name.padEnd(9)} ${sizes}  ${summary}`);
}
