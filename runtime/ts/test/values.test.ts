// Floats (spec §3.2, §4.3), zigzag (§5.4), errors (§7) and the JSON helpers.

import {
  BitReader,
  BitWriter,
  BitwireError,
  JsonError,
  f32ToBits,
  f32ToJson,
  inField,
  atIndex,
  isNonCanonicalF32,
  isNonCanonicalF64,
  jsonBigInt,
  jsonBytes,
  jsonInt,
  jsonObject,
  field,
  quantizeBig,
  rangeError,
  floatRangeError,
  enumError,
  lengthError,
  typeError,
  utf8Error,
  utf8Length,
  shortestF32,
  toHex,
  unzigzag32,
  unzigzag64,
  zigzag32,
  zigzag64,
} from "../src/index.js";
import { eq, test, thrown } from "./check.js";

test("NaN is canonical on the wire; other NaNs are rejected", () => {
  eq(f32ToBits(Number.NaN), 0x7fc00000);
  eq(isNonCanonicalF32(0x7fc00000), false);
  eq(isNonCanonicalF32(0x7fc00001), true);
  eq(isNonCanonicalF32(0xffc00000), true);
  eq(isNonCanonicalF32(0x7f800000), false, "infinity");
  eq(isNonCanonicalF64(0, 0x7ff80000), false);
  eq(isNonCanonicalF64(1, 0x7ff80000), true);
  eq(isNonCanonicalF64(0, 0xfff80000), true);
  const w = new BitWriter();
  w.writeF64(-0);
  w.writeBits(f32ToBits(0.1), 32);
  const r = new BitReader(w.finish());
  eq(r.readF64(), -0);
  eq(r.readF32(), Math.fround(0.1));
});

test("grids over 2^53 steps quantize as Rust's `as u64` converts (spec §4.3)", () => {
  const steps = 2n ** 60n - 1n;
  eq(quantizeBig(0, 0, 1, steps), 0n);
  eq(quantizeBig(1, 0, 1, steps), 2n ** 60n, "binary64 rounds steps up; Rust gives the same");
  eq(quantizeBig(1.5, 0, 1, steps), -1n);
  eq(quantizeBig(Number.NaN, 0, 1, steps), -1n);
  eq(quantizeBig("0.5" as unknown as number, 0, 1, steps), -1n, "no conversion of strings");
});

test("zigzag maps 0, -1, 1, -2 to 0, 1, 2, 3", () => {
  for (const [v, u] of [
    [0, 0],
    [-1, 1],
    [1, 2],
    [-2, 3],
    [2147483647, 4294967294],
    [-2147483648, 4294967295],
  ] as const) {
    eq(zigzag32(v), u);
    eq(unzigzag32(u), v);
  }
  eq(zigzag64(-9223372036854775808n), 18446744073709551615n);
  eq(unzigzag64(18446744073709551614n), 9223372036854775807n);
});

test("f32 JSON is the shortest decimal that round-trips as an f32", () => {
  eq(f32ToJson(Math.fround(0.1)), 0.1);
  eq(f32ToJson(Math.fround(3.4028234663852886e38)), 3.4028235e38);
  eq(f32ToJson(Math.fround(1e-45)), 1e-45);
  eq(f32ToJson(-0), -0);
  // Exactly between two shortest decimals: the even last digit.
  eq(f32ToJson(-409.328125), -409.32812);
  eq(f32ToJson(34493.8125), 34493.812);
  eq(f32ToJson(Number.NEGATIVE_INFINITY), "-Infinity");
  // Sampled bit patterns all round-trip.
  const view = new DataView(new ArrayBuffer(4));
  for (let bits = 1; bits < 0x7f800000; bits += 7919 * 61) {
    view.setUint32(0, bits);
    const x = view.getFloat32(0);
    eq(Math.fround(shortestF32(x)), x, `pattern ${bits.toString(16)}`);
  }
});

test("errors carry kind, bit and a path built while unwinding", () => {
  const e = new BitwireError("OutOfRange", 3, ["x"]);
  inField(atIndex(inField(e, "pos"), 2), "entities");
  eq(e.path, "entities[2].pos.x");
  eq(e.message, "OutOfRange at bit 3, entities[2].pos.x");
  eq(e instanceof Error, true);
  eq(e.detail.type, "None");
});

test("error messages name the value and the limit, as Rust's Display does", () => {
  const range = inField(atIndex(rangeError(37, 1200, 0, 1000, "health"), 3), "entities") as BitwireError;
  eq(range.message, "OutOfRange at bit 37, entities[3].health: 1200 not in 0..=1000");
  eq(range.detail.type, "Range");
  eq(rangeError(0, 2.5, 0, 15).message, "OutOfRange at bit 0: 2.5 not in 0..=15");
  eq(rangeError(0, "5", 0, 15).message, 'OutOfRange at bit 0: the string "5", expected an integer in 0..=15');
  eq(rangeError(0, undefined, 0n, 10n).message, "OutOfRange at bit 0: undefined, expected a bigint in 0..=10");
  eq(rangeError(0, 5, 0n, 10n).message, "OutOfRange at bit 0: the number 5, expected a bigint in 0..=10");
  eq(rangeError(0, 5n, 0, 10).message, "OutOfRange at bit 0: the bigint 5n, expected an integer in 0..=10");
  eq(floatRangeError(4, "1", -1, 1).message, 'OutOfRange at bit 4: the string "1", expected a number in -1.0..=1.0');
  eq(floatRangeError(4, 2, -1, 1, "x").message, "OutOfRange at bit 4, x: 2.0 not in -1.0..=1.0");
  eq(floatRangeError(4, Number.NaN, -1, 1).message, "OutOfRange at bit 4: NaN not in -1.0..=1.0");
  eq(enumError(1, "Purple").message, 'InvalidEnum at bit 1: "Purple" is not declared');
  eq(enumError(1, 7n).message, "InvalidEnum at bit 1: 7 is not declared");
  eq(lengthError(9, 17, 16).message, "InvalidLength at bit 9: length 17, at most 16");
  eq(typeError("InvalidLength", 0, Uint8Array.of(1), "an array").message, "InvalidLength at bit 0: a Uint8Array, expected an array");
  eq(typeError("OutOfRange", 0, null, "a boolean", "a", "b").path, "a.b");
  eq(utf8Error(2, 5).kind, "InvalidUtf8");
  eq(utf8Error(2, "\ud800").message, "InvalidUtf8 at bit 2: a string with a lone surrogate, expected UTF-16 that has a UTF-8 form");
});

test("utf8Length: UTF-8 bytes, -1 for no string or a lone surrogate", () => {
  eq(utf8Length("abc"), 3);
  eq(utf8Length("h\u00e9\u20ac\ud83d\ude00"), 1 + 2 + 3 + 4);
  eq(utf8Length("\ud800"), -1);
  eq(utf8Length("a\udc00b"), -1);
  eq(utf8Length("\ud83d"), -1);
  eq(utf8Length(42), -1);
  eq(utf8Length(null), -1);
});

test("JSON helpers follow docs/json-mapping.md", () => {
  eq(jsonInt(5.0), 5);
  eq(jsonInt(-0), 0);
  eq((thrown(() => jsonInt(2.5)) as JsonError).kind, "TypeMismatch");
  eq((thrown(() => jsonInt("5")) as JsonError).kind, "TypeMismatch");
  eq(jsonBigInt("18446744073709551615"), 18446744073709551615n);
  eq(jsonBigInt(-3), -3n);
  eq((thrown(() => jsonBigInt("1e3")) as JsonError).kind, "InvalidNumber");
  eq(jsonBytes("00ABff"), [0, 0xab, 0xff]);
  eq(toHex(Uint8Array.of(0, 0xab, 0xff)), "00abff");
  eq((thrown(() => jsonBytes("abc")) as JsonError).kind, "TypeMismatch");
  const typo = thrown(() => jsonObject({ a: 1, typo: 2 }, ["a", "b"])) as JsonError;
  eq(`${typo.kind} ${typo.path}`, "UnknownField typo");
  const o = jsonObject({ a: 1 }, ["a", "b"]);
  const missing = thrown(() => field(o, "b", jsonInt)) as JsonError;
  eq(`${missing.kind} ${missing.path}`, "MissingField b");
});
