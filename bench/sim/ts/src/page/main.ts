// The simulator's live view (bench/sim/README.md): asks the server where its WebSocket is
// (`/live.json`, or `?ws=URL`), connects with the runtime's standard WebSocket transport
// (one frame per binary message), sends `Watch`, and for every `Live` frame (20 a second)
// draws the world and pushes a point onto each chart: tick and sync time, bytes per client
// per tick out and in, RTT. The latest state is `window.simLive` (for the headless check,
// check-live.mjs).

import { connectWebSocket } from "@bitwire/runtime";
import { type Dot, type Live, type Message, protocol } from "../../gen/sim.js";
import { Chart } from "./chart.js";
import { drawWorld } from "./world.js";

/** What the page shows, as `window.simLive`. */
export interface LiveState {
  status: "connecting" | "watching" | "closed" | "failed";
  url: string;
  /** `Live` frames received. */
  frames: number;
  tick: number;
  codec: string;
  clients: number;
  overruns: number;
  syncUs: number;
  tickUs: number;
  bytesOut: number;
  bytesIn: number;
  rttUs: number;
  dots: Dot[];
  /** Points pushed onto each chart. */
  chartPoints: { time: number; bytes: number; rtt: number };
  error: string | null;
}

declare global {
  interface Window {
    simLive: LiveState;
  }
}

const state: LiveState = {
  status: "connecting",
  url: "",
  frames: 0,
  tick: 0,
  codec: "",
  clients: 0,
  overruns: 0,
  syncUs: 0,
  tickUs: 0,
  bytesOut: 0,
  bytesIn: 0,
  rttUs: 0,
  dots: [],
  chartPoints: { time: 0, bytes: 0, rtt: 0 },
  error: null,
};
window.simLive = state;

function element<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (e === null) {
    throw new Error(`the page has no #${id}`);
  }
  return e as T;
}

const worldCanvas = element<HTMLCanvasElement>("world");
const status = element<HTMLElement>("status");
const charts = {
  time: new Chart(element("chart-time"), "tick and sync time", "µs", [
    { name: "tick", color: "#3b6fb6" },
    { name: "sync", color: "#e8710a" },
  ]),
  bytes: new Chart(element("chart-bytes"), "bytes per client per tick", "B", [
    { name: "out (snapshots)", color: "#2e8b57" },
    { name: "in (inputs)", color: "#8a4fbf" },
  ]),
  rtt: new Chart(element("chart-rtt"), "round-trip time, median reported", "ms", [{ name: "RTT", color: "#b3261e" }]),
};

function showStatus(): void {
  const s = state;
  const head =
    s.status === "watching"
      ? `codec <b>${escapeHtml(s.codec)}</b> · <b>${s.clients}</b> clients · tick <b>${s.tick}</b> · overruns <b${s.overruns > 0 ? ' class="bad"' : ""}>${s.overruns}</b> · ${s.dots.length} entities`
      : s.status;
  status.innerHTML = s.error === null ? head : `${head} · <span class="bad">${escapeHtml(s.error)}</span>`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function onLive(live: Live): void {
  Object.assign(state, {
    frames: state.frames + 1,
    tick: live.tick,
    codec: live.codec,
    clients: live.clients,
    overruns: Number(live.overruns),
    syncUs: live.syncUs,
    tickUs: live.tickUs,
    bytesOut: live.bytesOut,
    bytesIn: live.bytesIn,
    rttUs: live.rttUs,
    dots: live.dots,
  });
  charts.time.push([live.tickUs, live.syncUs]);
  charts.bytes.push([live.bytesOut, live.bytesIn]);
  charts.rtt.push([live.rttUs / 1000]);
  state.chartPoints = { time: charts.time.points, bytes: charts.bytes.points, rtt: charts.rtt.points };
  drawWorld(worldCanvas, live.dots);
  for (const c of Object.values(charts)) {
    c.draw();
  }
  showStatus();
}

/** The WebSocket URL: `?ws=`, else what the server's `/live.json` says. */
async function liveUrl(): Promise<string> {
  const given = new URLSearchParams(location.search).get("ws");
  if (given !== null) {
    return given;
  }
  const res = await fetch("/live.json", { cache: "no-store" });
  if (!res.ok) {
    throw new Error(`/live.json: HTTP ${res.status}`);
  }
  const body = (await res.json()) as { ws?: unknown };
  if (typeof body.ws !== "string") {
    throw new Error("/live.json has no `ws` URL");
  }
  return body.ws;
}

async function main(): Promise<void> {
  for (const c of Object.values(charts)) {
    c.draw();
  }
  drawWorld(worldCanvas, []);
  state.url = await liveUrl();
  const conn = await connectWebSocket<Message>(protocol, state.url, { idleTimeout: 0 });
  conn.send({ kind: "Watch", value: {} });
  state.status = "watching";
  showStatus();
  for await (const m of conn) {
    if (m.kind === "Live") {
      onLive(m.value);
    }
  }
  state.status = "closed";
  showStatus();
}

main().catch((e: unknown) => {
  state.status = "failed";
  state.error = e instanceof Error ? e.message : String(e);
  showStatus();
  console.error(`live view: ${state.error}`);
});
