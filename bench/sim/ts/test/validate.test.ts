// The snapshot checks (src/validate.ts), rule by rule: a valid pair passes, and breaking
// one rule reports that rule and no other; the limits themselves pass.

import assert from "node:assert/strict";
import { test } from "node:test";
import { type Entity, Kind, type Snapshot } from "../gen/sim.js";
import { INTEREST_RADIUS, MAX_SPEED, POS_STEP, TICK_HZ, VIEW_CAP } from "../src/rules.js";
import { type Rule, validate } from "../src/validate.js";

function entity(id: number, x: number, y: number, kind: Kind = id < 2048 ? Kind.Player : Kind.Npc): Entity {
  return { id, kind, x, y, yaw: 90, vx: 0, vy: 0, health: 100, anim: 0 };
}

const prev: Snapshot = { tick: 10, inputSeq: 5, you: 1, entities: [entity(1, 0, 0), entity(2048, 10, 10)] };

function next(change: (s: Snapshot) => void = () => {}): Snapshot {
  const s: Snapshot = { tick: 11, inputSeq: 6, you: 1, entities: [entity(1, 0.125, 0), entity(2048, 10, 10.0625), entity(2049, 50, 50)] };
  change(s);
  return s;
}

/** The rules broken by `s` after `prev`, the newest input sent being 7. */
function broken(s: Snapshot, before: Snapshot | undefined = prev, newestSent = 7): Rule[] {
  return [...new Set(validate(before, s, newestSent).map((p) => p.rule))];
}

const at = (s: Snapshot, id: number): Entity => s.entities.find((e) => e.id === id) as Entity;

test("a valid snapshot, and a valid first snapshot, break no rule", () => {
  assert.deepEqual(validate(prev, next(), 7), []);
  assert.deepEqual(validate(undefined, next(), 6), []);
});

test("tick: greater than the previous one's", () => {
  assert.deepEqual(broken(next((s) => (s.tick = 10))), ["tick"]);
  assert.deepEqual(broken(next((s) => (s.tick = 9))), ["tick"]);
});

test("input_seq: never decreases, at most the newest input sent", () => {
  assert.deepEqual(broken(next((s) => (s.inputSeq = 4))), ["input_seq"]);
  assert.deepEqual(broken(next((s) => (s.inputSeq = 8))), ["input_seq"]);
  assert.deepEqual(broken(next((s) => (s.inputSeq = 5))), []);
  assert.deepEqual(broken(next((s) => (s.inputSeq = 7))), []);
});

test("order: ids strictly increase", () => {
  assert.deepEqual(broken(next((s) => s.entities.reverse())), ["order"]);
  assert.deepEqual(broken(next((s) => s.entities.push(entity(2049, 50, 50)))), ["order"]);
});

test("cap: at most VIEW_CAP entities", () => {
  const crowd = (n: number): Snapshot =>
    next((s) => {
      s.entities = [entity(1, 0.125, 0), ...Array.from({ length: n - 1 }, (_, i) => entity(3000 + i, 1, 1))];
    });
  assert.deepEqual(broken(crowd(VIEW_CAP)), []);
  assert.deepEqual(broken(crowd(VIEW_CAP + 1)), ["cap"]);
});

test("you: among the entities, a Player, the same id every snapshot", () => {
  assert.deepEqual(broken(next((s) => (s.entities = s.entities.filter((e) => e.id !== 1)))), ["you"]);
  assert.deepEqual(broken(next((s) => (at(s, 1).kind = Kind.Npc))), ["you"]);
  const other = next((s) => {
    s.you = 2;
    s.entities.splice(1, 0, entity(2, 0.125, 0.125));
  });
  assert.deepEqual(broken(other), ["you"]);
  assert.deepEqual(validate(undefined, other, 7), []);
});

test("interest: every entity within INTEREST_RADIUS + POS_STEP of you", () => {
  const edge = INTEREST_RADIUS + POS_STEP;
  const put = (s: Snapshot, x: number): void => {
    at(s, 2049).x = x;
    at(s, 2049).y = 0;
  };
  assert.deepEqual(broken(next((s) => put(s, 0.125 + edge))), []);
  assert.deepEqual(broken(next((s) => put(s, 0.125 + edge + POS_STEP))), ["interest"]);
  assert.deepEqual(broken(next((s) => ((at(s, 2049).x = 100), (at(s, 2049).y = 100)))), ["interest"]);
});

test("range: every value inside its sim.bw range", () => {
  const cases: [keyof Entity, number | string][] = [
    ["id", 4096],
    ["kind", "Boss"],
    ["x", 512.5],
    ["yaw", 361],
    ["vx", 64],
    ["vy", -64.125],
    ["health", 201],
    ["anim", 16],
    ["anim", 1.5],
  ];
  for (const [field, value] of cases) {
    const s = next((s) => ((at(s, 2049) as unknown as Record<string, unknown>)[field] = value));
    // 2049 is far from you for x = 512.5: that breaks the interest rule as well.
    const want: Rule[] = field === "x" ? ["interest", "range"] : ["range"];
    assert.deepEqual(broken(s).sort(), want, `${field} = ${value}`);
  }
  assert.deepEqual(broken(next((s) => (s.you = 4096))).sort(), ["range", "you"]);
});

test("continuity: at most MAX_SPEED × ticks / 60 + POS_STEP per axis", () => {
  const limit = MAX_SPEED / TICK_HZ + POS_STEP;
  // Positions on the 1/64 grid: the largest step within the limit, and the next one.
  const within = Math.floor(limit * 64) / 64;
  assert.deepEqual(broken(next((s) => (at(s, 2048).x = 10 + within))), []);
  assert.deepEqual(broken(next((s) => (at(s, 2048).x = 10 + within + 1 / 64))), ["continuity"]);
  assert.deepEqual(broken(next((s) => (at(s, 1).y = -(within + 1 / 64)))), ["continuity"]);
  // Two ticks later, twice as far is fine.
  assert.deepEqual(broken(next((s) => ((s.tick = 12), (at(s, 2048).x = 10 + within + 1 / 64)))), []);
  // An entity not in the previous snapshot may be anywhere in view.
  assert.deepEqual(broken(next((s) => (at(s, 2049).x = -50))), []);
});
