// The JSON mapping of values (docs/json-mapping.md) for generated `xToJson` /
// `xFromJson` functions (`bitwire gen --json`).
//
// Generated code calls these helpers so that every type follows the mapping the
// reference codec defines: integers as numbers, or as decimal strings when their range
// leaves ±(2^53 - 1) ("wide", held as `bigint`); floats as numbers, non-finite ones as
// "NaN", "Infinity", "-Infinity"; `bytes` as hex; enums by name; unions as "Variant" or
// {"Variant": payload}; absent optionals as null.
//
// `xFromJson` checks only what JSON can get wrong. Whether a well-typed value fits the
// schema (300 for a `u8`, a list longer than its `max`) is the encoder's question, so it
// is reported as the same wire error (`OutOfRange`, `InvalidLength`) the reference codec
// reports, with the bit offset.

import { PathError, type PathSegment, atIndex, inField } from "./errors.js";
import { shortestF32 } from "./shortest.js";

/** The closed list of JSON parsing and mapping error kinds (docs/json-mapping.md §5). */
export type JsonErrorKind =
  | "Syntax"
  | "InvalidUnicode"
  | "DuplicateKey"
  | "TooDeep"
  | "TypeMismatch"
  | "MissingField"
  | "UnknownField"
  | "UnknownVariant"
  | "InvalidNumber";

/** A JSON mapping error: the kind, the field path of the offending JSON value, a message. */
export class JsonError extends PathError {
  /** The error kind (docs/json-mapping.md §5). */
  readonly kind: JsonErrorKind;
  /** What was wrong (not part of any contract). */
  readonly detail: string;

  /** A new error with the given path segments (outermost first). */
  constructor(kind: JsonErrorKind, detail: string, segments: PathSegment[] = []) {
    super(segments);
    this.name = "JsonError";
    this.kind = kind;
    this.detail = detail;
    this.message = this.describe();
  }

  protected override describe(): string {
    const path = this.path;
    return path === "" ? `${this.kind}: ${this.detail}` : `${this.kind} in \`${path}\`: ${this.detail}`;
  }
}

/** A short description of a JSON value, for messages. */
function jsonType(j: unknown): string {
  if (j === null) {
    return "null";
  }
  if (Array.isArray(j)) {
    return "an array";
  }
  switch (typeof j) {
    case "boolean":
      return "a bool";
    case "number":
    case "bigint":
      return "a number";
    case "string":
      return "a string";
    case "object":
      return "an object";
    default:
      return typeof j;
  }
}

/**
 * A JSON number is always finite; an infinite `number` is `JSON.parse`'s reading of text
 * beyond binary64 (`1e400`), which {@link parseJson} rejects: reject it here too, rather
 * than read it as the string form "Infinity".
 */
function finite(j: number): number {
  if (!Number.isFinite(j)) {
    throw new JsonError("InvalidNumber", `${j} is not a JSON number: the text was beyond binary64`);
  }
  return j;
}

function mismatch(expected: string, found: unknown): JsonError {
  return new JsonError("TypeMismatch", `expected ${expected}, found ${jsonType(found)}`);
}

// ---- values → JSON ---------------------------------------------------------------

/** An `f32` as JSON: the shortest decimal that reads back as the same `f32`. */
export function f32ToJson(v: number): number | string {
  return Number.isFinite(v) ? shortestF32(v) : nonFinite(v);
}

/** An `f64` as JSON; non-finite values as "NaN", "Infinity", "-Infinity". */
export function f64ToJson(v: number): number | string {
  return Number.isFinite(v) ? v : nonFinite(v);
}

function nonFinite(v: number): string {
  if (v !== v) {
    return "NaN";
  }
  return v > 0 ? "Infinity" : "-Infinity";
}

const HEX_DIGITS = "0123456789abcdef";

/** `bytes` as lowercase hex, two digits per byte. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) {
    s += HEX_DIGITS[b >>> 4] + HEX_DIGITS[b & 15];
  }
  return s;
}

/** A union value with a payload: `{"Variant": payload}`. */
export function variantToJson(name: string, payload: unknown): Record<string, unknown> {
  // A computed key, so that no variant name can set the object's prototype.
  return { [name]: payload };
}

// ---- JSON → values ---------------------------------------------------------------

/** The members of a JSON object that is being read as a struct. */
export type JsonObject = Readonly<Record<string, unknown>>;

/**
 * `j` as the object of a struct with the given field names. Unknown keys are rejected
 * first (`UnknownField`, with the key as the path), so a misspelt field reads as the
 * typo it is rather than as a missing field.
 */
export function jsonObject(j: unknown, fields: readonly string[]): JsonObject {
  if (typeof j !== "object" || j === null || Array.isArray(j)) {
    throw mismatch("an object", j);
  }
  for (const key of Object.keys(j)) {
    if (!fields.includes(key)) {
      throw new JsonError("UnknownField", `no field \`${key}\``, [key]);
    }
  }
  return j as JsonObject;
}

/** A required struct field, converted by `conv`; missing is `MissingField`. */
export function field<T>(o: JsonObject, name: string, conv: (j: unknown) => T): T {
  if (!Object.hasOwn(o, name)) {
    throw new JsonError("MissingField", `missing field \`${name}\``, [name]);
  }
  try {
    return conv(o[name]);
  } catch (e) {
    throw inField(e, name);
  }
}

/** An `optional<T>` struct field: missing or null reads as `null`. */
export function optionalField<T>(o: JsonObject, name: string, conv: (j: unknown) => T): T | null {
  const j = Object.hasOwn(o, name) ? o[name] : null;
  if (j === null) {
    return null;
  }
  try {
    return conv(j);
  } catch (e) {
    throw inField(e, name);
  }
}

/** An `optional<T>` value: null is absent, anything else the inner value. */
export function jsonOptional<T>(j: unknown, conv: (j: unknown) => T): T | null {
  return j === null ? null : conv(j);
}

/** A `bool`. */
export function jsonBool(j: unknown): boolean {
  if (typeof j !== "boolean") {
    throw mismatch("true or false", j);
  }
  return j;
}

const TWO_63 = 2 ** 63;

/**
 * An integer of a narrow type: a JSON number with an integral value (`5`, `5.0`,
 * `5e0`). The range is the encoder's to check; `-0` reads as 0. A `bigint` (what
 * {@link parseJson} gives for integers of magnitude 2^53 or more) is out of every narrow range and
 * reaches the encoder as the nearest number, which is too.
 */
export function jsonInt(j: unknown): number {
  if (typeof j === "bigint") {
    return Number(j);
  }
  if (typeof j !== "number") {
    throw mismatch("an integer", j);
  }
  if (!Number.isInteger(finite(j))) {
    throw new JsonError("TypeMismatch", `expected an integer, found ${j}`);
  }
  return j + 0;
}

const DECIMAL = /^-?[0-9]+$/;

/**
 * An integer of a wide type: a decimal string (`"-12"`), or a JSON number. A `bigint`
 * from {@link parseJson} is exact; a `number` must be integral, and beyond ±2^53 (where
 * only a number that was not written as an integer can come from `parseJson`) it is
 * that integer when -2^63 < v < 2^64, else out of every 64-bit range
 * (docs/json-mapping.md §2).
 */
export function jsonBigInt(j: unknown): bigint {
  if (typeof j === "bigint") {
    return j;
  }
  if (typeof j === "number") {
    if (!Number.isInteger(finite(j))) {
      throw new JsonError("TypeMismatch", `expected an integer, found ${j}`);
    }
    // -2^63 itself is excluded: one below it keeps the encoder's OutOfRange.
    return j <= -TWO_63 ? BigInt(j) - 1n : BigInt(j);
  }
  if (typeof j !== "string") {
    throw mismatch("an integer or a decimal string", j);
  }
  if (!DECIMAL.test(j)) {
    throw new JsonError("InvalidNumber", `\`${j}\` is not a decimal integer`);
  }
  // Digits beyond 20 are beyond 2^64: a long string costs no big-number arithmetic.
  const digits = j.replace(/^-?0*/, "");
  if (digits.length > 20) {
    return j.startsWith("-") ? -(1n << 64n) : 1n << 64n;
  }
  return BigInt(j);
}

/** An `f64`: a JSON number or "NaN", "Infinity", "-Infinity". */
export function jsonF64(j: unknown): number {
  if (typeof j === "number") {
    return finite(j);
  }
  if (typeof j === "bigint") {
    return Number(j);
  }
  if (typeof j !== "string") {
    throw mismatch("a number", j);
  }
  switch (j) {
    case "NaN":
      return Number.NaN;
    case "Infinity":
      return Number.POSITIVE_INFINITY;
    case "-Infinity":
      return Number.NEGATIVE_INFINITY;
    default:
      throw new JsonError("InvalidNumber", `\`${j}\` is not "NaN", "Infinity" or "-Infinity"`);
  }
}

/**
 * An `f32`: as {@link jsonF64}, then rounded to the nearest binary32 value (ties to
 * even). A finite number that would round to infinity is `InvalidNumber`.
 */
export function jsonF32(j: unknown): number {
  const x = jsonF64(j);
  const r = Math.fround(x);
  if (Number.isFinite(x) && !Number.isFinite(r)) {
    throw new JsonError("InvalidNumber", `${x} is beyond the binary32 range`);
  }
  return r;
}

/** A `string`. */
export function jsonString(j: unknown): string {
  if (typeof j !== "string") {
    throw mismatch("a string", j);
  }
  return j;
}

/** `bytes` from hex (either case, two digits per byte). */
export function jsonBytes(j: unknown): Uint8Array {
  if (typeof j !== "string") {
    throw mismatch("a hex string", j);
  }
  const bytes = fromHex(j);
  if (bytes === undefined) {
    throw new JsonError("TypeMismatch", "expected an even number of hex digits");
  }
  return bytes;
}

/** Hex text (either case) as bytes; `undefined` when it is not two digits per byte. */
function fromHex(s: string): Uint8Array | undefined {
  if (s.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(s)) {
    return undefined;
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = Number.parseInt(s.slice(2 * i, 2 * i + 2), 16);
  }
  return out;
}

/** The elements of a JSON array (a list or fixed array), each converted by `conv`. */
export function jsonArray<T>(j: unknown, conv: (j: unknown) => T): T[] {
  if (!Array.isArray(j)) {
    throw mismatch("an array", j);
  }
  const out: T[] = [];
  for (let i = 0; i < j.length; i++) {
    try {
      out.push(conv(j[i]));
    } catch (e) {
      throw atIndex(e, i);
    }
  }
  return out;
}

/**
 * A list or array of plain numbers from the JSON mapping, for code generated with typed
 * arrays (docs/typescript.md): the elements `jsonArray` converted, in the typed array
 * `make` returns when every one of them fits it exactly; otherwise the converted
 * array itself, so that the encoder rejects the element that does not fit with
 * `OutOfRange` at its bit and path, as it does for plain arrays (range problems are
 * left to the encoder).
 */
export function jsonTyped<T extends ArrayBufferView>(values: readonly (number | bigint)[], make: (n: number) => T): T {
  const out = make(values.length);
  const slots = out as unknown as { [i: number]: number | bigint };
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number | bigint;
    // A value of the other kind (a number for a bigint lane) does not fit either.
    if (typeof v !== typeof slots[i]) {
      return values as unknown as T;
    }
    slots[i] = v;
    if (!Object.is(slots[i], v)) {
      return values as unknown as T;
    }
  }
  return out;
}

/** An enum value's name (the caller checks that it is a variant). */
export function jsonName(j: unknown): string {
  if (typeof j !== "string") {
    throw mismatch("a variant name", j);
  }
  return j;
}

/** `name` is not a variant of the enum or union being read. */
export function unknownVariant(name: string): JsonError {
  return new JsonError("UnknownVariant", `no variant \`${name}\``);
}

/**
 * A union value: `"Variant"` (no payload: `undefined`) or `{"Variant": payload}`.
 * Returns the name and the payload.
 */
export function jsonVariant(j: unknown): [string, unknown] {
  if (typeof j === "string") {
    return [j, undefined];
  }
  if (typeof j === "object" && j !== null && !Array.isArray(j)) {
    const keys = Object.keys(j);
    if (keys.length === 1) {
      const name = keys[0] as string;
      return [name, (j as JsonObject)[name]];
    }
  }
  throw mismatch("a variant name or a one-key object", j);
}

/** The payload of union variant `name`, which declares one, converted by `conv`. */
export function jsonPayload<T>(name: string, payload: unknown, conv: (j: unknown) => T): T {
  if (payload === undefined) {
    throw new JsonError("TypeMismatch", `variant \`${name}\` has a payload: write {"${name}": …}`, [name]);
  }
  try {
    return conv(payload);
  } catch (e) {
    throw inField(e, name);
  }
}

/** Checks that unit variant `name` has no payload (`null` is allowed). */
export function jsonUnit(name: string, payload: unknown): void {
  if (payload !== undefined && payload !== null) {
    const e = mismatch("null for a unit variant", payload);
    e.prepend(name);
    throw e;
  }
}
