// A small live line chart on a canvas: the last `capacity` points of one or more series,
// the y axis from 0 to a round number above the largest value shown, the newest values
// in the legend. Hand-written: the live view needs nothing more.

/** One line of a chart. */
export interface Series {
  readonly name: string;
  readonly color: string;
}

/** 1, 2 or 5 times a power of ten, at least `v` (and at least 1). */
export function niceCeil(v: number): number {
  if (!(v > 1)) {
    return 1;
  }
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) {
    if (m * p >= v) {
      return m * p;
    }
  }
  return 10 * p;
}

/** A chart of `series.length` series sharing an x axis (one point per `push`). */
export class Chart {
  /** Points pushed since the start (not only those shown). */
  points = 0;
  private readonly values: number[][];
  private readonly ctx: CanvasRenderingContext2D;

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly title: string,
    private readonly unit: string,
    private readonly series: readonly Series[],
    private readonly capacity = 200,
  ) {
    const ctx = canvas.getContext("2d");
    if (ctx === null) {
      throw new Error("no 2D canvas context");
    }
    this.ctx = ctx;
    this.values = series.map(() => []);
  }

  /** Adds one point per series (in the series' order). */
  push(values: readonly number[]): void {
    this.values.forEach((line, i) => {
      line.push(values[i] ?? 0);
      if (line.length > this.capacity) {
        line.shift();
      }
    });
    this.points++;
  }

  /** Draws the chart as it is now. */
  draw(): void {
    const { ctx, canvas } = this;
    const w = canvas.width;
    const h = canvas.height;
    const left = 56;
    const right = 8;
    const top = 40;
    const bottom = 14;
    ctx.clearRect(0, 0, w, h);
    let max = 0;
    for (const line of this.values) {
      for (const v of line) {
        max = Math.max(max, v);
      }
    }
    const ymax = niceCeil(max);
    const x = (i: number): number => left + ((w - left - right) * i) / Math.max(this.capacity - 1, 1);
    const y = (v: number): number => top + (h - top - bottom) * (1 - v / ymax);
    ctx.font = "12px system-ui, sans-serif";
    ctx.fillStyle = "#1d2430";
    ctx.fillText(`${this.title} (${this.unit})`, 4, 14);
    ctx.strokeStyle = "#e3e6eb";
    ctx.fillStyle = "#5b6472";
    ctx.lineWidth = 1;
    for (const f of [0, 0.5, 1]) {
      ctx.beginPath();
      ctx.moveTo(left, y(ymax * f));
      ctx.lineTo(w - right, y(ymax * f));
      ctx.stroke();
      ctx.fillText(formatValue(ymax * f), 4, y(ymax * f) + 4);
    }
    let lx = 4;
    this.series.forEach((s, k) => {
      const line = this.values[k] as number[];
      const offset = this.capacity - line.length;
      ctx.strokeStyle = s.color;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      line.forEach((v, i) => (i === 0 ? ctx.moveTo(x(offset + i), y(v)) : ctx.lineTo(x(offset + i), y(v))));
      ctx.stroke();
      const label = `${s.name} ${line.length > 0 ? formatValue(line[line.length - 1] as number) : "–"}`;
      ctx.fillStyle = s.color;
      ctx.fillRect(lx, 24, 10, 3);
      ctx.fillStyle = "#1d2430";
      ctx.fillText(label, lx + 14, 30);
      lx += ctx.measureText(label).width + 30;
    });
  }
}

/** A value with three significant digits at most. */
export function formatValue(v: number): string {
  if (v === 0) {
    return "0";
  }
  return Math.abs(v) >= 100 ? Math.round(v).toString() : Number(v.toPrecision(3)).toString();
}
