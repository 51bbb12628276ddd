// A Node arena server for the TypeScript tests (the real servers are Rust and Go), with
// the contract of examples/net/README.md:
//
//   node build/ts/src/server.js --tcp 127.0.0.1:0 --ws 127.0.0.1:0 [--static DIR]
//        [--players N] [--seconds S] [--threshold T]
//
// prints `listening tcp=127.0.0.1:PORT ws=ws://127.0.0.1:PORT/ws`, serves DIR over HTTP
// on the WebSocket port with --static, ticks 20 times a second, and exits 0 after N
// players said Bye or S seconds, printing `served N players (RUNTIMES...)`.

import { readFile } from "node:fs/promises";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import process from "node:process";
import type { Connection, ConnectionOptions } from "@bitwire/runtime";
import { listenTcp } from "@bitwire/runtime/node";
import { listenWs } from "@bitwire/runtime/ws";
import { MAX_PLAYERS, type Message, type Pose, protocol } from "../gen/arena.js";

interface Player {
  id: number;
  runtime: string;
  pose: Pose;
}

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const split = (addr: string): [string, number] => {
  const at = addr.lastIndexOf(":");
  return [addr.slice(0, at), Number(addr.slice(at + 1))];
};

const threshold = flag("threshold");
const options: ConnectionOptions = {
  threshold: threshold === undefined ? null : Number(threshold),
  idleTimeout: 30_000,
  frameTimeout: 5_000,
  maxSendQueue: 1 << 20,
};
const players = new Map<Connection<Message>, Player>();
const served: string[] = [];
let nextId = 0;
let tick = 0;

/** Sends `m` to every joined player; a player whose queue is full is dropped by its connection. */
function broadcast(m: Message): void {
  for (const conn of players.keys()) {
    try {
      conn.send(m);
    } catch {
      players.delete(conn);
    }
  }
}

async function handle(conn: Connection<Message>): Promise<void> {
  try {
    for await (const m of conn) {
      const me = players.get(conn);
      if (m.kind === "Hello" && me === undefined && players.size < MAX_PLAYERS) {
        const id = nextId++ % 1024;
        players.set(conn, { id, runtime: m.value.runtime, pose: { x: 0, y: 0, heading: 0 } });
        conn.send({ kind: "Welcome", value: { player: id, tick } });
      } else if (m.kind === "Move" && me !== undefined) {
        me.pose = m.value.pose;
      } else if (m.kind === "Say" && me !== undefined) {
        broadcast({ kind: "Chat", value: { from: me.id, text: m.value.text } });
      } else if (m.kind === "Bye" && me !== undefined) {
        players.delete(conn);
        served.push(me.runtime);
        await conn.close();
        checkDone();
        return;
      } else {
        conn.abort();
        console.error(`server: ${m.kind} out of turn; closed that connection`);
        return;
      }
    }
  } catch (e) {
    console.error(`server: a connection closed: ${e instanceof Error ? e.message : String(e)}`);
  }
  players.delete(conn);
}

const wanted = flag("players") === undefined ? undefined : Number(flag("players"));
const seconds = Number(flag("seconds") ?? 60);
let finishing = false;

async function finish(): Promise<void> {
  if (finishing) {
    return;
  }
  finishing = true;
  clearInterval(ticker);
  await Promise.all([tcp.close(), ws.close()]);
  http.close();
  console.log(`served ${served.length} players (${served.join(", ")})`);
  process.exit(0);
}

function checkDone(): void {
  if (wanted !== undefined && served.length >= wanted) {
    void finish();
  }
}

const TYPES: Record<string, string> = { ".html": "text/html", ".js": "text/javascript", ".map": "application/json" };
const staticDir = flag("static") === undefined ? undefined : resolve(flag("static") as string);

async function serveStatic(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  const file = normalize(join(staticDir ?? "/nonexistent", path === "/" ? "index.html" : path));
  if (staticDir === undefined || !file.startsWith(staticDir + sep) || req.method !== "GET") {
    res.writeHead(404).end("not found");
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" }).end(body);
  } catch {
    res.writeHead(404).end("not found");
  }
}

const [tcpHost, tcpPort] = split(flag("tcp") ?? "127.0.0.1:0");
const [wsHost, wsPort] = split(flag("ws") ?? "127.0.0.1:0");
const http = createServer((req, res) => void serveStatic(req, res));
await new Promise<void>((ok) => http.listen(wsPort, wsHost, ok));
const tcp = await listenTcp<Message>(protocol, { ...options, host: tcpHost, port: tcpPort }, handle);
const ws = await listenWs<Message>(protocol, { ...options, server: http, path: "/ws" }, handle);
const ticker = setInterval(() => {
  tick++;
  const list = [...players.values()].slice(0, MAX_PLAYERS).map((p) => ({ player: p.id, pose: p.pose }));
  broadcast({ kind: "Positions", value: { tick, players: list } });
}, 50);
setTimeout(() => void finish(), seconds * 1000);
console.log(`listening tcp=${tcpHost}:${tcp.port} ws=ws://${wsHost}:${ws.port}/ws`);
