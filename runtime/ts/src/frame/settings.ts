// The settings every framer has (docs/framing.md §2–§3, §6.3): the compression
// threshold, the frame and data limits, the zlib implementation, and the decode budget
// of the messages inside.

import { DEFAULT_LIMITS, type Limits } from "../limits.js";
import { jsZlib } from "./zlib.js";
import type { Zlib } from "./zlib.js";

/** The largest `maxFrame`, and its default: a Length of at most 3 bytes (2^21 − 1). */
export const MAX_FRAME = 2097151;
/** The default `maxData`: vanilla's limit on an inflated body (2^23). */
export const DEFAULT_MAX_DATA = 8388608;

/** How frames are read and written; every field is optional (see {@link frameSettings}). */
export interface FrameOptions {
  /**
   * The compression threshold `T ≥ 0` both ends agreed on (docs/framing.md §3), or
   * `null` (the default) for frames without compression.
   */
  readonly threshold?: number | null;
  /** The largest Length (PacketLength) read or written: 1 ..= 2,097,151 (the default). */
  readonly maxFrame?: number;
  /** The largest DataLength of a compressed frame: default 8,388,608. */
  readonly maxData?: number;
  /** The decode budget of the messages inside the frames (spec §11). */
  readonly limits?: Limits;
  /**
   * Compresses and inflates (bounded). Default: {@link jsZlib}, bitwire's own, which runs
   * everywhere; `nodeZlib` from `@bitwire/runtime/node` uses `node:zlib` (Node, Bun, Deno).
   */
  readonly zlib?: Zlib;
}

/** Settings with every default filled in and checked. */
export interface FrameSettings {
  readonly threshold: number | null;
  readonly maxFrame: number;
  readonly maxData: number;
  readonly limits: Limits;
  readonly zlib: Zlib;
}

const DEFAULT_SETTINGS: FrameSettings = Object.freeze({
  threshold: null,
  maxFrame: MAX_FRAME,
  maxData: DEFAULT_MAX_DATA,
  limits: DEFAULT_LIMITS,
  zlib: jsZlib,
});

/**
 * The settings `options` asks for, defaults filled in. Throws a `RangeError` for a
 * threshold that is not a non-negative integer, a `maxFrame` outside 1 ..= 2,097,151 or a
 * `maxData` outside 1 ..= 2^31 − 1. Cheap: called once per frame written.
 */
export function frameSettings(options?: FrameOptions): FrameSettings {
  if (options === undefined) {
    return DEFAULT_SETTINGS;
  }
  const threshold = options.threshold ?? null;
  const maxFrame = options.maxFrame ?? MAX_FRAME;
  const maxData = options.maxData ?? DEFAULT_MAX_DATA;
  if (threshold !== null && !(Number.isSafeInteger(threshold) && threshold >= 0)) {
    throw new RangeError(`bitwire: threshold ${threshold} is not an integer ≥ 0`);
  }
  if (!(Number.isInteger(maxFrame) && maxFrame >= 1 && maxFrame <= MAX_FRAME)) {
    throw new RangeError(`bitwire: maxFrame ${maxFrame} is not in 1..=${MAX_FRAME}`);
  }
  if (!(Number.isInteger(maxData) && maxData >= 1 && maxData <= 0x7fffffff)) {
    throw new RangeError(`bitwire: maxData ${maxData} is not in 1..=2147483647`);
  }
  return { threshold, maxFrame, maxData, limits: options.limits ?? DEFAULT_LIMITS, zlib: options.zlib ?? jsZlib };
}
