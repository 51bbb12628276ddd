// Checks a run's client results against the server's summary (bench/sim/README.md: "the
// server's `totals` must equal them"): the clients' counters summed over every results
// file equal the server's totals, both ways, and every client process passed.
//
//   node build/test/compare.js SUMMARY.json RESULTS.json...
//
// SUMMARY is `simserver --summary` or the Node test server's (the same `totals`). Prints
// one line; exits 1 on any difference.

import { readFileSync } from "node:fs";
import process from "node:process";
import type { ClientResults } from "../src/client.js";

interface Summary {
  codec: string;
  totals: Record<string, number>;
}

const [summaryFile, ...resultFiles] = process.argv.slice(2);
if (summaryFile === undefined || resultFiles.length === 0) {
  console.error("usage: compare SUMMARY.json RESULTS.json...");
  process.exit(2);
}
const summary = JSON.parse(readFileSync(summaryFile, "utf8")) as Summary;
const results = resultFiles.map((f) => JSON.parse(readFileSync(f, "utf8")) as ClientResults);
const sum = (k: keyof ClientResults): number => results.reduce((n, r) => n + (r[k] as number), 0);
const t = summary.totals;
const pairs: [string, number, number][] = [
  ["joined / connected", t.joined as number, sum("connected")],
  ["snapshots", t.snapshots as number, sum("snapshots")],
  ["snapshot bytes (server out, clients in)", t.bytes_out as number, sum("bytes_in")],
  ["inputs", t.inputs as number, sum("inputs_sent")],
  ["input bytes (server in, clients out)", t.bytes_in as number, sum("bytes_out")],
  ["RTT reports", t.rtt_reports as number, sum("rtt_reports")],
  ["server decode errors", t.decode_errors as number, 0],
  ["clients' decode errors", 0, sum("decode_errors")],
  ["invalid snapshots", 0, sum("invalid")],
];
if (t.rtt_report_sum_us !== undefined) {
  pairs.push(["RTT report sum", t.rtt_report_sum_us, sum("rtt_report_sum_us")]);
}
const problems = pairs.filter(([, a, b]) => a !== b).map(([name, a, b]) => `${name}: server ${a}, clients ${b}`);
for (const r of results) {
  if (r.codec !== summary.codec) {
    problems.push(`${r.runtime} ran codec ${r.codec}, the server ${summary.codec}`);
  }
  if (r.connected !== r.clients || r.rtt_us === null) {
    problems.push(`${r.runtime}: ${r.connected} of ${r.clients} connected, ${r.rtt_us === null ? "no" : "some"} RTT samples`);
  }
}
const runtimes = results.map((r) => `${r.runtime} ${r.connected}`).join(", ");
if (problems.length === 0) {
  console.log(`same counts: ${summary.codec}, ${runtimes} clients: ${sum("snapshots")} snapshots (${sum("bytes_in")} B), ${sum("inputs_sent")} inputs (${sum("bytes_out")} B), ${sum("rtt_reports")} RTT reports`);
} else {
  console.log(`DIFFERENT (${summary.codec}, ${runtimes}):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
