// A small simulator server on Node for the TypeScript side's own tests (test.sh and
// test/*.test.ts), speaking simserver's protocol (bench/sim/README.md): raw frames over
// TCP with either client codec, `/live.json` and the page's files over HTTP, `Live` over
// WebSocket. It is not the simulator (the Rust `simserver` is); it exists so the client
// and the page can be tested without it, and faults can be injected.
//
//   node build/test/server.js --codec bitwire|bitwire-delta [--clients N] [--seconds S]
//        [--npcs N] [--static DIR] [--summary FILE] [--fault teleport|garbage|unknown-id]
//
// Its life is simserver's: prints `listening tcp=HOST:PORT http=http://HOST:PORT
// ws=ws://HOST:PORT/` and ticks at 60 Hz; with --seconds, once N clients (default 1) are
// connected it runs S seconds, then half-closes every game connection, waits for the
// clients to close theirs and prints `done`. It serves HTTP until stdin ends (or
// SIGTERM; without --seconds it ticks until then), then writes --summary (`codec`,
// `clients`, `totals`: simserver's counters, plus `rtt_report_sum_us`), prints
// `totals {...}` and exits 0.

import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import process from "node:process";
import { type Connection, SnapshotSender } from "@bitwire/runtime";
import { listenTcp } from "@bitwire/runtime/node";
import { listenWs } from "@bitwire/runtime/ws";
import { type Message, SNAPSHOT_MESSAGE_ID, type Snapshot, decodeInput, encodeSnapshot, protocol, snapshotDeltaCodec } from "../gen/sim.js";
import { isCodecName } from "../src/codec.js";
import { type RawFrame, frameBytes, rawProtocol } from "../src/frames.js";
import { TICK_MS } from "../src/rules.js";
import { World } from "./world.js";

function flag(name: string, fallback?: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
}

const codec = flag("codec", "bitwire") as string;
if (!isCodecName(codec)) {
  console.error(`server: unknown codec ${codec}`);
  process.exit(2);
}
const seconds = flag("seconds") === undefined ? undefined : Number(flag("seconds"));
const expected = Number(flag("clients", "1"));
const world = new World(Number(flag("npcs", "64")));
const fault = flag("fault");
world.fault = fault;
/** simserver's `totals` (results.rs `Totals`), and the sum of the reported RTTs. */
const totals = {
  ticks: 0,
  overruns: 0,
  snapshots: 0,
  bytes_out: 0,
  inputs: 0,
  bytes_in: 0,
  rtt_reports: 0,
  decode_errors: 0,
  dropped_clients: 0,
  joined: 0,
  rtt_report_sum_us: 0,
};

/** One game connection: its player, its newest input, its codec's sender. */
interface Client {
  readonly conn: Connection<RawFrame>;
  readonly you: number;
  readonly sender: SnapshotSender<Snapshot> | undefined;
  inputSeq: number;
}
const clients = new Set<Client>();

const tcp = await listenTcp(rawProtocol, { port: 0, idleTimeout: 0 }, async (conn) => {
  const c: Client = { conn, you: world.addPlayer(), sender: codec === "bitwire-delta" ? new SnapshotSender(snapshotDeltaCodec) : undefined, inputSeq: 0 };
  clients.add(c);
  totals.joined++;
  try {
    for await (const f of conn) {
      const input = decodeInput(f.data);
      totals.inputs++;
      totals.bytes_in += frameBytes(f.id, f.data.length);
      if (input.rttUs !== null) {
        totals.rtt_reports++;
        totals.rtt_report_sum_us += input.rttUs;
      }
      world.applyInput(c.you, input);
      c.inputSeq = input.seq;
      try {
        c.sender?.ack(input.ack);
      } catch {
        // AckNotSent: the client's 0 before its first snapshot, before any was sent.
      }
    }
  } catch {
    totals.decode_errors++;
  } finally {
    clients.delete(c);
    world.removePlayer(c.you);
  }
});

const watchers = new Set<Connection<Message>>();
const ws = await listenWs(protocol, { port: 0, idleTimeout: 0 }, async (conn) => {
  for await (const m of conn) {
    if (m.kind === "Watch") {
      watchers.add(conn);
    }
  }
  watchers.delete(conn);
});

const root = flag("static") === undefined ? undefined : resolve(flag("static") as string);
const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".map": "application/json" };
const http = createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
  if (path === "/live.json") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ws: `ws://127.0.0.1:${ws.port}/` }));
    return;
  }
  const file = root === undefined ? undefined : normalize(join(root, path === "/" ? "index.html" : path));
  try {
    if (file === undefined || root === undefined || !file.startsWith(root + sep)) {
      throw new Error("not served");
    }
    const body = readFileSync(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end("not found");
  }
});
await new Promise<void>((ok) => http.listen(0, "127.0.0.1", ok));
const httpPort = (http.address() as { port: number }).port;
console.log(`listening tcp=127.0.0.1:${tcp.port} http=http://127.0.0.1:${httpPort} ws=ws://127.0.0.1:${ws.port}/`);

/** The Data of client `c`'s snapshot this tick. */
function snapshotData(c: Client): Uint8Array {
  const snapshot: Snapshot = { tick: world.tick, inputSeq: c.inputSeq, you: c.you, entities: world.view(c.you) };
  if (fault === "garbage" && world.tick === 20) {
    return new Uint8Array([0xff, 0xff]);
  }
  return c.sender === undefined ? encodeSnapshot(snapshot).slice() : c.sender.encode(snapshot).bytes;
}

let windowEnd: number | undefined;
let syncUs = 0;
let tickUs = 0;
function tick(): void {
  const t0 = performance.now();
  world.step();
  totals.ticks++;
  const t1 = performance.now();
  for (const c of clients) {
    const data = snapshotData(c);
    const id = fault === "unknown-id" && world.tick === 20 ? 9 : SNAPSHOT_MESSAGE_ID;
    c.conn.send({ id, data, at: 0 });
    totals.snapshots++;
    totals.bytes_out += frameBytes(id, data.length);
  }
  const t2 = performance.now();
  syncUs = Math.round((t2 - t1) * 1000);
  tickUs = Math.round((t2 - t0) * 1000);
  if (world.tick % 3 === 0) {
    const n = Math.max(clients.size, 1);
    const live: Message = {
      kind: "Live",
      value: {
        tick: world.tick,
        codec,
        clients: clients.size,
        syncUs,
        tickUs,
        bytesOut: totals.bytes_out / totals.ticks / n,
        bytesIn: totals.bytes_in / totals.ticks / n,
        rttUs: totals.rtt_reports === 0 ? 0 : Math.round(totals.rtt_report_sum_us / totals.rtt_reports),
        overruns: 0n,
        dots: world.dots(),
      },
    };
    for (const w of watchers) {
      w.send(live);
    }
  }
  if (windowEnd === undefined && seconds !== undefined && clients.size >= expected) {
    windowEnd = world.tick + Math.round(seconds / (TICK_MS / 1000));
  }
  if (windowEnd !== undefined && world.tick >= windowEnd) {
    void endGames().then(() => console.log("done"));
    return;
  }
  timer = setTimeout(tick, TICK_MS);
}
let timer = setTimeout(tick, TICK_MS);

/** Stops ticking, half-closes every game connection and waits (at most 5 s) for each to end. */
let ended: Promise<void> | undefined;
function endGames(): Promise<void> {
  ended ??= (async () => {
    clearTimeout(timer);
    await Promise.all([...tcp.connections].map((c) => c.close()));
    // Each connection's reader counts what it read before it lets its client go.
    for (let i = 0; i < 100 && clients.size > 0; i++) {
      await new Promise((ok) => setTimeout(ok, 50));
    }
  })();
  return ended;
}

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) {
    return;
  }
  stopping = true;
  await endGames();
  const summaryFile = flag("summary");
  if (summaryFile !== undefined) {
    writeFileSync(summaryFile, `${JSON.stringify({ codec, clients: expected, totals }, null, 2)}\n`);
  }
  console.log(`totals ${JSON.stringify(totals)}`);
  http.closeAllConnections();
  await Promise.all([ws.close(), tcp.close(), new Promise<void>((ok) => http.close(() => ok()))]);
  process.exit(0);
}
process.stdin.on("end", () => void stop());
process.stdin.resume();
process.on("SIGTERM", () => void stop());
