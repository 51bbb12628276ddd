// The shortest decimal of an `f32` (docs/json-mapping.md §3): JSON output of an `f32`
// field is the shortest decimal that reads back as the same binary32 value, `0.1` for
// `Math.fround(0.1)`, which is what the Rust reference prints. JavaScript only knows
// binary64, whose shortest form of that value is `0.10000000149011612`.

/**
 * The `number` nearest to the shortest decimal that rounds to the binary32 value `x`
 * (finite, already an `f32` value); among decimals of that length, the one closest
 * to `x`. Negative zero stays negative.
 */
export function shortestF32(x: number): number {
  if (x === 0 || !Number.isFinite(x)) {
    return x;
  }
  for (let digits = 1; digits <= 9; digits++) {
    // The closest decimal with `digits` significant digits, as mantissa and exponent.
    const [mant, exp] = x.toExponential(digits - 1).split("e") as [string, string];
    const m = Number(mant.replace(".", ""));
    const e = Number(exp) - (digits - 1);
    let best: number | undefined;
    // At a power of two the rounding interval is narrower below than above, so the
    // closest decimal can miss it while its neighbour above is inside: try both
    // neighbours too and keep the closest that round-trips.
    for (const cand of [m, m - 1, m + 1]) {
      if (Math.abs(cand) < 10 ** (digits - 1) && digits > 1) {
        continue;
      }
      const d = Number(`${cand}e${e}`);
      if (Math.fround(d) === x && (best === undefined || Math.abs(d - x) < Math.abs(best - x))) {
        best = d;
      }
    }
    if (best !== undefined) {
      return best;
    }
  }
  return x;
}
