// The delta lab's TypeScript program (bench/delta/README.md): checks and times the code
// generated from bench/delta/delta.bw on the lab's scenarios, on Node, Bun or Deno.
//
//   node build/src/delta.js --scenarios DIR --out FILE [--rounds N]
//
// DIR is what `deltabench scenarios` and `deltabench encodings` wrote. For each scenario it
// decodes every tick's full encoding with the generated decoder and checks that the encoder
// writes the same bytes back, times the full decoder (before any decoded tick is kept: see
// Bench), decodes the ticks again and keeps them as baselines, checks that encodeDeltaX
// writes the reference codec's bytes for every tick at both baseline ages and that
// decodeDeltaX of them gives the tick, then times the full encoder and the delta codec.
// Each figure: warm-up passes first (at least 5 and 0.25 s: the JIT's tiers), then the
// median over N passes (default 21, 3 for quick scenarios) of the ns per tick of a pass
// over every tick. FILE gets a raw file of the lab
// (format bitwire-delta-lab/1) with those timings and no series: the sizes are the
// reference codec's, measured by `deltabench measure`. Nothing here asserts on a time.

import { mkdirSync, writeFileSync } from "node:fs";
import * as bw from "@bitwire/runtime";
import {
  type Cubes,
  decodeCubes,
  decodeDeltaCubes,
  decodeDeltaWorld,
  decodeWorld,
  encodeCubes,
  encodeDeltaCubes,
  encodeDeltaWorld,
  encodeWorld,
  type World,
} from "../gen/delta.js";
import { readEncodings, type ScenarioBytes } from "./files.js";
import { exit, flag, runtime } from "./host.js";

/** Timed passes per figure, as `deltabench measure`. */
const ROUNDS = 21;
const QUICK_ROUNDS = 3;
/** Warm-up before each figure: at least this many passes and this many seconds. */
const WARMUP_PASSES = 5;
const WARMUP_SECONDS = 0.25;

/** What the passes time, in the raw file's notes. */
const FULL_NOTE =
  "full snapshot: encodeWorld / encodeCubes into a reused BitWriter; decodeWorld / decodeCubes builds the value " +
  "(timed before the decoded ticks are kept as baselines, so that V8 does not pretenure its allocations)";

function deltaNote(age: number): string {
  return (
    `delta against the tick ${age} older (ticks 1..): encodeDeltaWorld / encodeDeltaCubes into a reused ` +
    "BitWriter; decodeDeltaWorld / decodeDeltaCubes builds the value, sharing what did not change with the " +
    "decoded baseline"
  );
}

/** A row of a raw file's `timings` (src/raw.rs). */
interface Timing {
  scenario: string;
  codec: string;
  encode_ns: number;
  decode_ns: number;
  rounds: number;
  note: string;
}

/** The generated codec of one message, for the checks (not timed). */
interface Codec<T> {
  encode(v: T, w: bw.BitWriter): Uint8Array;
  decode(b: Uint8Array): T;
  encodeDelta(base: T, v: T, w: bw.BitWriter): Uint8Array;
  decodeDelta(base: T, b: Uint8Array): T;
}

const worldCodec: Codec<World> = {
  encode: encodeWorld,
  decode: (b) => decodeWorld(b),
  encodeDelta: encodeDeltaWorld,
  decodeDelta: (base, b) => decodeDeltaWorld(base, b),
};

const cubesCodec: Codec<Cubes> = {
  encode: encodeCubes,
  decode: (b) => decodeCubes(b),
  encodeDelta: encodeDeltaCubes,
  decodeDelta: (base, b) => decodeDeltaCubes(base, b),
};

/** A delta's tick and its baseline's. */
interface Pair {
  t: number;
  b: number;
}

function pairs(ticks: number, age: number): Pair[] {
  const out: Pair[] = [];
  for (let t = 1; t < ticks; t++) {
    out.push({ t, b: Math.max(t - age, 0) });
  }
  return out;
}

function equal(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Decodes every full encoding of `s` and checks that the encoder writes it back. */
function checkFull<T>(s: ScenarioBytes, c: Codec<T>): void {
  const w = new bw.BitWriter(1 << 16);
  s.full.forEach((b, t) => {
    if (!equal(c.encode(c.decode(b), w), b)) {
      throw new Error(`${s.name} tick ${t}: the decoded tick encodes to other bytes`);
    }
  });
}

/**
 * The decoded ticks, kept as the baselines (after {@link checkFull}), with the deltas
 * checked at every age: the reference codec's bytes, decoding to the tick.
 */
function baselines<T>(s: ScenarioBytes, ages: readonly number[], c: Codec<T>): T[] {
  const w = new bw.BitWriter(1 << 16);
  const values = s.full.map((b) => c.decode(b));
  ages.forEach((age, a) => {
    const want = s.deltas[a];
    pairs(values.length, age).forEach(({ t, b }, i) => {
      const d = c.encodeDelta(values[b], values[t], w);
      const r = want[i];
      if (!equal(d, r)) {
        throw new Error(
          `${s.name} tick ${t}, age ${age}: encodeDelta wrote ${d.length} bytes that differ from the reference codec's ${r.length}`,
        );
      }
      const back = c.decodeDelta(values[b], r);
      if (!equal(c.encode(back, w), s.full[t])) {
        throw new Error(`${s.name} tick ${t}, age ${age}: the delta decodes to another value than the tick`);
      }
    });
  });
  return values;
}

/**
 * One timed figure: `encode` and `decode` each run one pass over `ticks` ticks; the full
 * snapshot's `decode` is {@link Bench.decodeFull}.
 */
interface Pass {
  codec: string;
  ticks: number;
  note: string;
  encode: () => number;
  decode?: () => number;
}

/**
 * A scenario's figures. `decodeFull` (one pass of the full decoder, checked) is timed
 * first, while no decoded tick is kept: keeping every tick alive as a baseline makes V8
 * pretenure the decoder's allocations (`--trace-pretenuring`: its allocation site goes to
 * "tenure" as all its objects survive), so the ticks a timed pass drops fill the old
 * generation and mark-compacts run throughout: Node's full decode of the cube scene was
 * 2-5 times slower in quick runs, where a client keeps a few baselines. `passes` then
 * decodes and keeps them, checks the deltas and gives the other figures.
 */
interface Bench {
  decodeFull: () => number;
  passes: (ages: readonly number[]) => Pass[];
}

/** Keeps the passes' results observable. */
let sink = 0;

// The timed loops are written out per message (worldPasses, cubesPasses) so that each
// call site sees one message type: a shared loop would make the engines' call sites
// polymorphic and time that instead.

function worldBench(s: ScenarioBytes): Bench {
  checkFull(s, worldCodec);
  const decodeFull = (): number => {
    let n = 0;
    for (const b of s.full) n += decodeWorld(b).tick;
    return n;
  };
  return { decodeFull, passes: (ages) => worldPasses(s, ages) };
}

function worldPasses(s: ScenarioBytes, ages: readonly number[]): Pass[] {
  const values = baselines(s, ages, worldCodec);
  const w = new bw.BitWriter(1 << 16);
  const out: Pass[] = [
    {
      codec: "bitwire",
      ticks: values.length,
      note: FULL_NOTE,
      encode: () => {
        let n = 0;
        for (const v of values) n += encodeWorld(v, w).length;
        return n;
      },
    },
  ];
  ages.forEach((age, a) => {
    const ps = pairs(values.length, age);
    const deltas = s.deltas[a];
    out.push({
      codec: `bitwire-delta-${age}`,
      ticks: ps.length,
      note: deltaNote(age),
      encode: () => {
        let n = 0;
        for (const { t, b } of ps) n += encodeDeltaWorld(values[b], values[t], w).length;
        return n;
      },
      decode: () => {
        let n = 0;
        for (let i = 0; i < ps.length; i++) n += decodeDeltaWorld(values[ps[i].b], deltas[i]).tick;
        return n;
      },
    });
  });
  return out;
}

function cubesBench(s: ScenarioBytes): Bench {
  checkFull(s, cubesCodec);
  const decodeFull = (): number => {
    let n = 0;
    for (const b of s.full) n += decodeCubes(b).tick;
    return n;
  };
  return { decodeFull, passes: (ages) => cubesPasses(s, ages) };
}

function cubesPasses(s: ScenarioBytes, ages: readonly number[]): Pass[] {
  const values = baselines(s, ages, cubesCodec);
  const w = new bw.BitWriter(1 << 16);
  const out: Pass[] = [
    {
      codec: "bitwire",
      ticks: values.length,
      note: FULL_NOTE,
      encode: () => {
        let n = 0;
        for (const v of values) n += encodeCubes(v, w).length;
        return n;
      },
    },
  ];
  ages.forEach((age, a) => {
    const ps = pairs(values.length, age);
    const deltas = s.deltas[a];
    out.push({
      codec: `bitwire-delta-${age}`,
      ticks: ps.length,
      note: deltaNote(age),
      encode: () => {
        let n = 0;
        for (const { t, b } of ps) n += encodeDeltaCubes(values[b], values[t], w).length;
        return n;
      },
      decode: () => {
        let n = 0;
        for (let i = 0; i < ps.length; i++) n += decodeDeltaCubes(values[ps[i].b], deltas[i]).tick;
        return n;
      },
    });
  });
  return out;
}

/** The median of `xs` (sorted in place): the middle value, or the mean of the two middle ones. */
function median(xs: number[]): number {
  xs.sort((a, b) => a - b);
  const n = xs.length;
  return n % 2 === 1 ? xs[n >> 1] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

/** The median ns per tick over `rounds` passes, after the warm-up. */
function perTick(rounds: number, ticks: number, pass: () => number): number {
  const start = performance.now();
  for (let k = 0; k < WARMUP_PASSES || (performance.now() - start) / 1e3 < WARMUP_SECONDS; k++) {
    sink = (sink + pass()) | 0;
  }
  const ns: number[] = [];
  for (let r = 0; r < Math.max(rounds, 1); r++) {
    const t = performance.now();
    sink = (sink + pass()) | 0;
    ns.push(((performance.now() - t) * 1e6) / Math.max(ticks, 1));
  }
  return median(ns);
}

function main(): void {
  const dir = flag("scenarios");
  const out = flag("out");
  if (dir === undefined || out === undefined) {
    console.error("usage: delta.js --scenarios DIR --out FILE [--rounds N]");
    exit(2);
  }
  const { index, scenarios } = readEncodings(dir);
  const roundsFlag = flag("rounds");
  const rounds = roundsFlag !== undefined ? Number(roundsFlag) : index.quick ? QUICK_ROUNDS : ROUNDS;
  if (!Number.isInteger(rounds) || rounds < 1) {
    throw new Error(`--rounds ${roundsFlag}: not a positive integer`);
  }
  const timings: Timing[] = [];
  for (const name of ["world", "cubes"]) {
    const s = scenarios.get(name);
    if (s === undefined) {
      throw new Error(`encodings.json has no ${name} file`);
    }
    const bench = name === "world" ? worldBench(s) : cubesBench(s);
    const fullDecodeNs = perTick(rounds, s.full.length, bench.decodeFull);
    for (const p of bench.passes(index.ages)) {
      timings.push({
        scenario: name,
        codec: p.codec,
        encode_ns: perTick(rounds, p.ticks, p.encode),
        decode_ns: p.decode === undefined ? fullDecodeNs : perTick(rounds, p.ticks, p.decode),
        rounds,
        note: p.note,
      });
    }
  }
  const raw = {
    format: "bitwire-delta-lab/1",
    program: "ts/ (build/src/delta.js)",
    runtime,
    quick: index.quick,
    ticks: index.ticks,
    scenarios: index.scenarios,
    series: [],
    timings,
  };
  mkdirSync(out.slice(0, Math.max(out.lastIndexOf("/"), 0)) || ".", { recursive: true });
  writeFileSync(out, `${JSON.stringify(raw)}\n`);
  if (sink === 0.5) {
    console.log("unreachable (an integer): keeps the sink alive");
  }
  console.log(`${out}: ${timings.length} timings (${runtime}), every delta byte-identical to the reference codec's and decoded back`);
}

try {
  main();
} catch (e) {
  console.error(`delta.js (${runtime}): ${e instanceof Error ? e.message : String(e)}`);
  exit(1);
}
