// The delta lab's Colyseus peer (bench/delta/README.md): @colyseus/schema's real Encoder on
// Node encoding the scenarios' state changes, tick by tick, and a real Decoder checking
// that every patch and full state decodes to the tick it was made from.
//
//   node colyseus.mjs --scenarios DIR --out FILE
//
// DIR is what `deltabench scenarios` wrote (manifest.json, world.jsonl, cubes.jsonl; the
// files' FNV-1a 64 hashes are checked). FILE is a raw file of the delta lab (format
// bitwire-delta-lab/1) with, per scenario, four series:
//
// - `colyseus`: fields of the closest integer types holding each wire value (uint8, uint16,
//   uint32, boolean; the smallest that fits), the quantized floats as their grid index.
//   Tick 0 is `encodeAll()` (a joining client's full state); every later tick is the patch
//   `encode()` returns after that tick's changes were applied (then `discardChanges()`):
//   relative to the previous tick, in order, as Colyseus sends them.
// - `colyseus-all`: `encodeAll()` of every tick (the full state each tick).
// - `colyseus-f32`, `colyseus-f32-all`: the same with the quantized floats as `float32`
//   fields holding the decoded values (what a Colyseus user without quantization writes).
//
// The moving world's entities are a `t.map(Entity)` keyed by the id as a string (the key
// carries the id; the element has no id field); the cubes are a `t.array(Cube)` indexed by
// id. Only fields whose value changed are assigned; removed entities are `delete`d, added
// ones `set`. Counted: the bytes of the Uint8Array `encode()`/`encodeAll()` returns.

import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { schema, t, Encoder, Decoder } from "@colyseus/schema";

const FORMAT = "bitwire-delta-lab/1";
const SCENARIOS_FORMAT = "bitwire-delta-scenarios/1";
// 901 cubes in encodeAll() need more than the default 16 KB.
Encoder.BUFFER_SIZE = 256 * 1024;

function options() {
  const args = process.argv.slice(2);
  const out = {};
  for (let i = 0; i < args.length; i += 2) {
    out[args[i].replace(/^--/, "")] = args[i + 1];
  }
  if (out.scenarios === undefined || out.out === undefined) {
    console.error("usage: node colyseus.mjs --scenarios DIR --out FILE");
    process.exit(2);
  }
  return out;
}

/** FNV-1a 64 of a byte array, as 16 hex digits. */
function fnv1a64(bytes) {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) {
    h = BigInt.asUintN(64, (h ^ BigInt(b)) * 0x100000001b3n);
  }
  return h.toString(16).padStart(16, "0");
}

/** Reads the manifest and both scenario files, checking format, hashes and tick counts. */
function readScenarios(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  if (manifest.format !== SCENARIOS_FORMAT) {
    throw new Error(`${dir}/manifest.json: format ${manifest.format}, expected ${SCENARIOS_FORMAT}`);
  }
  const ticks = {};
  for (const f of manifest.files) {
    const bytes = readFileSync(join(dir, f.file));
    const hash = fnv1a64(bytes);
    if (hash !== f.fnv1a64) {
      throw new Error(`${f.file}: FNV-1a 64 is ${hash}, the manifest says ${f.fnv1a64}`);
    }
    const lines = bytes.toString("utf8").split("\n").filter((l) => l.length > 0);
    if (lines.length !== f.ticks) {
      throw new Error(`${f.file}: ${lines.length} ticks, the manifest says ${f.ticks}`);
    }
    ticks[f.scenario] = lines.map((l) => JSON.parse(l));
  }
  return { manifest, ticks };
}

/** The smallest Colyseus integer type that holds a `width`-bit wire value. */
function intType(width) {
  if (width === 1) return "boolean";
  if (width <= 8) return "uint8";
  if (width <= 16) return "uint16";
  return "uint32";
}

/** §4.3's decode of grid index q, rounded to float32. */
function dequantize(q, { min, max, steps }) {
  return Math.fround(q === steps ? max : min + ((max - min) * q) / steps);
}

/**
 * A scenario's Colyseus classes and how to turn a wire element into field values. `floats`
 * makes quantized floats float32 fields holding their decoded values.
 */
function shapes(name, fields, floats) {
  const listField = name === "world" ? "entities" : "cubes";
  const own = fields.slice(1); // the key is the map key or the array index
  const defs = {};
  for (const f of own) {
    defs[f.name] = floats && f.quant ? t.float32() : t[intType(f.width)]();
  }
  const Elem = schema(defs, name === "world" ? "Entity" : "Cube");
  const State = schema(
    { tick: t.uint32(), [listField]: name === "world" ? t.map(Elem) : t.array(Elem) },
    name === "world" ? "World" : "Cubes",
  );
  const values = (e) => {
    const v = {};
    for (const f of own) {
      const w = e[f.name];
      v[f.name] = floats && f.quant ? dequantize(w, f.quant) : f.width === 1 ? Boolean(w) : w;
    }
    return v;
  };
  return { Elem, State, listField, values, key: (e) => String(e[fields[0].name]) };
}

/** Applies tick `cur` (against the previous tick `prev`, or none) to `state`. */
function apply(shape, state, prev, cur) {
  if (state.tick !== cur.tick) state.tick = cur.tick;
  const list = state[shape.listField];
  const before = new Map((prev ? prev[shape.listField] : []).map((e) => [shape.key(e), e]));
  const after = cur[shape.listField];
  if (shape.listField === "entities") {
    const now = new Set(after.map(shape.key));
    for (const k of before.keys()) if (!now.has(k)) list.delete(k);
  }
  after.forEach((e, i) => {
    const k = shape.key(e);
    const v = shape.values(e);
    const old = before.get(k);
    if (old === undefined) {
      const elem = new shape.Elem();
      Object.assign(elem, v);
      if (shape.listField === "entities") list.set(k, elem);
      else list.push(elem);
      return;
    }
    const elem = shape.listField === "entities" ? list.get(k) : list[i];
    for (const [f, x] of Object.entries(v)) {
      if (elem[f] !== x) elem[f] = x;
    }
  });
}

/** The decoded state as plain data, comparable with `expected`. */
function plain(shape, state) {
  const list = state[shape.listField];
  const elems = [];
  if (shape.listField === "entities") {
    for (const [k, e] of list.entries()) elems.push([k, { ...e.toJSON() }]);
    elems.sort((a, b) => Number(a[0]) - Number(b[0]));
  } else {
    list.forEach((e, i) => elems.push([String(i), { ...e.toJSON() }]));
  }
  return { tick: state.tick, elems };
}

function expected(shape, tick) {
  return { tick: tick.tick, elems: tick[shape.listField].map((e) => [shape.key(e), shape.values(e)]) };
}

function check(shape, state, tick, what) {
  const got = plain(shape, state);
  const want = expected(shape, tick);
  if (!isDeepStrictEqual(got, want)) {
    throw new Error(`${what}: the decoded state differs from the tick`);
  }
}

/** Patches and full states of one scenario in one shape; every one decoded and checked. */
function measure(name, fields, ticks, floats) {
  const shape = shapes(name, fields, floats);
  const state = new shape.State();
  apply(shape, state, undefined, ticks[0]);
  const encoder = new Encoder(state);
  const patches = [];
  const fulls = [];
  const join = encoder.encodeAll().slice();
  encoder.encode();
  encoder.discardChanges();
  const client = new Decoder(new shape.State());
  client.decode(join);
  check(shape, client.state, ticks[0], `${name} tick 0 (encodeAll)`);
  patches.push(join.length);
  fulls.push(join.length);
  for (let i = 1; i < ticks.length; i++) {
    apply(shape, state, ticks[i - 1], ticks[i]);
    const patch = encoder.encode().slice();
    encoder.discardChanges();
    client.decode(patch);
    check(shape, client.state, ticks[i], `${name} tick ${i} (patch)`);
    patches.push(patch.length);
    const full = encoder.encodeAll().slice();
    const fresh = new Decoder(new shape.State());
    fresh.decode(full);
    check(shape, fresh.state, ticks[i], `${name} tick ${i} (encodeAll)`);
    fulls.push(full.length);
  }
  return { patches, fulls };
}

function types(fields, floats) {
  return fields
    .slice(1)
    .map((f) => `${f.name}: ${floats && f.quant ? "float32" : intType(f.width)}`)
    .join(", ");
}

function main() {
  const opt = options();
  const { manifest, ticks } = readScenarios(opt.scenarios);
  const here = dirname(fileURLToPath(import.meta.url));
  const pkg = JSON.parse(readFileSync(join(here, "node_modules/@colyseus/schema/package.json"), "utf8"));
  const lib = `@colyseus/schema ${pkg.version}`;
  const series = [];
  for (const name of ["world", "cubes"]) {
    const fields = manifest.fields[name];
    const container = name === "world" ? "t.map(Entity) keyed by id" : "t.array(Cube) indexed by id";
    for (const floats of [false, true]) {
      const { patches, fulls } = measure(name, fields, ticks[name], floats);
      const id = floats ? "colyseus-f32" : "colyseus";
      const shape = `${floats ? "float32 for quantized floats" : "integer fields"}: ${types(fields, floats)}; ${container}`;
      series.push({
        scenario: name,
        codec: id,
        label: `${lib} patch (${floats ? "float32" : "integer"} fields)`,
        counted: `tick 0: encodeAll(); then encode() after applying the tick's changes (relative to the previous tick), then discardChanges(). ${shape}`,
        bytes: patches,
      });
      series.push({
        scenario: name,
        codec: `${id}-all`,
        label: `${lib} encodeAll (${floats ? "float32" : "integer"} fields)`,
        counted: `encodeAll() of every tick (the full state). ${shape}`,
        bytes: fulls,
      });
    }
  }
  const raw = {
    format: FORMAT,
    program: "ts/colyseus.mjs",
    runtime: `node ${process.version}, ${lib}`,
    quick: manifest.quick,
    ticks: manifest.ticks,
    scenarios: Object.fromEntries(manifest.files.map((f) => [f.scenario, f.fnv1a64])),
    series,
  };
  mkdirSync(dirname(opt.out), { recursive: true });
  writeFileSync(opt.out, `${JSON.stringify(raw)}\n`);
  console.log(`${opt.out}: ${series.length} series (${lib}, node ${process.version}), every patch and full state decoded and checked`);
}

main();
