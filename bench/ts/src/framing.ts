// The framer (docs/framing.md) on Node, Bun and Deno: reading coalesced streams of
// frames (64 KiB chunks, as a socket delivers them) through the generated
// `decodeFrame`, writing frames with `encodeFrame`, and the two zlibs — bitwire's own
// (jsZlib: fixed Huffman codes) and node:zlib (level 6) — on the sizes they write and
// their speed.
//
//     node build/src/framing.js [--quick]

import { BitWriter, FrameReader, type Zlib, jsZlib } from "@bitwire/runtime";
import { type Entity, type Message, type Snapshot, Team, Weapon, decodeFrame, encodeFrame, encodeMessage } from "../gen/game.js";
import { compare } from "./harness.js";
import { args, runtime } from "./lab/host.js";

// bench/ts compiles without Node's type declarations (its files run on all three
// runtimes), which `@bitwire/runtime/node`'s declarations need: load it untyped.
const nodeEntry: string = "@bitwire/runtime/node";
const { nodeZlib } = (await import(nodeEntry)) as { nodeZlib: Zlib };

const quick = args.includes("--quick");
const rounds = quick ? 5 : 51;

/** `snapshot(n)` of the Rust samples (f32 arithmetic kept with Math.fround). */
function snapshot(n: number): Snapshot {
  const names = ["ada", "grace", "linus", "ken", "barbara", "dennis", "margaret", "edsger"];
  const weapons = [Weapon.Pistol, Weapon.Rifle, Weapon.Sniper, Weapon.Rocket];
  const f32 = Math.fround;
  const entities: Entity[] = [];
  for (let i = 0; i < n; i++) {
    entities.push({
      id: i * 7 + 1,
      pos: { x: f32(-500 + f32(i * 13.25)), y: f32(200 - f32(i * 7.5)) },
      velX: f32(f32(f32(i * 1.5) % 64) - 32),
      velY: 3,
      yaw: f32(f32(i * 37) % 360),
      health: ((100 + ((i * 3) & 0xff)) & 0xff) % 201,
      weapon: weapons[i % 4] ?? Weapon.Pistol,
      team: i % 2 === 0 ? Team.Red : Team.Blue,
      onGround: i % 3 !== 0,
      sprinting: i % 5 === 0,
      target: i % 4 === 0 ? (i + 1) * 7 : null,
      name: names[i % names.length] ?? "",
    });
  }
  return { tick: 360_000, ackSeq: 4711, entities };
}

/** `n` frames of `m` joined into one stream, cut into 64 KiB chunks. */
function chunks(m: Message, n: number, threshold: number | null): Uint8Array[] {
  const frame = encodeFrame(m, { threshold });
  const stream = new Uint8Array(frame.length * n);
  for (let i = 0; i < n; i++) {
    stream.set(frame, i * frame.length);
  }
  const out: Uint8Array[] = [];
  for (let at = 0; at < stream.length; at += 65536) {
    out.push(stream.subarray(at, at + 65536));
  }
  return out;
}

const w = new BitWriter();
console.log(`framing on ${runtime}, median of ${rounds} rounds${quick ? " (quick)" : ""}, ns per frame`);
const packet: Message = {
  kind: "Packet64",
  value: { isAlive: true, weaponId: 2, teamId: 1, health: 87, posX: -310, posY: 1200, rotation: 64, score: 1250 },
};
const snap: Message = { kind: "Snapshot", value: snapshot(64) };
for (const [name, m, n, threshold] of [
  ["Packet64 (10-byte frames)", packet, 20_000, null],
  ["Snapshot, 64 entities", snap, 1_000, null],
  ["Snapshot, 64 entities, threshold 256 (jsZlib)", snap, 1_000, 256],
] as const) {
  const parts = chunks(m, n, threshold);
  const [read = 0, write = 0] = compare(rounds, n, [
    () => {
      const r = new FrameReader({ threshold });
      let k = 0;
      for (const c of parts) {
        r.push(c);
        for (let f = r.next(); f !== undefined; f = r.next()) {
          k += decodeFrame(f).kind.length;
        }
      }
      return k;
    },
    () => {
      let k = 0;
      const options = { threshold };
      for (let i = 0; i < n; i++) {
        k += encodeFrame(m, options, w).length;
      }
      return k;
    },
  ]);
  console.log(`${name.padEnd(48)} read+decode ${read.toFixed(0).padStart(7)}   encode+frame ${write.toFixed(0).padStart(7)}`);
}

const bodies: [string, Uint8Array][] = [
  ["Snapshot, 64 entities", encodeMessage(snap).slice()],
  ["chat text, 306 bytes", new TextEncoder().encode("the quick brown fox jumps over the lazy dog ".repeat(7).slice(0, 306))],
];
for (const [name, body] of bodies) {
  for (const zlib of [jsZlib, nodeZlib] as Zlib[]) {
    const z = zlib.deflate(body);
    const [deflate = 0, inflate = 0] = compare(rounds, 200, [
      () => {
        let k = 0;
        for (let i = 0; i < 200; i++) {
          k += zlib.deflate(body).length;
        }
        return k;
      },
      () => {
        let k = 0;
        for (let i = 0; i < 200; i++) {
          const r = zlib.inflate(z, body.length);
          k += r instanceof Uint8Array ? r.length : 0;
        }
        return k;
      },
    ]);
    console.log(
      `${`${name}, ${zlib.name}`.padEnd(40)} ${body.length} -> ${String(z.length).padStart(4)} bytes   deflate ${deflate.toFixed(0).padStart(7)} ns   inflate ${inflate.toFixed(0).padStart(7)} ns`,
    );
  }
}
