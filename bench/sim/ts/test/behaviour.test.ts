// The players' behaviour (src/behaviour.ts) and the page's pure helpers.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Kind } from "../gen/sim.js";
import { Behaviour, degrees, hotSpots, snapPosition } from "../src/behaviour.js";
import { formatValue, niceCeil } from "../src/page/chart.js";
import { toCanvas } from "../src/page/world.js";
import { SplitMix64 } from "../src/rng.js";

const me = (x: number, y: number) => ({ id: 1, kind: Kind.Player, x, y, yaw: 0, vx: 0, vy: 0, health: 200, anim: 0 });

test("a client's behaviour is reproducible from its index, and clients differ", () => {
  const run = (i: number) => {
    const b = new Behaviour(i);
    return Array.from({ length: 600 }, (_, t) => b.next(me(t / 10, 0)));
  };
  assert.deepEqual(run(3), run(3));
  assert.notDeepEqual(run(3), run(4));
});

test("controls are inside their sim.bw ranges; the player walks at full stick between waypoints, pauses, fires in bursts, stays on the map", () => {
  const b = new Behaviour(3);
  let x = 0;
  let y = 0;
  let [moving, standing, firing] = [0, 0, 0];
  for (let t = 0; t < 60 * 600; t++) {
    const c = b.next({ x, y });
    assert.ok(c.moveX >= -1 && c.moveX <= 1 && c.moveY >= -1 && c.moveY <= 1, `move ${c.moveX}, ${c.moveY}`);
    assert.ok(c.aim >= 0 && c.aim < 360, `aim ${c.aim}`);
    if (c.moveX !== 0 || c.moveY !== 0) {
      moving++;
      assert.ok(Math.abs(Math.hypot(c.moveX, c.moveY) - 1) < 1e-4);
    } else {
      standing++;
    }
    firing += c.fire ? 1 : 0;
    // The server's rule: velocity = move × PLAYER_SPEED, for 1/60 s.
    x += (c.moveX * 6) / 60;
    y += (c.moveY * 6) / 60;
    assert.ok(Math.abs(x) <= 500 && Math.abs(y) <= 500, `(${x}, ${y})`);
  }
  // Ten minutes: mostly walking, some pauses, bursts of fire about a sixth of the time.
  assert.ok(moving > standing * 5 && standing > 0, `${moving} moving, ${standing} standing`);
  assert.ok(firing >= 2000 && firing < 10_000, `${firing} ticks firing`);
  const first = new Behaviour(0).next(undefined);
  assert.deepEqual([first.moveX, first.moveY, first.aim], [0, 0, 0], "no snapshot yet: standing");
});

test("SplitMix64: the published sequence for seed 0, and its ranges", () => {
  const rng = new SplitMix64(0n);
  assert.equal(rng.nextU64(), 0xe220a8397b1dcdafn);
  assert.equal(rng.nextU64(), 0x6e789e6aa1b965f4n);
  const r = new SplitMix64(7n);
  let sum = 0;
  for (let i = 0; i < 10_000; i++) {
    const u = r.unit();
    assert.ok(u >= 0 && u < 1);
    assert.ok(r.below(6) < 6);
    assert.ok(Number.isFinite(r.normal()));
    sum += u;
  }
  assert.ok(Math.abs(sum / 10_000 - 0.5) < 0.02, `mean ${sum / 10_000}`);
});

test("the hot spots: eight grid points inside 70 % of the map, the same every time", () => {
  const hot = hotSpots();
  assert.equal(hot.length, 8);
  assert.deepEqual(hot, hotSpots());
  for (const [x, y] of hot) {
    assert.ok(Math.abs(x) <= 350 && Math.abs(y) <= 350, `(${x}, ${y})`);
    assert.equal(x * 64, Math.round(x * 64));
  }
  assert.deepEqual([snapPosition(0.01), snapPosition(-0.0078125), snapPosition(600)], [0.015625, 0, 512]);
  assert.deepEqual([degrees(-1e-20), degrees(Math.PI / 2), degrees(-Math.PI / 2)], [0, 90, 270]);
});

test("page helpers: the chart's axis maximum and labels, the map's projection", () => {
  assert.deepEqual([0, 0.5, 1, 1.5, 7, 10, 11, 230, 5000].map(niceCeil), [1, 1, 1, 2, 10, 10, 20, 500, 5000]);
  assert.deepEqual([0, 0.1234, 12.345, 1234.5].map(formatValue), ["0", "0.123", "12.3", "1235"]);
  assert.deepEqual(toCanvas(-500, 500, 560), [0, 0]);
  assert.deepEqual(toCanvas(500, -500, 560), [560, 560]);
  assert.deepEqual(toCanvas(0, 0, 560), [280, 280]);
});
