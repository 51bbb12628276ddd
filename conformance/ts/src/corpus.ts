// The differential corpus check: when BITWIRE_DIFF_CORPUS names a JSON-lines file
// written from the Rust reference codec (`cargo run -p bitwire-conformance --bin
// diffcorpus -- OUT.jsonl`), every line must behave the same in the generated
// TypeScript:
//
// - `{"suite", "type", "value", "bytes"}`: the value encodes to exactly these bytes,
//   and the bytes decode back to JSON equal to the value;
// - `{"suite", "type", "input", "outcome": {"value"} | {"error": {kind, bit, path}}}`:
//   decoding the input gives the same value, or the same error kind, bit and path, and
//   `verifyX` accepts it, or throws that same error;
// - lines with a `baseline`: the delta encoding of a `delta message` (src/corpusdelta.ts),
//   counted apart (`deltaPassed`, `deltaFailed`).
//
// Lines without a `suite` (the header with the seed) are skipped. With
// BITWIRE_DIFF_OUTCOMES set, the check also writes that file (the outcome records of
// conformance/rust/src/outcome.rs): what it got on every line it disagrees with,
// the heap growth while decoding each adversarial input, and a summary.

import { readFileSync, writeFileSync } from "node:fs";
import process from "node:process";

import type { TypeCodec } from "@bitwire/runtime";

import { checkDeltaLine } from "./corpusdelta.js";
import { type Expected, checkError, findCodec, hex, jsonEqual, observe, runtimeName, sameBytes, show, unhex, why } from "./util.js";

interface Line {
  suite?: string;
  type: string;
  value?: unknown;
  bytes?: string;
  input?: string;
  outcome?: { value?: unknown; error?: Expected };
  adversarial?: string;
  baseline?: unknown;
  delta?: string;
}

/** A line the generated code disagrees with: which check, what it got, and why. */
interface Problem {
  check: "encode" | "roundtrip" | "decode" | "verify" | "panic" | "missing" | "baseline";
  got: unknown;
  detail: string;
}

/** The outcome-record form of a thrown value. */
function thrown(e: unknown): unknown {
  const o = observe(e);
  return o === undefined ? { panic: why(e) } : { error: o.bit === undefined ? { kind: o.kind, path: o.path } : o };
}

/** Finds the generated codec of a suite's type. */
export type FindCodec = (suite: string, type: string) => TypeCodec<unknown> | undefined;

/**
 * Checks every line of the corpus at `path` through the codecs `find` gives (the packed
 * ones by default; the bincode corpus, `diffcorpus --bincode`, passes the bincode ones);
 * returns the counts (of the delta lines apart) and the problems.
 */
export function runCorpus(path: string, find: FindCodec = findCodec): { passed: number; failed: number; deltaPassed: number; deltaFailed: number; problems: string[] } {
  const result = { passed: 0, failed: 0, deltaPassed: 0, deltaFailed: 0, problems: [] as string[] };
  const records: string[] = [];
  const lines = readFileSync(path, "utf8").split("\n");
  lines.forEach((text, n) => {
    if (text.trim() === "") {
      return;
    }
    const line = JSON.parse(text) as Line;
    if (line.suite === undefined) {
      return;
    }
    const problem = check(line, find);
    const isDelta = line.baseline !== undefined;
    if (problem === undefined) {
      if (isDelta) {
        result.deltaPassed++;
      } else {
        result.passed++;
      }
    } else {
      if (isDelta) {
        result.deltaFailed++;
      } else {
        result.failed++;
      }
      if (result.problems.length < 50) {
        result.problems.push(`line ${n + 1} (${line.suite}.${line.type}) ${problem.check}: ${problem.detail}`);
      }
      const { check: what, got, detail } = problem;
      records.push(JSON.stringify({ line: n + 1, suite: line.suite, type: line.type, check: what, got, problem: detail }));
    }
    if (line.adversarial !== undefined && line.input !== undefined) {
      records.push(JSON.stringify({ line: n + 1, suite: line.suite, type: line.type, measure: measure(line, find) }));
    }
  });
  const outcomes = process.env.BITWIRE_DIFF_OUTCOMES;
  if (outcomes !== undefined && outcomes !== "") {
    const passed = result.passed + result.deltaPassed;
    const failed = result.failed + result.deltaFailed;
    records.push(JSON.stringify({ summary: { runner: runtimeName(), passed, failed } }));
    writeFileSync(outcomes, records.join("\n") + "\n");
  }
  return result;
}

/** Heap growth while decoding an adversarial input: what a decode budget will bound. */
function measure(line: Line, find: FindCodec): { input_bytes: number; alloc_bytes: number } {
  const input = unhex(line.input ?? "");
  const codec = find(line.suite ?? "", line.type);
  const before = process.memoryUsage().heapUsed;
  try {
    codec?.decode(input);
  } catch {
    // Only the allocation is measured here; the outcome is checked by `check`.
  }
  return { input_bytes: input.length, alloc_bytes: Math.max(0, process.memoryUsage().heapUsed - before) };
}

/** `undefined` when `verify` on `input` has the corpus outcome (no throw, or the error). */
function verifyOutcome(
  codec: TypeCodec<unknown>,
  input: Uint8Array,
  want: { value?: unknown; error?: Expected },
): Problem | undefined {
  try {
    codec.verify(input);
  } catch (e) {
    if (want.error === undefined) {
      return { check: "verify", got: thrown(e), detail: `verify threw ${why(e)} on ${hex(input)}, which decodes` };
    }
    const p = checkError(e, want.error);
    return p === undefined ? undefined : { check: "verify", got: thrown(e), detail: `verify: ${p}` };
  }
  return want.error === undefined
    ? undefined
    : { check: "verify", got: { accepted: true }, detail: `verify accepted ${hex(input)}, expected ${show(want.error)}` };
}

/** A value line: encodes to exactly the bytes, verify accepts them, they decode back. */
function checkValue(codec: TypeCodec<unknown>, line: Line, hexBytes: string): Problem | undefined {
  const bytes = unhex(hexBytes);
  let got: Uint8Array;
  try {
    got = codec.encode(codec.fromJson(line.value));
  } catch (e) {
    return { check: "encode", got: thrown(e), detail: `encode threw ${why(e)}` };
  }
  if (!sameBytes(got, bytes)) {
    return { check: "encode", got: { bytes: hex(got) }, detail: `encoded ${hex(got)}, expected ${hexBytes}` };
  }
  try {
    codec.verify(bytes);
  } catch (e) {
    return { check: "verify", got: thrown(e), detail: `verify threw ${why(e)} on the reference bytes` };
  }
  let back: unknown;
  try {
    back = codec.toJson(codec.decode(bytes));
  } catch (e) {
    return { check: "roundtrip", got: thrown(e), detail: `decoding the reference bytes threw ${why(e)}` };
  }
  return jsonEqual(back, line.value)
    ? undefined
    : { check: "roundtrip", got: { value: back }, detail: `decoded ${show(back)}, expected ${show(line.value)}` };
}

/** An input line: decodes to the reference's value or error, and verify agrees. */
function checkInput(codec: TypeCodec<unknown>, line: Line): Problem | undefined {
  const input = unhex(line.input ?? "");
  const want = line.outcome ?? {};
  let got: unknown;
  try {
    got = codec.toJson(codec.decode(input));
  } catch (e) {
    if (want.error === undefined) {
      return { check: "decode", got: thrown(e), detail: `decoding ${line.input} threw ${why(e)}, expected ${show(want.value)}` };
    }
    const p = checkError(e, want.error);
    return p === undefined ? verifyOutcome(codec, input, want) : { check: "decode", got: thrown(e), detail: p };
  }
  if (want.error !== undefined) {
    return { check: "decode", got: { value: got }, detail: `decoded ${line.input} to ${show(got)}, expected ${show(want.error)}` };
  }
  if (!jsonEqual(got, want.value)) {
    return { check: "decode", got: { value: got }, detail: `decoded ${show(got)}, expected ${show(want.value)}` };
  }
  return verifyOutcome(codec, input, want);
}

function check(line: Line, find: FindCodec): Problem | undefined {
  const codec = find(line.suite ?? "", line.type);
  if (codec === undefined) {
    return { check: "missing", got: null, detail: "no generated type" };
  }
  try {
    if (line.baseline !== undefined) {
      return checkDeltaLine(codec, line);
    }
    return line.bytes !== undefined ? checkValue(codec, line, line.bytes) : checkInput(codec, line);
  } catch (e) {
    return { check: "panic", got: { panic: why(e) }, detail: `threw ${why(e)}` };
  }
}
