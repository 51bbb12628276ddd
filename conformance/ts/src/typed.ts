// The same checks once more on code generated with `--typed-arrays` (docs/typescript.md):
// lists and arrays of plain numbers held in typed arrays (`Uint8Array`, `Float64Array`,
// `BigUint64Array`, …) in every codec of the file. The vectors (packed, bincode and
// delta) must pass as they do with plain arrays — the bytes and the JSON mapping do
// not depend on how TypeScript holds a list — and the property tests (packed and
// bincode) hold over every type of every vector suite, the delta one over random
// snapshots of delta.bw.

import { join } from "node:path";

import {
  typedBincodeSuites,
  typedBincodeVectorSuites,
  typedDeltaSuites,
  typedSuites,
} from "../gen/typed/registry.js";
import { runBincodeProperties, runBincodeVectors } from "./bincode.js";
import { runDeltaProperties, runDeltaVectors } from "./delta.js";
import { runProperties } from "./properties.js";
import { runVectors } from "./vectors.js";

/** One line of the summary: what ran, and how it went. */
export interface TypedRow {
  what: string;
  passed: number;
  failed: number;
  problems: string[];
}

/**
 * Runs the vector files of `vectorsDir` (when there are some: not for the random
 * schemas of conformance/schemagen) and the property tests through the typed code.
 */
export function runTyped(
  vectorsDir: string | undefined,
  known: Set<string>,
  seed: number,
  perType: number,
  seeds: { packed: Map<string, Uint8Array[]>; values: Map<string, unknown[]>; bincode: Map<string, Uint8Array[]> },
): TypedRow[] {
  const rows: TypedRow[] = [];
  const tag = (what: string, problems: string[]): string[] => problems.map((p) => `typed arrays, ${what}: ${p}`);
  if (vectorsDir !== undefined) {
    const find = (suite: string, type: string) => {
      const s = typedSuites[suite];
      return s !== undefined && Object.hasOwn(s, type) ? s[type] : undefined;
    };
    const vectors = runVectors(vectorsDir, known, find);
    rows.push({ what: "vectors", ...vectors, problems: tag("vectors", vectors.problems) });
    const bincode = runBincodeVectors(join(vectorsDir, "bincode"), known, typedBincodeVectorSuites);
    rows.push({ what: "bincode vectors", ...bincode, problems: tag("bincode vectors", bincode.problems) });
    const delta = runDeltaVectors(join(vectorsDir, "delta"), typedDeltaSuites);
    rows.push({ what: "delta vectors", ...delta, problems: tag("delta vectors", delta.problems) });
    const deltaProps = runDeltaProperties(seed, Math.max(1, Math.floor(perType / 3)), typedDeltaSuites);
    rows.push({ what: `delta properties (seed ${seed})`, ...deltaProps, problems: tag("delta properties", deltaProps.problems) });
  }
  // A third of the inputs: the typed code differs from the plain one in its lists
  // only. The heap bound is the plain code's (typed arrays only make values smaller).
  const some = Math.max(1, Math.floor(perType / 3));
  const props = runProperties(seed, some, seeds.packed, typedSuites, false);
  rows.push({
    what: `properties (seed ${seed})`,
    passed: props.inputs - props.problems.length,
    failed: props.problems.length,
    problems: tag("properties", props.problems),
  });
  for (const [what, bin] of [
    ["bincode properties", runBincodeProperties(seed, some, { values: seeds.values }, typedBincodeSuites)],
    ["bincode suites' properties", runBincodeProperties(seed, some, { bytes: seeds.bincode }, typedBincodeVectorSuites)],
  ] as const) {
    rows.push({
      what: `${what} (seed ${seed})`,
      passed: bin.inputs - bin.problems.length,
      failed: bin.problems.length,
      problems: tag(what, bin.problems),
    });
  }
  return rows;
}
