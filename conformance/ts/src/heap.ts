// The decode budget in memory (spec §11, docs/typescript.md "Decode budget"): for
// adversarial inputs built from testdata/vectors/limits.bw — elements that cost a bit
// or two on the wire (or a few bytes, in the bincode encoding) and much more in
// memory — the heap a decoded value keeps is at
// most HEAP_FACTOR times the budget of its input, and the input one element past the
// budget fails with `LimitExceeded` at the list's first bit, as in every language (the
// vectors limits.* pin those bits for Rust, Go and the reference codec).
//
// Node only, started with --expose-gc: heap growth is measured with
// `process.memoryUsage()` around the decode, with full collections on both sides.

import process from "node:process";

import { BitwireError, DEFAULT_LIMITS, type Limits } from "@bitwire/runtime";

import * as limits from "../gen/limits.js";

/**
 * The bound this test asserts, relative to the budget (`base + perInputByte × input
 * length`): JavaScript values are bigger than the memory model's (an object per
 * struct, a pointer per array slot, arrays grown by half again), so the heap can
 * exceed the budget itself. Measured on Node 20 (64-bit, no pointer compression): at
 * most 4.9 (a list of one-`bool` structs, one bit on the wire and one byte in the
 * model each, about 40 bytes each in JavaScript), tending to 5 to 5.5 for larger
 * inputs; docs/typescript.md has the table.
 */
export const HEAP_FACTOR = 6;

/** One adversarial shape: how to build an input of `n` elements, and decode / verify it. */
interface Shape {
  name: string;
  /** The encoding of a value with `n` elements (the cheapest ones on the wire). */
  input(n: number): Uint8Array;
  /**
   * Where the budget runs out when the input has `n` elements, one more than fit: the
   * bit and path every language reports (the vectors limits.* pin them likewise).
   */
  over?(n: number): [number, string];
  decode(bytes: Uint8Array, limits?: Limits): unknown;
  verify(bytes: Uint8Array, limits?: Limits): void;
}

const many = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);

const shapes: Shape[] = [
  {
    name: "list<optional<Big>>, all absent",
    input: (n) => limits.encodeAbsent({ l: many(n, () => null) }).slice(),
    decode: limits.decodeAbsent,
    verify: limits.verifyAbsent,
    over: () => [0, "l"],
  },
  {
    name: "list<Maybe>, 1-bit unit variants",
    input: (n) => limits.encodeUnits({ l: many(n, () => ({ kind: "Nothing" }) as const) }).slice(),
    decode: limits.decodeUnits,
    verify: limits.verifyUnits,
    over: () => [0, "l"],
  },
  {
    name: "list<list<optional<Big>>>, one absent each",
    input: (n) => limits.encodeNested({ l: many(n, () => [null]) }).slice(),
    decode: limits.decodeNested,
    verify: limits.verifyNested,
    // The outer length, then 6 bits per inner list (a 5-bit length, one presence bit):
    // the inner list at index n - 1 is the one that goes over.
    over: (n) => [varintBits(n) + 6 * (n - 1), `l[${n - 1}]`],
  },
  {
    name: "list<Tiny>, a 1-bit struct",
    input: (n) => limits.encodeTinies({ l: many(n, () => ({ b: false })) }).slice(),
    decode: limits.decodeTinies,
    verify: limits.verifyTinies,
  },
  {
    name: "list<bool>",
    input: (n) => limits.encodeFlags({ l: many(n, () => false) }).slice(),
    decode: limits.decodeFlags,
    verify: limits.verifyFlags,
  },
  {
    name: "list<string>, all empty",
    input: (n) => limits.encodeTexts({ l: many(n, () => "") }).slice(),
    decode: limits.decodeTexts,
    verify: limits.verifyTexts,
  },
  {
    name: "list<list<u8>>, all empty",
    input: (n) => limits.encodeRows({ l: many(n, () => []) }).slice(),
    decode: limits.decodeRows,
    verify: limits.verifyRows,
  },
  {
    name: "list<Point>, two i8",
    input: (n) => limits.encodePoints({ l: many(n, () => ({ x: 0, y: 0 })) }).slice(),
    decode: limits.decodePoints,
    verify: limits.verifyPoints,
  },
  // The same values in the bincode encoding (spec §13.3): at least a byte per element,
  // so the budget grows eight times faster with them; the charges are the same.
  {
    name: "bincode list<optional<Big>>, all absent",
    input: (n) => limits.encodeBincodeAbsent({ l: many(n, () => null) }).slice(),
    decode: limits.decodeBincodeAbsent,
    verify: limits.verifyBincodeAbsent,
    over: () => [0, "l"],
  },
  {
    name: "bincode list<Maybe>, 4-byte unit variants",
    input: (n) => limits.encodeBincodeUnits({ l: many(n, () => ({ kind: "Nothing" }) as const) }).slice(),
    decode: limits.decodeBincodeUnits,
    verify: limits.verifyBincodeUnits,
    over: () => [0, "l"],
  },
  {
    name: "bincode list<list<optional<Big>>>, one absent each",
    input: (n) => limits.encodeBincodeNested({ l: many(n, () => [null]) }).slice(),
    decode: limits.decodeBincodeNested,
    verify: limits.verifyBincodeNested,
    // The outer length, then 9 bytes per inner list (a u64 length, one option tag).
    over: (n) => [8 * (8 + 9 * (n - 1)), `l[${n - 1}]`],
  },
  {
    name: "bincode list<bool>",
    input: (n) => limits.encodeBincodeFlags({ l: many(n, () => false) }).slice(),
    decode: limits.decodeBincodeFlags,
    verify: limits.verifyBincodeFlags,
  },
  {
    name: "bincode list<list<u8>>, all empty",
    input: (n) => limits.encodeBincodeRows({ l: many(n, () => []) }).slice(),
    decode: limits.decodeBincodeRows,
    verify: limits.verifyBincodeRows,
  },
];

/** Bits of a `varu64` holding `u` (spec §5.4). */
function varintBits(u: number): number {
  const groups = Math.max(1, Math.ceil(Math.log2(u + 1) / 4));
  return groups - 1 + (groups < 16 ? 1 : 0) + 4 * groups;
}

/** The budget the default limits give an input of `len` bytes. */
export function budget(len: number): number {
  return DEFAULT_LIMITS.base + DEFAULT_LIMITS.perInputByte * len;
}

/** Whether `bytes` are within the budget (verify charges as decode does). */
function fits(shape: Shape, bytes: Uint8Array): boolean {
  try {
    shape.verify(bytes);
    return true;
  } catch (e) {
    if (e instanceof BitwireError && e.kind === "LimitExceeded") {
      return false;
    }
    throw e;
  }
}

/**
 * The most elements (up to `cap`) whose input the budget admits, by bisection (the
 * charge grows faster with `n` than the budget does, so the admitted `n` are a prefix).
 */
function largestWithin(shape: Shape, cap: number): number {
  if (fits(shape, shape.input(cap))) {
    return cap;
  }
  let lo = 0;
  let hi = cap;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(shape, shape.input(mid))) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** Bytes the JavaScript heap (and array buffers) grew by while `f`'s result is alive. */
export function heapGrowth(gc: () => void, f: () => unknown): number {
  const used = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  gc();
  gc();
  const before = used();
  let kept: unknown = f();
  gc();
  gc();
  const after = used();
  // Keeps the value alive across the measurement.
  if (kept === undefined) {
    throw new Error("decoded nothing");
  }
  kept = undefined;
  return after - before;
}

/**
 * Checks an input of `n` elements, one more than the budget admits: decode and verify
 * fail with `LimitExceeded` at the bit and path the shape expects, and decode with no
 * budget succeeds.
 */
function overBudget(shape: Shape, n: number): string[] {
  const problems: string[] = [];
  const bytes = shape.input(n);
  const [bit, path] = shape.over?.(n) ?? [Number.NaN, ""];
  for (const [what, run] of [
    ["decode", () => shape.decode(bytes)],
    ["verify", () => shape.verify(bytes)],
  ] as const) {
    try {
      run();
      problems.push(`${shape.name}: ${what} accepted ${n} elements, over the budget`);
    } catch (e) {
      if (!(e instanceof BitwireError && e.kind === "LimitExceeded" && e.bit === bit && e.path === path)) {
        problems.push(`${shape.name}, ${n} elements: ${what} threw ${String(e)}, not LimitExceeded at bit ${bit}, ${path}`);
      }
    }
  }
  try {
    shape.decode(bytes, { base: Number.POSITIVE_INFINITY, perInputByte: 0 });
  } catch (e) {
    problems.push(`${shape.name}: decode with no budget threw ${String(e)}`);
  }
  return problems;
}

/** One row of the measurement: what was decoded, and its heap against its budget. */
export interface HeapRow {
  shape: string;
  elements: number;
  bytes: number;
  budget: number;
  heap: number;
  factor: number;
}

/** Measures every shape at each element cap; problems are returned, not thrown. */
export function runHeap(caps: number[]): { rows: HeapRow[]; problems: string[] } {
  const gc = (globalThis as { gc?: () => void }).gc;
  const rows: HeapRow[] = [];
  const problems: string[] = [];
  if (gc === undefined) {
    return { rows, problems: ["heap test needs node --expose-gc"] };
  }
  for (const shape of shapes) {
    for (const cap of caps) {
      const n = largestWithin(shape, cap);
      const bytes = shape.input(n);
      const heap = heapGrowth(gc, () => shape.decode(bytes));
      const row = { shape: shape.name, elements: n, bytes: bytes.length, budget: budget(bytes.length), heap, factor: 0 };
      row.factor = heap / row.budget;
      rows.push(row);
      if (row.factor > HEAP_FACTOR) {
        problems.push(`${shape.name}, ${n} elements: heap ${heap} bytes, ${row.factor.toFixed(2)} x the budget`);
      }
      if (n < cap) {
        problems.push(...overBudget(shape, n + 1));
      }
    }
  }
  return { rows, problems };
}
