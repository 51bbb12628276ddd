// The TypeScript leg of the cross-language demo (./run demo): reads the sample messages the
// Rust demo wrote, decodes them with the generated TypeScript, encodes them again and writes
// <Name>.ts.bin for the Rust demo to compare with its own bytes. Runs unchanged on Node,
// Bun and Deno (Deno needs --allow-read --allow-write):
//
//     node build/src/demo.js DIR

import { readFileSync, writeFileSync } from "node:fs";

import { BitWriter } from "@bitwire/runtime";

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

// One writer for every encoding: it grows to the largest message and is then reused.
const writer = new BitWriter(512);

/** Decodes `bytes`, encodes the value again and describes it in a few fields. */
type RoundTrip = (bytes: Uint8Array) => { again: Uint8Array; summary: string };

// Ties each message's decoder, encoder and summary to one type, so the table below can
// hold all four.
function message<T>(
  decode: (b: Uint8Array) => T,
  encode: (v: T, w: BitWriter) => Uint8Array,
  summary: (v: T) => string,
): RoundTrip {
  return (bytes) => {
    const value = decode(bytes);
    return { again: encode(value, writer), summary: summary(value) };
  };
}

const messages: [string, RoundTrip][] = [
  [
    "Packet64",
    message(game.decodePacket64, game.encodePacket64, (p) =>
      `health ${p.health}, pos (${p.posX}, ${p.posY}), score ${p.score}`),
  ],
  [
    "Input",
    message(game.decodeInput, game.encodeInput, (i) =>
      `seq ${i.seq}, yaw ${i.yaw.toFixed(2)}, fire ${i.buttons.fire}`),
  ],
  [
    "Snapshot",
    message(game.decodeSnapshot, game.encodeSnapshot, (s) =>
      `tick ${s.tick}, ${s.entities.length} entities, first "${s.entities[0]?.name ?? ""}"`),
  ],
  [
    "Events",
    message(game.decodeEvents, game.encodeEvents, (e) =>
      `tick ${e.tick}, ${e.events.map((ev) => ev.kind).join(" ")}`),
  ],
];

const same = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

for (const [name, roundTrip] of messages) {
  const bytes = readFileSync(`${dir}/${name}.bin`);
  const { again, summary } = roundTrip(bytes);
  // The encoding is canonical, so decoding and re-encoding must give the same bytes.
  if (!same(again, bytes)) {
    throw new Error(`${name}: re-encoded bytes differ from Rust's`);
  }
  writeFileSync(`${dir}/${name}.ts.bin`, again);
  const label = `TS (${runtime}):`.padEnd(21);
  console.log(`${label} ${name.padEnd(9)} ${String(bytes.length).padStart(4)} B  ${summary}`);
}
