// A small timing harness: interleaved rounds, median, ns per item. Benchmarks print
// numbers; nothing here asserts on them. `performance.now()` exists on Node, Bun, Deno
// and in browsers.

/**
 * Runs the contenders' rounds interleaved (A, B, C, A, B, C, ...) so that frequency
 * scaling, GC and JIT tiering hit all alike; returns each one's median ns per item.
 * Each contender returns a value that is folded into a sink, so no engine can drop the
 * work as dead code.
 */
export function compare(rounds: number, items: number, fs: readonly (() => number)[]): number[] {
  const samples: number[][] = fs.map(() => []);
  let sink = 0;
  // Warm-up: let every engine's optimizing tier compile the loops.
  for (let k = 0; k < 5; k++) {
    for (const f of fs) {
      sink ^= f();
    }
  }
  for (let round = 0; round < rounds; round++) {
    fs.forEach((f, i) => {
      const t = performance.now();
      sink ^= f();
      samples[i]?.push(((performance.now() - t) * 1e6) / items);
    });
  }
  if (sink === 0.5) {
    console.log("unreachable: keeps the sink alive");
  }
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    return s[s.length >> 1] ?? Number.NaN;
  });
}
