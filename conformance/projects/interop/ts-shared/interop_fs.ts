// The interop program of the node, deno and bun projects (conformance/projects/run.py),
// with the file system through node:fs, which all three provide:
//
//   interop_fs PROJECT write DIR   writes DIR/PROJECT.<Message>.bin for every message
//   interop_fs PROJECT read DIR    checks every DIR/<other>.<Message>.bin (lobby_interop.ts)
//
// Prints one line per file; exits non-zero on any mismatch.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

import { check, encode, MESSAGES } from "./lobby_interop.js";

const [project, phase, dir] = process.argv.slice(2);
if (project === undefined || dir === undefined || (phase !== "write" && phase !== "read")) {
  console.error("usage: interop_fs PROJECT write|read DIR");
  process.exit(2);
}

let failed = 0;
if (phase === "write") {
  for (const name of MESSAGES) {
    const file = `${project}.${name}.bin`;
    const bytes = encode(name);
    writeFileSync(join(dir, file), bytes);
    console.log(`${file}: wrote ${bytes.length} bytes`);
  }
} else {
  const others = readdirSync(dir)
    .filter((f) => f.endsWith(".bin") && !f.startsWith(`${project}.`))
    .sort();
  for (const file of others) {
    try {
      console.log(check(file, new Uint8Array(readFileSync(join(dir, file)))));
    } catch (e) {
      failed++;
      console.log(`FAIL ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(`${project}: ${others.length - failed} files read, ${failed} failed`);
}
process.exitCode = failed === 0 ? 0 : 1;
