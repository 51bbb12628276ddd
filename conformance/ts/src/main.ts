// The TypeScript conformance runner: the shared vectors (the delta vectors of
// testdata/vectors/delta/ too), JSONTestSuite, the differential corpus (when
// BITWIRE_DIFF_CORPUS is set), the property tests (full and delta) and, on Node, the
// delta codecs against the reference codec's CLI, on whichever runtime runs this
// file (Node, Bun or Deno: conformance/ts/run.sh runs it on all three). Prints
// `N passed, N failed` and exits non-zero on any problem.
//
// With BITWIRE_SUITES_DIR set (the random schemas of conformance/schemagen, which
// scripts/generate.mjs then generates instead of the vector suites) there are no
// vector files: only the corpus and the property test run.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";

import { bincodeSeeds, findBincodeCodec, runBincodeProperties, runBincodeVectors } from "./bincode.js";
import { bincodeVectorSuites } from "../gen/bincode/registry.js";
import { runCorpus } from "./corpus.js";
import { runDeltaProperties, runDeltaRings, runDeltaVectors } from "./delta.js";
import { runDeltaDiff } from "./deltadiff.js";
import { runFrames } from "./frames.js";
import { runJsonTestSuite } from "./jsontestsuite.js";
import { runHeap } from "./heap.js";
import { runJsTypes } from "./jstypes.js";
import { runProperties } from "./properties.js";
import { runTyped } from "./typed.js";
import { runtimeName, unhex } from "./util.js";
import { checkKnownSeen, knownFailures, runVectors } from "./vectors.js";

const here = dirname(fileURLToPath(import.meta.url));
// build/src/main.js → conformance/ts → the repository.
const tsDir = resolve(here, "../..");
const root = resolve(tsDir, "../..");
const suitesDir = process.env.BITWIRE_SUITES_DIR;
const vectorsDir = suitesDir !== undefined && suitesDir !== "" ? undefined : join(root, "testdata/vectors");
const runtime = runtimeName();

const problems: string[] = [];
let passed = 0;
let failed = 0;

const known = knownFailures(join(tsDir, "known-failures.txt"));
if (vectorsDir !== undefined) {
  const vectors = runVectors(vectorsDir, known);
  problems.push(...vectors.problems);
  passed += vectors.passed;
  failed += vectors.failed;
  console.log(`[${runtime}] vectors: ${vectors.passed} passed, ${vectors.failed} failed`);
  // The bincode encoding's suites (spec §13), with the same known-failures list.
  const bincode = runBincodeVectors(join(vectorsDir, "bincode"), known);
  problems.push(...bincode.problems);
  passed += bincode.passed;
  failed += bincode.failed;
  console.log(`[${runtime}] bincode vectors: ${bincode.passed} passed, ${bincode.failed} failed`);
  const seen = { ...vectors, seen: new Set([...vectors.seen, ...bincode.seen]), problems: [] as string[] };
  checkKnownSeen(known, seen);
  problems.push(...seen.problems);
}

if (vectorsDir !== undefined) {
  const deltas = runDeltaVectors(join(vectorsDir, "delta"));
  problems.push(...deltas.problems);
  passed += deltas.passed;
  failed += deltas.failed;
  console.log(`[${runtime}] delta vectors: ${deltas.passed} passed, ${deltas.failed} failed`);
}

if (vectorsDir !== undefined) {
  const frames = runFrames(vectorsDir);
  problems.push(...frames.problems);
  passed += frames.passed;
  failed += frames.failed;
  console.log(`[${runtime}] frame vectors: ${frames.passed} passed, ${frames.failed} failed`);
}

const suite = runJsonTestSuite(join(root, "testdata/jsontestsuite/expected.txt"));
problems.push(...suite.problems);
passed += suite.passed;
failed += suite.failed;
console.log(`[${runtime}] JSONTestSuite: ${suite.passed} passed, ${suite.failed} failed`);

const jsTypes = runJsTypes();
problems.push(...jsTypes.problems);
passed += jsTypes.passed;
failed += jsTypes.problems.length;
console.log(`[${runtime}] values of the wrong JavaScript type: ${jsTypes.passed} passed, ${jsTypes.problems.length} failed`);

const corpusPath = process.env.BITWIRE_DIFF_CORPUS;
if (corpusPath !== undefined && corpusPath !== "") {
  const corpus = runCorpus(corpusPath);
  problems.push(...corpus.problems);
  passed += corpus.passed + corpus.deltaPassed;
  failed += corpus.failed + corpus.deltaFailed;
  console.log(`[${runtime}] differential corpus ${corpusPath}: ${corpus.passed} passed, ${corpus.failed} failed`);
  console.log(`[${runtime}] differential corpus deltas ${corpusPath}: ${corpus.deltaPassed} passed, ${corpus.deltaFailed} failed`);
}

// The bincode corpus (`diffcorpus --bincode`): the reference codec's bincode bytes and outcomes.
const bincodeCorpusPath = process.env.BITWIRE_DIFF_BINCODE_CORPUS;
if (bincodeCorpusPath !== undefined && bincodeCorpusPath !== "") {
  const corpus = runCorpus(bincodeCorpusPath, findBincodeCodec);
  problems.push(...corpus.problems);
  passed += corpus.passed;
  failed += corpus.failed;
  console.log(`[${runtime}] differential corpus bincode ${bincodeCorpusPath}: ${corpus.passed} passed, ${corpus.failed} failed`);
}

// Valid encodings from the vector files seed the property test's mutations, and their
// values, encoded in bincode, the bincode property test's.
const seeds = new Map<string, Uint8Array[]>();
const values = new Map<string, unknown[]>();
for (const file of vectorsDir === undefined ? [] : readdirSync(vectorsDir).filter((f) => f.endsWith(".json"))) {
  const text = readFileSync(join(vectorsDir ?? "", file), "utf8");
  const doc = JSON.parse(text) as { suite: string; cases: { type: string; result: string; bytes?: string; value?: unknown }[] };
  for (const c of doc.cases) {
    if ((c.result === "valid" || c.result === "encodes") && c.bytes !== undefined) {
      const key = `${doc.suite}.${c.type}`;
      seeds.set(key, [...(seeds.get(key) ?? []), unhex(c.bytes)]);
      if (c.value !== undefined) {
        values.set(key, [...(values.get(key) ?? []), c.value]);
      }
    }
  }
}
const seed = Number(process.env.BITWIRE_SEED ?? 42);
const perType = Number(process.env.BITWIRE_PROP_CASES ?? 300);
const props = runProperties(seed, perType, seeds);
problems.push(...props.problems);
const propFailed = props.problems.length;
passed += props.inputs - propFailed;
failed += propFailed;
console.log(
  `[${runtime}] properties (seed ${seed}): ${props.inputs} hostile inputs, ${props.decoded} decoded and re-encoded canonically, ${propFailed} problems`,
);

const binSeeds = vectorsDir === undefined ? new Map<string, Uint8Array[]>() : bincodeSeeds(join(vectorsDir, "bincode"));
for (const [what, binProps] of [
  ["bincode properties", runBincodeProperties(seed, perType, { values })],
  ["bincode suites' properties", runBincodeProperties(seed, perType, { bytes: binSeeds }, bincodeVectorSuites)],
] as const) {
  problems.push(...binProps.problems);
  passed += binProps.inputs - binProps.problems.length;
  failed += binProps.problems.length;
  console.log(
    `[${runtime}] ${what} (seed ${seed}): ${binProps.inputs} hostile inputs, ${binProps.decoded} decoded and re-encoded, ${binProps.problems.length} problems`,
  );
}

// Everything above once more through the code generated with typed arrays.
for (const row of runTyped(vectorsDir, known, seed, perType, { packed: seeds, values, bincode: binSeeds })) {
  problems.push(...row.problems);
  passed += row.passed;
  failed += row.failed;
  console.log(`[${runtime}] typed arrays, ${row.what}: ${row.passed} passed, ${row.failed} failed`);
}

// The delta encoding over random snapshots of testdata/vectors/delta/delta.bw.
if (vectorsDir !== undefined) {
  const deltaProps = runDeltaProperties(seed, Math.max(1, Math.floor(perType / 3)));
  problems.push(...deltaProps.problems);
  passed += deltaProps.passed;
  failed += deltaProps.failed;
  console.log(
    `[${runtime}] delta properties (seed ${seed}): ${deltaProps.passed} passed, ${deltaProps.failed} failed`,
  );
  const rings = runDeltaRings(seed, 200);
  problems.push(...rings.problems);
  passed += rings.passed;
  failed += rings.failed;
  console.log(`[${runtime}] delta snapshots through the rings: ${rings.passed} passed, ${rings.failed} failed`);
}

// The delta codecs against the reference codec's CLI (Node only: it starts a process
// per comparison), when run.sh names the compiler.
const bitwire = process.env.BITWIRE;
if (runtime === "node" && bitwire !== undefined && bitwire !== "" && vectorsDir !== undefined) {
  const diff = runDeltaDiff(bitwire, join(vectorsDir, "delta/delta.bw"), seed, Math.max(1, Math.floor(perType / 30)));
  problems.push(...diff.problems);
  passed += diff.compared - diff.problems.length;
  failed += diff.problems.length;
  console.log(
    `[${runtime}] delta against the reference (seed ${seed}): ${diff.compared} compared, ${diff.problems.length} differ`,
  );
}

// The decode budget in memory: Node with --expose-gc only (run.sh starts it so).
if ("gc" in globalThis) {
  const heap = runHeap([1 << 12, 1 << 18, 1 << 20]);
  problems.push(...heap.problems);
  passed += heap.rows.length - heap.problems.length;
  failed += heap.problems.length;
  const worst = heap.rows.reduce((m, r) => Math.max(m, r.factor), 0);
  console.log(
    `[${runtime}] heap: ${heap.rows.length} adversarial inputs at their budget, heap at most ${worst.toFixed(2)} x the budget, ${heap.problems.length} problems`,
  );
}

for (const p of problems) {
  console.log(`FAIL ${p}`);
}
console.log(`${runtime}: ${passed} passed, ${failed} failed`);
process.exit(problems.length > 0 ? 1 : 0);
