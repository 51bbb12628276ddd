// A minimal test harness that runs unchanged on Node, Bun and Deno (no test framework,
// no runtime-specific APIs): `test` registers, `run` executes and reports.

/** A failed expectation. */
export class CheckFailure extends Error {}

const tests: [string, () => void][] = [];

/** Registers a test. */
export function test(name: string, body: () => void): void {
  tests.push([name, body]);
}

/** Fails unless `a` and `b` are the same (`Object.is`, or equal bytes / arrays). */
export function eq(a: unknown, b: unknown, what = ""): void {
  const same =
    (a instanceof Uint8Array || Array.isArray(a)) && (b instanceof Uint8Array || Array.isArray(b))
      ? a.length === b.length && Array.from(a).every((x, i) => Object.is(x, Array.from(b)[i]))
      : Object.is(a, b);
  if (!same) {
    throw new CheckFailure(`${what} expected ${String(b)}, got ${String(a)}`);
  }
}

/** Runs `f` and returns what it threw (fails if it did not throw). */
export function thrown(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new CheckFailure("expected an exception");
}

/** Runs every registered test; returns the number of failures. */
export function run(): number {
  let failed = 0;
  for (const [name, body] of tests) {
    try {
      body();
    } catch (e) {
      failed++;
      console.log(`FAIL ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(`runtime: ${tests.length - failed} passed, ${failed} failed`);
  return failed;
}
