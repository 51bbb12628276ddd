// Floats (spec §3.2, §4.3), zigzag (§5.4), errors (§7) and the JSON helpers.

import {
  BitReader,
  BitWriter,
  BitwireError,
  JsonError,
  dequantize,
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
  quantize,
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
  w.writeF32(0.1);
  const r = new BitReader(w.finish());
  eq(r.readF64(), -0);
  eq(r.readF32(), Math.fround(0.1));
});

test("quantization round-trips on the grid (spec §4.3)", () => {
  const [min, max, steps] = [-1024, 1024, 65535];
  for (const q of [0, 1, 2, 32767, 32768, 65534, 65535]) {
    const v = dequantize(q, min, max, steps);
    eq(quantize(v, min, max, steps), q);
    eq(quantize(Math.fround(v), min, max, steps), q);
  }
  eq(dequantize(steps, min, max, steps), max);
  eq(quantize(1024.5, min, max, steps), -1);
  eq(quantize(Number.NaN, min, max, steps), -1);
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
  eq(e.message, "OutOfRange at bit 3 in `entities[2].pos.x`");
  eq(e instanceof Error, true);
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
