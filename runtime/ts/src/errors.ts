// The error type shared by every generated codec (spec §7).
//
// Kinds are the contract: the same closed list exists in every bitwire runtime and in
// the reference codec, and the shared vector suites name them. Messages are not.
//
// Everything that builds an error lives here, out of the hot path: generated code and
// the reader and writer call these functions only once a check has failed.

/** Every error kind of spec §7.1, in spec order (`InvalidKey`: the delta encoding, §12.7). */
export const ERROR_KINDS = [
  "Truncated",
  "TrailingData",
  "InvalidPadding",
  "OutOfRange",
  "InvalidEnum",
  "InvalidLength",
  "InvalidUtf8",
  "NonCanonical",
  "LimitExceeded",
  "InvalidKey",
] as const;

/**
 * What went wrong (spec §7.1). The list is closed on the wire; a later format version
 * may add kinds, so a `switch` over it should keep a `default` branch.
 */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** One step of a field path: a struct field or union variant name, or an element index. */
export type PathSegment = string | number;

/** An integer as the codec holds it: a `number`, or a `bigint` for wide types. */
export type Int = number | bigint;

/**
 * What the offending value was and what it had to be, for messages
 * (`OutOfRange at bit 37, entities[3].health: 1200 not in 0..=1000`). The same variants
 * as the Rust runtime's `Detail`, plus `Type` for a JavaScript value of the wrong type.
 * Not part of the contract: vectors and tests compare kind, bit and path only.
 */
export type ErrorDetail =
  /** Nothing more is known. */
  | { readonly type: "None" }
  /** An integer outside `min..=max` (or a number that is not an integer). */
  | { readonly type: "Range"; readonly value: Int; readonly min: Int; readonly max: Int }
  /** A float outside `min..=max`, or NaN. */
  | { readonly type: "FloatRange"; readonly value: number; readonly min: number; readonly max: number }
  /** A quantized integer above the number of steps. */
  | { readonly type: "Steps"; readonly q: Int; readonly steps: Int }
  /** An enum value or union tag (or, encoding, a name) the schema does not declare. */
  | { readonly type: "Undeclared"; readonly value: Int | string }
  /** A length above its bound, or a sequence of the wrong length. */
  | { readonly type: "Length"; readonly len: Int; readonly max: Int }
  /** More input needed than there is. */
  | { readonly type: "Bits"; readonly need: number; readonly left: number }
  /** A decode budget exceeded (spec §11). */
  | { readonly type: "Budget"; readonly need: number; readonly left: number }
  /** A JavaScript value of the wrong type: what it is, and what was expected. */
  | { readonly type: "Type"; readonly got: string; readonly expected: string };

/** The detail of errors about which nothing more is known. */
export const NO_DETAIL: ErrorDetail = Object.freeze({ type: "None" });

/** Renders path segments as spec §7.3 writes them: `entities[3].pos.x`. */
export function renderPath(segments: readonly PathSegment[]): string {
  let s = "";
  for (const seg of segments) {
    if (typeof seg === "number") {
      s += `[${seg}]`;
    } else {
      s += s === "" ? seg : `.${seg}`;
    }
  }
  return s;
}

/**
 * The base of the errors bitwire throws: an error with a field path that generated
 * code extends, one segment per nesting level, while the error unwinds.
 */
export abstract class PathError extends Error {
  /** Path segments, outermost first. */
  #segments: PathSegment[];

  /** An error with the given path segments (outermost first). */
  protected constructor(segments: PathSegment[]) {
    super("");
    this.#segments = segments;
  }

  /** The field path (spec §7.3), e.g. `entities[3].pos.x`; empty at the top level. */
  get path(): string {
    return renderPath(this.#segments);
  }

  /** The field path as segments, outermost first. */
  get segments(): readonly PathSegment[] {
    return this.#segments;
  }

  /** Prepends a path segment (generated code calls it while the error unwinds). */
  prepend(segment: PathSegment): this {
    this.#segments.unshift(segment);
    this.message = this.describe();
    return this;
  }

  /** The message for the current path (messages are not part of any contract). */
  protected abstract describe(): string;
}

/**
 * A codec error: the {@link ErrorKind}, the stream bit offset where the offending value
 * starts (for the encoder: where it would have started), the field path from the
 * top-level value (`entities[3].health`, empty at the top level) and, for messages, the
 * {@link ErrorDetail}. The message reads `OutOfRange at bit 37, entities[3].health: 1200
 * not in 0..=1000`, as the Rust runtime prints it.
 *
 * Generated code prepends path segments while the error travels up through nested
 * types, so {@link PathError.path} is complete once the error leaves a top-level
 * `encode` / `decode` function.
 */
export class BitwireError extends PathError {
  /** The error kind (spec §7.1). */
  readonly kind: ErrorKind;
  /** Bit offset in the stream where the offending value starts (spec §7.2). */
  readonly bit: number;
  /** What the value was and what it had to be (for messages; not part of the contract). */
  readonly detail: ErrorDetail;

  /** A new error of `kind` at stream bit `bit`, with the given path segments and detail. */
  constructor(kind: ErrorKind, bit: number, segments: PathSegment[] = [], detail: ErrorDetail = NO_DETAIL) {
    super(segments);
    this.name = "BitwireError";
    this.kind = kind;
    this.bit = bit;
    this.detail = detail;
    this.message = this.describe();
  }

  protected override describe(): string {
    const path = this.path;
    let s = `${this.kind} at bit ${this.bit}`;
    if (path !== "") {
      s += `, ${path}`;
    }
    const detail = describeDetail(this.detail);
    return detail === "" ? s : `${s}: ${detail}`;
  }
}

/** A float as Rust's `{:?}` prints it (`1.0`, `NaN`, `inf`), for messages. */
function float(v: number): string {
  if (Number.isNaN(v)) {
    return "NaN";
  }
  if (!Number.isFinite(v)) {
    return v > 0 ? "inf" : "-inf";
  }
  const s = Object.is(v, -0) ? "-0" : String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** The text of a detail, as the Rust runtime's `Display` of `Detail` writes it. */
export function describeDetail(d: ErrorDetail): string {
  switch (d.type) {
    case "None":
      return "";
    case "Range":
      return `${d.value} not in ${d.min}..=${d.max}`;
    case "FloatRange":
      return `${float(d.value)} not in ${float(d.min)}..=${float(d.max)}`;
    case "Steps":
      return `stored ${d.q} above the last step ${d.steps}`;
    case "Undeclared":
      return typeof d.value === "string" ? `${JSON.stringify(d.value)} is not declared` : `${d.value} is not declared`;
    case "Length":
      return `length ${d.len}, at most ${d.max}`;
    case "Bits":
      return `needs ${d.need} bits, ${d.left} left`;
    case "Budget":
      return `needs ${d.need} bytes, ${d.left} left in the decode budget`;
    case "Type":
      return `${d.got}, expected ${d.expected}`;
  }
}

/** What a JavaScript value is, for a `Type` detail (`a string`, `undefined`). */
function describeValue(v: unknown): string {
  if (v === null || v === undefined) {
    return String(v);
  }
  if (Array.isArray(v)) {
    return "an array";
  }
  if (typeof v === "object") {
    const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "Object" ? `a ${name}` : "an object";
  }
  if (typeof v === "string") {
    return `the string ${JSON.stringify(v.length > 20 ? `${v.slice(0, 20)}…` : v)}`;
  }
  if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") {
    return `the ${typeof v} ${String(v)}${typeof v === "bigint" ? "n" : ""}`;
  }
  return `a ${typeof v}`;
}

/**
 * A new {@link BitwireError} of `kind` at `bit` with the path `path` (from the value the
 * caller is in: `"buttons", "fire"` for a field of a nested struct). Generated code
 * throws what it returns, so that the construction stays out of line.
 */
export function error(kind: ErrorKind, bit: number, ...path: string[]): BitwireError {
  return new BitwireError(kind, bit, path);
}

/** A new error with a detail. */
function detailed(kind: ErrorKind, bit: number, path: string[], detail: ErrorDetail): BitwireError {
  return new BitwireError(kind, bit, path, detail);
}

/**
 * `OutOfRange` at `bit` for an integer field holding `value`, which is not an integer
 * of `min..=max`: a number outside the range or not an integer, or (from untyped
 * JavaScript) not of the field's type (`number`, or `bigint` when `min` is one) at all.
 */
export function rangeError(bit: number, value: unknown, min: Int, max: Int, ...path: string[]): BitwireError {
  // A `number` for a `bigint` field (or the other way round) is of the wrong type,
  // whatever its value.
  if (typeof value === typeof min && (typeof value === "number" || typeof value === "bigint")) {
    return detailed("OutOfRange", bit, path, { type: "Range", value, min, max });
  }
  const expected = `${typeof min === "bigint" ? "a bigint" : "an integer"} in ${min}..=${max}`;
  return typeError("OutOfRange", bit, value, expected, ...path);
}

/** `OutOfRange` at `bit` for a float that is NaN or outside `min..=max` (§4.3), or no number. */
export function floatRangeError(bit: number, value: unknown, min: number, max: number, ...path: string[]): BitwireError {
  if (typeof value === "number") {
    return detailed("OutOfRange", bit, path, { type: "FloatRange", value, min, max });
  }
  return typeError("OutOfRange", bit, value, `a number in ${float(min)}..=${float(max)}`, ...path);
}

/**
 * An error of `kind` at `bit` for a JavaScript value of the wrong type (a field given
 * a string where the schema has a number, say); `expected` names what would do.
 */
export function typeError(kind: ErrorKind, bit: number, value: unknown, expected: string, ...path: string[]): BitwireError {
  return detailed(kind, bit, path, { type: "Type", got: describeValue(value), expected });
}

/**
 * `OutOfRange` at `bit` for a bounded value whose stored offset `raw` is above
 * `max - min` (§4.2); the detail shows the value, `min + raw`.
 */
export function boundedError(bit: number, raw: Int, min: Int, max: Int, ...path: string[]): BitwireError {
  const value = BigInt(min) + BigInt(raw);
  return detailed("OutOfRange", bit, path, { type: "Range", value, min, max });
}

/** `OutOfRange` at `bit` for a quantized float whose stored `q` is above `steps` (§4.3). */
export function stepsError(bit: number, q: Int, steps: Int, ...path: string[]): BitwireError {
  return detailed("OutOfRange", bit, path, { type: "Steps", q, steps });
}

/** `InvalidEnum` at `bit` for an undeclared enum value or union tag (or name, encoding). */
export function enumError(bit: number, value: unknown, ...path: string[]): BitwireError {
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "string") {
    return detailed("InvalidEnum", bit, path, { type: "Undeclared", value });
  }
  return typeError("InvalidEnum", bit, value, "a declared name", ...path);
}

/** `InvalidLength` at `bit` for a length `len` above its bound `max` (§5.6). */
export function lengthError(bit: number, len: Int, max: Int): BitwireError {
  return detailed("InvalidLength", bit, [], { type: "Length", len, max });
}

/**
 * `InvalidUtf8` at `bit` for a string field whose value is not a string, or holds a
 * lone surrogate (UTF-16 that has no UTF-8 form).
 */
export function utf8Error(bit: number, value: unknown): BitwireError {
  if (typeof value === "string") {
    return detailed("InvalidUtf8", bit, [], { type: "Type", got: "a string with a lone surrogate", expected: "UTF-16 that has a UTF-8 form" });
  }
  return typeError("InvalidUtf8", bit, value, "a string");
}

/** `Truncated` at `bit`: a value needs `need` bits and `left` remain. */
export function truncatedError(bit: number, need: number, left: number, path: PathSegment[] = []): BitwireError {
  return detailed("Truncated", bit, path as string[], { type: "Bits", need, left });
}

/** `LimitExceeded` at `bit`: an allocation charged `need` bytes, `left` in the budget. */
export function budgetError(bit: number, need: number, left: number): BitwireError {
  return detailed("LimitExceeded", bit, [], { type: "Budget", need, left });
}

/**
 * Adds a field or variant name in front of the path of a caught bitwire error (codec or
 * JSON) and returns it for rethrowing; anything else is returned untouched.
 */
export function inField(e: unknown, name: string): unknown {
  if (e instanceof PathError) {
    e.prepend(name);
  }
  return e;
}

/** Like {@link inField}, for a list or array element index. */
export function atIndex(e: unknown, index: number): unknown {
  if (e instanceof PathError) {
    e.prepend(index);
  }
  return e;
}
