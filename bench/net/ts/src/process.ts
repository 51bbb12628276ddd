// The process side of a `Runtime` on Node and Bun (both have Node's `process`): the
// command line, stdin's end or SIGTERM/SIGINT as the signal to stop, stdout, exit.

import process from "node:process";
import type { Runtime } from "./server.js";

/** A `Runtime` over Node's `process`. */
export function nodeProcess(): Runtime {
  const stopped = new Promise<void>((resolve) => {
    process.stdin.on("end", resolve);
    process.stdin.on("error", () => resolve());
    process.stdin.resume();
    process.once("SIGTERM", () => resolve());
    process.once("SIGINT", () => resolve());
  });
  return {
    args: process.argv.slice(2),
    stopped,
    print: (line) =>
      new Promise((resolve, reject) => {
        process.stdout.write(`${line}\n`, (e) => (e ? reject(e) : resolve()));
      }),
    exit: (code) => process.exit(code),
  };
}
