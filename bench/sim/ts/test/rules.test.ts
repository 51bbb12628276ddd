// The TypeScript rules (src/rules.ts) against the Rust ones: every key of Rust's
// `rules_json()` read out of bench/sim/rust/src/rules.rs (its constants and the keys that
// name them), and, when SIM_RULES_JSON names a file (what `simserver --rules` printed:
// test.sh writes it), the JSON the Rust function itself produced.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { rulesJson } from "../src/rules.js";

const RULES_RS = new URL("../../../rust/src/rules.rs", import.meta.url);

/** A Rust literal as a number or, for an integer above 2^53, a bigint. */
function literal(text: string): number | bigint {
  const t = text.replace(/_/g, "").replace(/(u8|u16|u32|u64|usize|f32|f64)$/, "");
  if (/^0x[0-9a-f]+$/i.test(t) || /^[0-9]+$/.test(t)) {
    const v = BigInt(t);
    return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  }
  const v = Number(t);
  assert.ok(Number.isFinite(v), `not a literal: ${text}`);
  return v;
}

/** `rules_json()`'s keys and values, from the source of rules.rs. */
export function rustRules(source: string): Map<string, number | bigint> {
  const consts = new Map<string, number | bigint>();
  for (const m of source.matchAll(/pub const (\w+): \w+ = ([^;]+);/g)) {
    consts.set(m[1] as string, literal((m[2] as string).trim()));
  }
  const body = /fn rules_json\(\)[^{]*\{([\s\S]*?)\n\}/.exec(source)?.[1];
  assert.ok(body !== undefined, "rules.rs has no rules_json()");
  const out = new Map<string, number | bigint>();
  for (const m of body.matchAll(/"(\w+)": (\w+),/g)) {
    const value = consts.get(m[2] as string);
    assert.ok(value !== undefined, `rules_json()'s "${m[1]}" names ${m[2]}, not a constant of rules.rs`);
    out.set(m[1] as string, value);
  }
  return out;
}

const same = (a: number | bigint, b: number | bigint): boolean => (typeof a === "bigint" || typeof b === "bigint" ? BigInt(a) === BigInt(b) : a === b);

test("every rule of rules.rs's rules_json() has the same value in src/rules.ts", () => {
  const rust = rustRules(readFileSync(RULES_RS, "utf8"));
  const ts = rulesJson();
  assert.ok(rust.size >= 11, `only ${rust.size} rules read from rules.rs`);
  assert.deepEqual([...rust.keys()].sort(), Object.keys(ts).sort());
  for (const [key, value] of rust) {
    assert.ok(same(ts[key] as number | bigint, value), `${key}: TypeScript ${String(ts[key])}, Rust ${String(value)}`);
  }
});

test("the parser reads what it is given (a changed constant is a difference)", () => {
  const source = readFileSync(RULES_RS, "utf8").replace(/pub const VIEW_CAP: usize = \d+;/, "pub const VIEW_CAP: usize = 129;");
  assert.equal(rustRules(source).get("view_cap"), 129);
  assert.notEqual(rulesJson().view_cap, 129);
});

test("the rules simserver --rules printed (SIM_RULES_JSON), when given", (t) => {
  const file = process.env.SIM_RULES_JSON;
  if (file === undefined || file === "") {
    t.skip("SIM_RULES_JSON not set");
    return;
  }
  const json = JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
  const ts = rulesJson();
  assert.deepEqual(Object.keys(json).sort(), Object.keys(ts).sort());
  for (const [key, value] of Object.entries(json)) {
    assert.ok(same(ts[key] as number | bigint, value), `${key}: TypeScript ${String(ts[key])}, simserver ${value}`);
  }
});
