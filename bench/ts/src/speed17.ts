// Issue 17's TypeScript speed check: encode and decode of the lab's `packet64`, `input`
// and `profiles` datasets, generated code against the hand-written baselines where there
// is one (packet64, input), on whichever runtime runs it. Same interleaved timing as
// main.ts; a quicker loop than the lab for trying a change to the generated code or the
// runtime. Nothing here asserts on a time.
//
//     node build/src/speed17.js <corpus dir> [--quick] [--rounds N] [--only packet64,input,profiles]
//
// The corpus: `cargo run --release -p bitwire-lab --bin corpus -- --quick` (bench/README.md).

import { BitWriter } from "@bitwire/runtime";

import * as bw from "../gen/game.js";
import { compare } from "./harness.js";
import * as hand from "./lab/hand.js";
import { readFrames, readManifest } from "./lab/corpus.js";
import { args, flag, runtime } from "./lab/host.js";
import * as hand64 from "./handwritten.js";

const dir: string =
  args[0] ??
  (() => {
    throw new Error("usage: speed17.js <corpus dir> [--quick]");
  })();
const rounds = args.includes("--quick") ? 5 : Number(flag("--rounds") ?? 201);
/** `--only packet64,input`: just those datasets. */
const only = flag("--only")?.split(",");
const manifest = readManifest(dir);

function frames(name: string): Uint8Array[] {
  const d = manifest.datasets.find((x) => x.name === name);
  if (d === undefined) {
    throw new Error(`no dataset ${name} in ${dir}`);
  }
  return readFrames(dir, d);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

interface Row {
  name: string;
  fs: (() => number)[];
  labels: string[];
  items: number;
}

function rowsOf<T>(
  name: string,
  fr: Uint8Array[],
  dec: (b: Uint8Array) => T,
  enc: (v: T, w: BitWriter) => Uint8Array,
  handEnc?: (v: T) => Uint8Array,
  handDec?: (b: Uint8Array) => T,
): Row[] {
  const values = fr.map(dec);
  const w = new BitWriter(64);
  values.forEach((v, i) => {
    const want = fr[i] as Uint8Array;
    if (!sameBytes(enc(v, w), want) || (handEnc !== undefined && !sameBytes(handEnc(v), want))) {
      throw new Error(`${name}: encoding ${i} differs from the corpus`);
    }
  });
  const n = values.length;
  const kept: T[] = new Array<T>(1024);
  const encs = [
    () => {
      let s = 0;
      for (let i = 0; i < n; i++) {
        s ^= enc(values[i] as T, w).length;
      }
      return s;
    },
  ];
  const decs = [
    () => {
      for (let i = 0; i < n; i++) {
        kept[i & 1023] = dec(fr[i] as Uint8Array);
      }
      return kept.length;
    },
  ];
  const labels = ["bitwire"];
  if (handEnc !== undefined && handDec !== undefined) {
    labels.push("hand");
    encs.push(() => {
      let s = 0;
      for (let i = 0; i < n; i++) {
        s ^= handEnc(values[i] as T)[7] ?? 0;
      }
      return s;
    });
    decs.push(() => {
      for (let i = 0; i < n; i++) {
        kept[i & 1023] = handDec(fr[i] as Uint8Array);
      }
      return kept.length;
    });
  }
  return [
    { name: `${name} encode`, fs: encs, labels, items: n },
    { name: `${name} decode`, fs: decs, labels, items: n },
  ];
}

const want = (name: string): boolean => only === undefined || only.includes(name);
const rows = [
  ...(!want("packet64") ? [] : rowsOf("packet64", frames("packet64"), (b) => bw.decodePacket64(b), bw.encodePacket64, hand64.encode, (b) =>
    hand64.decode(b) as bw.Packet64,
  )),
  ...(!want("input")
    ? []
    : rowsOf("input", frames("input"), (b) => bw.decodeInput(b), bw.encodeInput, hand.encodeInput, hand.decodeInput)),
  ...(!want("profiles") ? [] : rowsOf("profiles", frames("profiles"), (b) => bw.decodeProfiles(b), bw.encodeProfiles)),
];
console.log(`speed17 on ${runtime}, median ns per message of ${rounds} interleaved rounds`);
for (const r of rows) {
  const t = compare(rounds, r.items, r.fs);
  const cells = r.labels.map((l, i) => `${l} ${(t[i] ?? 0).toFixed(2)}`);
  const ratio = t.length > 1 ? ` ratio ${((t[0] ?? 0) / (t[1] ?? 1)).toFixed(2)}x` : "";
  console.log(`${r.name.padEnd(16)} ${cells.join("  ")}${ratio}`);
}
