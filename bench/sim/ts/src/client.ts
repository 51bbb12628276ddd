// The simulator's TypeScript client (bench/sim/README.md, "simclient"): N clients in one
// process, the same flags, behaviour and `--results` JSON as the Rust `simclient`. One
// source for Node, Bun and Deno; each runtime's entry (node.ts, bun.ts, deno.ts) passes
// how it connects over TCP with the runtime's stream framer.
//
//   client --connect HOST:PORT --codec bitwire|bitwire-delta --clients N
//          [--results FILE] [--timeout S]

import { writeFileSync } from "node:fs";
import process from "node:process";
import type { Connection, ConnectionOptions } from "@bitwire/runtime";
import { type CodecName, clientCodec, isCodecName, CODECS } from "./codec.js";
import type { RawFrame } from "./frames.js";
import { Player, Tally } from "./player.js";
import { type Latency, summarize } from "./stats.js";

/** How a runtime opens a TCP connection of raw frames. */
export type Connect = (host: string, port: number, options: ConnectionOptions) => Promise<Connection<RawFrame>>;

/** The command line. */
export interface Options {
  host: string;
  port: number;
  codec: CodecName;
  clients: number;
  results: string | undefined;
  /** Seconds before the run is an error. */
  timeout: number;
}

/** The usage line. */
export const USAGE = `usage: client --connect HOST:PORT --codec ${CODECS.join("|")} --clients N [--results FILE] [--timeout S]`;

/** The flags in `args` (every flag takes a value); throws an `Error` with the usage for anything else. */
export function parseArgs(args: readonly string[]): Options {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const name = args[i] as string;
    const value = args[i + 1];
    if (!["--connect", "--codec", "--clients", "--results", "--timeout"].includes(name) || value === undefined) {
      throw new Error(`${name === "--cpu" ? "--cpu is not supported (run under taskset)" : `unexpected ${JSON.stringify(name)}`}\n${USAGE}`);
    }
    flags.set(name, value);
  }
  const connect = flags.get("--connect");
  const at = connect?.lastIndexOf(":") ?? -1;
  const port = connect === undefined ? NaN : Number(connect.slice(at + 1));
  if (connect === undefined || at <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`--connect HOST:PORT is required (got ${JSON.stringify(connect ?? null)})\n${USAGE}`);
  }
  const codec = flags.get("--codec") ?? "";
  if (!isCodecName(codec)) {
    throw new Error(`unknown codec ${JSON.stringify(codec)} (one of ${CODECS.join(", ")})\n${USAGE}`);
  }
  const clients = Number(flags.get("--clients"));
  if (!Number.isInteger(clients) || clients < 1) {
    throw new Error(`--clients N (N ≥ 1) is required\n${USAGE}`);
  }
  const timeout = Number(flags.get("--timeout") ?? "120");
  if (!(timeout > 0)) {
    throw new Error(`--timeout S must be a number of seconds above 0\n${USAGE}`);
  }
  return { host: connect.slice(0, at).replace(/^\[(.*)\]$/, "$1"), port, codec, clients, results: flags.get("--results"), timeout };
}

/** A client process's results (bench/sim/rust/src/results.rs `ClientResults`), in its field order. */
export interface ClientResults {
  runtime: string;
  codec: CodecName;
  clients: number;
  connected: number;
  inputs_sent: number;
  bytes_out: number;
  snapshots: number;
  bytes_in: number;
  dropped: number;
  rtt_reports: number;
  rtt_report_sum_us: number;
  rtt_us: Latency | null;
  invalid: number;
  decode_errors: number;
  errors: string[];
  seconds: number;
}

/** What a run returns: the results, and whether it passed (the exit status). */
export interface Outcome {
  results: ClientResults;
  ok: boolean;
}

/**
 * Runs `opt.clients` clients against the server until it closes every connection, or
 * until `opt.timeout` seconds (an error: every connection is aborted).
 */
export async function runClients(runtime: string, connect: Connect, opt: Options): Promise<Outcome> {
  const tally = new Tally();
  const start = performance.now();
  // No idle timeout: the run's own timeout bounds it.
  const options: ConnectionOptions = { idleTimeout: 0 };
  const conns = await Promise.all(
    Array.from({ length: opt.clients }, (_, i) =>
      connect(opt.host, opt.port, options).catch((e: unknown) => {
        tally.error(`client ${i}: ${e instanceof Error ? e.message : String(e)}`);
        return undefined;
      }),
    ),
  );
  const players: Player[] = [];
  conns.forEach((c, i) => {
    if (c !== undefined) {
      players.push(new Player(i, c, clientCodec(opt.codec), tally));
    }
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    tally.error(`timeout: the server had not closed every connection after ${opt.timeout} s`);
    for (const p of players) {
      p.abort(`the client's ${opt.timeout} s timeout`);
    }
  }, opt.timeout * 1000);
  await Promise.all(players.map((p) => p.run()));
  clearTimeout(timer);
  const seconds = (performance.now() - start) / 1000;
  const results: ClientResults = {
    runtime,
    codec: opt.codec,
    clients: opt.clients,
    connected: players.length,
    inputs_sent: tally.inputsSent,
    bytes_out: tally.bytesOut,
    snapshots: tally.snapshots,
    bytes_in: tally.bytesIn,
    dropped: tally.dropped,
    rtt_reports: tally.rttReports,
    rtt_report_sum_us: tally.rttReportSumUs,
    rtt_us: summarize(Float64Array.from(tally.rttNs)) ?? null,
    invalid: tally.invalid,
    decode_errors: tally.decodeErrors,
    errors: tally.errors,
    seconds,
  };
  // As the Rust client's `passed`: every failure of a client leaves an error message.
  const ok = !timedOut && players.length === opt.clients && tally.invalid === 0 && tally.decodeErrors === 0 && tally.errors.length === 0;
  return { results, ok };
}

/** One line about a run, for the terminal. */
export function describeRun(r: ClientResults): string {
  const rtt = r.rtt_us === null ? "no RTT samples" : `RTT p50 ${(r.rtt_us.p50 / 1000).toFixed(2)} ms, p99 ${(r.rtt_us.p99 / 1000).toFixed(2)} ms`;
  return (
    `${r.runtime} ${r.codec}: ${r.connected}/${r.clients} clients, ${r.inputs_sent} inputs (${r.bytes_out} B), ` +
    `${r.snapshots} snapshots (${r.bytes_in} B, ${r.dropped} dropped), ${rtt}, ` +
    `${r.invalid} invalid, ${r.decode_errors} decode errors in ${r.seconds.toFixed(1)} s`
  );
}

/** The program: parses the flags, runs, writes `--results`, exits 0 or 1 (2 for bad usage). */
export async function main(runtime: string, connect: Connect): Promise<void> {
  let opt: Options;
  try {
    opt = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`${runtime} simclient: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  }
  try {
    const { results, ok } = await runClients(runtime, connect, opt);
    if (opt.results !== undefined) {
      writeFileSync(opt.results, `${JSON.stringify(results, null, 2)}\n`);
    }
    console.log(describeRun(results));
    for (const e of results.errors) {
      console.error(`  ${e}`);
    }
    process.exit(ok ? 0 : 1);
  } catch (e) {
    console.error(`${runtime} simclient: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    process.exit(1);
  }
}
