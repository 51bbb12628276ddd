// The timing harness of main.ts and verify.ts: lab/timing.ts's interleaved rounds with a
// fixed round count, as median ns per item. Benchmarks print numbers; nothing here
// asserts on them.

import { timeInterleaved } from "./lab/timing.js";

/**
 * Runs the contenders' rounds interleaved (A, B, C, A, B, C, ...) so that frequency
 * scaling, GC and JIT tiering hit all alike, after 5 untimed warm-up passes each;
 * returns each one's median ns per item. Each contender returns a value that is folded
 * into a sink, so no engine can drop the work as dead code.
 */
export function compare(rounds: number, items: number, fs: readonly (() => number)[]): number[] {
  const { secs } = timeInterleaved(fs, { target: 0, minRounds: rounds, maxRounds: rounds, warmup: 5 });
  return secs.map((s) => (s * 1e9) / items);
}
