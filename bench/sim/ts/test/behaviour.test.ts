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

test("the clients' phases spread over the tick period", () => {
  const phases = Array.from({ length: 1000 }, (_, i) => new Behaviour(i).phase);
  assert.ok(phases.every((p) => p >= 0 && p < 1));
  for (let q = 0; q < 4; q++) {
    const n = phases.filter((p) => p >= q / 4 && p < (q + 1) / 4).length;
    assert.ok(n >= 200 && n < 300, `${n} in quarter ${q}`);
  }
});

/** The bits of `v` as an f32, hex. */
function f32Hex(v: number): string {
  const dv = new DataView(new ArrayBuffer(4));
  dv.setFloat32(0, v);
  return dv.getUint32(0).toString(16).padStart(8, "0");
}

test("the Rust client's behaviour, bit for bit: hot spots, phases, and controls along a walk", () => {
  // What bench/sim/rust's world::hot_spots() and client::behaviour::Behaviour gave
  // (printed as f32 bits by a scratch program, 2026-11-26): a walk that starts at
  // (10, -20), stands for 5 ticks, then moves by each tick's controls × 6 m/s / 60 in f32,
  // snapped to 1/64 m (rounding halves away from zero, as Rust's `round`).
  const hot = hotSpots().map(([x, y]) => `${f32Hex(x)} ${f32Hex(y)}`);
  assert.deepEqual(hot, [
    "c3860800 c36b6000",
    "c1b8e000 c3855200",
    "c3a23e00 c370a400",
    "439ffe00 43386800",
    "431df000 c313dc00",
    "c1728000 c33c0400",
    "438f8800 4327dc00",
    "43467c00 c2f2b000",
  ]);
  assert.deepEqual([0, 3, 17].map((i) => new Behaviour(i).phase), [0.11705170834088696, 0.30768478570370783, 0.20716486326374317]);
  const walk = (i: number, ticks: number): Map<number, string> => {
    const b = new Behaviour(i);
    const out = new Map<number, string>();
    const snap = (v: number): number => Math.fround((Math.sign(v) * Math.round(Math.abs(Math.fround(v * 64)))) / 64);
    let [x, y] = [10, -20];
    for (let t = 0; t < ticks; t++) {
      const c = b.next(t < 5 ? undefined : { x, y });
      out.set(t, `${f32Hex(c.moveX)} ${f32Hex(c.moveY)} ${f32Hex(c.aim)} ${c.fire}`);
      x = snap(Math.fround(x + Math.fround(Math.fround(c.moveX * 6) / 60)));
      y = snap(Math.fround(y + Math.fround(Math.fround(c.moveY * 6) / 60)));
    }
    return out;
  };
  const c0 = walk(0, 2001);
  assert.equal(c0.get(4), "00000000 00000000 00000000 false");
  assert.equal(c0.get(5), "3f538d23 3f1028e7 420916a9 false");
  assert.equal(c0.get(6), "3f538de7 3f1027c8 42091572 false");
  assert.equal(c0.get(18), "3f53971d 3f101a42 420906cb true");
  assert.equal(c0.get(100), "3f53d79c 3f0fbb60 4208a016 false");
  assert.equal(c0.get(2000), "3f5655ee 3f0bfc8c 420498dd false");
  const c3 = walk(3, 1001);
  assert.equal(c3.get(5), "bf460ae4 bf22382e 435b5247 false");
  assert.equal(c3.get(1000), "bf45401b bf232e85 435b99b0 false");
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
