// Unit tests of the runtime's primitives (the conformance runner covers them through
// generated code). Exits non-zero on failure, on any of Node, Bun and Deno.

import "./bits.test.js";
import "./values.test.js";
import "./json.test.js";
import "./frame.test.js";
import "./delta.test.js";
import "./baseline.test.js";
import "./bincode.test.js";
import "./bincode_lanes.test.js";
import { run } from "./check.js";

declare const process: { exitCode?: number } | undefined;

const failed = run();
if (failed > 0) {
  // `process` exists on Node, Bun and Deno; browsers have nothing to report to.
  if (typeof process !== "undefined") {
    process.exitCode = 1;
  }
  throw new Error(`${failed} runtime tests failed`);
}
