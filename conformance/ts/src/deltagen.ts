// Random values of the delta vector schema (testdata/vectors/delta/delta.bw) and random
// next values of them, for the delta property test (src/delta.ts): a baseline, then a
// value that keeps most of it and changes some fields, elements and keys, as a game's
// next snapshot does. Written against the generated types, so it fails to compile if
// the schema changes shape. Values need not be canonical: the property test
// canonicalizes them through the full codec.

import type {
  Action,
  Composite,
  Entity,
  Item,
  Keys,
  Kind,
  Scalars,
  Signed,
  Tagged,
  Team,
  Vec2,
  World,
} from "../gen/delta/delta.js";
import { Rng } from "./rng.js";

export { Rng };


const KINDS: readonly Kind[] = ["Player", "Bullet", "Crate"];
const TEAMS: readonly Team[] = ["Red", "Blue"];
const SPECIAL = [0, -0, 1.5, -2.25, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e-300, 3.4e38];

/** An `f32` or `f64` value, special ones often. */
function anyFloat(rng: Rng): number {
  return rng.chance(30) ? rng.pick(SPECIAL) : (rng.next() - 2147483648) / rng.int(1, 1000);
}

function text(rng: Rng, max: number): string {
  const n = rng.below(max + 1);
  let s = "";
  for (let i = 0; i < n; i++) {
    // ASCII mostly, a two-byte character now and then (counted in bytes against max).
    s += rng.chance(90) || s.length + 2 > max ? String.fromCharCode(97 + rng.below(26)) : "é";
  }
  while (new TextEncoder().encode(s).length > max) {
    s = s.slice(0, -1);
  }
  return s;
}

function vec2(rng: Rng): Vec2 {
  return { x: rng.float(-512, 512), y: rng.float(-512, 512) };
}

/** Maybe changes `v` (with probability `percent`), else returns it as it is. */
function maybe<T>(rng: Rng, percent: number, v: T, change: (v: T) => T): T {
  return rng.chance(percent) ? change(v) : v;
}

export function scalars(rng: Rng): Scalars {
  return {
    flag: rng.chance(50),
    small: rng.int(0, 7),
    byte: rng.int(0, 255),
    signed: rng.int(-64, 63),
    wide: rng.big(64),
    swide: BigInt.asIntN(64, rng.big(64)),
    bounded: rng.int(-1000, 1000),
    fixed: 7,
    quant: rng.float(-1, 1),
    quant64: rng.float(0, 100),
    single: anyFloat(rng),
    double: anyFloat(rng),
    kind: rng.pick(KINDS),
    team: rng.pick(TEAMS),
    vu: rng.chance(50) ? rng.int(0, 300) : rng.next(),
    vi: BigInt.asIntN(64, rng.big(64)) >> BigInt(rng.below(64)),
  };
}

/** A next value of `b`: each field changed with some chance, by a little or entirely. */
export function nextScalars(rng: Rng, b: Scalars): Scalars {
  const fresh = scalars(rng);
  const p = rng.pick([0, 10, 40]);
  return {
    flag: maybe(rng, p, b.flag, (x) => !x),
    small: maybe(rng, p, b.small, () => fresh.small),
    byte: maybe(rng, p, b.byte, (x) => (x + 1) & 255),
    signed: maybe(rng, p, b.signed, () => fresh.signed),
    wide: maybe(rng, p, b.wide, (x) => BigInt.asUintN(64, x + 1n)),
    swide: maybe(rng, p, b.swide, () => fresh.swide),
    bounded: maybe(rng, p, b.bounded, (x) => (x < 1000 ? x + 1 : -1000)),
    fixed: 7,
    quant: maybe(rng, p, b.quant, () => fresh.quant),
    quant64: maybe(rng, p, b.quant64, () => fresh.quant64),
    single: maybe(rng, p, b.single, () => fresh.single),
    double: maybe(rng, p, b.double, () => fresh.double),
    kind: maybe(rng, p, b.kind, () => fresh.kind),
    team: maybe(rng, p, b.team, () => fresh.team),
    vu: maybe(rng, p, b.vu, () => fresh.vu),
    vi: maybe(rng, p, b.vi, () => fresh.vi),
  };
}

function action(rng: Rng): Action {
  switch (rng.below(3)) {
    case 0:
      return { kind: "Idle" };
    case 1:
      return { kind: "Move", value: vec2(rng) };
    default:
      return { kind: "Say", value: text(rng, 8) };
  }
}

export function composite(rng: Rng): Composite {
  return {
    pos: vec2(rng),
    path: [vec2(rng), vec2(rng), vec2(rng)],
    raw: [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)],
    target: rng.chance(50) ? null : rng.int(0, 4095),
    action: action(rng),
    label: text(rng, 32),
    blob: Uint8Array.from({ length: rng.below(6) }, () => rng.below(256)),
    tags: Array.from({ length: rng.below(9) }, () => rng.below(256)),
  };
}

export function nextComposite(rng: Rng, b: Composite): Composite {
  const fresh = composite(rng);
  const p = rng.pick([0, 15, 50]);
  return {
    pos: maybe(rng, p, b.pos, (x) => ({ x: x.x, y: fresh.pos.y })),
    path: maybe(rng, p, b.path, (x) => x.map((e, i) => (rng.chance(50) ? e : (fresh.path[i] ?? e)))),
    raw: maybe(rng, p, b.raw, (x) => x.map((e) => (rng.chance(70) ? e : rng.below(256)))),
    target: maybe(rng, p, b.target, () => fresh.target),
    action: maybe(rng, p, b.action, () => fresh.action),
    label: maybe(rng, p, b.label, () => fresh.label),
    blob: maybe(rng, p, b.blob, () => fresh.blob),
    tags: maybe(rng, p, b.tags, () => fresh.tags),
  };
}

/** `n` distinct keys from `pool`, ascending. */
function keys(rng: Rng, pool: readonly number[], n: number): number[] {
  const chosen = new Set<number>();
  while (chosen.size < Math.min(n, pool.length)) {
    chosen.add(rng.pick(pool));
  }
  return [...chosen].sort((a, b) => a - b);
}

const SLOTS = Array.from({ length: 256 }, (_, i) => i - 128);
const IDS = Array.from({ length: 4096 }, (_, i) => i);

function items(rng: Rng): Item[] {
  return keys(rng, SLOTS, rng.below(5)).map((slot) => ({ slot, count: rng.below(256) }));
}

function entity(rng: Rng, id: number): Entity {
  return {
    id,
    kind: rng.pick(KINDS),
    pos: vec2(rng),
    yaw: rng.float(0, 360),
    alive: rng.chance(80),
    name: text(rng, 16),
    items: items(rng),
  };
}

export function world(rng: Rng): World {
  const n = rng.pick([0, 1, 5, 20, 64]);
  return { tick: rng.next(), entities: keys(rng, IDS, n).map((id) => entity(rng, id)) };
}

/**
 * A keyed list's next value: elements removed, kept (changed with some chance by
 * `change`) and added with new keys, in ascending key order.
 */
function nextKeyed<T>(
  rng: Rng,
  list: readonly T[],
  keyOf: (e: T) => number,
  make: (key: number) => T,
  change: (e: T) => T,
  pool: readonly number[],
  max: number,
): T[] {
  const removeP = rng.pick([0, 5, 30]);
  const changeP = rng.pick([0, 10, 50, 100]);
  const kept = list.filter(() => !rng.chance(removeP)).map((e) => (rng.chance(changeP) ? change(e) : e));
  const taken = new Set(list.map(keyOf));
  const room = max - kept.length;
  const extra = room <= 0 ? 0 : rng.below(Math.min(room, rng.pick([1, 3, 10])) + 1);
  const added = keys(rng, pool.filter((k) => !taken.has(k)), extra).map(make);
  return [...kept, ...added].sort((a, b) => keyOf(a) - keyOf(b));
}

function nextEntity(rng: Rng, e: Entity): Entity {
  const p = rng.pick([10, 50]);
  return {
    id: e.id,
    kind: maybe(rng, 5, e.kind, () => rng.pick(KINDS)),
    pos: maybe(rng, p, e.pos, (v) => ({ x: Math.max(-512, Math.min(512, v.x + 0.0625 * rng.int(-8, 8))), y: v.y })),
    yaw: maybe(rng, p, e.yaw, () => rng.float(0, 360)),
    alive: maybe(rng, 5, e.alive, (v) => !v),
    name: maybe(rng, 5, e.name, () => text(rng, 16)),
    items: maybe(rng, 20, e.items, (list) =>
      nextKeyed(rng, list, (i) => i.slot, (slot) => ({ slot, count: rng.below(256) }), (i) => ({ slot: i.slot, count: rng.below(256) }), SLOTS, 4),
    ),
  };
}

export function nextWorld(rng: Rng, b: World): World {
  return {
    tick: rng.chance(80) ? (b.tick + 1) >>> 0 : b.tick,
    entities: nextKeyed(rng, b.entities, (e) => e.id, (id) => entity(rng, id), (e) => nextEntity(rng, e), IDS, 64),
  };
}

const TEAM_TAGS: Readonly<Record<Team, number>> = { Red: 1, Blue: 2 };
const TEAM_BY_TAG: readonly Team[] = ["Red", "Red", "Blue"];

export function keysValue(rng: Rng): Keys {
  return {
    byTeam: keys(rng, [1, 2], rng.below(3)).map((t) => ({ team: TEAM_BY_TAG[t] ?? "Red", score: rng.below(65536) })),
    bySigned: keys(rng, Array.from({ length: 201 }, (_, i) => i - 100), rng.below(8)).map((k) => ({ k, v: rng.below(16) })),
  };
}

export function nextKeys(rng: Rng, b: Keys): Keys {
  const tagged = (t: number): Tagged => ({ team: TEAM_BY_TAG[t] ?? "Red", score: rng.below(65536) });
  const signed = (k: number): Signed => ({ k, v: rng.below(16) });
  return {
    byTeam: nextKeyed(rng, b.byTeam, (e) => TEAM_TAGS[e.team], tagged, (e) => tagged(TEAM_TAGS[e.team]), [1, 2], 3),
    bySigned: nextKeyed(rng, b.bySigned, (e) => e.k, signed, (e) => signed(e.k), Array.from({ length: 201 }, (_, i) => i - 100), 1000),
  };
}
