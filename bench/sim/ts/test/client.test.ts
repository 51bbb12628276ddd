// The client (src/client.ts) end to end over 127.0.0.1 against the Node test server
// (test/server.ts, a child process): its counters equal what the server counted, its
// results have the shape of results.rs's ClientResults, and it notices what a bad
// server does (a teleport, a snapshot that does not decode, an unknown frame, a server
// that never ends, no server at all). Every wait is bounded.

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { connectTcp } from "@bitwire/runtime/node";
import { type ClientResults, type Connect, type Options, parseArgs, runClients } from "../src/client.js";
import type { CodecName } from "../src/codec.js";
import { rawProtocol } from "../src/frames.js";

const SERVER = fileURLToPath(new URL("./server.js", import.meta.url));
const connect: Connect = (host, port, options) => connectTcp(rawProtocol, { ...options, host, port });

interface Served {
  child: ChildProcess;
  port: number;
  /** The server's `totals` line, once it exits. */
  totals: Promise<Record<string, number>>;
}

/** Starts the test server with `args` and waits (at most 10 s) for its listening line. */
function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [SERVER, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  process.on("exit", () => child.kill());
  let out = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 10_000);
    const totals = new Promise<Record<string, number>>((ok, fail) => {
      child.on("exit", () => {
        const line = /^totals (.*)$/m.exec(out);
        if (line === null) {
          fail(new Error(`the server printed no totals: ${out}`));
        } else {
          ok(JSON.parse(line[1] as string) as Record<string, number>);
        }
      });
    });
    totals.catch(() => {});
    child.stdout?.on("data", (b: Buffer) => {
      out += b.toString();
      const m = /tcp=127\.0\.0\.1:(\d+)/.exec(out);
      if (m !== null) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]), totals });
      }
    });
  });
}

const options = (codec: CodecName, port: number, clients: number, timeout = 30): Options => ({ host: "127.0.0.1", port, codec, clients, results: undefined, timeout });

/** Runs `clients` clients against a server run with `args`, then ends the server's stdin (it stops). */
async function session(codec: CodecName, clients: number, args: string[], timeout = 30): Promise<{ results: ClientResults; ok: boolean; served: Served }> {
  const served = await serve(["--codec", codec, "--clients", String(clients), ...args]);
  try {
    const { results, ok } = await runClients("node", connect, options(codec, served.port, clients, timeout));
    return { results, ok, served };
  } finally {
    served.child.stdin?.end();
  }
}

const RESULT_KEYS = [
  "runtime",
  "codec",
  "clients",
  "connected",
  "inputs_sent",
  "bytes_out",
  "snapshots",
  "bytes_in",
  "dropped",
  "rtt_reports",
  "rtt_report_sum_us",
  "rtt_us",
  "invalid",
  "decode_errors",
  "errors",
  "seconds",
];

for (const codec of ["bitwire", "bitwire-delta"] as const) {
  test(`${codec}: a whole run, the client's counts equal the server's`, { timeout: 30_000 }, async () => {
    const { results: r, ok, served } = await session(codec, 3, ["--seconds", "1.5"]);
    const t = await served.totals;
    assert.deepEqual(r.errors, []);
    assert.ok(ok);
    assert.deepEqual(Object.keys(r), RESULT_KEYS);
    assert.deepEqual([r.runtime, r.codec, r.clients, r.connected], ["node", codec, 3, 3]);
    assert.deepEqual(
      [r.snapshots, r.bytes_in, r.inputs_sent, r.bytes_out, r.rtt_reports, r.rtt_report_sum_us, r.invalid, r.decode_errors, r.dropped],
      [t.snapshots, t.bytes_out, t.inputs, t.bytes_in, t.rtt_reports, t.rtt_report_sum_us, 0, 0, 0],
    );
    assert.ok(r.snapshots >= 3 * 60, `${r.snapshots} snapshots`);
    assert.ok(r.rtt_reports > 0);
    assert.ok(r.rtt_us !== null && r.rtt_us.cdf.length === 100 && r.rtt_us.p50 > 0);
    assert.ok(r.seconds > 1);
  });
}

test("a teleport (an NPC moving 50 m in a tick) is an invalid snapshot", { timeout: 30_000 }, async () => {
  const { results: r, ok } = await session("bitwire", 1, ["--seconds", "1", "--fault", "teleport"]);
  assert.equal(ok, false);
  assert.ok(r.invalid > 0);
  assert.match(r.errors.join("\n"), /continuity: entity \d+ moved/);
});

for (const codec of ["bitwire", "bitwire-delta"] as const) {
  test(`${codec}: a snapshot that does not decode is a decode error, and the client goes on`, { timeout: 30_000 }, async () => {
    const { results: r, ok, served } = await session(codec, 1, ["--seconds", "1", "--fault", "garbage"]);
    assert.equal(ok, false);
    assert.equal(r.decode_errors, 1);
    assert.equal(r.invalid, 0);
    assert.match(r.errors[0] ?? "", new RegExp(`${codec}: `));
    assert.equal(r.snapshots, (await served.totals).snapshots);
  });
}

test("a frame with another PacketID is a decode error", { timeout: 30_000 }, async () => {
  const { results: r, ok } = await session("bitwire", 1, ["--seconds", "1", "--fault", "unknown-id"]);
  assert.equal(ok, false);
  assert.equal(r.decode_errors, 1);
  assert.match(r.errors[0] ?? "", /PacketID 9/);
});

test("a server that never closes: the timeout ends the run as an error", { timeout: 30_000 }, async () => {
  const { results: r, ok } = await session("bitwire", 2, [], 1);
  assert.equal(ok, false);
  assert.equal(r.connected, 2);
  assert.ok(r.snapshots > 0);
  assert.match(r.errors.join("\n"), /timeout/);
  assert.ok(r.seconds >= 1 && r.seconds < 10);
});

test("no server: nothing connects, the run fails", { timeout: 30_000 }, async () => {
  // A port that was free a moment ago.
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", ok));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((ok) => probe.close(() => ok()));
  const { results: r, ok } = await runClients("node", connect, options("bitwire", port, 2, 5));
  assert.equal(ok, false);
  assert.equal(r.connected, 0);
  assert.equal(r.errors.length, 2);
  assert.equal(r.rtt_us, null);
});

test("flags: the simclient's, with errors that say what is wrong", () => {
  const o = parseArgs(["--connect", "127.0.0.1:4000", "--codec", "bitwire-delta", "--clients", "10", "--results", "r.json"]);
  assert.deepEqual(o, { host: "127.0.0.1", port: 4000, codec: "bitwire-delta", clients: 10, results: "r.json", timeout: 120 });
  assert.equal(parseArgs(["--connect", "[::1]:5", "--codec", "bitwire", "--clients", "1", "--timeout", "2.5"]).host, "::1");
  const bad: [string[], RegExp][] = [
    [["--codec", "bitwire", "--clients", "1"], /--connect/],
    [["--connect", "h:0", "--codec", "bitwire", "--clients", "1"], /--connect/],
    [["--connect", "h:1", "--codec", "bitcode", "--clients", "1"], /unknown codec "bitcode"/],
    [["--connect", "h:1", "--codec", "bitwire", "--clients", "0"], /--clients/],
    [["--connect", "h:1", "--codec", "bitwire", "--clients", "1", "--cpu", "1"], /--cpu is not supported/],
    [["--connect", "h:1", "--codec", "bitwire", "--clients", "1", "--timeout", "0"], /--timeout/],
    [["--connect", "h:1", "--codec", "bitwire", "--clients"], /unexpected/],
  ];
  for (const [args, re] of bad) {
    assert.throws(() => parseArgs(args), re, args.join(" "));
  }
});
