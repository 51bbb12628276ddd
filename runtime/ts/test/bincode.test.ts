// The bincode writer and reader (spec §13): the bytes bincode 1.3.3 and wincode 0.6.3
// write for each shape (their values observed with the crates, recorded in the
// issue's research notes), and every rejection with its kind and bit.

import { BitwireError, ByteReader, ByteWriter, DEFAULT_LIMITS, type Limits } from "../src/index.js";
import { eq, test, thrown } from "./check.js";

/** Lowercase hex of bytes. */
function hex(b: Uint8Array): string {
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

/** Bytes from hex (spaces allowed). */
function unhex(s: string): Uint8Array {
  const t = s.replace(/ /g, "");
  return Uint8Array.from({ length: t.length / 2 }, (_, i) => Number.parseInt(t.slice(2 * i, 2 * i + 2), 16));
}

/** What `f` wrote into a fresh writer, as hex. */
function written(f: (w: ByteWriter) => void): string {
  const w = new ByteWriter(1);
  f(w);
  return hex(w.finish());
}

/** `kind@bit:path` of what `f` threw. */
function failure(f: () => unknown): string {
  const e = thrown(f);
  return e instanceof BitwireError ? `${e.kind}@${e.bit}:${e.path}` : `not a BitwireError: ${String(e)}`;
}

/** A reader of `hex`, run through `f`, which must consume it all. */
function read<T>(s: string, f: (r: ByteReader) => T, limits: Limits = DEFAULT_LIMITS): T {
  const r = new ByteReader(unhex(s), limits);
  const v = f(r);
  r.finish();
  return v;
}

test("bincode: integers are little-endian in their representation's width", () => {
  eq(written((w) => w.u8(0xab)), "ab");
  eq(written((w) => w.u16(0x1234)), "3412");
  eq(written((w) => w.u32(0x12345678)), "78563412");
  eq(written((w) => w.u64(300n)), "2c01000000000000");
  eq(written((w) => w.i8(-1)), "ff");
  eq(written((w) => w.i16(-2)), "feff");
  eq(written((w) => w.i32(-2)), "feffffff");
  eq(written((w) => w.i64(-2n)), "feffffffffffffff");
  eq(written((w) => w.int16(-5, -2048, 2047)), "fbff", "i12 −5");
  eq(written((w) => w.int64(-5, -(2 ** 39), 2 ** 39 - 1)), "fbffffffffffffff", "i40 −5");
  eq(written((w) => w.int64(2 ** 40 + 3, 0, 2 ** 41 - 1)), "0300000000010000", "u41");
  eq(written((w) => w.int8(7, 7, 7)), "07", "u8 in 7..=7 is one byte");
  eq(written((w) => w.int8(-3, -4, 3)), "fd", "i3");
  eq(written((w) => w.int32(-(2 ** 20), -(2 ** 20), 2 ** 20)), "0000f0ff", "i21");
  eq(written((w) => w.int32(2 ** 31, 0, 2 ** 31)), "00000080", "u32 in 0..=2^31");
  eq(read("fd", (r) => r.i8In(-4, 3)), -3);
  eq(read("0000f0ff", (r) => r.i32In(-(2 ** 20), 2 ** 20)), -(2 ** 20));
  eq(read("00000080", (r) => r.u32In(0, 2 ** 31)), 2 ** 31);
  eq(written((w) => w.big(2n ** 60n, 5n, 2n ** 64n - 1n)), "0000000000000010");
  eq(read("3412", (r) => r.u16()), 0x1234);
  eq(read("78563412", (r) => r.u32()), 0x12345678);
  eq(read("ffffffff", (r) => r.u32()), 0xffffffff);
  eq(read("feffffff", (r) => r.i32()), -2);
  eq(read("feff", (r) => r.i16()), -2);
  eq(read("ff", (r) => r.i8()), -1);
  eq(read("2c01000000000000", (r) => r.u64()), 300n);
  eq(read("feffffffffffffff", (r) => r.i64()), -2n);
  eq(read("ffffffffffffffff", (r) => r.u64()), 2n ** 64n - 1n);
  eq(read("fbff", (r) => r.i16In(-2048, 2047)), -5);
  eq(read("fbffffffffffffff", (r) => r.i64In(-(2 ** 39), 2 ** 39 - 1)), -5);
  eq(read("0300000000010000", (r) => r.u64In(0, 2 ** 41 - 1)), 2 ** 40 + 3);
  eq(read("0000000000000010", (r) => r.big(false, 5n, 2n ** 64n - 1n)), 2n ** 60n);
});

test("bincode: bools, floats, tags and indices", () => {
  eq(written((w) => w.bool(false)), "00");
  eq(written((w) => w.bool(true)), "01");
  eq(written((w) => w.f32(1.5)), "0000c03f");
  eq(written((w) => w.f32(-0)), "00000080");
  eq(written((w) => w.f64(1.5)), "000000000000f83f");
  eq(written((w) => w.f64(Number.NEGATIVE_INFINITY)), "000000000000f0ff");
  eq(written((w) => w.f32In(0.25, 0, 1)), "0000803e");
  eq(written((w) => w.f64In(10, 0, 10)), "0000000000002440");
  eq(written((w) => w.option(false)), "00");
  eq(written((w) => w.option(true)), "01");
  eq(written((w) => w.index(2)), "02000000", "Team::Spectator");
  eq(read("01", (r) => r.bool()), true);
  eq(read("0000c03f", (r) => r.f32()), 1.5);
  eq(Object.is(read("00000080", (r) => r.f32()), -0), true);
  eq(read("000000000000f0ff", (r) => r.f64()), Number.NEGATIVE_INFINITY);
  eq(Number.isNaN(read("0100c07f", (r) => r.f32())), true, "a NaN with a payload passes");
  eq(read("0000803e", (r) => r.f32In(0, 1)), 0.25);
  eq(read("02000000", (r) => r.variant(3)), 2);
  eq(read("01", (r) => r.option()), true);
  eq(read("00", (r) => r.option()), false);
});

test("bincode: strings and bytes carry a u64 length", () => {
  eq(written((w) => w.string("hi", Number.POSITIVE_INFINITY)), "02000000000000006869");
  eq(written((w) => w.string("", Number.POSITIVE_INFINITY)), "0000000000000000");
  eq(written((w) => w.string("é€😀", 9)), "0900000000000000c3a9e282acf09f9880");
  const long = "x".repeat(100) + "é";
  const w = new ByteWriter(1);
  w.string(long, Number.POSITIVE_INFINITY);
  eq(hex(w.finish().subarray(0, 8)), "6600000000000000", "102 bytes of UTF-8");
  eq(read(hex(w.finish()), (r) => r.string(r.len(Number.POSITIVE_INFINITY, 1, 1), 0)), long);
  eq(written((w) => w.bytes(Uint8Array.of(1, 2, 3), 3)), "0300000000000000010203");
  eq(read("02000000000000006869", (r) => r.string(r.len(Number.POSITIVE_INFINITY, 1, 1), 0)), "hi");
  eq(read("0900000000000000c3a9e282acf09f9880", (r) => r.string(r.len(9, 1, 1), 0)), "é€😀");
  eq(read("efbbbf", (r) => r.string(3, 0)), "\ufeff", "a leading BOM is kept");
  eq(hex(read("0300000000000000010203", (r) => r.bytes(r.len(3, 1, 1)))), "010203");
  eq(written((w) => w.len(2, 8)), "0200000000000000");
});

test("bincode: the writer reuses its buffer and its view", () => {
  const w = new ByteWriter(8);
  w.u32(1);
  const first = w.finish();
  w.reset();
  w.u32(2);
  eq(w.finish() === first, true, "same view for the same length");
  eq(hex(first), "02000000");
  w.reset();
  for (let i = 0; i < 1000; i++) {
    w.u64(BigInt(i));
  }
  eq(w.bytePos, 8000);
  eq(w.bitPos, 64000);
  eq(read(hex(w.finish()).slice(8 * 2 * 999), (r) => r.u64()), 999n, "grown past its capacity");
});

test("bincode: the encoder rejects values of the wrong type or range", () => {
  const w = new ByteWriter();
  w.u8(1);
  const as = <T>(v: unknown): T => v as T;
  eq(failure(() => w.u8(256)), "OutOfRange@8:");
  eq(failure(() => w.u8(1.5)), "OutOfRange@8:");
  eq(failure(() => w.u8(as("1"))), "OutOfRange@8:");
  eq(failure(() => w.u16(-1)), "OutOfRange@8:");
  eq(failure(() => w.u32(2 ** 32)), "OutOfRange@8:");
  eq(failure(() => w.i8(128)), "OutOfRange@8:");
  eq(failure(() => w.i16(-32769)), "OutOfRange@8:");
  eq(failure(() => w.i32(2 ** 31)), "OutOfRange@8:");
  eq(failure(() => w.u64(-1n)), "OutOfRange@8:");
  eq(failure(() => w.u64(as(1))), "OutOfRange@8:", "a number for a bigint");
  eq(failure(() => w.i64(2n ** 63n)), "OutOfRange@8:");
  eq(failure(() => w.int8(16, 0, 15)), "OutOfRange@8:", "u4");
  eq(failure(() => w.int16(Number.NaN, 0, 1000)), "OutOfRange@8:");
  eq(failure(() => w.int32(2 ** 31 + 1, 0, 2 ** 31)), "OutOfRange@8:");
  eq(failure(() => w.int64(2 ** 53, 0, 2 ** 53 - 1)), "OutOfRange@8:");
  eq(failure(() => w.int64(as("5"), 0, 9)), "OutOfRange@8:");
  eq(failure(() => w.big(4n, 5n, 10n)), "OutOfRange@8:");
  eq(failure(() => w.bool(as(1))), "OutOfRange@8:");
  eq(failure(() => w.f32(as("1"))), "OutOfRange@8:");
  eq(failure(() => w.f64(as(null))), "OutOfRange@8:");
  eq(failure(() => w.f32In(Number.NaN, 0, 1)), "OutOfRange@8:");
  eq(failure(() => w.f64In(1.5, 0, 1)), "OutOfRange@8:");
  eq(failure(() => w.f32In(as(undefined), 0, 1)), "OutOfRange@8:");
  eq(failure(() => w.len(9, 8)), "InvalidLength@8:");
  eq(failure(() => w.string("abc", 2)), "InvalidLength@8:");
  eq(failure(() => w.string("é", 1)), "InvalidLength@8:", "the bound counts UTF-8 bytes");
  eq(failure(() => w.string("\ud800", 8)), "InvalidUtf8@8:", "a lone surrogate");
  eq(failure(() => w.string(as(5), 8)), "InvalidUtf8@8:");
  eq(failure(() => w.bytes(as([1, 2]), 8)), "InvalidLength@8:");
  eq(failure(() => w.bytes(Uint8Array.of(1, 2, 3), 2)), "InvalidLength@8:");
  eq(hex(w.finish()), "01", "nothing written by the failed calls");
});

test("bincode: the decoder rejects what spec §13 says, at the value", () => {
  eq(failure(() => read("02", (r) => r.bool())), "OutOfRange@0:");
  eq(failure(() => read("0205", (r) => r.option())), "InvalidEnum@0:");
  eq(failure(() => read("0003000000", (r) => [r.u8(), r.variant(3)])), "InvalidEnum@8:");
  eq(failure(() => read("07000000", (r) => r.variant(3))), "InvalidEnum@0:", "a declared value is no index");
  eq(failure(() => read("0102", (r) => r.u32())), "Truncated@0:");
  eq(failure(() => read("01", (r) => [r.u8(), r.u16()])), "Truncated@8:");
  eq(failure(() => read("0102", (r) => r.u8())), "TrailingData@8:");
  eq(failure(() => read("10", (r) => r.u8In(0, 15))), "OutOfRange@0:", "u4");
  eq(failure(() => read("fb", (r) => r.i8In(-4, 3))), "OutOfRange@0:", "i3");
  eq(failure(() => read("01000080", (r) => r.u32In(0, 2 ** 31))), "OutOfRange@0:");
  eq(failure(() => read("ffffefff", (r) => r.i32In(-(2 ** 20), 2 ** 20))), "OutOfRange@0:");
  eq(failure(() => read("0000", (r) => r.i32In(0, 1))), "Truncated@0:");
  eq(failure(() => read("e903", (r) => r.u16In(0, 1000))), "OutOfRange@0:");
  eq(failure(() => read("0008", (r) => r.i16In(-2048, 2047))), "OutOfRange@0:", "i12 2048");
  eq(failure(() => read("fff7", (r) => r.i16In(-2048, 2047))), "OutOfRange@0:", "i12 −2049");
  eq(read("00f8", (r) => r.i16In(-2048, 2047)), -2048);
  eq(failure(() => read("ffffffffffffffff", (r) => r.u64In(0, 2 ** 40))), "OutOfRange@0:");
  eq(failure(() => read("0000000000000080", (r) => r.i64In(-(2 ** 39), 2 ** 39))), "OutOfRange@0:");
  eq(failure(() => read("0400000000000000", (r) => r.big(false, 5n, 10n))), "OutOfRange@0:");
  eq(failure(() => read("0000c07f", (r) => r.f32In(0, 1))), "OutOfRange@0:", "NaN");
  eq(failure(() => read("0000803f0000003f", (r) => [r.f32(), r.f32In(0, 0.25)])), "OutOfRange@32:");
  eq(failure(() => read("01ff", (r) => [r.u8(), r.string(r.len(8, 1, 1), 8)])), "Truncated@8:");
  eq(failure(() => read("0100000000000000ff", (r) => r.string(r.len(8, 1, 1), 0))), "InvalidUtf8@0:");
  const invalidLong = `4100000000000000${"61".repeat(64)}ff`;
  eq(failure(() => read(invalidLong, (r) => r.string(r.len(100, 1, 1), 0))), "InvalidUtf8@0:");
  eq(failure(() => read("0100000000000000ff", (r) => r.skipString(r.len(8, 1, 1), 0))), "InvalidUtf8@0:");
  eq(failure(() => read("0400000000000000eda080", (r) => r.string(r.len(8, 1, 1), 0))), "Truncated@0:");
  eq(failure(() => read("0300000000000000eda080", (r) => r.string(r.len(8, 1, 1), 0))), "InvalidUtf8@0:", "a surrogate");
});

test("bincode: lengths are checked in spec §13.3's order before allocating", () => {
  const len = (s: string, max: number | bigint, elemMin: number, charge: number, limits?: Limits): string =>
    failure(() => read(s, (r) => r.len(max, elemMin, charge), limits));
  // Above the bound first, even when the bytes are missing too.
  eq(len("0900000000000000", 8, 1, 1), "InvalidLength@0:");
  eq(len("ffffffffffff0000", 8, 8, 8), "InvalidLength@0:", "2^48 − 1 over a bound");
  eq(len("ffffffffffffffff", 2n ** 60n, 1, 1), "InvalidLength@0:", "u64::MAX over a bigint bound");
  eq(len("ffffffffffffffff", 2n ** 64n - 1n, 1, 1), "Truncated@0:", "u64::MAX under its bound");
  eq(len("ffffffffffff0000", Number.POSITIVE_INFINITY, 8, 8), "Truncated@0:", "2^48 − 1, 8 bytes each");
  eq(len("0200000000000000010203", Number.POSITIVE_INFINITY, 8, 8), "Truncated@0:", "2 × 8 > 3 bytes");
  // The budget: 2 elements charged 100 bytes each and 32 for the allocation.
  const tight: Limits = { base: 231, perInputByte: 0 };
  eq(len(`0200000000000000${"00".repeat(8)}`, 2, 4, 100, tight), "LimitExceeded@0:");
  const r = new ByteReader(unhex(`0200000000000000${"00".repeat(8)}`), { base: 232, perInputByte: 0 });
  eq(r.len(2, 4, 100), 2);
  eq(r.budgetLeft, 0);
  eq(read("0000000000000000", (r) => r.len(0, 8, 1 << 30), { base: 0, perInputByte: 0 }), 0, "an empty list is free");
});

test("bincode: verify skips with the read's errors", () => {
  eq(failure(() => read("0102", (r) => r.skip(4))), "Truncated@0:");
  const r = new ByteReader(unhex("0000000000000000"));
  r.skip(8);
  r.finish();
});
