// Every check a client makes of every snapshot (bench/sim/README.md, "simclient"), as a
// pure function of the previous snapshot, the new one and the newest input sent: the
// result is the list of rules the snapshot breaks (empty when valid). The clients count
// a snapshot with any as `invalid` and keep the first messages.

import {
  ENTITY_ANIM_MAX,
  ENTITY_ANIM_MIN,
  ENTITY_HEALTH_MAX,
  ENTITY_HEALTH_MIN,
  ENTITY_ID_MAX,
  ENTITY_ID_MIN,
  ENTITY_VX_MAX,
  ENTITY_VX_MIN,
  ENTITY_VY_MAX,
  ENTITY_VY_MIN,
  ENTITY_X_MAX,
  ENTITY_X_MIN,
  ENTITY_Y_MAX,
  ENTITY_Y_MIN,
  ENTITY_YAW_MAX,
  ENTITY_YAW_MIN,
  type Entity,
  Kind,
  SNAPSHOT_INPUT_SEQ_MAX,
  SNAPSHOT_TICK_MAX,
  SNAPSHOT_YOU_MAX,
  type Snapshot,
} from "../gen/sim.js";
import { INTEREST_RADIUS, MAX_SPEED, POS_STEP, TICK_HZ, VIEW_CAP } from "./rules.js";

/** The rules of the README's list, by name (the first word of each problem). */
export const RULES = ["tick", "input_seq", "order", "cap", "you", "interest", "range", "continuity"] as const;
/** A rule's name. */
export type Rule = (typeof RULES)[number];

/** A broken rule: which one, and what was seen. */
export interface Problem {
  readonly rule: Rule;
  readonly message: string;
}

/**
 * The problems of snapshot `s`, given the previous valid-or-not snapshot the client
 * decoded (`undefined` for the first) and the newest input `seq` it has sent:
 *
 * - `tick`: greater than the previous snapshot's;
 * - `input_seq`: never decreases, at most `newestSent`;
 * - `order`: entity ids strictly increase;
 * - `cap`: at most `VIEW_CAP` entities;
 * - `you`: among the entities, a `Player`, the same id as in the previous snapshot;
 * - `interest`: every entity within `INTEREST_RADIUS + POS_STEP` of `you`;
 * - `range`: every value inside its `sim.bw` range;
 * - `continuity`: an entity of the previous snapshot moved at most
 *   `MAX_SPEED × ticks / 60 + POS_STEP` on each axis.
 */
export function validate(prev: Snapshot | undefined, s: Snapshot, newestSent: number): Problem[] {
  const out: Problem[] = [];
  const bad = (rule: Rule, message: string): void => {
    out.push({ rule, message });
  };
  if (prev !== undefined && !(s.tick > prev.tick)) {
    bad("tick", `tick ${s.tick} after tick ${prev.tick}`);
  }
  if (prev !== undefined && s.inputSeq < prev.inputSeq) {
    bad("input_seq", `input_seq ${s.inputSeq} after ${prev.inputSeq}`);
  }
  if (s.inputSeq > newestSent) {
    bad("input_seq", `input_seq ${s.inputSeq}, but the newest input sent is ${newestSent}`);
  }
  checkOrder(s.entities, bad);
  if (s.entities.length > VIEW_CAP) {
    bad("cap", `${s.entities.length} entities, at most ${VIEW_CAP}`);
  }
  const me = checkYou(prev, s, bad);
  if (me !== undefined) {
    checkInterest(me, s.entities, bad);
  }
  checkRanges(s, bad);
  if (prev !== undefined && s.tick > prev.tick) {
    checkContinuity(prev, s, bad);
  }
  return out;
}

type Report = (rule: Rule, message: string) => void;

function checkOrder(entities: readonly Entity[], bad: Report): void {
  for (let i = 1; i < entities.length; i++) {
    const a = (entities[i - 1] as Entity).id;
    const b = (entities[i] as Entity).id;
    if (!(b > a)) {
      bad("order", `entity ${b} after entity ${a}`);
      return;
    }
  }
}

/** Checks `you`; returns its entity when it is there. */
function checkYou(prev: Snapshot | undefined, s: Snapshot, bad: Report): Entity | undefined {
  if (prev !== undefined && s.you !== prev.you) {
    bad("you", `you is ${s.you}, was ${prev.you}`);
  }
  const me = s.entities.find((e) => e.id === s.you);
  if (me === undefined) {
    bad("you", `you (${s.you}) is not among the ${s.entities.length} entities`);
  } else if (me.kind !== Kind.Player) {
    bad("you", `you (${s.you}) is a ${me.kind}`);
  }
  return me;
}

function checkInterest(me: Entity, entities: readonly Entity[], bad: Report): void {
  const limit = INTEREST_RADIUS + POS_STEP;
  for (const e of entities) {
    const d = Math.hypot(e.x - me.x, e.y - me.y);
    if (d > limit) {
      bad("interest", `entity ${e.id} is ${d.toFixed(3)} m from you, at most ${limit}`);
      return;
    }
  }
}

/** Whether `v` is a number in `lo ..= hi` (and an integer when `int`). */
function inside(v: number, lo: number, hi: number, int: boolean): boolean {
  return typeof v === "number" && v >= lo && v <= hi && (!int || Number.isInteger(v));
}

function checkRanges(s: Snapshot, bad: Report): void {
  if (!inside(s.tick, 0, SNAPSHOT_TICK_MAX, true) || !inside(s.inputSeq, 0, SNAPSHOT_INPUT_SEQ_MAX, true) || !inside(s.you, 0, SNAPSHOT_YOU_MAX, true)) {
    bad("range", `tick ${s.tick}, input_seq ${s.inputSeq} or you ${s.you} out of range`);
  }
  for (const e of s.entities) {
    const ok =
      inside(e.id, ENTITY_ID_MIN, ENTITY_ID_MAX, true) &&
      (e.kind === Kind.Player || e.kind === Kind.Npc) &&
      inside(e.x, ENTITY_X_MIN, ENTITY_X_MAX, false) &&
      inside(e.y, ENTITY_Y_MIN, ENTITY_Y_MAX, false) &&
      inside(e.yaw, ENTITY_YAW_MIN, ENTITY_YAW_MAX, false) &&
      inside(e.vx, ENTITY_VX_MIN, ENTITY_VX_MAX, false) &&
      inside(e.vy, ENTITY_VY_MIN, ENTITY_VY_MAX, false) &&
      inside(e.health, ENTITY_HEALTH_MIN, ENTITY_HEALTH_MAX, true) &&
      inside(e.anim, ENTITY_ANIM_MIN, ENTITY_ANIM_MAX, true);
    if (!ok) {
      bad("range", `entity ${e.id} has a value out of its range: ${JSON.stringify(e)}`);
      return;
    }
  }
}

/** Both lists in increasing id order (checked above): a merge finds the entities in both. */
function checkContinuity(prev: Snapshot, s: Snapshot, bad: Report): void {
  const ticks = s.tick - prev.tick;
  const limit = (MAX_SPEED * ticks) / TICK_HZ + POS_STEP;
  let i = 0;
  for (const e of s.entities) {
    while (i < prev.entities.length && (prev.entities[i] as Entity).id < e.id) {
      i++;
    }
    const p = prev.entities[i];
    if (p === undefined || p.id !== e.id) {
      continue;
    }
    const dx = Math.abs(e.x - p.x);
    const dy = Math.abs(e.y - p.y);
    if (dx > limit || dy > limit) {
      bad("continuity", `entity ${e.id} moved (${dx.toFixed(4)}, ${dy.toFixed(4)}) m in ${ticks} ticks, at most ${limit.toFixed(4)} per axis`);
      return;
    }
  }
}
