// Decode limits (spec §11): the budget a decoder charges every allocation against, so
// that no input can make it allocate more than a bound proportional to its size. The
// rule and the defaults are the Rust and Go runtimes': the same input is rejected with
// `LimitExceeded` at the same bit in every language.

/** Bytes of budget every decode starts with by default (spec §11.3). */
export const DEFAULT_BASE_BYTES = 1048576;
/** Bytes of budget per input byte by default (spec §11.3). */
export const DEFAULT_BYTES_PER_INPUT_BYTE = 64;
/** What the memory model charges an allocation beyond its contents (spec §11.2). */
export const ALLOCATION_OVERHEAD = 32;

/**
 * How much a decoder may allocate: `base + perInputByte × input length` bytes of the
 * memory model of spec §11. Lists, strings and bytes are charged as their lengths are
 * read (`len × bytes per element + 32` for a non-empty one); the top-level value's own
 * fixed size is not. Going over is `LimitExceeded` at the value's first bit.
 *
 * Budgets are `number`s, exact up to 2^53 bytes; `Infinity` turns the limit off.
 */
export interface Limits {
  /** Budget every decode starts with, in bytes. */
  readonly base: number;
  /** Budget added per byte of input. */
  readonly perInputByte: number;
}

/** The default limits: 1 MiB plus 64 bytes per input byte. */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  base: DEFAULT_BASE_BYTES,
  perInputByte: DEFAULT_BYTES_PER_INPUT_BYTE,
});

/** The budget `limits` gives an input of `len` bytes. */
export function budgetFor(limits: Limits, len: number): number {
  return limits.base + limits.perInputByte * len;
}
