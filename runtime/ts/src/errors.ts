// The error type shared by every generated codec (spec §7).
//
// Kinds are the contract: the same closed list exists in every bitwire runtime and in
// the reference codec, and the shared vector suites name them. Messages are not.

/** Every error kind of spec §7.1, in spec order. */
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
] as const;

/**
 * What went wrong (spec §7.1). The list is closed on the wire; a later format version
 * may add kinds, so a `switch` over it should keep a `default` branch.
 */
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** One step of a field path: a struct field or union variant name, or an element index. */
export type PathSegment = string | number;

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
 * starts (for the encoder: where it would have started) and the field path from the
 * top-level value (`entities[3].health`, empty at the top level).
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

  /** A new error of `kind` at stream bit `bit`, with the given path segments. */
  constructor(kind: ErrorKind, bit: number, segments: PathSegment[] = []) {
    super(segments);
    this.name = "BitwireError";
    this.kind = kind;
    this.bit = bit;
    this.message = this.describe();
  }

  protected override describe(): string {
    const path = this.path;
    const at = `${this.kind} at bit ${this.bit}`;
    return path === "" ? at : `${at} in \`${path}\``;
  }
}

/**
 * A new {@link BitwireError}. Generated code throws what it returns, so that the
 * construction stays out of line on the cold path.
 *
 * @param field - the struct field the error belongs to, when the caller is not inside
 *   a nested value whose path its own callers add.
 */
export function error(kind: ErrorKind, bit: number, field?: string): BitwireError {
  return new BitwireError(kind, bit, field === undefined ? [] : [field]);
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
