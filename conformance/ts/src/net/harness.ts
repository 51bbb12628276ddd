// A small async test harness for the network tests: every test has a deadline (a test
// that hangs fails, it does not stall the run), and the run ends with the line
// `<runtime>: N passed, N failed` that conformance/ts/run.sh adds up.

import { runtimeName } from "../util.js";

type Body = () => Promise<void>;
const tests: [string, Body, number][] = [];

/** Registers a test that must finish within `ms` milliseconds. */
export function test(name: string, body: Body, ms = 20_000): void {
  tests.push([name, body, ms]);
}

/** Fails the test with `message` unless `ok`. */
export function check(ok: boolean, message: string): void {
  if (!ok) {
    throw new Error(message);
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((ok) => setTimeout(ok, ms));
}

/** Rejects with `what` if `p` has not settled after `ms` milliseconds. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([p, deadline]).finally(() => clearTimeout(timer));
}

/** Runs the registered tests in order; returns the number that failed. */
export async function run(): Promise<number> {
  const runtime = runtimeName();
  let failed = 0;
  for (const [name, body, ms] of tests) {
    const start = Date.now();
    try {
      await within(body(), ms, name);
      console.log(`[${runtime}] net ok   ${name} (${Date.now() - start} ms)`);
    } catch (e) {
      failed++;
      console.log(`FAIL [${runtime}] net ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    }
  }
  console.log(`${runtime}: ${tests.length - failed} passed, ${failed} failed`);
  return failed;
}
