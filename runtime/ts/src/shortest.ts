// The shortest decimal of an `f32` (docs/json-mapping.md §3): JSON output of an `f32`
// field is the shortest decimal that reads back as the same binary32 value, `0.1` for
// `Math.fround(0.1)`, which is what the Rust reference prints. JavaScript only knows
// binary64, whose shortest form of that value is `0.10000000149011612`.

/**
 * The `number` nearest to the shortest decimal that rounds to the binary32 value `x`
 * (finite, already an `f32` value); among decimals of that length, the one closest
 * to `x`, and of two equally close the one whose last digit is even (`-409.328125`
 * prints as `-409.32812`, as Go's strconv, Ryu and `Number.prototype.toString` break
 * ties). Negative zero stays negative.
 */
export function shortestF32(x: number): number {
  if (x === 0 || !Number.isFinite(x)) {
    return x;
  }
  for (let digits = 1; digits <= 9; digits++) {
    // The closest decimal with `digits` significant digits, as mantissa and exponent
    // (a tie rounded away from zero).
    const [mant, exp] = x.toExponential(digits - 1).split("e") as [string, string];
    const m = Number(mant.replace(".", ""));
    const e = Number(exp) - (digits - 1);
    let best: number | undefined;
    let bestMant = 0;
    // At a power of two the rounding interval is narrower below than above, so the
    // closest decimal can miss it while its neighbour above is inside: try both
    // neighbours too and keep the closest that round-trips.
    for (const cand of [m, m - 1, m + 1]) {
      if (Math.abs(cand) < 10 ** (digits - 1) && digits > 1) {
        continue;
      }
      const d = Number(`${cand}e${e}`);
      if (Math.fround(d) !== x) {
        continue;
      }
      if (best === undefined || nearer(x, cand, d, bestMant, best, e)) {
        best = d;
        bestMant = cand;
      }
    }
    if (best !== undefined) {
      return best;
    }
  }
  return x;
}

/**
 * Whether `a × 10^e` (nearest number `da`) is nearer `x` than `b × 10^e` (`db`), or
 * as near with an even `a`. The numbers decide unless the two distances are within
 * binary64's rounding of each other; then `x` is compared with the decimals'
 * midpoint exactly.
 */
function nearer(x: number, a: number, da: number, b: number, db: number, e: number): boolean {
  const gap = Math.abs(da - x) - Math.abs(db - x);
  // da and db are within |x| · 2^-53 < 10^(e + 9) · 2^-53 of their decimals.
  if (Math.abs(gap) > 1e-6 * 10 ** e) {
    return gap < 0;
  }
  const side = compareWithHalf(x, BigInt(a) + BigInt(b), e);
  if (side === 0) {
    return a % 2 === 0;
  }
  return side > 0 === a > b;
}

/** The sign of `2x − n × 10^e`, exactly (`x` finite and non-zero). */
function compareWithHalf(x: number, n: bigint, e: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  if (biased !== 0) {
    mant |= 1n << 52n;
  }
  // x = ±mant · 2^k
  const k = (biased === 0 ? 1 : biased) - 1075;
  const signed = bits >> 63n === 1n ? -mant : mant;
  const left = 2n * signed * (k > 0 ? 1n << BigInt(k) : 1n) * (e < 0 ? 10n ** BigInt(-e) : 1n);
  const right = n * (e > 0 ? 10n ** BigInt(e) : 1n) * (k < 0 ? 1n << BigInt(-k) : 1n);
  return left > right ? 1 : left < right ? -1 : 0;
}
