// Interleaved timing for the lab: every contender runs one pass per round (A, B, C, A,
// B, C, ...) so that GC, JIT tiering and the neighbours on a shared machine hit all of
// them alike; each reports the median seconds per pass. Rounds go on until a measurement
// has taken about `target` seconds (within its minimum and maximum round counts). Nothing here
// asserts on a time.

export interface Budget {
  /** Seconds one measurement should take, all contenders and rounds together. */
  target: number;
  minRounds: number;
  maxRounds: number;
  /** Untimed passes of each contender first (JIT warm-up). */
  warmup: number;
}

let sink = 0;

/** Keeps contenders' results alive so no engine drops the work as dead code. */
export function keep(x: number): void {
  sink = (sink + x) | 0;
}

/** Median seconds per pass of each contender, and the rounds it took. */
export function timeInterleaved(fs: readonly (() => number)[], b: Budget): { secs: number[]; rounds: number } {
  for (let k = 0; k < b.warmup; k++) {
    for (const f of fs) {
      keep(f());
    }
  }
  // Rounds until `target` seconds have passed (at least minRounds, at most maxRounds):
  // counted as they run, so a slow first tier before the JIT kicks in does not cut the
  // number of rounds short.
  const samples: number[][] = fs.map(() => []);
  const start = performance.now();
  let rounds = 0;
  while (rounds < b.maxRounds && (rounds < b.minRounds || (performance.now() - start) / 1e3 < b.target)) {
    fs.forEach((f, i) => {
      const t = performance.now();
      keep(f());
      samples[i]?.push((performance.now() - t) / 1e3);
    });
    rounds++;
  }
  if (sink === 0.5) {
    console.log("unreachable: keeps the sink alive");
  }
  const secs = samples.map((s) => {
    s.sort((x, y) => x - y);
    return s[s.length >> 1] ?? Number.NaN;
  });
  return { secs, rounds };
}
