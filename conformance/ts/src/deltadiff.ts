// The generated TypeScript delta codecs against the reference codec (`bitwire delta
// encode|decode`, which interprets the IR: compiler/src/codec/delta.rs), on random
// snapshots of testdata/vectors/delta/delta.bw: the same delta bytes for every
// (baseline, value) pair; the same value, or the same error (kind, bit, path), for
// hostile deltas (valid ones mutated); and the same encoder error (kind, path) for
// baselines and values with a field out of its range or a keyed list out of order.
// Node only (conformance/ts/run.sh runs it there): it starts the compiler's CLI once
// per comparison.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { BitwireError, JsonError } from "@bitwire/runtime";

import { deltaSuites } from "../gen/delta/registry.js";
import * as gen from "./deltagen.js";
import { mutate } from "./rng.js";
import { hex } from "./util.js";

/** What a codec did with one input: bytes or JSON text, or an error. */
type Outcome = { ok: string } | { kind: string; bit: number | undefined; path: string } | { other: string };

/** JSON text for the CLI, with `-0` kept (JSON.stringify prints it as `0`). */
function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (Object.is(x, -0) ? "__NEG0__" : x)).replaceAll('"__NEG0__"', "-0");
}

const ERROR = /failed: (\w+) at bit (\d+)(?: in `([^`]*)`)?/;

/** Runs `bitwire delta <cmd>` on `input` against `baseline`. */
function reference(bitwire: string, schema: string, dir: string, cmd: string, type: string, baseline: unknown, input: string): Outcome {
  const file = join(dir, "baseline.json");
  writeFileSync(file, jsonText(baseline));
  const args = ["delta", cmd, "--schema", schema, "--type", type, "--baseline", file, "--hex"];
  const p = spawnSync(bitwire, args, { input, encoding: "utf8" });
  if (p.status === 0) {
    return { ok: p.stdout.trim() };
  }
  const m = ERROR.exec(p.stderr);
  return m === null ? { other: p.stderr.trim() } : { kind: m[1] ?? "", bit: Number(m[2]), path: m[3] ?? "" };
}

function observed(e: unknown): Outcome {
  if (e instanceof BitwireError) {
    return { kind: e.kind, bit: e.bit, path: e.path };
  }
  if (e instanceof JsonError) {
    return { kind: e.kind, bit: undefined, path: e.path };
  }
  return { other: `not a bitwire error: ${String(e)}` };
}

/** A JSON value with one leaf out of its range (or a list's first two elements swapped). */
function corrupt(rng: gen.Rng, json: unknown): unknown {
  const leaves: (string | number)[][] = [];
  const walk = (x: unknown, path: (string | number)[]): void => {
    if (Array.isArray(x)) {
      leaves.push(path);
      x.forEach((e, i) => walk(e, [...path, i]));
    } else if (x !== null && typeof x === "object") {
      for (const [k, e] of Object.entries(x)) {
        walk(e, [...path, k]);
      }
    } else {
      leaves.push(path);
    }
  };
  walk(json, []);
  const out = structuredClone(json) as Record<string | number, unknown>;
  const path = leaves[rng.below(leaves.length)] ?? [];
  const last = path[path.length - 1];
  if (last === undefined) {
    return out;
  }
  let o = out;
  for (const k of path.slice(0, -1)) {
    o = o[k] as Record<string | number, unknown>;
  }
  const cur = o[last];
  if (Array.isArray(cur)) {
    if (cur.length >= 2) {
      [cur[0], cur[1]] = [cur[1], cur[0]];
    } else {
      cur.push(...cur);
    }
  } else if (typeof cur === "number") {
    o[last] = rng.pick([1e9, -1e9, 5000, 300, -129, 2000]);
  } else if (typeof cur === "string") {
    o[last] = rng.chance(50) ? "x".repeat(40) : "Nope";
  } else {
    o[last] = 2;
  }
  return out;
}

/** Compares `perType` random pairs of every delta message with the reference. */
export function runDeltaDiff(bitwire: string, schema: string, seed: number, perType: number): { compared: number; problems: string[] } {
  const suite = deltaSuites["delta"];
  const problems: string[] = [];
  if (suite === undefined) {
    return { compared: 0, problems: ["no delta suite"] };
  }
  const dir = mkdtempSync(join(tmpdir(), "bitwire-deltadiff-"));
  const rng = new gen.Rng(seed);
  let compared = 0;
  const subjects: [string, (r: gen.Rng) => unknown, (r: gen.Rng, b: never) => unknown][] = [
    ["Scalars", gen.scalars, gen.nextScalars],
    ["Composite", gen.composite, gen.nextComposite],
    ["World", gen.world, gen.nextWorld],
    ["Keys", gen.keysValue, gen.nextKeys],
  ];
  try {
    for (const [type, make, next] of subjects) {
      const full = suite.codecs[type];
      const delta = suite.deltas[type];
      if (full === undefined || delta === undefined) {
        problems.push(`no generated delta message ${type}`);
        continue;
      }
      const ref = (cmd: string, b: unknown, input: string): Outcome => reference(bitwire, schema, dir, cmd, type, b, input);
      for (let i = 0; i < perType; i++) {
        const b = full.decode(full.encode(make(rng)).slice());
        const v = full.decode(full.encode(next(rng, b as never)).slice());
        const bj = full.toJson(b);
        const bytes = delta.encodeDelta(b, v).slice();
        const want = ref("encode", bj, jsonText(full.toJson(v)));
        compared++;
        if (!("ok" in want) || want.ok !== hex(bytes)) {
          problems.push(`${type}: TypeScript ${hex(bytes)}, reference ${jsonText(want)}; baseline ${jsonText(bj)}`);
        }
        for (let k = 0; k < 3; k++) {
          const hostile = mutate(rng, bytes);
          let ts: Outcome;
          try {
            ts = { ok: jsonText(full.toJson(delta.decodeDelta(b, hostile))) };
          } catch (e) {
            ts = observed(e);
          }
          const r = ref("decode", bj, hex(hostile));
          compared++;
          const rs = "ok" in r ? { ok: jsonText(JSON.parse(r.ok)) } : r;
          if (jsonText(ts) !== jsonText(rs)) {
            problems.push(`${type}: ${hex(hostile)} decodes to ${jsonText(ts)}, reference ${jsonText(rs)}`);
          }
        }
        for (let k = 0; k < 2; k++) {
          const cb = rng.chance(50) ? corrupt(rng, bj) : bj;
          const cv = rng.chance(60) || cb === bj ? corrupt(rng, full.toJson(v)) : full.toJson(v);
          let ts: Outcome;
          try {
            ts = { ok: hex(delta.encodeDelta(full.fromJson(cb), full.fromJson(cv))) };
          } catch (e) {
            ts = observed(e);
          }
          const r = ref("encode", cb, jsonText(cv));
          compared++;
          // The mapping's errors (JsonError) are the CLI's too, in its own words.
          const same =
            "ok" in ts ? "ok" in r && r.ok === ts.ok : "kind" in ts && ts.bit === undefined ? !("ok" in r) : "kind" in r && "kind" in ts && r.kind === ts.kind && r.path === ts.path;
          if (!same) {
            problems.push(`${type}: encoding ${jsonText(cv)} against ${jsonText(cb)}: ${jsonText(ts)}, reference ${jsonText(r)}`);
          }
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { compared, problems };
}

