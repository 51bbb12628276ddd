// Checks of the shared server logic that need no socket (test.sh runs it on Node):
// the raw echo's frame counter on frames split at every step, and the command line.

import process from "node:process";
import { encodeFrame } from "../gen/netbench.js";
import { FrameCounter, parseArgs } from "./server.js";

let failures = 0;
function check(ok: boolean, what: string): void {
  if (!ok) {
    failures++;
    console.error(`selftest: FAIL ${what}`);
  }
}

// Frames with Lengths of 1, 2 and 3 bytes (a Length of 0 counts as a frame too).
const frames = [
  Uint8Array.of(0x00),
  encodeFrame({ kind: "Ping", value: { seq: 1, data: new Uint8Array(2) } }),
  encodeFrame({ kind: "Ping", value: { seq: 2, data: new Uint8Array(120) } }),
  encodeFrame({ kind: "Pong", value: { seq: 3, data: new Uint8Array(1024) } }),
  Uint8Array.of(0x80, 0x80, 0x01, ...new Uint8Array(16384)),
];
const stream = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
frames.reduce((at, f) => (stream.set(f, at), at + f.length), 0);
for (const step of [1, 2, 3, 7, 4096, stream.length]) {
  const counter = new FrameCounter();
  let counted = 0;
  for (let at = 0; at < stream.length; at += step) {
    counted += counter.scan(stream.subarray(at, at + step));
  }
  check(counted === frames.length && !counter.inFrame, `frame counter in steps of ${step}: ${counted} frames`);
}

const s = parseArgs(["--addr", "127.0.0.1:0", "--shape", "raw"], ["bitwire", "raw"]);
check(s.host === "127.0.0.1" && s.port === 0 && s.shape === "raw", `parseArgs: ${JSON.stringify(s)}`);
check(parseArgs([], ["bitwire", "raw"]).shape === "bitwire", "parseArgs: the default shape");
for (const bad of [["--shape", "bent"], ["--addr", "nohost"], ["--addr", "h:99999"], ["--addr"], ["--port", "1"]]) {
  let threw = false;
  try {
    parseArgs(bad, ["bitwire", "raw"]);
  } catch {
    threw = true;
  }
  check(threw, `parseArgs refuses ${bad.join(" ")}`);
}

console.log(`selftest: ${failures === 0 ? "ok" : `${failures} failed`}`);
process.exit(failures === 0 ? 0 : 1);
