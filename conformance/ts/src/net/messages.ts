// Messages of frames.bw for the network tests: a deterministic mix of every type, from
// an empty Ping to Chat lines long enough to be compressed and to span many chunks.

import { type Message, codecs, encodeMessage } from "../../gen/frames.js";

/** A deterministic generator (xorshift32). */
export function rng(seed: number): () => number {
  let x = seed | 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

/** The `i`th message of the mix for `seed`; `seq` is carried in every message that can hold it. */
export function message(next: () => number, seq: number, maxText = 3000): Message {
  const kind = seq % 5;
  const int = (n: number): number => Math.floor(next() * n);
  switch (kind) {
    case 0:
      return { kind: "Ping", value: {} };
    case 1:
      return {
        kind: "Packet64",
        value: { isAlive: next() < 0.9, weaponId: int(16), teamId: int(4), health: int(512), posX: int(4096) - 2048, posY: int(4096) - 2048, rotation: int(256), score: seq & 0xffff },
      };
    case 2:
      return { kind: "Chat", value: { from: seq & 0xffff, text: `#${seq} ${"hello arena ".repeat(int(maxText / 12))}`.slice(0, maxText) } };
    case 3:
      return { kind: "Wide", value: { v: seq & 255 } };
    default:
      return { kind: "Last", value: { v: int(256) } };
  }
}

/** A message as comparable text: its kind and JSON. */
export function show(m: Message): string {
  if (m.kind === "World") {
    return `World:envelope:${Array.from(m.envelope, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  }
  const codec = codecs[m.kind];
  return `${m.kind}:${JSON.stringify(codec === undefined ? null : codec.toJson(m.value))}`;
}

/** The packed bytes' length, for sizing tests. */
export function size(m: Message): number {
  return encodeMessage(m).length;
}
