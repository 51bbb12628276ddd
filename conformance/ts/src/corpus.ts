// The differential corpus check: when BITWIRE_DIFF_CORPUS names a JSON-lines file
// written from the Rust reference codec (`cargo run -p bitwire-conformance --bin
// diffcorpus -- OUT.jsonl`), every line must behave the same in the generated
// TypeScript:
//
// - `{"suite", "type", "value", "bytes"}`: the value encodes to exactly these bytes,
//   and the bytes decode back to JSON equal to the value;
// - `{"suite", "type", "input", "outcome": {"value"} | {"error": {kind, bit, path}}}`:
//   decoding the input gives the same value, or the same error kind, bit and path, and
//   `verifyX` accepts it, or throws that same error.
//
// Lines without a `suite` (the header with the seed) are skipped.

import { readFileSync } from "node:fs";

import type { TypeCodec } from "@bitwire/runtime";

import { type Expected, checkError, findCodec, hex, jsonEqual, sameBytes, show, unhex, why } from "./util.js";

interface Line {
  suite?: string;
  type: string;
  value?: unknown;
  bytes?: string;
  input?: string;
  outcome?: { value?: unknown; error?: Expected };
}

/** Checks every line of the corpus at `path`; returns the counts and the problems. */
export function runCorpus(path: string): { passed: number; failed: number; problems: string[] } {
  const result = { passed: 0, failed: 0, problems: [] as string[] };
  const lines = readFileSync(path, "utf8").split("\n");
  lines.forEach((text, n) => {
    if (text.trim() === "") {
      return;
    }
    const line = JSON.parse(text) as Line;
    if (line.suite === undefined) {
      return;
    }
    const problem = check(line);
    if (problem === undefined) {
      result.passed++;
    } else {
      result.failed++;
      if (result.problems.length < 50) {
        result.problems.push(`line ${n + 1} (${line.suite}.${line.type}): ${problem}`);
      }
    }
  });
  return result;
}

/** `undefined` when `verify` on `input` has the corpus outcome (no throw, or the error). */
function verifyOutcome(
  codec: TypeCodec<unknown>,
  input: Uint8Array,
  want: { value?: unknown; error?: Expected },
): string | undefined {
  try {
    codec.verify(input);
  } catch (e) {
    if (want.error === undefined) {
      return `verify threw ${why(e)} on ${hex(input)}, which decodes`;
    }
    const p = checkError(e, want.error);
    return p === undefined ? undefined : `verify: ${p}`;
  }
  return want.error === undefined ? undefined : `verify accepted ${hex(input)}, expected ${show(want.error)}`;
}

function check(line: Line): string | undefined {
  const codec = findCodec(line.suite ?? "", line.type);
  if (codec === undefined) {
    return "no generated type";
  }
  if (line.bytes !== undefined) {
    const bytes = unhex(line.bytes);
    try {
      const got = codec.encode(codec.fromJson(line.value));
      if (!sameBytes(got, bytes)) {
        return `encoded ${hex(got)}, expected ${line.bytes}`;
      }
      codec.verify(bytes);
      const back = codec.toJson(codec.decode(bytes));
      return jsonEqual(back, line.value) ? undefined : `decoded ${show(back)}, expected ${show(line.value)}`;
    } catch (e) {
      return `unexpected ${why(e)}`;
    }
  }
  const input = unhex(line.input ?? "");
  const want = line.outcome ?? {};
  const verified = verifyOutcome(codec, input, want);
  if (verified !== undefined) {
    return verified;
  }
  let got: unknown;
  try {
    got = codec.toJson(codec.decode(input));
  } catch (e) {
    if (want.error === undefined) {
      return `decoding ${line.input} threw ${why(e)}, expected ${show(want.value)}`;
    }
    return checkError(e, want.error);
  }
  if (want.error !== undefined) {
    return `decoded ${line.input} to ${show(got)}, expected ${show(want.error)}`;
  }
  return jsonEqual(got, want.value) ? undefined : `decoded ${show(got)}, expected ${show(want.value)}`;
}
