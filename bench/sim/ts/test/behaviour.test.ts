// The players' behaviour (src/behaviour.ts) and the page's pure helpers.

import assert from "node:assert/strict";
import { test } from "node:test";
import { Kind } from "../gen/sim.js";
import { Behaviour } from "../src/behaviour.js";
import { formatValue, niceCeil } from "../src/page/chart.js";
import { toCanvas } from "../src/page/world.js";
import { Rng } from "../src/rng.js";

const me = (x: number, y: number) => ({ id: 1, kind: Kind.Player, x, y, yaw: 0, vx: 0, vy: 0, health: 200, anim: 0 });

test("a client's behaviour is reproducible from its index, and clients differ", () => {
  const run = (i: number) => {
    const b = new Behaviour(i);
    return Array.from({ length: 600 }, (_, t) => b.next(me(t / 10, 0)));
  };
  assert.deepEqual(run(3), run(3));
  assert.notDeepEqual(run(3), run(4));
});

test("controls are inside their sim.bw ranges; the player walks at full stick towards its waypoint and fires now and then", () => {
  const b = new Behaviour(0);
  let x = 0;
  let y = 0;
  let fired = 0;
  let moving = 0;
  for (let t = 0; t < 60 * 60; t++) {
    const c = b.next(me(x, y));
    assert.ok(c.moveX >= -1 && c.moveX <= 1 && c.moveY >= -1 && c.moveY <= 1, `move ${c.moveX}, ${c.moveY}`);
    assert.ok(c.aim >= 0 && c.aim < 360, `aim ${c.aim}`);
    if (Math.hypot(c.moveX, c.moveY) > 0.99) {
      moving++;
    }
    fired += c.fire ? 1 : 0;
    x += (c.moveX * 6) / 60;
    y += (c.moveY * 6) / 60;
  }
  assert.ok(moving > 3000, `${moving} ticks of 3600 at full stick`);
  assert.ok(fired > 0 && fired < 1800, `${fired} ticks of 3600 firing`);
  // An hour of walking between waypoints stays near the hot spots, on the map.
  assert.ok(Math.hypot(x, y) < 400, `ends at (${x}, ${y})`);
  assert.deepEqual(new Behaviour(0).next(undefined).moveX, 0, "no snapshot yet: standing");
});

test("the generator is uniform enough and reproducible", () => {
  const a = new Rng(42n);
  const b = new Rng(42n);
  let sum = 0;
  for (let i = 0; i < 10_000; i++) {
    const v = a.next();
    assert.equal(v, b.next());
    assert.ok(v >= 0 && v < 1);
    sum += v;
  }
  assert.ok(Math.abs(sum / 10_000 - 0.5) < 0.02, `mean ${sum / 10_000}`);
});

test("page helpers: the chart's axis maximum and labels, the map's projection", () => {
  assert.deepEqual([0, 0.5, 1, 1.5, 7, 10, 11, 230, 5000].map(niceCeil), [1, 1, 1, 2, 10, 10, 20, 500, 5000]);
  assert.deepEqual([0, 0.1234, 12.345, 1234.5].map(formatValue), ["0", "0.123", "12.3", "1235"]);
  assert.deepEqual(toCanvas(-500, 500, 560), [0, 0]);
  assert.deepEqual(toCanvas(500, -500, 560), [560, 560]);
  assert.deepEqual(toCanvas(0, 0, 560), [280, 280]);
});
