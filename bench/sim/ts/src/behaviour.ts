// What a simulated player does (bench/sim/README.md, "simclient"): it walks towards random
// waypoints near the world's hot spots at full stick, looks where it goes, and fires now
// and then. Client `i` draws from `Rng(SEED + i)`, so a run's inputs are reproducible.

import type { Entity, Input } from "../gen/sim.js";
import { HALF_MAP, SEED, TICK_HZ } from "./rules.js";
import { Rng } from "./rng.js";

/**
 * The hot spots players gather around (the world's: 8 points on a circle of 250 m around
 * the centre). Waypoints are drawn within `WAYPOINT_SPREAD` of one.
 */
export const HOT_SPOTS: readonly (readonly [number, number])[] = Array.from({ length: 8 }, (_, k) => {
  const a = (k * Math.PI) / 4;
  return [250 * Math.cos(a), 250 * Math.sin(a)] as const;
});
/** How far from its hot spot a waypoint may be, metres. */
export const WAYPOINT_SPREAD = 60;
/** A waypoint this close counts as reached, metres. */
const REACHED = 2;
/** A waypoint not reached within this many ticks is replaced (a player stuck at the map's edge). */
const GIVE_UP_TICKS = 20 * TICK_HZ;

/** The controls of one tick: an `Input` without its bookkeeping fields. */
export type Controls = Pick<Input, "moveX" | "moveY" | "aim" | "fire">;

/** One player's behaviour. */
export class Behaviour {
  private readonly rng: Rng;
  private target: [number, number];
  private ticksToTarget = 0;
  private fireLeft = 0;
  private aim = 0;

  /** Client `index`'s behaviour (seed `SEED + index`). */
  constructor(index: number) {
    this.rng = new Rng(SEED + BigInt(index));
    this.target = this.waypoint();
  }

  private waypoint(): [number, number] {
    const [hx, hy] = HOT_SPOTS[this.rng.below(HOT_SPOTS.length)] as readonly [number, number];
    const r = WAYPOINT_SPREAD * Math.sqrt(this.rng.next());
    const a = this.rng.range(0, 2 * Math.PI);
    const clamp = (v: number): number => Math.min(Math.max(v, -HALF_MAP + 1), HALF_MAP - 1);
    return [clamp(hx + r * Math.cos(a)), clamp(hy + r * Math.sin(a))];
  }

  /** The controls for the next tick, given the player's entity in the newest snapshot (if any yet). */
  next(me: Entity | undefined): Controls {
    // Firing: bursts of 0.25–1 s, starting about once every 3 s.
    if (this.fireLeft > 0) {
      this.fireLeft--;
    } else if (this.rng.next() < 1 / (3 * TICK_HZ)) {
      this.fireLeft = Math.round(this.rng.range(0.25, 1) * TICK_HZ);
    }
    const fire = this.fireLeft > 0;
    if (me === undefined) {
      return { moveX: 0, moveY: 0, aim: this.aim, fire };
    }
    let dx = this.target[0] - me.x;
    let dy = this.target[1] - me.y;
    if (Math.hypot(dx, dy) < REACHED || ++this.ticksToTarget > GIVE_UP_TICKS) {
      this.target = this.waypoint();
      this.ticksToTarget = 0;
      dx = this.target[0] - me.x;
      dy = this.target[1] - me.y;
    }
    const len = Math.hypot(dx, dy);
    if (len === 0) {
      return { moveX: 0, moveY: 0, aim: this.aim, fire };
    }
    const unit = (v: number): number => Math.min(Math.max(v / len, -1), 1);
    this.aim = ((Math.atan2(dy, dx) * 180) / Math.PI + 360) % 360;
    return { moveX: unit(dx), moveY: unit(dy), aim: this.aim, fire };
  }
}
