// `verifySnapshot` against `decodeSnapshot` (generated from examples/game.bw) on
// Snapshot messages of 16 and 64 entities, the same values as the Rust samples'
// `snapshot(n)` (examples/rust/src/samples.rs), encoded with the generated encoder.
//
//     node build/src/verify.js [--quick]
//
// Prints ns/message for each and the speedup decode / verify (goal: >= 3x).

import { type Entity, type Snapshot, Team, Weapon, decodeSnapshot, encodeSnapshot, verifySnapshot } from "../gen/game.js";
import { compare } from "./harness.js";
import { args, runtime } from "./lab/host.js";

const quick = args.includes("--quick");
const [copies, rounds] = quick ? [100, 5] : [1_000, 101];

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

console.log(`verify vs decode on ${runtime}, Snapshot, median of ${rounds} interleaved rounds${quick ? " (quick)" : ""}`);
console.log(`${"entities".padEnd(9)} ${"bytes".padStart(6)} ${"decode".padStart(12)} ${"verify".padStart(12)} ${"speedup".padStart(8)}`);
for (const n of [16, 64]) {
  const bytes = encodeSnapshot(snapshot(n)).slice();
  // Many copies, each its own array, so neither contender reads one hot buffer.
  const inputs = Array.from({ length: copies }, () => bytes.slice());
  verifySnapshot(bytes);
  if (decodeSnapshot(bytes).entities.length !== n) {
    throw new Error("the snapshot does not round-trip");
  }
  const kept: (Snapshot | undefined)[] = new Array<Snapshot | undefined>(copies).fill(undefined);
  const [dec = 0, ver = 0] = compare(rounds, copies, [
    () => {
      for (let i = 0; i < copies; i++) {
        kept[i] = decodeSnapshot(inputs[i] as Uint8Array);
      }
      return kept[copies - 1]?.ackSeq ?? 0;
    },
    () => {
      let s = 0;
      for (let i = 0; i < copies; i++) {
        verifySnapshot(inputs[i] as Uint8Array);
        s++;
      }
      return s;
    },
  ]);
  const line = `${String(n).padEnd(9)} ${String(bytes.length).padStart(6)} ${dec.toFixed(1).padStart(9)} ns ${ver.toFixed(1).padStart(9)} ns`;
  console.log(`${line} ${(dec / ver).toFixed(2).padStart(7)}x`);
}
console.log("goal: speedup >= 3x (verify builds nothing)");
