// What a simulated player does (bench/sim/README.md, "simclient"), as the Rust client
// does it (bench/sim/rust/src/client/behaviour.rs): it walks at full stick towards random
// waypoints near the world's hot spots, stands still a moment when it gets there, looks
// where it walks and fires in bursts — from SplitMix64 seeded `SEED + i` for client `i`,
// so given the same snapshots a TypeScript client sends what a Rust one sends.

import type { Input } from "../gen/sim.js";
import { HALF_MAP, SEED } from "./rules.js";
import { SplitMix64 } from "./rng.js";

/** How many hot spots the world has. */
export const HOT_SPOT_COUNT = 8;
/** How far from its hot spot a waypoint lies (standard deviation, metres). */
const WAYPOINT_SIGMA = 25;
/** Waypoints keep this far inside the map's edge, metres. */
const MARGIN = 10;
/** A player this close to its waypoint has arrived, metres. */
const ARRIVED = 1;
/** After arriving it stands still for up to this many ticks (2 s). */
const PAUSE_TICKS = 120;
/** A burst of fire starts with probability 1 in this many ticks (every 3 s on average) ... */
const FIRE_ONE_IN = 180;
/** ... and lasts this many ticks (half a second). */
const FIRE_TICKS = 30;

/** The wire value of a position coordinate: its 1/64 m grid point (spec §4.3), as an f32. */
export function snapPosition(v: number): number {
  const [min, max, steps] = [-512, 512, 65536];
  const t = (Math.min(Math.max(v, min), max) - min) / (max - min);
  const q = Math.floor(t * steps + 0.5);
  return Math.fround(q === steps ? max : min + ((max - min) * q) / steps);
}

/** The world's hot spots (world/mod.rs `hot_spots`): fixed points from `SEED`, inside the map with room around them. */
export function hotSpots(): [number, number][] {
  const rng = new SplitMix64(SEED);
  const reach = HALF_MAP * 0.7;
  return Array.from({ length: HOT_SPOT_COUNT }, () => {
    const x = rng.range(-reach, reach);
    const y = rng.range(-reach, reach);
    return [snapPosition(x), snapPosition(y)];
  });
}

const HOT_SPOTS = hotSpots();

/** One tick's controls: the input's fields besides `seq`, `ack` and `rttUs`. */
export type Controls = Pick<Input, "moveX" | "moveY" | "aim" | "fire">;

/** An angle in radians as degrees in 0..360, an f32 (Rust's `degrees`). */
export function degrees(radians: number): number {
  let d = (radians * (180 / Math.PI)) % 360;
  if (d < 0) {
    d += 360;
  }
  const f = Math.fround(d);
  // A tiny negative angle rounds to 360 itself.
  return f >= 360 ? 0 : f;
}

/** One client's behaviour. */
export class Behaviour {
  private readonly rng: SplitMix64;
  private waypoint: [number, number] | undefined;
  /** Ticks left standing still. */
  private pause = 0;
  /** Ticks left in the current burst of fire. */
  private firing = 0;
  private aim = 0;
  /**
   * When in the tick period this client sends its inputs, a fraction in [0, 1) (the
   * generator's first draw): clients that connect at the same moment would otherwise all
   * send at the same point of the server's tick, and every RTT of a run would share one
   * arbitrary phase.
   */
  readonly phase: number;

  /** The behaviour of client `i` (seed `SEED + i`). */
  constructor(i: number) {
    this.rng = new SplitMix64(SEED + BigInt(i));
    this.phase = this.rng.unit();
  }

  /** This tick's controls, for a player at (`x`, `y`) (`undefined`: before its first snapshot, so it stands still). */
  next(at: { x: number; y: number } | undefined): Controls {
    const fire = this.fire();
    if (at === undefined) {
      return { moveX: 0, moveY: 0, aim: 0, fire };
    }
    const [wx, wy] = this.waypoint ?? this.newWaypoint();
    const dx = wx - at.x;
    const dy = wy - at.y;
    const d = Math.hypot(dx, dy);
    if (d < ARRIVED) {
      this.waypoint = undefined;
      this.pause = this.rng.below(PAUSE_TICKS + 1);
    }
    if (this.pause > 0 || d < ARRIVED) {
      this.pause = Math.max(this.pause - 1, 0);
      return { moveX: 0, moveY: 0, aim: this.aim, fire };
    }
    this.aim = degrees(Math.atan2(dy, dx));
    return { moveX: Math.fround(dx / d), moveY: Math.fround(dy / d), aim: this.aim, fire };
  }

  /** Whether it fires this tick: bursts that start at random. */
  private fire(): boolean {
    if (this.firing === 0 && this.rng.below(FIRE_ONE_IN) === 0) {
      this.firing = FIRE_TICKS;
    }
    const fire = this.firing > 0;
    this.firing = Math.max(this.firing - 1, 0);
    return fire;
  }

  /** A new waypoint near a random hot spot, inside the map. */
  private newWaypoint(): [number, number] {
    const [hx, hy] = HOT_SPOTS[this.rng.below(HOT_SPOT_COUNT)] as [number, number];
    const edge = HALF_MAP - MARGIN;
    const x = hx + WAYPOINT_SIGMA * this.rng.normal();
    const y = hy + WAYPOINT_SIGMA * this.rng.normal();
    const clamp = (v: number): number => Math.min(Math.max(v, -edge), edge);
    this.waypoint = [clamp(x), clamp(y)];
    return this.waypoint;
  }
}
