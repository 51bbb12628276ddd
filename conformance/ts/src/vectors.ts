// Runs every case of every suite in testdata/vectors/ through the generated TypeScript:
//
// - `valid`: the value encodes to exactly `bytes`, and `bytes` decode to the value
//   (compared after normalizing the vector's JSON through the type's JSON mapping,
//   `fromJson` then `toJson`, so `5.0` for an integer compares as `5`);
// - `encodes`: the value encodes to exactly `bytes` (one way: lossy or lenient input);
// - `invalid` with `bytes`: decoding fails with the vector's kind, bit and path;
// - `invalid` with only a `value`: `fromJson` or encoding fails with the vector's kind
//   and path, and bit (JSON errors carry no bit);
// - `acceptable`: decoding succeeds or fails with a bitwire error, nothing else;
// - `decodes` (bincode suites: NaN payloads): the bytes decode to the value, which
//   encodes back to them or to bytes of the same value;
// - every case with `bytes`: `verifyX` agrees with decoding (no throw on valid bytes,
//   the same kind, bit and path on invalid ones);
// - JSON-text cases (`text`, or `text_hex` for bytes that are not UTF-8): the text goes
//   through the runtime's `parseJson` (as bytes) and `fromJson`; `encodes` compares the
//   bytes and the value the text maps to, `invalid` the error's kind and path.
//
// Cases listed in conformance/ts/known-failures.txt must fail; the run fails when one
// passes.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { type TypeCodec, parseJson } from "@bitwire/runtime";

import {
  type Expected,
  checkError,
  findCodec,
  hex,
  jsonEqual,
  observe,
  sameBytes,
  sameError,
  show,
  unhex,
  why,
} from "./util.js";

/** One case of a vector file. */
interface Case {
  id: string;
  type: string;
  result: string;
  value?: unknown;
  text?: string;
  text_hex?: string;
  bytes?: string;
  error?: Expected;
}

/** Counts of one run, and the problems found. */
export interface Tally {
  passed: number;
  failed: number;
  problems: string[];
  /** Every case id seen, for the known-failures check. */
  seen: Set<string>;
}

/** The JSON text of a text case, as UTF-8 bytes, or `undefined`. */
function caseText(c: Case): Uint8Array | undefined {
  if (c.text !== undefined) {
    return new TextEncoder().encode(c.text);
  }
  return c.text_hex === undefined ? undefined : unhex(c.text_hex);
}

/** A text case: `parseJson`, `fromJson`, `encode`. */
function runTextCase(codec: TypeCodec<unknown>, c: Case, text: Uint8Array): string | undefined {
  let got: Uint8Array;
  try {
    got = codec.encode(codec.fromJson(parseJson(text)));
  } catch (e) {
    if (c.result === "invalid" && c.error !== undefined) {
      return checkError(e, c.error);
    }
    return `failed: ${why(e)}`;
  }
  if (c.result !== "encodes" || c.bytes === undefined) {
    return `encoded invalid text to ${hex(got)}`;
  }
  if (!sameBytes(got, unhex(c.bytes))) {
    return `encoded ${hex(got)}, expected ${c.bytes}`;
  }
  if (c.value === undefined) {
    return undefined;
  }
  const mapped = codec.toJson(codec.fromJson(parseJson(text)));
  const want = codec.toJson(codec.fromJson(c.value));
  return jsonEqual(mapped, want) ? undefined : `the text maps to ${show(mapped)}, expected ${show(want)}`;
}

/** How a runner finds the generated codec of a suite's type (`undefined`: none). */
export type FindCodec = (suite: string, type: string) => TypeCodec<unknown> | undefined;

/** `undefined` when the case behaves as stated, else why not (decode, then verify). */
function runCase(suite: string, c: Case, find: FindCodec): string | undefined {
  const codec = find(suite, c.type);
  if (codec === undefined) {
    return `no generated type ${suite}.${c.type}`;
  }
  const text = caseText(c);
  if (text !== undefined) {
    return runTextCase(codec, c, text);
  }
  const problem = runDecodeCase(codec, c);
  if (problem !== undefined || c.bytes === undefined) {
    return problem;
  }
  return verifyCase(codec, c, unhex(c.bytes));
}

/**
 * `verifyX` on a case's bytes: no throw where the bytes decode (`valid`), the vector's
 * error where they must not (`invalid`), and for `acceptable` bytes whatever decoding
 * does (success, or the very same error).
 */
function verifyCase(codec: TypeCodec<unknown>, c: Case, bytes: Uint8Array): string | undefined {
  if (c.result === "encodes") {
    return undefined;
  }
  let decodeError: unknown;
  let decoded = true;
  if (c.result === "acceptable") {
    try {
      codec.decode(bytes);
    } catch (e) {
      decoded = false;
      decodeError = e;
    }
  }
  try {
    codec.verify(bytes);
  } catch (e) {
    if (c.result === "invalid" && c.error !== undefined) {
      const p = checkError(e, c.error);
      return p === undefined ? undefined : `verify: ${p}`;
    }
    if (c.result === "acceptable" && !decoded) {
      return sameError(e, decodeError);
    }
    return `verify threw ${why(e)} on bytes that decode`;
  }
  if (c.result === "invalid" || (c.result === "acceptable" && !decoded)) {
    return `verify accepted ${hex(bytes)}, which decoding rejects`;
  }
  return undefined;
}

/** The original checks of a case, through `decode` / `encode`. */
function runDecodeCase(codec: TypeCodec<unknown>, c: Case): string | undefined {
  const bytes = c.bytes === undefined ? undefined : unhex(c.bytes);
  const encode = (): Uint8Array => codec.encode(codec.fromJson(c.value));
  try {
    if ((c.result === "valid" || c.result === "encodes") && c.value !== undefined && bytes !== undefined) {
      const got = encode();
      if (!sameBytes(got, bytes)) {
        return `encoded ${hex(got)}, expected ${hex(bytes)}`;
      }
      if (c.result === "encodes") {
        return undefined;
      }
      const decoded = codec.toJson(codec.decode(bytes));
      const want = codec.toJson(codec.fromJson(c.value));
      return jsonEqual(decoded, want) ? undefined : `decoded ${show(decoded)}, expected ${show(want)}`;
    }
  } catch (e) {
    return `unexpected ${why(e)}`;
  }
  if (c.result === "decodes" && c.value !== undefined && bytes !== undefined) {
    return decodesCase(codec, c.value, bytes);
  }
  if (c.result === "invalid" && c.error !== undefined) {
    const error = c.error;
    const attempt = bytes !== undefined ? () => codec.toJson(codec.decode(bytes)) : () => hex(encode());
    try {
      const got = attempt();
      return `succeeded on invalid input: ${show(got)}`;
    } catch (e) {
      return checkError(e, error);
    }
  }
  if (c.result === "acceptable" && bytes !== undefined) {
    try {
      codec.decode(bytes);
      return undefined;
    } catch (e) {
      return observe(e) === undefined ? `threw a non-bitwire error: ${why(e)}` : undefined;
    }
  }
  return `malformed case (result ${c.result})`;
}

/**
 * A `decodes` case (testdata/vectors/bincode/README.md: a NaN with a payload, which
 * JSON writes as `"NaN"`): the bytes decode to the value, and the decoded value encodes
 * to the same bytes — or, since a JavaScript `number` need not keep a NaN's bits
 * (V8 quiets a signaling NaN, JavaScriptCore makes every NaN canonical), to bytes
 * that decode to the same value.
 */
function decodesCase(codec: TypeCodec<unknown>, value: unknown, bytes: Uint8Array): string | undefined {
  try {
    const decoded = codec.decode(bytes);
    const got = codec.toJson(decoded);
    const want = codec.toJson(codec.fromJson(value));
    if (!jsonEqual(got, want)) {
      return `decoded ${show(got)}, expected ${show(want)}`;
    }
    const again = codec.encode(decoded).slice();
    if (sameBytes(again, bytes)) {
      return undefined;
    }
    const back = codec.toJson(codec.decode(again));
    return jsonEqual(back, got) ? undefined : `the decoded value re-encodes to ${hex(again)}, which decodes to ${show(back)}`;
  } catch (e) {
    return `unexpected ${why(e)}`;
  }
}

/** Reads the known-failures list. */
export function knownFailures(path: string): Set<string> {
  const text = readFileSync(path, "utf8");
  const ids = text
    .split("\n")
    .map((l) => (l.split("#")[0] ?? "").trim())
    .filter((l) => l !== "");
  return new Set(ids);
}

/**
 * Runs every suite of `dir`, checking `known` failures; `find` gives each suite's
 * codecs (the packed ones of gen/registry.ts unless told otherwise).
 */
export function runVectors(dir: string, known: Set<string>, find: FindCodec = findCodec): Tally {
  const tally: Tally = { passed: 0, failed: 0, problems: [], seen: new Set() };
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  if (files.length === 0) {
    tally.problems.push(`no vector suites in ${dir}`);
  }
  for (const file of files) {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as { suite: string; cases: Case[] };
    for (const c of doc.cases) {
      if (tally.seen.has(c.id)) {
        tally.problems.push(`${c.id}: duplicate case id`);
      }
      tally.seen.add(c.id);
      const problem = runCase(doc.suite, c, find);
      const listed = known.has(c.id);
      if (problem === undefined) {
        tally.passed++;
        if (listed) {
          tally.problems.push(`${c.id}: listed in known-failures.txt but passes`);
        }
      } else {
        tally.failed++;
        if (listed) {
          console.log(`known failure ${c.id}: ${problem}`);
        } else {
          tally.problems.push(`${c.id}: ${problem}`);
        }
      }
    }
  }
  return tally;
}

/** Adds a problem for every listed known failure that no run saw. */
export function checkKnownSeen(known: Set<string>, tally: Tally): void {
  for (const id of known) {
    if (!tally.seen.has(id)) {
      tally.problems.push(`${id}: listed in known-failures.txt but no such case`);
    }
  }
}
