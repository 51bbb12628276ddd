// The bit writer and reader (spec §1, §2.2, §5.4, §5.6).

import { BitReader, BitWriter, BitwireError, isUtf8, utf8Length } from "../src/index.js";
import { eq, test, thrown } from "./check.js";

const encoder = new TextEncoder();
const utf8Of = (s: string): Uint8Array => encoder.encode(s);

function kindAndBit(e: unknown): string {
  return e instanceof BitwireError ? `${e.kind}@${e.bit}:${e.path}` : `not a BitwireError: ${String(e)}`;
}

test("nibble's example is 4b 96 (spec §10)", () => {
  const w = new BitWriter();
  w.writeBool(true);
  w.writeBits(5, 4);
  w.writeBits(2, 2);
  w.writeBits(300, 9);
  eq(w.bitPos, 16);
  eq(w.finish(), [0x4b, 0x96]);
  const r = new BitReader(Uint8Array.of(0x4b, 0x96));
  eq(r.readBool(), true);
  eq(r.readBits(4), 5);
  eq(r.readBits(2), 2);
  eq(r.readBits(9), 300);
  r.finish();
});

test("values round-trip at every alignment", () => {
  const values: [number, number][] = [
    [1, 1],
    [0xabc, 12],
    [0xffffffff, 32],
    [0x7f, 7],
    [0, 0],
    [0x12345, 17],
  ];
  for (let lead = 0; lead < 8; lead++) {
    const w = new BitWriter(1);
    w.writeBits(0, lead);
    for (const [v, b] of values) {
      w.writeBits(v, b);
    }
    w.writeUint(2 ** 53 - 1, 53);
    w.writeBig(0xfedcba9876543210n, 64);
    const bytes = w.finish().slice();
    const r = new BitReader(bytes);
    r.readBits(lead);
    for (const [v, b] of values) {
      eq(r.readBits(b), v, `lead ${lead}, ${b} bits`);
    }
    eq(r.readUint(53), 2 ** 53 - 1);
    eq(r.readBig(64), 0xfedcba9876543210n);
    r.finish();
  }
});

test("the writer reuses its buffer and its view", () => {
  const w = new BitWriter(8);
  w.writeBits(1, 8);
  const a = w.finish();
  w.reset();
  w.writeBits(2, 8);
  const b = w.finish();
  eq(a === b, true, "same view object");
  eq(b, [2]);
});

test("truncation, padding and trailing data (spec §2.2)", () => {
  eq(kindAndBit(thrown(() => new BitReader(Uint8Array.of(0xff)).readBits(9))), "Truncated@0:");
  const pad = new BitReader(Uint8Array.of(0b11));
  pad.readBits(1);
  eq(kindAndBit(thrown(() => pad.finish())), "InvalidPadding@1:");
  const trail = new BitReader(Uint8Array.of(1, 0));
  trail.readBits(1);
  eq(kindAndBit(thrown(() => trail.finish())), "TrailingData@8:");
});

test("chunks read fields unchecked and name the first truncated one", () => {
  const r = new BitReader(Uint8Array.of(0xff, 0x01));
  r.loadChunk(24);
  eq(r.chunkLo & 0xff, 0xff);
  eq(r.chunkAvail, 16);
  eq(r.bitPos, 16);
  eq(kindAndBit(r.chunkTruncated([[0, 8, ["a"]], [8, 4, ["b"]], [12, 12, ["c", "d"]]])), "Truncated@12:c.d");
});

test("varint sizes follow spec §5.4", () => {
  const size = (v: number, width: number): number => {
    const w = new BitWriter();
    w.writeVaruint(v, width);
    return w.bitPos;
  };
  eq(size(0, 64), 5);
  eq(size(15, 64), 5);
  eq(size(16, 64), 10);
  eq(size(256, 64), 15);
  eq(size(0xffff, 16), 3 + 16);
  eq(size(0xffffffff, 32), 7 + 32);
  const w = new BitWriter();
  w.writeVaru64(0xffffffffffffffffn);
  eq(w.bitPos, 15 + 64);
  const r = new BitReader(w.finish());
  eq(r.readVaru64(), 0xffffffffffffffffn);
  const five = new BitWriter();
  five.writeVaruint(5, 64);
  eq(five.finish(), [0x0a]);
});

test("non-minimal and truncated varints are rejected at their first bit", () => {
  const w = new BitWriter();
  w.writeBits(0b01, 2);
  w.writeBits(5, 8);
  eq(kindAndBit(thrown(() => new BitReader(w.finish()).readVaruint(32))), "NonCanonical@0:");
  eq(kindAndBit(thrown(() => new BitReader(Uint8Array.of(0xff)).readVaru64())), "Truncated@0:");
});

test("lengths are checked before allocation (spec §5.6)", () => {
  const r = new BitReader(new Uint8Array(4));
  r.checkLen(4, 8, 1, 0);
  eq(kindAndBit(thrown(() => r.checkLen(5, 8, 1, 3))), "Truncated@3:");
  eq(kindAndBit(thrown(() => r.checkLen(2 ** 64, 8, 1, 0))), "Truncated@0:");
});

test("lengths are charged against the decode budget (spec §11)", () => {
  const r = new BitReader(new Uint8Array(10), { base: 100, perInputByte: 2 });
  eq(r.budgetLeft, 120);
  r.checkLen(0, 1, 1000, 0);
  eq(r.budgetLeft, 120, "an empty sequence costs nothing");
  r.checkLen(8, 1, 10, 0);
  eq(r.budgetLeft, 8, "8 x 10 + 32");
  const e = thrown(() => r.checkLen(1, 1, 1, 5));
  eq(kindAndBit(e), "LimitExceeded@5:");
  eq((e as BitwireError).message, "LimitExceeded at bit 5: needs 33 bytes, 8 left in the decode budget");
  eq(new BitReader(new Uint8Array(3)).budgetLeft, 1048576 + 3 * 64, "the default: 1 MiB + 64 per byte");
});

test("unaligned bytes, UTF-8 and a leading BOM", () => {
  const text = "\ufeffhéllo wörld, long enough to skip the ASCII path";
  const utf8 = utf8Of(text);
  const w = new BitWriter();
  w.writeBits(1, 3);
  w.writeBytes(utf8);
  w.writeBytes(Uint8Array.of(0xff));
  const bytes = w.finish();
  const r = new BitReader(bytes);
  r.readBits(3);
  eq(r.readString(utf8.length, 3), text);
  const start = r.bitPos;
  eq(kindAndBit(thrown(() => r.readString(1, start))), `InvalidUtf8@${start}:`);
});

test("skips check what reads check, in the same place", () => {
  const w = new BitWriter();
  w.writeBits(5, 3);
  w.writeVaruint(300, 32);
  w.writeBytes(utf8Of("héllo"));
  const bytes = w.finish();
  const r = new BitReader(bytes);
  r.skip(3);
  r.skipVarint(32);
  r.skipString(6, r.bitPos);
  eq(kindAndBit(thrown(() => r.skip(8))), `Truncated@${r.bitPos}:`);
  // A non-minimal varint (two groups, top one zero) and an f32 NaN with a payload.
  eq(kindAndBit(thrown(() => new BitReader(Uint8Array.of(0x01, 0x00)).skipVarint(32))), "NonCanonical@0:");
  eq(kindAndBit(thrown(() => new BitReader(Uint8Array.of(1, 0, 0xc0, 0x7f)).skipF32())), "NonCanonical@0:");
  eq(kindAndBit(thrown(() => new BitReader(new Uint8Array(7)).skipF64())), "Truncated@0:");
  const bad = new BitReader(Uint8Array.of(0x80, 0xc3, 0x28));
  bad.skip(4);
  eq(kindAndBit(thrown(() => bad.skipString(2, 0))), "InvalidUtf8@0:");
});

test("isUtf8 accepts exactly what a fatal TextDecoder accepts", () => {
  const fatal = new TextDecoder("utf-8", { fatal: true });
  const accepts = (b: Uint8Array): boolean => {
    try {
      fatal.decode(b);
      return true;
    } catch {
      return false;
    }
  };
  // Every 1..3-byte sequence over interesting bytes, plus 4-byte edges.
  const pick = [0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf];
  pick.push(0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff);
  const cases: Uint8Array[] = [];
  for (const a of pick) {
    cases.push(Uint8Array.of(a));
    for (const b of pick) {
      cases.push(Uint8Array.of(a, b));
      for (const c of pick) {
        cases.push(Uint8Array.of(a, b, c));
        cases.push(Uint8Array.of(a, b, c, 0x80));
      }
    }
  }
  for (const c of cases) {
    eq(isUtf8(c, 0, c.length), accepts(c));
  }
});

test("skipElements names the first element that does not fit", () => {
  const r = new BitReader(new Uint8Array(3));
  r.skip(2);
  r.skipElements(2, 5);
  eq(kindAndBit(thrown(() => r.skipElements(3, 5))), "Truncated@22:[2]");
});

test("unaligned strings are checked in place or copied, alike", () => {
  for (const text of ["", "abc", "abcdefg", "héllo wörld", "ascii then é"]) {
    const utf8 = utf8Of(text);
    const w = new BitWriter();
    w.writeBits(1, 3);
    w.writeBytes(utf8);
    const r = new BitReader(w.finish());
    r.skip(3);
    r.skipString(utf8.length, 0);
    eq(r.bitPos, 3 + utf8.length * 8);
  }
  const w = new BitWriter();
  w.writeBits(1, 3);
  w.writeBytes(Uint8Array.of(0x61, 0x62, 0x63, 0x64, 0x65, 0xc3));
  const r = new BitReader(w.finish());
  r.skip(3);
  eq(kindAndBit(thrown(() => r.skipString(6, 0))), "InvalidUtf8@0:");
});

test("short strings of every length read as a fatal TextDecoder reads them", () => {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  // Every length up to past the short-string limit, ASCII and mixed (2-, 3- and 4-byte
  // sequences, a leading BOM), at a byte boundary and at bit 3.
  const pieces = ["a", "Z", "é", "€", "😀", "\uFEFF", "~"];
  for (let n = 0; n <= 70; n++) {
    for (let mix = 0; mix < 3; mix++) {
      let text = "";
      for (let k = 0; text.length < n; k++) {
        text += mix === 0 ? String.fromCharCode(0x21 + ((k * 7 + n) % 90)) : (pieces[(k * 3 + n + mix) % pieces.length] ?? "");
      }
      const utf8 = utf8Of(text);
      for (const shift of [0, 3]) {
        const w = new BitWriter();
        w.writeBits(0, shift);
        w.writeBytes(utf8);
        const r = new BitReader(w.finish());
        r.skip(shift);
        eq(r.readString(utf8.length, shift), decoder.decode(utf8));
      }
    }
  }
});

test("writeAscii writes what the general path writes, or nothing", () => {
  const texts = ["", "a", "abcd", "abcdefgh", "abcdefghijklm", "héllo", "abcé", "abcd€fgh", "x😀", "\uD800", 7, null];
  for (const shift of [0, 3, 8, 29, 31, 32, 33]) {
    for (const text of texts) {
      for (const max of [4, 16]) {
        const fast = new BitWriter(8);
        const slow = new BitWriter(8);
        for (const w of [fast, slow]) {
          // `shift` bits of a pattern before the string.
          const first = Math.min(shift, 32);
          w.writeBits(first === 0 ? 0 : 0x5a5a5a5a >>> (32 - first), first);
          w.writeBits(shift > 32 ? 1 : 0, shift - first);
        }
        const len = utf8Length(text);
        const ascii = typeof text === "string" && len === text.length && len <= max;
        eq(fast.writeAscii(text, 5, max), ascii);
        if (ascii) {
          slow.writeBits(len, 5);
          slow.writeUtf8(text, len);
        }
        // Both go on with the same bits: nothing of a refused string is left behind.
        fast.writeBits(0x3ff, 10);
        slow.writeBits(0x3ff, 10);
        eq(Array.from(fast.finish()).join(","), Array.from(slow.finish()).join(","));
      }
    }
  }
});
