// JSON text to a value by the rules of docs/json-mapping.md §6: exactly RFC 8259, UTF-8
// (or a well-formed string), no lone surrogate escapes, no member name twice in an
// object, at most MAX_JSON_DEPTH nested arrays and objects, no number beyond the
// binary64 range. Integers beyond ±2^53 are kept exactly as `bigint`, so that wide
// integer fields read the number that was written (`JSON.parse` would round it).

import { JsonError, type JsonErrorKind } from "./json.js";

/**
 * The deepest nesting of arrays and objects {@link parseJson} accepts. Every value of
 * every schema fits with room to spare (docs/json-mapping.md §6.5); deeper text is a
 * `TooDeep` error, found before the parser descends further.
 */
export const MAX_JSON_DEPTH = 512;

const TWO_53 = 2 ** 53;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Parses JSON text (UTF-8 bytes, or a string) into plain values: `null`, booleans,
 * strings, arrays, objects, and numbers — a `number`, or a `bigint` for an integer
 * beyond ±2^53 (in any notation: `1e19` too). Generated `xFromJson` functions accept
 * this tree as they accept `JSON.parse` output, and read wide integers exactly from it.
 *
 * @throws {JsonError} with the path of the value being read.
 */
export function parseJson(text: string | Uint8Array): unknown {
  let s: string;
  if (typeof text === "string") {
    if (LONE_SURROGATE.test(text)) {
      throw new JsonError("InvalidUnicode", "the text has an unpaired surrogate");
    }
    s = text;
  } else {
    try {
      s = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(text);
    } catch {
      throw new JsonError("InvalidUnicode", "the text is not UTF-8");
    }
  }
  const p = new Parser(s);
  p.skipWs();
  const v = p.value(0);
  p.skipWs();
  if (p.pos !== s.length) {
    throw p.syntax("text after the JSON value");
  }
  return v;
}

function fail(kind: JsonErrorKind, detail: string): JsonError {
  return new JsonError(kind, detail);
}

/** Rethrows `e` with `segment` in front of its path. */
function within(e: unknown, segment: string | number): unknown {
  if (e instanceof JsonError) {
    e.prepend(segment);
  }
  return e;
}

class Parser {
  pos = 0;

  constructor(readonly text: string) {}

  skipWs(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) {
        return;
      }
      this.pos++;
    }
  }

  syntax(what: string): JsonError {
    return fail("Syntax", `${what} at character ${this.pos}`);
  }

  eat(ch: string): boolean {
    if (this.text[this.pos] === ch) {
      this.pos++;
      return true;
    }
    return false;
  }

  /** One value; `depth` is the number of arrays and objects around it. */
  value(depth: number): unknown {
    const c: string | undefined = this.text[this.pos];
    if ((c === "[" || c === "{") && depth >= MAX_JSON_DEPTH) {
      throw fail("TooDeep", `more than ${MAX_JSON_DEPTH} nested arrays and objects`);
    }
    switch (c) {
      case "[":
        return this.array(depth + 1);
      case "{":
        return this.object(depth + 1);
      case '"':
        return this.string();
      case "t":
        return this.literal("true", true);
      case "f":
        return this.literal("false", false);
      case "n":
        return this.literal("null", null);
      case undefined:
        throw this.syntax("unexpected end of text");
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      return this.number();
    }
    throw this.syntax("expected a value");
  }

  literal(word: string, v: unknown): unknown {
    if (this.text.startsWith(word, this.pos)) {
      this.pos += word.length;
      return v;
    }
    throw this.syntax("expected a value");
  }

  array(depth: number): unknown[] {
    this.pos++;
    this.skipWs();
    const items: unknown[] = [];
    if (this.eat("]")) {
      return items;
    }
    for (;;) {
      try {
        items.push(this.value(depth));
      } catch (e) {
        throw within(e, items.length);
      }
      this.skipWs();
      if (this.eat("]")) {
        return items;
      }
      if (!this.eat(",")) {
        throw this.syntax("expected , or ]");
      }
      this.skipWs();
    }
  }

  object(depth: number): Record<string, unknown> {
    this.pos++;
    this.skipWs();
    const o: Record<string, unknown> = {};
    if (this.eat("}")) {
      return o;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') {
        throw this.syntax("expected a member name");
      }
      const key = this.string();
      if (Object.hasOwn(o, key)) {
        throw new JsonError("DuplicateKey", `member \`${key}\` appears twice`, [key]);
      }
      this.skipWs();
      if (!this.eat(":")) {
        throw this.syntax("expected :");
      }
      this.skipWs();
      let v: unknown;
      try {
        v = this.value(depth);
      } catch (e) {
        throw within(e, key);
      }
      // defineProperty, so that a member named "__proto__" is data, as in JSON.parse.
      Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
      this.skipWs();
      if (this.eat("}")) {
        return o;
      }
      if (!this.eat(",")) {
        throw this.syntax("expected , or }");
      }
      this.skipWs();
    }
  }

  /** A string literal (the opening quote is at `pos`). */
  string(): string {
    const t = this.text;
    const start = ++this.pos;
    let end = start;
    let escaped = false;
    for (;;) {
      const c = t.charCodeAt(end);
      if (c === 0x22 || Number.isNaN(c)) {
        break;
      }
      if (c === 0x5c) {
        escaped = true;
        end++;
      }
      end++;
    }
    if (!escaped) {
      for (let i = start; i < end && i < t.length; i++) {
        if (t.charCodeAt(i) < 0x20) {
          this.pos = i;
          throw this.syntax("unescaped control character in a string");
        }
      }
      if (end >= t.length) {
        this.pos = t.length;
        throw this.syntax("unterminated string");
      }
      this.pos = end + 1;
      return t.slice(start, end);
    }
    return this.escapedString(Math.min(end, t.length) - start);
  }

  /** A string literal with escapes; unescaping never lengthens it past `bound` units. */
  escapedString(bound: number): string {
    const t = this.text;
    const out = new Uint16Array(bound);
    let n = 0;
    for (;;) {
      const c = t.charCodeAt(this.pos);
      if (Number.isNaN(c)) {
        throw this.syntax("unterminated string");
      }
      if (c === 0x22) {
        this.pos++;
        return new TextDecoder("utf-16le").decode(out.subarray(0, n));
      }
      if (c < 0x20) {
        throw this.syntax("unescaped control character in a string");
      }
      if (c !== 0x5c) {
        out[n++] = c;
        this.pos++;
        continue;
      }
      this.pos++;
      n = this.escape(out, n);
    }
  }

  /** Writes the escape after a backslash into `out` at `n`; returns the new length. */
  escape(out: Uint16Array, n: number): number {
    const simple = ESCAPES[this.text[this.pos] ?? ""];
    if (simple !== undefined) {
      this.pos++;
      out[n] = simple;
      return n + 1;
    }
    if (this.text[this.pos] !== "u") {
      throw this.syntax("invalid escape");
    }
    const unit = this.hex4(this.pos + 1);
    if (unit === undefined) {
      throw this.syntax("bad \\u escape");
    }
    this.pos += 5;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const low = this.text.startsWith("\\u", this.pos) ? this.hex4(this.pos + 2) : undefined;
      if (low === undefined || low < 0xdc00 || low > 0xdfff) {
        throw fail("InvalidUnicode", `lone high surrogate \\u${unit.toString(16)}`);
      }
      this.pos += 6;
      out[n] = unit;
      out[n + 1] = low;
      return n + 2;
    }
    if (unit >= 0xdc00 && unit <= 0xdfff) {
      throw fail("InvalidUnicode", `lone low surrogate \\u${unit.toString(16)}`);
    }
    out[n] = unit;
    return n + 1;
  }

  /** Four hex digits at `at`, or `undefined`. */
  hex4(at: number): number | undefined {
    const digits = this.text.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
  }

  number(): number | bigint {
    const start = this.pos;
    this.eat("-");
    if (this.eat("0")) {
      // A leading zero stands alone.
    } else if (!this.digits()) {
      throw this.syntax("expected a digit");
    }
    if (this.eat(".") && !this.digits()) {
      throw this.syntax("expected a digit");
    }
    if (this.eat("e") || this.eat("E")) {
      if (!this.eat("+")) {
        this.eat("-");
      }
      if (!this.digits()) {
        throw this.syntax("expected a digit");
      }
    }
    const text = this.text.slice(start, this.pos);
    const v = Number(text);
    if (!Number.isFinite(v)) {
      const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
      throw fail("InvalidNumber", `${shown} is beyond the binary64 range`);
    }
    return Math.abs(v) >= TWO_53 ? (exactInteger(text) ?? v) : v;
  }

  /** Skips `[0-9]*`; whether there was at least one digit. */
  digits(): boolean {
    const start = this.pos;
    for (;;) {
      const c = this.text.charCodeAt(this.pos);
      // NaN past the end fails both comparisons.
      if (!(c >= 0x30 && c <= 0x39)) {
        return this.pos > start;
      }
      this.pos++;
    }
  }
}

const ESCAPES: Readonly<Record<string, number>> = {
  '"': 0x22,
  "\\": 0x5c,
  "/": 0x2f,
  b: 0x08,
  f: 0x0c,
  n: 0x0a,
  r: 0x0d,
  t: 0x09,
};

/**
 * The exact value of number text `text` (grammar checked, magnitude above 2^53 and
 * within binary64) when it is an integer in any notation, else `undefined`.
 */
function exactInteger(text: string): bigint | undefined {
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
  if (m === null) {
    return undefined;
  }
  const digits = (m[2] ?? "") + (m[3] ?? "");
  const significant = digits.replace(/^0+/, "");
  const trimmed = significant.replace(/0+$/, "");
  // A finite binary64 magnitude has at most 309 integer digits, so the exponent's
  // text is short enough for Number.
  const scale = Number(m[4] ?? "0") - (m[3] ?? "").length + (significant.length - trimmed.length);
  if (scale < 0 || trimmed === "") {
    return undefined;
  }
  const magnitude = BigInt(trimmed) * 10n ** BigInt(scale);
  return m[1] === "-" ? -magnitude : magnitude;
}
