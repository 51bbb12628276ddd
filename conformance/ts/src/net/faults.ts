// The faults of issue 12 §5 against a Node TCP server (`listenTcp`): every malformed
// class of the frame vectors closes that one connection with its typed error while the
// server goes on serving; a connection cut mid-frame; a peer that never reads (the send
// queue stays bounded and the connection is closed); slow-loris and idle peers (frame
// and idle timeouts); and 50 hostile connections next to 10 good clients that must lose
// and reorder nothing, with the process's memory bounded.

import { readFileSync } from "node:fs";
import { type Socket, createConnection } from "node:net";
import { join } from "node:path";
import { type CloseReason, type Connection, type ConnectionOptions, encodeFrame } from "@bitwire/runtime";
import { connectTcp, listenTcp } from "@bitwire/runtime/node";
import { type Message, encodeFrame as frameOf, protocol } from "../../gen/frames.js";
import { unhex } from "../util.js";
import { echo } from "./echo.js";
import { check, sleep, test, within } from "./harness.js";
import { message, rng, show } from "./messages.js";

interface VectorCase {
  id: string;
  threshold: number | null;
  max_frame: number;
  max_data: number;
  transport?: string;
  stream?: string;
  end?: "clean" | { kind: string; offset: number };
}

/** A server whose connections report how they ended; `handler` defaults to echo. */
async function server(opts: ConnectionOptions, handler: (c: Connection<Message>) => Promise<void> = echo) {
  const reasons: CloseReason[] = [];
  const srv = await listenTcp<Message>(protocol, { ...opts, port: 0 }, async (conn) => {
    void conn.closed.then((r) => reasons.push(r));
    try {
      await handler(conn);
    } catch {
      // The reason is in `closed`.
    }
  });
  return { srv, reasons };
}

/** A raw client socket that resolves once the server closed it. */
function raw(port: number): { socket: Socket; closed: Promise<void> } {
  const socket = createConnection({ host: "127.0.0.1", port });
  socket.on("error", () => {});
  socket.resume();
  return { socket, closed: new Promise((ok) => socket.on("close", () => ok())) };
}

/** A good client's round trip through an echo server: `n` messages back in order. */
async function goodClient(port: number, seed: number, n: number, opts: ConnectionOptions): Promise<void> {
  const conn = await connectTcp(protocol, { ...opts, port });
  const next = rng(seed);
  const sent: string[] = [];
  for (let i = 0; i < n; i++) {
    const m = message(next, i, 800);
    sent.push(show(m));
    conn.send(m);
    if (i % 20 === 19) {
      await sleep(1);
    }
  }
  for (let i = 0; i < n; i++) {
    const got = await conn.recv();
    if (got === undefined || show(got) !== sent[i]) {
      throw new Error(`good client ${seed}: message ${i} is ${got === undefined ? "missing" : show(got).slice(0, 50)}`);
    }
  }
  await conn.close();
}

/** Bytes in use by the process: heap and array buffers, after a collection when possible. */
function memory(): number {
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

export function faultTests(vectorsDir: string): void {
  const doc = JSON.parse(readFileSync(join(vectorsDir, "frames", "frames.json"), "utf8")) as { cases: VectorCase[] };
  const malformed = doc.cases.filter((c) => c.transport !== "websocket" && c.stream !== undefined && c.end !== undefined && c.end !== "clean");

  test(`every malformed stream of the vectors (${malformed.length}) closes its connection with its error; the server goes on`, async () => {
    for (const c of malformed) {
      const end = c.end as { kind: string; offset: number };
      const { srv, reasons } = await server({ threshold: c.threshold, maxFrame: c.max_frame, maxData: c.max_data });
      try {
        const client = raw(srv.port);
        // Truncated streams end where the vector ends: the client half-closes.
        client.socket.end(unhex(c.stream ?? ""));
        await within(client.closed, 5000, `${c.id}: the server closing`);
        await within((async () => { while (reasons.length === 0) await sleep(5); })(), 5000, `${c.id}: the reason`);
        const r = reasons[0] as { kind?: string; offset?: number } | undefined;
        check(r?.kind === end.kind && r.offset === end.offset, `${c.id}: closed with ${r?.kind}@${r?.offset}, expected ${end.kind}@${end.offset}`);
        await goodClient(srv.port, 1, 10, { threshold: c.threshold, maxFrame: c.max_frame, maxData: c.max_data });
      } finally {
        await srv.close();
      }
    }
  }, 60_000);

  test("a connection reset in the middle of a frame closes that connection only", async () => {
    const { srv, reasons } = await server({});
    try {
      const client = raw(srv.port);
      client.socket.write(unhex("0901a52b"));
      await sleep(50);
      client.socket.resetAndDestroy();
      await within((async () => { while (reasons.length === 0) await sleep(5); })(), 5000, "the reason");
      const r = reasons[0] as { kind?: string } | undefined;
      check(r?.kind === "Io" || r?.kind === "Truncated", `closed with ${r?.kind}`);
      await goodClient(srv.port, 2, 20, {});
    } finally {
      await srv.close();
    }
  });

  test("a peer that never reads: the send queue stays under maxSendQueue and the connection closes", async () => {
    const maxSendQueue = 1 << 20;
    let peak = 0;
    const big: Message = { kind: "Chat", value: { from: 1, text: "x".repeat(60_000) } };
    const { srv, reasons } = await server({ maxSendQueue }, async (conn) => {
      for (let i = 0; i < 100_000; i++) {
        conn.send(big); // throws SendQueueFull once the peer has not read for long enough
        peak = Math.max(peak, conn.queued);
        if (i % 8 === 7) {
          await sleep(1);
        }
      }
    });
    try {
      const socket = createConnection({ host: "127.0.0.1", port: srv.port });
      socket.on("error", () => {});
      socket.pause(); // never reads
      await within((async () => { while (reasons.length === 0) await sleep(10); })(), 15_000, "the server giving up");
      const r = reasons[0] as { kind?: string } | undefined;
      check(r?.kind === "SendQueueFull", `closed with ${r?.kind}`);
      check(peak <= maxSendQueue, `queued ${peak} bytes, more than ${maxSendQueue}`);
      socket.destroy();
    } finally {
      await srv.close();
    }
  });

  test("slow-loris: a frame sent a byte at a time is cut at frameTimeout, before idleTimeout", async () => {
    const { srv, reasons } = await server({ frameTimeout: 300, idleTimeout: 2000 });
    try {
      const client = raw(srv.port);
      const frame = frameOf({ kind: "Chat", value: { from: 1, text: "slow ".repeat(20) } });
      const start = Date.now();
      for (let i = 0; i < frame.length && reasons.length === 0; i++) {
        client.socket.write(frame.subarray(i, i + 1));
        await sleep(50);
      }
      await within(client.closed, 5000, "the server closing");
      await within((async () => { while (reasons.length === 0) await sleep(5); })(), 5000, "the reason");
      const r = reasons[0] as { kind?: string } | undefined;
      check(r?.kind === "FrameTimeout", `closed with ${r?.kind}`);
      check(Date.now() - start < 1500, `took ${Date.now() - start} ms`);
    } finally {
      await srv.close();
    }
  });

  test("an idle peer is closed at idleTimeout", async () => {
    const { srv, reasons } = await server({ idleTimeout: 300 });
    try {
      const client = raw(srv.port);
      const start = Date.now();
      await within(client.closed, 5000, "the server closing");
      await within((async () => { while (reasons.length === 0) await sleep(5); })(), 5000, "the reason");
      const r = reasons[0] as { kind?: string } | undefined;
      check(r?.kind === "IdleTimeout", `closed with ${r?.kind}`);
      check(Date.now() - start >= 250, `closed after ${Date.now() - start} ms`);
    } finally {
      await srv.close();
    }
  });

  test("50 hostile connections and 10 good clients: the good ones lose and reorder nothing, memory stays bounded", async () => {
    const opts: ConnectionOptions = { threshold: 64, frameTimeout: 1000, idleTimeout: 3000, maxSendQueue: 1 << 20 };
    const { srv, reasons } = await server(opts);
    const before = memory();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers);
    }, 20);
    try {
      const next = rng(77);
      const hostile: Promise<void>[] = [];
      for (let h = 0; h < 50; h++) {
        hostile.push(attack(srv.port, h, next));
      }
      const good = Array.from({ length: 10 }, (_, g) => goodClient(srv.port, 100 + g, 300, opts));
      await within(Promise.all(good), 30_000, "the good clients");
      await within(Promise.all(hostile), 30_000, "the hostile connections closing");
      await within((async () => { while (reasons.length < 60) await sleep(10); })(), 10_000, "every connection closing");
      const failures = reasons.filter((r) => r !== undefined);
      check(failures.length >= 45, `only ${failures.length} hostile connections were closed with an error`);
    } finally {
      clearInterval(sampler);
      await srv.close();
    }
    const growth = peak - before;
    console.log(`  memory: ${(before / 1e6).toFixed(1)} MB before, peak ${(peak / 1e6).toFixed(1)} MB (+${(growth / 1e6).toFixed(1)} MB)`);
    // 60 connections × (a frame being read, 2 MiB at most, + a 1 MiB send queue) bounds it; in practice far less.
    check(growth < 200e6, `memory grew by ${growth} bytes`);
  }, 60_000);
}

/** One hostile connection of kind `h % 6`; resolves once the server has closed it. */
async function attack(port: number, h: number, next: () => number): Promise<void> {
  const c = raw(port);
  const s = c.socket;
  const junk = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(next() * 256));
  switch (h % 6) {
    case 0: // random bytes
      s.write(junk(200 + Math.floor(next() * 2000)));
      break;
    case 1: // a huge frame announced, then dribbled
      s.write(unhex("ffff7f"));
      for (let i = 0; i < 30 && !s.destroyed; i++) {
        s.write(junk(10));
        await sleep(100);
      }
      break;
    case 2: // a length that never ends
      s.write(unhex("ffffff"));
      break;
    case 3: // good frames, then garbage
      s.write(encodeFrame(1, unhex("a52bca0e4b40e204")));
      s.write(unhex("0a6301a52bca0e4b40e204"));
      break;
    case 4: // a compressed frame that inflates past its DataLength
      s.write(unhex("1081808004789c6360a00c000000400001"));
      break;
    default: // floods with valid messages and never reads the echoes
      s.pause();
      for (let i = 0; i < 400 && !s.destroyed; i++) {
        s.write(encodeFrame(2, new Uint8Array(8000), { threshold: 64 }));
        if (i % 20 === 19) {
          await sleep(5);
        }
      }
      break;
  }
  await within(c.closed, 20_000, `hostile connection ${h}`);
}

/** WebSocket faults against the `ws` server: the rules of docs/framing.md §5. */
export function wsFaultTests(): void {
  const cases: [string, (ws: import("ws").WebSocket) => void, string, number][] = [
    ["a text message closes with Protocol (1003)", (ws) => ws.send("hello"), "Protocol", 1003],
    ["a message above maxFrame + 3 bytes is refused (1009) before it is buffered", (ws) => ws.send(new Uint8Array(1024 + 4)), "Protocol", 1009],
    ["two frames in one message: TrailingBytes (1008)", (ws) => ws.send(unhex("0100" + "0100")), "TrailingBytes", 1008],
    ["half a frame: Truncated (1008)", (ws) => ws.send(unhex("0901a52b")), "Truncated", 1008],
    ["an unknown message id: UnknownMessage (1008)", (ws) => ws.send(unhex("0a6301a52bca0e4b40e204")), "UnknownMessage", 1008],
  ];
  for (const [name, attack, kind, wantCode] of cases) {
    test(`WebSocket: ${name}`, async () => {
      const { listenWs } = await import("@bitwire/runtime/ws");
      const { WebSocket } = await import("ws");
      const reasons: CloseReason[] = [];
      const srv = await listenWs<Message>(protocol, { port: 0, maxFrame: 1024 }, async (conn) => {
        void conn.closed.then((r) => reasons.push(r));
        await echo(conn).catch(() => {});
      });
      try {
        const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/`);
        ws.on("error", () => {});
        await new Promise((ok) => ws.once("open", ok));
        const closed = new Promise<number>((ok) => ws.once("close", (code: number) => ok(code)));
        attack(ws);
        const code = await within(closed, 5000, "the server closing");
        await within((async () => { while (reasons.length === 0) await sleep(5); })(), 5000, "the reason");
        const r = reasons[0] as { kind?: string } | undefined;
        check(r?.kind === kind, `closed with ${r?.kind} (WebSocket code ${code}), expected ${kind}`);
        check(code === wantCode, `WebSocket close code ${code}, expected ${wantCode}`);
      } finally {
        await srv.close();
      }
    });
  }

  test("sending a message too large for maxFrame throws FrameTooLarge and keeps the connection", async () => {
    const { srv } = await server({ maxFrame: 1024 });
    try {
      const conn = await connectTcp(protocol, { port: srv.port, maxFrame: 1024 });
      let kind = "";
      try {
        conn.send({ kind: "Chat", value: { from: 1, text: "x".repeat(2000) } });
      } catch (e) {
        kind = (e as { kind?: string }).kind ?? String(e);
      }
      check(kind === "FrameTooLarge", `threw ${kind}`);
      conn.send({ kind: "Ping", value: {} });
      const back = await within(conn.recv(), 5000, "the echo");
      check(back?.kind === "Ping", "the connection still works");
      await conn.close();
    } finally {
      await srv.close();
    }
  });
}
