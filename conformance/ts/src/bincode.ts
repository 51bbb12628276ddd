// The bincode encoding (spec §13) through the generated TypeScript:
//
// - every suite of testdata/vectors/bincode/ (`"encoding": "bincode"`, bytes written
//   by bincode 1.3.3 and wincode 0.6.3) with the vector runner's rules (vectors.ts):
//   valid, encodes, invalid with kind, bit and path, and verify agreeing with decode;
//   plus, for every case with bytes, decoding them from an input that starts at an
//   odd offset of a larger buffer (typed-array lanes must not depend on alignment),
//   and for every valid case, encoding into a writer reused after a larger message;
// - a property test over every type of every vector suite (testdata/vectors/*.bw,
//   generated with `--encoding bincode` too) and every bincode suite: starting from the
//   bincode bytes of the packed vectors' values, the bincode vectors' valid bytes (and
//   all-zero inputs that decode), random and mutated
//   inputs never make decode or verify throw anything but a BitwireError, verify
//   accepts exactly what decodes (else the same error), and what decodes re-encodes
//   to the same bytes — except where a NaN's payload, which a JavaScript number does
//   not always keep (JavaScriptCore makes NaNs canonical), is involved: then the bytes
//   decode to the same value again.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { type BincodeTypeCodec, BitwireError, ByteWriter, type TypeCodec } from "@bitwire/runtime";

import { bincodeVectorSuites } from "../gen/bincode/registry.js";
import { bincodeSuites } from "../gen/registry.js";
import { Rng, mutate } from "./rng.js";
import { hex, jsonEqual, sameBytes, sameError, show, unhex, why } from "./util.js";
import { type Tally, runVectors } from "./vectors.js";

/** A bincode codec in the shape the vector runner takes (no writer argument). */
function asCodec(c: BincodeTypeCodec<unknown>): TypeCodec<unknown> {
  return {
    name: c.name,
    encode: (v) => c.encode(v),
    decode: (b, limits) => c.decode(b, limits),
    verify: (b, limits) => c.verify(b, limits),
    toJson: (v) => c.toJson(v),
    fromJson: (j) => c.fromJson(j),
  };
}

/** Bincode codecs by suite and type name. */
type BincodeRegistry = Readonly<Record<string, Readonly<Record<string, BincodeTypeCodec<unknown>>>>>;

/** The bincode codec of `type` in the bincode vector suite `suite`, as a TypeCodec (for the bincode differential corpus). */
export function findBincodeCodec(suite: string, type: string): TypeCodec<unknown> | undefined {
  const c = findIn(bincodeVectorSuites, suite, type);
  return c === undefined ? undefined : asCodec(c);
}

/** The bincode codec of `type` in `suite` of `registry`. */
function findIn(registry: BincodeRegistry, suite: string, type: string): BincodeTypeCodec<unknown> | undefined {
  const s = registry[suite];
  return s !== undefined && Object.hasOwn(s, type) ? s[type] : undefined;
}

/** One case, as far as the extra checks here need it. */
interface Case {
  id: string;
  type: string;
  result: string;
  value?: unknown;
  bytes?: string;
}

/**
 * Runs every bincode suite of `dir` (a folder that must hold at least one) through
 * `registry` (the code generated for testdata/vectors/bincode/ unless told otherwise).
 */
export function runBincodeVectors(dir: string, known: Set<string>, registry: BincodeRegistry = bincodeVectorSuites): Tally {
  if (!existsSync(dir)) {
    return { passed: 0, failed: 1, problems: [`no bincode vector suites: ${dir} is missing`], seen: new Set() };
  }
  const find = (suite: string, type: string): TypeCodec<unknown> | undefined => {
    const c = findIn(registry, suite, type);
    return c === undefined ? undefined : asCodec(c);
  };
  const tally = runVectors(dir, known, find);
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as { suite: string; encoding?: string; cases: Case[] };
    if (doc.encoding !== "bincode") {
      tally.problems.push(`${file}: "encoding" is ${show(doc.encoding)}, not "bincode"`);
    }
    for (const c of doc.cases) {
      const codec = findIn(registry, doc.suite, c.type);
      if (codec === undefined || c.bytes === undefined || known.has(c.id)) {
        continue;
      }
      const problem = offsetCase(codec, unhex(c.bytes)) ?? reuseCase(codec, c, unhex(c.bytes));
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

/** What decoding `bytes` gives: the value in the JSON mapping, or the error. */
function outcome(codec: BincodeTypeCodec<unknown>, bytes: Uint8Array): { json?: unknown; error?: unknown } {
  try {
    return { json: codec.toJson(codec.decode(bytes)) };
  } catch (e) {
    return { error: e };
  }
}

/** The same bytes decode alike from every offset 1..7 of a larger buffer. */
function offsetCase(codec: BincodeTypeCodec<unknown>, bytes: Uint8Array): string | undefined {
  const want = outcome(codec, bytes);
  for (let offset = 1; offset < 8; offset++) {
    const big = new Uint8Array(bytes.length + 16).fill(0xa5);
    big.set(bytes, offset);
    const got = outcome(codec, big.subarray(offset, offset + bytes.length));
    if (want.error !== undefined) {
      const differs = got.error === undefined ? "decodes" : sameError(got.error, want.error);
      if (differs !== undefined) {
        return `at offset ${offset}: ${differs}`;
      }
    } else if (got.error !== undefined || !jsonEqual(got.json, want.json)) {
      return `at offset ${offset}: ${got.error === undefined ? show(got.json) : why(got.error)}`;
    }
  }
  return undefined;
}

/** A valid case encodes to its bytes through a writer reused after a larger message. */
function reuseCase(codec: BincodeTypeCodec<unknown>, c: Case, bytes: Uint8Array): string | undefined {
  if (c.result !== "valid" && c.result !== "encodes") {
    return undefined;
  }
  const w = new ByteWriter(1);
  w.bytes(new Uint8Array(bytes.length + 40).fill(0xff), Number.POSITIVE_INFINITY);
  try {
    const got = codec.encode(codec.fromJson(c.value), w);
    return sameBytes(got, bytes) ? undefined : `with a reused writer: ${hex(got)}`;
  } catch (e) {
    return `with a reused writer: ${why(e)}`;
  }
}

/** `undefined` when `input` behaves as the property says under `codec`, else why not. */
function probe(codec: BincodeTypeCodec<unknown>, input: Uint8Array): { decoded: boolean; problem?: string } {
  let verifyError: unknown;
  try {
    codec.verify(input);
  } catch (e) {
    if (!(e instanceof BitwireError)) {
      return { decoded: false, problem: `verify threw ${why(e)}` };
    }
    verifyError = e;
  }
  let value: unknown;
  try {
    value = codec.decode(input);
  } catch (e) {
    if (!(e instanceof BitwireError)) {
      return { decoded: false, problem: `decode threw ${why(e)}` };
    }
    if (verifyError === undefined) {
      return { decoded: false, problem: `verify accepted ${hex(input)}, decode threw ${why(e)}` };
    }
    const differs = sameError(verifyError, e);
    return differs === undefined ? { decoded: false } : { decoded: false, problem: `${hex(input)}: ${differs}` };
  }
  if (verifyError !== undefined) {
    return { decoded: true, problem: `verify rejected ${hex(input)}, which decodes: ${why(verifyError)}` };
  }
  try {
    const json = codec.toJson(value);
    const again = codec.encode(codec.fromJson(json)).slice();
    if (sameBytes(again, input)) {
      return { decoded: true };
    }
    // Only a NaN may come back with other bits (its payload); the value must not.
    const back = codec.toJson(codec.decode(again));
    if (!show(json).includes('"NaN"') || !jsonEqual(back, json)) {
      return { decoded: true, problem: `accepted ${hex(input)} re-encodes to ${hex(again)}` };
    }
  } catch (e) {
    return { decoded: true, problem: `re-encoding ${hex(input)} threw ${why(e)}` };
  }
  return { decoded: true };
}

/** Where the bincode property test starts, by `suite.type`. */
export interface BincodeStarts {
  /** Values in the JSON mapping (the packed vector files'), encoded in bincode. */
  values?: Map<string, unknown[]>;
  /** Bincode bytes that decode (the bincode vector files' valid cases). */
  bytes?: Map<string, Uint8Array[]>;
}

/** The valid cases' bytes of every bincode suite of `dir`, by `suite.type`. */
export function bincodeSeeds(dir: string): Map<string, Uint8Array[]> {
  const seeds = new Map<string, Uint8Array[]>();
  for (const file of (existsSync(dir) ? readdirSync(dir) : []).filter((f) => f.endsWith(".json"))) {
    const doc = JSON.parse(readFileSync(join(dir, file), "utf8")) as { suite: string; cases: Case[] };
    for (const c of doc.cases) {
      if (c.result === "valid" && c.bytes !== undefined) {
        const key = `${doc.suite}.${c.type}`;
        seeds.set(key, [...(seeds.get(key) ?? []), unhex(c.bytes)]);
      }
    }
  }
  return seeds;
}

/**
 * The property over every type of every suite of `registry` (the vector suites'
 * bincode codecs unless told otherwise), `perType` inputs each, mutating the
 * encodings of `starts`.
 */
export function runBincodeProperties(
  seed: number,
  perType: number,
  starts: BincodeStarts,
  registry: BincodeRegistry = bincodeSuites,
): { inputs: number; decoded: number; problems: string[] } {
  const rng = new Rng(seed);
  const out = { inputs: 0, decoded: 0, problems: [] as string[] };
  for (const [suite, codecs] of Object.entries(registry)) {
    for (const [type, codec] of Object.entries(codecs)) {
      const pool: Uint8Array[] = [...(starts.bytes?.get(`${suite}.${type}`) ?? [])].slice(0, 32);
      for (const v of starts.values?.get(`${suite}.${type}`) ?? []) {
        try {
          pool.push(codec.encode(codec.fromJson(v)).slice());
        } catch (e) {
          out.problems.push(`${suite}.${type}: the value ${show(v)} of a valid packed case: ${why(e)}`);
        }
      }
      // Zeros are the smallest values, empty lists and first variants: a start for
      // types no vector has values of (the random schemas of conformance/schemagen).
      for (let len = 0; len <= 48 && pool.length < 8; len++) {
        const zeros = new Uint8Array(len);
        if (probe(codec, zeros).decoded) {
          pool.push(zeros);
        }
      }
      for (let n = 0; n < perType; n++) {
        const pick = rng.below(10);
        let input: Uint8Array;
        if (pool.length > 0 && pick < 8) {
          input = mutate(rng, pool[rng.below(pool.length)] as Uint8Array);
        } else {
          input = rng.bytes(rng.below(40));
        }
        const r = probe(codec, input);
        out.inputs++;
        if (r.decoded) {
          out.decoded++;
          if (pool.length < 64) {
            pool.push(input);
          }
        }
        if (r.problem !== undefined && out.problems.length < 50) {
          out.problems.push(`seed ${seed}, ${suite}.${type}: ${r.problem}`);
        }
      }
    }
  }
  return out;
}
