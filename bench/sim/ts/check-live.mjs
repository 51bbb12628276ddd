// Checks the simulator's live view in headless Chromium while a server runs
// (bench/sim/README.md, "Live view"), saves a screenshot, and prints a one-line verdict;
// exits 1 unless:
//
// - the page connects (`window.simLive.status` "watching") and receives `Live` frames;
// - entities move: some dot's position differs between two observations half a second
//   or more apart, and the world's canvas shows both kinds of dots' colours when the
//   frames have both kinds;
// - every chart got new points between the two observations;
// - the page logs no console error and throws no uncaught exception.
//
//   node check-live.mjs --driver DIR --url http://127.0.0.1:PORT/ --out live.png [--timeout S]
//
// DIR is the browser driver's directory (conformance/projects/browser-driver/install.sh
// prints it; check-live.sh passes it): Chromium is launched by its chromium.mjs, as every
// browser check of the project launches it. The server must serve dist/ (--static).

import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

function options() {
  const args = process.argv.slice(2);
  const out = {};
  for (let i = 0; i < args.length; i += 2) {
    out[args[i].replace(/^--/, "")] = args[i + 1];
  }
  if (out.driver === undefined || out.url === undefined || out.out === undefined) {
    console.error("usage: node check-live.mjs --driver DIR --url http://HOST:PORT/ --out FILE.png [--timeout S]");
    process.exit(2);
  }
  const timeout = Number(out.timeout ?? "60");
  return { driver: resolve(out.driver), url: out.url, out: resolve(out.out), timeoutMs: timeout * 1000 };
}

/** What the page shows now: runs inside the page. */
function observe() {
  const s = window.simLive;
  if (s === undefined) {
    return undefined;
  }
  // Pixels of the players' and NPCs' colours on the world's canvas (world.ts).
  const canvas = document.getElementById("world");
  const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
  let players = 0;
  let npcs = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] === 0xe8 && data[i + 1] === 0x71 && data[i + 2] === 0x0a) {
      players++;
    } else if (data[i] === 0x3b && data[i + 1] === 0x6f && data[i + 2] === 0xb6) {
      npcs++;
    }
  }
  return {
    status: s.status,
    error: s.error,
    frames: s.frames,
    tick: s.tick,
    codec: s.codec,
    clients: s.clients,
    overruns: s.overruns,
    dots: s.dots.map((d) => [d.id, d.kind, d.x, d.y]),
    chartPoints: { ...s.chartPoints },
    pixels: { players, npcs },
  };
}

/** The problems between observations `a` and `b`, and how many dots moved. */
function compare(a, b) {
  const problems = [];
  if (b.status !== "watching") {
    problems.push(`status ${b.status}${b.error === null ? "" : `: ${b.error}`}`);
  }
  const before = new Map(a.dots.map(([id, , x, y]) => [id, [x, y]]));
  let moved = 0;
  for (const [id, , x, y] of b.dots) {
    const p = before.get(id);
    if (p !== undefined && (p[0] !== x || p[1] !== y)) {
      moved++;
    }
  }
  if (b.dots.length === 0) {
    problems.push("no entities");
  } else if (moved === 0) {
    problems.push(`no entity moved between ticks ${a.tick} and ${b.tick}`);
  }
  for (const [chart, n] of Object.entries(b.chartPoints)) {
    if (!(n > a.chartPoints[chart])) {
      problems.push(`chart "${chart}": no new points (${a.chartPoints[chart]} then ${n})`);
    }
  }
  const kinds = new Set(b.dots.map(([, kind]) => kind));
  if (kinds.has("Player") && b.pixels.players === 0) {
    problems.push("players in the frame, none drawn");
  }
  if (kinds.has("Npc") && b.pixels.npcs === 0) {
    problems.push("NPCs in the frame, none drawn");
  }
  return { problems, moved };
}

async function main() {
  const opt = options();
  const timer = setTimeout(() => {
    console.log(`check-live: FAIL: no verdict after ${opt.timeoutMs / 1000} s`);
    process.exit(1);
  }, opt.timeoutMs);
  const { launch, watch } = await import(pathToFileURL(join(opt.driver, "chromium.mjs")).href);
  const browser = await launch();
  const problems = [];
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1160, height: 700 });
    watch(page, problems);
    const response = await page.goto(opt.url, { waitUntil: "load", timeout: opt.timeoutMs / 2 });
    if (response !== null && !response.ok()) {
      problems.push(`loading ${opt.url}: status ${response.status()}`);
    }
    const wait = { timeout: opt.timeoutMs / 4, polling: 50 };
    // A wait that runs out is a problem (the screenshot is still taken).
    const until = async (what, fn, arg) => {
      try {
        await page.waitForFunction(fn, wait, arg);
      } catch (e) {
        problems.push(`${what} within ${wait.timeout / 1000} s (${e?.name ?? e})`);
      }
    };
    await until("no 3 Live frames", () => window.simLive?.frames >= 3 || window.simLive?.status === "failed");
    const a = (await page.evaluate(observe)) ?? { frames: 0, tick: 0, dots: [], chartPoints: { time: 0, bytes: 0, rtt: 0 } };
    // At least half a second later: ten frames at 20 a second.
    await until("no 10 more Live frames", (n) => window.simLive?.frames >= n || window.simLive?.status !== "watching", a.frames + 10);
    await new Promise((ok) => setTimeout(ok, 100));
    const b = await page.evaluate(observe);
    const found = b === undefined ? { problems: ["the page has no window.simLive"], moved: 0 } : compare(a, b);
    problems.push(...found.problems);
    await page.screenshot({ path: opt.out, fullPage: true });
    const version = await browser.version();
    const players = (b?.dots ?? []).filter(([, kind]) => kind === "Player").length;
    if (problems.length === 0) {
      console.log(
        `check-live: ok: ${opt.url}: ${b.codec}, ${b.clients} clients, ${b.frames} Live frames, ${b.dots.length} entities ` +
          `(${players} players), ${found.moved} moved between ticks ${a.tick} and ${b.tick}, charts +${b.chartPoints.time - a.chartPoints.time} points, ` +
          `no console or page errors; screenshot ${opt.out} (${version})`,
      );
    } else {
      for (const p of problems) {
        console.log(`  ${p}`);
      }
      console.log(`check-live: FAIL: ${opt.url}: ${problems.length} problems; screenshot ${opt.out} (${version})`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close();
    clearTimeout(timer);
  }
}

main().catch((e) => {
  console.log(`check-live: FAIL: ${e?.stack ?? e}`);
  process.exit(1);
});
