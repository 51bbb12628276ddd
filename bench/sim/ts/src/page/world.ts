// The world on a canvas: the map's square, a 100 m grid, and every entity of a `Live`
// frame as a dot — players larger and orange, NPCs blue.

import { type Dot, Kind } from "../../gen/sim.js";
import { HALF_MAP } from "../rules.js";

/** The canvas position of map point (`x`, `y`) on a square canvas of `size` pixels (north up). */
export function toCanvas(x: number, y: number, size: number): [number, number] {
  const s = size / (2 * HALF_MAP);
  return [(x + HALF_MAP) * s, (HALF_MAP - y) * s];
}

/** Draws `dots` on `canvas`. */
export function drawWorld(canvas: HTMLCanvasElement, dots: readonly Dot[]): void {
  const ctx = canvas.getContext("2d");
  if (ctx === null) {
    return;
  }
  const size = Math.min(canvas.width, canvas.height);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.strokeStyle = "#eef0f3";
  ctx.lineWidth = 1;
  for (let m = -HALF_MAP; m <= HALF_MAP; m += 100) {
    const [gx] = toCanvas(m, 0, size);
    const [, gy] = toCanvas(0, m, size);
    ctx.beginPath();
    ctx.moveTo(gx, 0);
    ctx.lineTo(gx, size);
    ctx.moveTo(0, gy);
    ctx.lineTo(size, gy);
    ctx.stroke();
  }
  // NPCs first, so players are drawn on top.
  for (const kind of [Kind.Npc, Kind.Player]) {
    ctx.fillStyle = kind === Kind.Player ? "#e8710a" : "#3b6fb6";
    const r = kind === Kind.Player ? 3.5 : 2;
    ctx.beginPath();
    for (const d of dots) {
      if (d.kind === kind) {
        const [cx, cy] = toCanvas(d.x, d.y, size);
        ctx.moveTo(cx + r, cy);
        ctx.arc(cx, cy, r, 0, 2 * Math.PI);
      }
    }
    ctx.fill();
  }
}
