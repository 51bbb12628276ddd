// A small world for the Node test server (test/server.ts): NPCs wandering around the hot
// spots and players moved by their inputs, snapped to the wire grid of sim.bw, and each
// client's view (bench/sim/README.md, "The world", simplified: the real one is the Rust
// server's). Only what the client and the live view need to be tested against.

import { type Dot, type Entity, type Input, Kind } from "../gen/sim.js";
import { hotSpots } from "../src/behaviour.js";
import { HALF_MAP, INTEREST_RADIUS, NPC_BASE, PLAYER_SPEED, SEED, TICK_HZ, VIEW_CAP } from "../src/rules.js";
import { SplitMix64 } from "../src/rng.js";

const clampMap = (v: number): number => Math.min(Math.max(v, -HALF_MAP), HALF_MAP);
/** A position on its 1/64 m grid. */
const snapPos = (v: number): number => Math.round(v * 64) / 64;
/** A velocity on its 1/8 m/s grid. */
const snapVel = (v: number): number => Math.min(Math.max(Math.round(v * 8) / 8, -64), 63.875);

interface Npc {
  readonly e: Entity;
  target: [number, number];
  retarget: number;
}

/** The world: entities by id, NPCs' plans, and the tick. */
export class World {
  tick = 0;
  readonly entities = new Map<number, Entity>();
  private readonly npcs: Npc[] = [];
  private readonly rng = new SplitMix64(SEED);
  private readonly hot = hotSpots();
  private nextPlayer = 1;
  /** A fault to inject (tests of the clients' checks): `teleport` moves NPCs 50 m at tick 30. */
  fault: string | undefined;

  /** A world of `npcs` NPCs around the hot spots. */
  constructor(npcs: number) {
    for (let i = 0; i < npcs; i++) {
      const [x, y] = this.nearHotSpot(i, 40);
      const e: Entity = { id: NPC_BASE + i, kind: Kind.Npc, x, y, yaw: 0, vx: 0, vy: 0, health: 100, anim: 0 };
      this.entities.set(e.id, e);
      this.npcs.push({ e, target: [x, y], retarget: 0 });
    }
  }

  private nearHotSpot(k: number, spread: number): [number, number] {
    const [hx, hy] = this.hot[k % this.hot.length] as [number, number];
    return [snapPos(clampMap(hx + this.rng.range(-spread, spread))), snapPos(clampMap(hy + this.rng.range(-spread, spread)))];
  }

  /** Adds a player (ids 1, 2, ... in connection order) near a hot spot; returns its id. */
  addPlayer(): number {
    const id = this.nextPlayer++;
    const [x, y] = this.nearHotSpot(id, 20);
    this.entities.set(id, { id, kind: Kind.Player, x, y, yaw: 0, vx: 0, vy: 0, health: 200, anim: 0 });
    return id;
  }

  /** Removes a player. */
  removePlayer(id: number): void {
    this.entities.delete(id);
  }

  /** Applies a player's newest input. */
  applyInput(id: number, input: Input): void {
    const e = this.entities.get(id);
    if (e === undefined) {
      return;
    }
    e.vx = snapVel(input.moveX * PLAYER_SPEED);
    e.vy = snapVel(input.moveY * PLAYER_SPEED);
    e.yaw = input.aim;
    e.anim = input.fire ? 3 : e.vx !== 0 || e.vy !== 0 ? 1 : 0;
  }

  /** One tick of simulation: NPCs pick targets, everything moves. */
  step(): void {
    this.tick++;
    for (const n of this.npcs) {
      if (this.tick >= n.retarget) {
        n.target = this.nearHotSpot(this.rng.below(this.hot.length), 60);
        n.retarget = this.tick + Math.round(this.rng.range(2, 6) * TICK_HZ);
      }
      const dx = n.target[0] - n.e.x;
      const dy = n.target[1] - n.e.y;
      const d = Math.hypot(dx, dy);
      const speed = d < 0.5 ? 0 : Math.min(3, d * TICK_HZ);
      n.e.vx = snapVel(d === 0 ? 0 : (dx / d) * speed);
      n.e.vy = snapVel(d === 0 ? 0 : (dy / d) * speed);
    }
    for (const e of this.entities.values()) {
      e.x = snapPos(clampMap(e.x + e.vx / TICK_HZ));
      e.y = snapPos(clampMap(e.y + e.vy / TICK_HZ));
    }
    if (this.fault === "teleport" && this.tick === 30) {
      for (const n of this.npcs) {
        n.e.x = snapPos(clampMap(n.e.x + 50));
      }
    }
  }

  /** The view of player `you`: entities within the interest radius, the nearest `VIEW_CAP`, by id (copies). */
  view(you: number): Entity[] {
    const me = this.entities.get(you);
    if (me === undefined) {
      return [];
    }
    const near: [number, Entity][] = [];
    for (const e of this.entities.values()) {
      const d = Math.hypot(e.x - me.x, e.y - me.y);
      if (d <= INTEREST_RADIUS) {
        near.push([e.id === you ? -1 : d, e]);
      }
    }
    near.sort((a, b) => a[0] - b[0]);
    return near
      .slice(0, VIEW_CAP)
      .map(([, e]) => ({ ...e }))
      .sort((a, b) => a.id - b.id);
  }

  /** Every entity as a dot of the live view. */
  dots(): Dot[] {
    return [...this.entities.values()].map((e) => ({ id: e.id, kind: e.kind, x: e.x, y: e.y }));
  }
}
