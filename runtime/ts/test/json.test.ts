// The JSON text parser (docs/json-mapping.md §6) and the number rules of §2: kinds,
// paths, exact wide integers, and hostile text (typed errors, no stack overflow).

import { JsonError, MAX_JSON_DEPTH, jsonBigInt, jsonF32, jsonF64, jsonInt, parseJson } from "../src/index.js";
import { eq, test, thrown } from "./check.js";

function parseError(text: string | Uint8Array): [string, string] {
  const e = thrown(() => parseJson(text));
  if (!(e instanceof JsonError)) {
    throw new Error(`not a JsonError: ${String(e)}`);
  }
  return [e.kind, e.path];
}

function expectError(text: string | Uint8Array, kind: string, path: string): void {
  const [k, p] = parseError(text);
  eq(`${k} at ${p}`, `${kind} at ${path}`, typeof text === "string" ? text.slice(0, 40) : "bytes");
}

test("parse errors have the kind and the path of the value being read", () => {
  expectError("[1, 1e400]", "InvalidNumber", "[1]");
  expectError("-1e400", "InvalidNumber", "");
  expectError('{"a": "\\ud800"}', "InvalidUnicode", "a");
  expectError('{"a": "\\udc00x"}', "InvalidUnicode", "a");
  expectError('["\\ud800\\u0041"]', "InvalidUnicode", "[0]");
  expectError(new Uint8Array([0x5b, 0x22, 0xff, 0x22, 0x5d]), "InvalidUnicode", "");
  expectError('["\ud800"]', "InvalidUnicode", "");
  expectError("\ufeff{}", "Syntax", "");
  expectError(new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), "Syntax", "");
  expectError('["\u0001"]', "Syntax", "[0]");
  expectError("[1, 2,]", "Syntax", "[2]");
  expectError("[1 2]", "Syntax", "");
  expectError('{"a": {"b": }}', "Syntax", "a.b");
  expectError('{"a": 1,}', "Syntax", "");
  expectError('{"x": [{"a": 1, "a": 2}]}', "DuplicateKey", "x[0].a");
  for (const bad of ["01", "-", "1.", ".5", "1e", "+1", "0x10", "NaN", "1.0e+", "{} x", "", "[\"\\x\"]"]) {
    eq(parseError(bad)[0], "Syntax", bad);
  }
});

test("parsed values: escapes, __proto__ as data, exact big integers", () => {
  const v = parseJson('["a\\"\\\\\\/\\b\\f\\n\\r\\t", "\\u00e9\\ud83d\\ude00", {"__proto__": 1}]') as unknown[];
  eq(v[0], 'a"\\/\b\f\n\r\t');
  eq(v[1], "é😀");
  eq(Object.keys(v[2] as object).join(), "__proto__");
  eq(Object.getPrototypeOf(v[2]), Object.prototype);
  const n = parseJson("[18446744073709551615, 1.8446744073709551615e19, -0, 5.0, 9007199254740993]") as unknown[];
  eq(n[0], 18446744073709551615n);
  eq(n[1], 18446744073709551615n);
  eq(n[2], -0);
  eq(n[3], 5);
  eq(n[4], 9007199254740993n);
});

test("integer and float rules on parsed numbers", () => {
  const big = (text: string): bigint => jsonBigInt(parseJson(text));
  eq(big("-9223372036854775808"), -9223372036854775808n);
  eq(big("5.0000000000000000001"), 5n);
  eq(big("-9223372036854775809"), -9223372036854775809n);
  eq(big("-9223372036854775808.5") < -9223372036854775808n, true, "rounds onto -2^63: out of range");
  eq(thrown(() => big("2.5")) instanceof JsonError, true);
  eq(big('"0000000000000000000000000001"'), 1n);
  eq(big(`"${"9".repeat(100000)}"`) > 18446744073709551615n, true);
  eq(jsonInt(parseJson("1e300")), 1e300);
  eq(jsonF64(parseJson("18446744073709551616")), 18446744073709551616);
  eq((thrown(() => jsonF32(parseJson("1e39"))) as JsonError).kind, "InvalidNumber");
  eq(jsonF32(parseJson("3.4028235e38")), 3.4028234663852886e38);
  eq(jsonF32("Infinity"), Number.POSITIVE_INFINITY);
  // JSON.parse("1e400") is Infinity: never read as the string form.
  for (const read of [jsonF64, jsonF32, jsonInt, jsonBigInt]) {
    eq((thrown(() => read(JSON.parse("1e400"))) as JsonError).kind, "InvalidNumber");
  }
});

test("hostile text: depth is limited before descending, long values are linear", () => {
  eq(parseError("[".repeat(2 << 20))[0], "TooDeep");
  eq(parseError("[".repeat(MAX_JSON_DEPTH + 1))[1], "[0]".repeat(MAX_JSON_DEPTH));
  eq(parseError('{"a":'.repeat(1 << 20))[0], "TooDeep");
  const ok = "[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH);
  eq(Array.isArray(parseJson(ok)), true);
  const long = `"${"x".repeat(10 << 20)}"`;
  eq((parseJson(long) as string).length, 10 << 20);
  const escapes = `"${"\\n".repeat(5 << 20)}"`;
  eq((parseJson(escapes) as string).length, 5 << 20);
  const bytes = new TextEncoder().encode(`["${"é".repeat(1 << 20)}"]`);
  eq(((parseJson(bytes) as string[])[0] ?? "").length, 1 << 20);
  eq(typeof parseJson(`0.${"1".repeat(10 << 20)}`), "number");
});
