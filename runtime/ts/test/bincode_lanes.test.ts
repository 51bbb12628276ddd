// Sequences of plain numbers in the bincode encoding (spec §13.8): typed arrays and
// plain arrays give the same bytes, element errors carry their index, and arrays cut
// short fail at their first missing element.

import { lanesFrom } from "../src/bincode_lanes.js";
import { BitwireError, ByteReader, ByteWriter, LITTLE_ENDIAN_HOST, jsonTyped } from "../src/index.js";
import { eq, test, thrown } from "./check.js";

function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

function failure(f: () => unknown): string {
  const e = thrown(f);
  return e instanceof BitwireError ? `${e.kind}@${e.bit}:${e.path}` : `not a BitwireError: ${String(e)}`;
}

/** Writes `list` after one byte (so that lanes start unaligned) with `f`; the hex after it. */
function lanes(f: (w: ByteWriter) => void): string {
  const w = new ByteWriter(1);
  w.u8(0xee);
  f(w);
  return hex(w.finish()).slice(2);
}

test("bincode lanes: the host is little-endian here (the bulk paths run)", () => {
  eq(LITTLE_ENDIAN_HOST, true);
});

test("bincode lanes: typed and plain arrays write the same bytes", () => {
  const cases: [string, (w: ByteWriter) => void, (w: ByteWriter) => void, string][] = [
    ["u8", (w) => w.u8s([1, 2, 255]), (w) => w.u8s(Uint8Array.of(1, 2, 255)), "0102ff"],
    ["i8", (w) => w.i8s([-1, 127]), (w) => w.i8s(Int8Array.of(-1, 127)), "ff7f"],
    ["u16", (w) => w.u16s([1, 2]), (w) => w.u16s(Uint16Array.of(1, 2)), "01000200"],
    ["i16", (w) => w.i16s([-2, 3]), (w) => w.i16s(Int16Array.of(-2, 3)), "feff0300"],
    ["u32", (w) => w.u32s([7, 2 ** 32 - 1]), (w) => w.u32s(Uint32Array.of(7, 2 ** 32 - 1)), "07000000ffffffff"],
    ["i32", (w) => w.i32s([-2]), (w) => w.i32s(Int32Array.of(-2)), "feffffff"],
    ["u64", (w) => w.u64s([300n]), (w) => w.u64s(BigUint64Array.of(300n)), "2c01000000000000"],
    ["i64", (w) => w.i64s([-2n]), (w) => w.i64s(BigInt64Array.of(-2n)), "feffffffffffffff"],
    ["f32", (w) => w.f32s([1.5, -0]), (w) => w.f32s(Float32Array.of(1.5, -0)), "0000c03f00000080"],
    ["f64", (w) => w.f64s([1.5]), (w) => w.f64s(Float64Array.of(1.5)), "000000000000f83f"],
  ];
  for (const [lane, plain, typed, want] of cases) {
    eq(lanes(plain), want, `${lane} from an array`);
    eq(lanes(typed), want, `${lane} from a typed array`);
  }
});

test("bincode lanes: a typed array's subarray writes only its own elements", () => {
  const all = Float64Array.of(1, 2, 3, 4);
  eq(lanes((w) => w.f64s(all.subarray(1, 3))), "00000000000000400000000000000840");
});

test("bincode lanes: NaN payloads pass through typed arrays", () => {
  const bits = Uint32Array.of(0x7fc00001);
  const w = new ByteWriter();
  w.f32s(new Float32Array(bits.buffer));
  eq(hex(w.finish()), "0100c07f");
  const back = new ByteReader(w.finish()).f32Array(1);
  eq(new Uint32Array(back.buffer)[0], 0x7fc00001);
});

test("bincode lanes: an element of the wrong type or range fails at its own bit", () => {
  const w = new ByteWriter();
  w.u8(0);
  const as = <T>(v: unknown): T => v as T;
  eq(failure(() => w.u8s([1, 256])), "OutOfRange@16:[1]");
  eq(failure(() => w.i8s([1, -129])), "OutOfRange@16:[1]");
  eq(failure(() => w.u16s([1, 2, 70000])), "OutOfRange@40:[2]");
  eq(failure(() => w.i16s([40000])), "OutOfRange@8:[0]");
  eq(failure(() => w.u32s([0, -1])), "OutOfRange@40:[1]");
  eq(failure(() => w.i32s([0.5])), "OutOfRange@8:[0]");
  eq(failure(() => w.u64s([1n, as(2)])), "OutOfRange@72:[1]");
  eq(failure(() => w.i64s([2n ** 63n])), "OutOfRange@8:[0]");
  eq(failure(() => w.f32s(as([1, "2"]))), "OutOfRange@40:[1]");
  eq(failure(() => w.f64s(as([null]))), "OutOfRange@8:[0]");
  eq(hex(w.finish()), "00");
});

test("bincode lanes: the reader gives plain and typed arrays of the same numbers", () => {
  const bytes = Uint8Array.of(0xee, 1, 0, 0xfe, 0xff, 0, 0, 0xc0, 0x3f);
  const at = (f: (r: ByteReader) => unknown): unknown => {
    const r = new ByteReader(bytes);
    r.u8();
    return f(r);
  };
  eq(at((r) => r.u16s(2)), [1, 0xfffe]);
  eq(at((r) => r.i16s(2)), [1, -2]);
  eq(at((r) => r.u8s(3)), [1, 0, 0xfe]);
  eq(at((r) => r.i8s(3)), [1, 0, -2]);
  eq(at((r) => Array.from(r.u16Array(2))), [1, 0xfffe]);
  eq(at((r) => Array.from(r.i16Array(2))), [1, -2]);
  eq(at((r) => Array.from(r.u8Array(3))), [1, 0, 0xfe]);
  eq(at((r) => Array.from(r.i8Array(3))), [1, 0, -2]);
  eq(at((r) => r.u32s(2)), [0xfffe0001, 0x3fc00000]);
  eq(at((r) => r.i32s(1)), [0xfffe0001 | 0]);
  eq(at((r) => Array.from(r.u32Array(2))), [0xfffe0001, 0x3fc00000]);
  eq(at((r) => Array.from(r.i32Array(1))), [0xfffe0001 | 0]);
  eq(at((r) => r.f32s(2)[1]), 1.5);
  eq(at((r) => r.f32Array(2)[1]), 1.5);
  const wide = Uint8Array.of(0xee, ...new Uint8Array(BigInt64Array.of(-2n, 3n).buffer));
  const r = new ByteReader(wide);
  r.u8();
  eq(r.i64s(2).join(), "-2,3");
  const t = new ByteReader(wide);
  t.u8();
  eq(Array.from(t.u64Array(2)).join(), `${2n ** 64n - 2n},3`);
  const f = new ByteReader(new Uint8Array(Float64Array.of(0.1, -0).buffer));
  eq(f.f64s(2), [0.1, -0]);
  const g = new ByteReader(new Uint8Array(Float64Array.of(0.1, -0).buffer));
  eq(Array.from(g.f64Array(2)), [0.1, -0]);
});

test("bincode lanes: arrays cut short fail at their first missing element", () => {
  const bytes = Uint8Array.of(1, 2, 3, 4, 5);
  const cut = (f: (r: ByteReader) => unknown): string => failure(() => f(new ByteReader(bytes)));
  eq(cut((r) => r.u16s(3)), "Truncated@32:[2]");
  eq(cut((r) => r.u32Array(2)), "Truncated@32:[1]");
  eq(cut((r) => r.u8s(6)), "Truncated@40:[5]");
  eq(cut((r) => r.f64s(1)), "Truncated@0:[0]");
  eq(cut((r) => r.u64Array(1)), "Truncated@0:[0]");
  eq(cut((r) => r.skipElements(3, 2)), "Truncated@32:[2]");
});

test("bincode lanes: a list decodes in bulk after its length check", () => {
  const w = new ByteWriter();
  const values = Float64Array.from({ length: 1000 }, (_, i) => i / 7);
  w.len(values.length, Number.POSITIVE_INFINITY);
  w.f64s(values);
  const r = new ByteReader(w.finish());
  const out = r.f64Array(r.len(Number.POSITIVE_INFINITY, 8, 8));
  r.finish();
  eq(out.length, 1000);
  eq(out.every((x, i) => x === values[i]), true);
});

test("bincode lanes: 64-bit plain arrays at aligned and unaligned positions", () => {
  const values = [0n, 1n, 2n ** 63n, 2n ** 64n - 1n];
  const signed = [-(2n ** 63n), -1n, 0n, 2n ** 63n - 1n];
  for (const lead of [0, 1, 4, 8]) {
    const w = new ByteWriter(1);
    for (let i = 0; i < lead; i++) {
      w.u8(0xee);
    }
    w.u64s(values);
    w.i64s(signed);
    const bytes = w.finish().slice();
    eq(bytes.length, lead + 64);
    const typed = new ByteWriter();
    typed.u64s(BigUint64Array.from(values));
    typed.i64s(BigInt64Array.from(signed));
    eq(hex(bytes.subarray(lead)), hex(typed.finish()), `lead ${lead}`);
    for (const offset of [0, 3, 8]) {
      const input = new Uint8Array(bytes.length + offset);
      input.set(bytes, offset);
      const r = new ByteReader(input.subarray(offset));
      r.skip(lead);
      eq(r.u64s(4).join(), values.join(), `lead ${lead}, offset ${offset}`);
      eq(r.i64s(4).join(), signed.join(), `lead ${lead}, offset ${offset}`);
      r.finish();
    }
    eq(failure(() => w.u64s([1n, 2n ** 64n])), `OutOfRange@${8 * (lead + 72)}:[1]`);
    eq(failure(() => w.i64s([-(2n ** 63n) - 1n])), `OutOfRange@${8 * (lead + 64)}:[0]`);
  }
});

test("typed arrays from JSON: exact values make a typed array, others stay an array", () => {
  const u8 = jsonTyped([1, 2, 255], (n) => new Uint8Array(n));
  eq(u8 instanceof Uint8Array && Array.from(u8).join() === "1,2,255", true);
  const f32 = jsonTyped([Math.fround(0.1), Number.NaN, -0], (n) => new Float32Array(n));
  eq(f32 instanceof Float32Array && Object.is(f32[2], -0), true);
  const u64 = jsonTyped([2n ** 64n - 1n], (n) => new BigUint64Array(n));
  eq(u64 instanceof BigUint64Array && u64[0] === 2n ** 64n - 1n, true);
  // Values the typed array would change are left to the encoder (OutOfRange there).
  for (const [values, make] of [
    [[256], (n: number) => new Uint8Array(n)],
    [[-1], (n: number) => new Uint16Array(n)],
    [[0.1], (n: number) => new Float32Array(n)],
    [[-1n], (n: number) => new BigUint64Array(n)],
    [[1], (n: number) => new BigInt64Array(n)],
    [[1n], (n: number) => new Int32Array(n)],
  ] as [(number | bigint)[], (n: number) => ArrayBufferView][]) {
    eq(Array.isArray(jsonTyped(values, make)), true, String(values));
  }
});

test("bincode lanes: the big-endian path reads the same numbers element by element", () => {
  const wire = Uint8Array.of(0xee, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x00, 0x00, 0xc0, 0x3f);
  for (const littleEndian of [true, false]) {
    const u16 = lanesFrom(wire, 1, 2, 2, (b) => new Uint16Array(b), (v, at) => v.getUint16(at, true), littleEndian);
    eq(Array.from(u16), [0x0201, 0x0403], `u16, little-endian ${littleEndian}`);
    const u64 = lanesFrom(wire, 1, 1, 8, (b) => new BigUint64Array(b), (v, at) => v.getBigUint64(at, true), littleEndian);
    eq(u64[0], 0x0807060504030201n, `u64, little-endian ${littleEndian}`);
    const f32 = lanesFrom(wire, 9, 1, 4, (b) => new Float32Array(b), (v, at) => v.getFloat32(at, true), littleEndian);
    eq(f32[0], 1.5, `f32, little-endian ${littleEndian}`);
  }
});
