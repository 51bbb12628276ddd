// Helpers shared by the vector runner, the differential corpus check and the property
// test: JSON comparison, error observation and the runtime's name. Only `node:` modules
// that Node, Bun and Deno all provide are used (for files and the process).

import { BitwireError, JsonError, type TypeCodec } from "@bitwire/runtime";
import { deltaSuites } from "../gen/delta/registry.js";
import { suites } from "../gen/registry.js";

/** The JavaScript runtime this runs on. */
export function runtimeName(): string {
  if ("Bun" in globalThis) {
    return "bun";
  }
  if ("Deno" in globalThis) {
    return "deno";
  }
  return "node";
}

/** The generated codec of `type` in `suite` (a vector suite or a delta suite), if both exist. */
export function findCodec(suite: string, type: string): TypeCodec<unknown> | undefined {
  const s = suites[suite] ?? deltaSuites[suite]?.codecs;
  return s !== undefined && Object.hasOwn(s, type) ? s[type] : undefined;
}

/**
 * Structural equality of JSON values as the mapping produces them: numbers compare with
 * `Object.is` (so `-0` differs from `0`), objects by their keys in order.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") {
    return Object.is(a, b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** JSON text of a value for messages (`-0` shown as `-0`, bigints as text). */
export function show(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (Object.is(x, -0) ? "-0" : typeof x === "bigint" ? `${x}n` : x));
}

/** An error as observed: kind, bit (wire errors only) and path. */
export interface Observed {
  kind: string;
  bit: number | undefined;
  path: string;
}

/** What a thrown value was, or `undefined` for anything that is not a bitwire error. */
export function observe(e: unknown): Observed | undefined {
  if (e instanceof BitwireError) {
    return { kind: e.kind, bit: e.bit, path: e.path };
  }
  if (e instanceof JsonError) {
    return { kind: e.kind, bit: undefined, path: e.path };
  }
  return undefined;
}

/** What a vector or corpus line says an error must be; absent parts are not compared. */
export interface Expected {
  kind: string;
  bit?: number;
  path?: string;
}

/** `undefined` when `e` is the expected error, else why not. */
export function checkError(e: unknown, want: Expected): string | undefined {
  const got = observe(e);
  if (got === undefined) {
    return `threw a non-bitwire error: ${String(e)}`;
  }
  const bitOk = want.bit === undefined || got.bit === undefined || want.bit === got.bit;
  const pathOk = want.path === undefined || want.path === got.path;
  if (got.kind === want.kind && bitOk && pathOk) {
    return undefined;
  }
  return `expected ${show(want)}, got ${show(got)}`;
}

/** Lowercase hex of bytes. */
export function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Bytes from hex text (the files are trusted: malformed hex is a bug in them). */
export function unhex(s: string): Uint8Array {
  if (s.length % 2 !== 0) {
    throw new Error(`odd hex length: ${s}`);
  }
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = Number.parseInt(s.slice(2 * i, 2 * i + 2), 16);
  }
  return out;
}

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The message of anything thrown. */
export function why(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** `undefined` when `verify` threw exactly what `decode` threw (kind, bit, path). */
export function sameError(verifyError: unknown, decodeError: unknown): string | undefined {
  const v = observe(verifyError);
  const d = observe(decodeError);
  if (v === undefined) {
    return `verify threw a non-bitwire error: ${why(verifyError)}`;
  }
  if (d === undefined || v.kind !== d.kind || v.bit !== d.bit || v.path !== d.path) {
    return `verify threw ${show(v)}, decode ${d === undefined ? why(decodeError) : show(d)}`;
  }
  return undefined;
}
