// The delta encoding (spec §12) through the generated TypeScript: the shared delta
// vectors of testdata/vectors/delta/ and a property test over random snapshots.
//
// Vectors (a suite per `<name>.json` beside its `<name>.bw`; cases like the full
// encoding's, with the `baseline` the delta is taken against):
//
// - `valid`: `encodeDeltaX(baseline, value)` gives exactly `bytes`, `decodeDeltaX(baseline,
//   bytes)` gives `value` as its full encoding decodes (on the quantization grid;
//   compared through the JSON mapping), `verifyDeltaX` accepts the bytes, and
//   re-encoding the decoded value against the baseline gives the bytes again;
// - `encodes`: `encodeDeltaX(baseline, value)` gives exactly `bytes` (one way);
// - `invalid` with `bytes`: decoding and verifying fail with the vector's kind, bit, path;
// - `invalid` with a `value` and no `bytes`: mapping or encoding fails with the vector's
//   kind and path (encoder errors have no bit).
//
// Properties (fixed seed): for random baselines and next values of every delta message,
// the delta decodes to the value (as decoding its full encoding gives it), decoding is
// canonical (the decoded value encodes to the same delta), a value against itself is a
// few zero bytes that decode to the baseline, and hostile deltas (the valid ones
// mutated) throw nothing but a BitwireError, and what decodes re-encodes to the same
// bytes. And a run of worlds through the runtime's snapshot rings with the generated
// `worldDeltaCodec`, acknowledged late and lost now and then, arrives intact.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { BitwireError, type DeltaTypeCodec, SnapshotReceiver, SnapshotSender, type TypeCodec } from "@bitwire/runtime";

import { type World, decodeWorld, encodeWorld, worldDeltaCodec } from "../gen/delta/delta.js";
import { deltaSuites } from "../gen/delta/registry.js";
import * as gen from "./deltagen.js";
import { mutate } from "./rng.js";
import { type Expected, checkError, hex, jsonEqual, sameBytes, sameError, show, unhex, why } from "./util.js";

/** One case of a delta vector file. */
interface Case {
  id: string;
  type: string;
  result: string;
  baseline: unknown;
  value?: unknown;
  bytes?: string;
  error?: Expected;
}

/** Counts of one run, and the problems found. */
export interface DeltaTally {
  passed: number;
  failed: number;
  problems: string[];
}

/** A delta message's codecs: its full codec and its delta functions. */
interface Pair {
  full: TypeCodec<unknown>;
  delta: DeltaTypeCodec<unknown>;
}

/** Delta suites' codecs by suite name, as gen/delta/registry.ts has them. */
type DeltaRegistry = typeof deltaSuites;

function find(registry: DeltaRegistry, suite: string, type: string): Pair | undefined {
  const s = registry[suite];
  if (s === undefined || !Object.hasOwn(s.codecs, type) || !Object.hasOwn(s.deltas, type)) {
    return undefined;
  }
  return { full: s.codecs[type], delta: s.deltas[type] };
}

/** `undefined` when the case behaves as stated, else why not. */
function runCase(registry: DeltaRegistry, suite: string, c: Case): string | undefined {
  const pair = find(registry, suite, c.type);
  if (pair === undefined) {
    return `no generated delta message ${suite}.${c.type}`;
  }
  const { full, delta } = pair;
  let baseline: unknown;
  try {
    baseline = full.fromJson(c.baseline);
  } catch (e) {
    return `the baseline does not map: ${why(e)}`;
  }
  const bytes = c.bytes === undefined ? undefined : unhex(c.bytes);
  if ((c.result === "valid" || c.result === "encodes") && bytes !== undefined && c.value !== undefined) {
    try {
      const value = full.fromJson(c.value);
      const got = delta.encodeDelta(baseline, value);
      if (!sameBytes(got, bytes)) {
        return `encoded ${hex(got)}, expected ${hex(bytes)}`;
      }
      if (c.result === "encodes") {
        return undefined;
      }
      const decoded = delta.decodeDelta(baseline, bytes);
      const want = full.toJson(canonical(full, value));
      if (!jsonEqual(full.toJson(decoded), want)) {
        return `decoded ${show(full.toJson(decoded))}, expected ${show(want)}`;
      }
      delta.verifyDelta(baseline, bytes);
      const again = delta.encodeDelta(baseline, decoded);
      return sameBytes(again, bytes) ? undefined : `the decoded value re-encodes to ${hex(again)}`;
    } catch (e) {
      return `unexpected ${why(e)}`;
    }
  }
  if (c.result === "invalid" && c.error !== undefined && bytes !== undefined) {
    let decodeError: unknown;
    try {
      const got = delta.decodeDelta(baseline, bytes);
      return `decoded invalid bytes to ${show(full.toJson(got))}`;
    } catch (e) {
      decodeError = e;
    }
    const problem = checkError(decodeError, c.error);
    if (problem !== undefined) {
      return problem;
    }
    try {
      delta.verifyDelta(baseline, bytes);
      return "verify accepted bytes that decoding rejects";
    } catch (e) {
      return sameError(e, decodeError);
    }
  }
  if (c.result === "invalid" && c.error !== undefined && c.value !== undefined) {
    const error = { kind: c.error.kind, ...(c.error.path === undefined ? {} : { path: c.error.path }) };
    try {
      const got = delta.encodeDelta(baseline, full.fromJson(c.value));
      return `encoded an invalid value to ${hex(got)}`;
    } catch (e) {
      return checkError(e, error);
    }
  }
  return `malformed case (result ${c.result})`;
}

/**
 * Runs every delta suite of `dir`: each `*.bw` there must have its `*.json` cases, run
 * through `registry` (gen/delta/registry.ts unless told otherwise).
 */
export function runDeltaVectors(dir: string, registry: DeltaRegistry = deltaSuites): DeltaTally {
  const tally: DeltaTally = { passed: 0, failed: 0, problems: [] };
  const seen = new Set<string>();
  for (const schema of readdirSync(dir).filter((f) => f.endsWith(".bw")).sort()) {
    const file = join(dir, schema.replace(/\.bw$/, ".json"));
    if (!existsSync(file)) {
      tally.failed++;
      tally.problems.push(`${file}: no delta vectors for ${schema}`);
      continue;
    }
    const doc = JSON.parse(readFileSync(file, "utf8")) as { suite: string; cases: Case[] };
    for (const c of doc.cases) {
      if (seen.has(c.id)) {
        tally.problems.push(`${c.id}: duplicate case id`);
      }
      seen.add(c.id);
      const problem = runCase(registry, doc.suite, c);
      if (problem === undefined) {
        tally.passed++;
      } else {
        tally.failed++;
        tally.problems.push(`${c.id}: ${problem}`);
      }
    }
  }
  return tally;
}

/** A delta message of delta.bw with its random values and next values. */
interface Subject {
  type: string;
  make: (rng: gen.Rng) => unknown;
  next: (rng: gen.Rng, b: never) => unknown;
}

const SUBJECTS: readonly Subject[] = [
  { type: "Scalars", make: gen.scalars, next: gen.nextScalars },
  { type: "Composite", make: gen.composite, next: gen.nextComposite },
  { type: "World", make: gen.world, next: gen.nextWorld },
  { type: "Keys", make: gen.keysValue, next: gen.nextKeys },
];

/** The value decoding its full encoding gives (canonical: on the grid, NaN canonical). */
function canonical(full: TypeCodec<unknown>, v: unknown): unknown {
  return full.decode(full.encode(v).slice());
}


/** `undefined` when a hostile delta behaves canonically, else why not. */
function probe(pair: Pair, baseline: unknown, bytes: Uint8Array): string | undefined {
  const { full, delta } = pair;
  let decoded: unknown;
  let decodeError: unknown;
  try {
    decoded = delta.decodeDelta(baseline, bytes);
  } catch (e) {
    if (!(e instanceof BitwireError)) {
      return `decoding ${hex(bytes)} threw ${why(e)}`;
    }
    decodeError = e;
  }
  try {
    delta.verifyDelta(baseline, bytes);
    if (decodeError !== undefined) {
      return `verify accepted ${hex(bytes)}, which decoding rejects`;
    }
  } catch (e) {
    const problem = decodeError === undefined ? `verify threw ${why(e)} on ${hex(bytes)}` : sameError(e, decodeError);
    if (problem !== undefined) {
      return problem;
    }
  }
  if (decodeError !== undefined) {
    return undefined;
  }
  const again = delta.encodeDelta(baseline, decoded);
  if (!sameBytes(again, bytes)) {
    return `${hex(bytes)} decodes to ${show(full.toJson(decoded))}, which encodes to ${hex(again)}`;
  }
  return undefined;
}

/**
 * The property test: `perType` random (baseline, value) pairs of every delta message,
 * through `registry` (gen/delta/registry.ts unless told otherwise; the generators make
 * plain arrays, which code generated with typed arrays takes too).
 */
export function runDeltaProperties(seed: number, perType: number, registry: DeltaRegistry = deltaSuites): DeltaTally {
  const tally: DeltaTally = { passed: 0, failed: 0, problems: [] };
  const rng = new gen.Rng(seed);
  for (const subject of SUBJECTS) {
    const pair = find(registry, "delta", subject.type);
    if (pair === undefined) {
      tally.problems.push(`no generated delta message delta.${subject.type}`);
      continue;
    }
    const full = pair.full;
    let baseline = canonical(full, subject.make(rng));
    for (let i = 0; i < perType; i++) {
      const raw = subject.next(rng, baseline as never);
      const problem = check(pair, baseline, raw, rng);
      if (problem === undefined) {
        tally.passed++;
      } else {
        tally.failed++;
        tally.problems.push(`delta property ${subject.type} #${i}: ${problem}`);
      }
      // A run of snapshots, each the next one's baseline; a fresh world now and then.
      baseline = i % 10 === 9 ? canonical(full, subject.make(rng)) : canonical(full, raw);
    }
  }
  return tally;
}

/** The properties of one (baseline, value) pair; `value` need not be canonical. */
function check(pair: Pair, baseline: unknown, value: unknown, rng: gen.Rng): string | undefined {
  const { full, delta } = pair;
  try {
    const bytes = delta.encodeDelta(baseline, value).slice();
    const decoded = delta.decodeDelta(baseline, bytes);
    const want = full.toJson(canonical(full, value));
    if (!jsonEqual(full.toJson(decoded), want)) {
      return `${hex(bytes)} against ${show(full.toJson(baseline))} decodes to ${show(full.toJson(decoded))}, expected ${show(want)}`;
    }
    const again = delta.encodeDelta(baseline, decoded);
    if (!sameBytes(again, bytes)) {
      return `the decoded value encodes to ${hex(again)}, not ${hex(bytes)}`;
    }
    delta.verifyDelta(baseline, bytes);
    const same = delta.encodeDelta(baseline, baseline);
    if (same.some((b) => b !== 0) || delta.decodeDelta(baseline, same.slice()) !== baseline) {
      return `the baseline against itself is ${hex(same)}`;
    }
    for (let k = 0; k < 4; k++) {
      const problem = probe(pair, baseline, mutate(rng, bytes));
      if (problem !== undefined) {
        return problem;
      }
    }
    return undefined;
  } catch (e) {
    return `unexpected ${why(e)}`;
  }
}

/**
 * `ticks` random worlds sent through a `SnapshotSender` and a `SnapshotReceiver` with
 * the generated `worldDeltaCodec`: the client acknowledges two ticks late and one
 * envelope in seven is lost; every envelope that arrives decodes to its world (as its
 * full encoding decodes), and deltas are smaller than full snapshots on the whole.
 */
export function runDeltaRings(seed: number, ticks: number): DeltaTally {
  const tally: DeltaTally = { passed: 0, failed: 0, problems: [] };
  const rng = new gen.Rng(seed);
  const sender = new SnapshotSender<World>(worldDeltaCodec, 8);
  const receiver = new SnapshotReceiver<World>(worldDeltaCodec, 8);
  const acks: (number | undefined)[] = [];
  let world = gen.world(rng);
  let [deltaBytes, fullBytes] = [0, 0];
  for (let t = 0; t < ticks; t++) {
    world = decodeWorld(encodeWorld(gen.nextWorld(rng, world)).slice());
    const sent = sender.encode(world);
    deltaBytes += sent.bytes.length;
    fullBytes += 3 + encodeWorld(world).length;
    const lost = rng.below(7) === 0;
    try {
      const got = lost ? undefined : receiver.decode(sent.bytes.slice());
      if (!lost && (got === undefined || got.seq !== sent.seq || !jsonEqual(got.value, world))) {
        tally.failed++;
        tally.problems.push(`rings: tick ${t} (back ${sent.back}) arrived as ${show(got?.value)}`);
      } else {
        tally.passed++;
      }
    } catch (e) {
      tally.failed++;
      tally.problems.push(`rings: tick ${t} (back ${sent.back}): ${why(e)}`);
    }
    // The client's input message carries its ack two ticks later.
    acks.push(receiver.ack);
    const ack = acks.length > 2 ? acks[acks.length - 3] : undefined;
    if (ack !== undefined) {
      sender.ack(ack);
    }
    if (receiver.needFull) {
      sender.requestFull();
    }
  }
  if (ticks >= 20 && deltaBytes >= fullBytes) {
    tally.failed++;
    tally.problems.push(`rings: deltas took ${deltaBytes} bytes, full snapshots ${fullBytes}`);
  }
  return tally;
}
