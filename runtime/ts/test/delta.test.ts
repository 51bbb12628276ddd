// The delta encoding's codes (spec §12.4, §12.5) and the writer's rewind, compare and
// copy, checked against the spec's formulas written out with `bigint`s, bit by bit.

import {
  BitReader,
  BitWriter,
  BitwireError,
  applyDiff,
  applyDiff64,
  diffHi,
  readAdded,
  readDiff,
  readDiff64,
  readGap,
  writeChange,
  writeChange64,
  writeEvent,
  writeGolomb,
} from "../src/index.js";
import { eq, test, thrown } from "./check.js";

/** mulberry32, as in the conformance runner: the same values on every runtime. */
function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/** `bits_for(n)` of spec §1.3. */
function bitsFor(n: bigint): number {
  return n === 0n ? 0 : n.toString(2).length;
}

/** `v` in `bits` bits, bit 0 first, as a string of 0s and 1s. */
function bitString(v: bigint, bits: number): string {
  let s = "";
  for (let i = 0; i < bits; i++) {
    s += (v >> BigInt(i)) & 1n ? "1" : "0";
  }
  return s;
}

/** The stream bits a writer holds, as a string. */
function written(w: BitWriter): string {
  const n = w.bitPos;
  const bytes = w.finish();
  let s = "";
  for (let p = 0; p < n; p++) {
    s += (bytes[p >> 3] >> (p & 7)) & 1 ? "1" : "0";
  }
  return s;
}

/** Spec §12.4 written out: the changed bit and the difference code of `ub` → `uv`. */
function expectedChange(ub: bigint, uv: bigint, w: number): string {
  if (ub === uv) {
    return "0";
  }
  const mod = 1n << BigInt(w);
  const d = (((uv - ub) % mod) + mod) % mod;
  const s = d >= mod / 2n ? d - mod : d;
  const z = s >= 0n ? 2n * s : -2n * s - 1n;
  const n = bitsFor(z);
  return `1${bitString(BigInt(n - 1), bitsFor(BigInt(w - 1)))}${bitString(z, n - 1)}`;
}

function kindAt(e: unknown): string {
  return e instanceof BitwireError ? `${e.kind}@${e.bit}` : `not a BitwireError: ${String(e)}`;
}

/** A random `w`-bit unsigned value, with edge values often. */
function randomWire(next: () => number, w: number): bigint {
  const mod = 1n << BigInt(w);
  let v: bigint;
  switch (next() % 4) {
    case 0:
      v = BigInt(next() % 3);
      break;
    case 1:
      v = mod - 1n - BigInt(next() % 3);
      break;
    default:
      v = (BigInt(next()) << 32n) | BigInt(next());
  }
  return ((v % mod) + mod) % mod;
}

test("difference codes of widths 1..32 match spec §12.4 and read back", () => {
  const next = rng(7);
  for (let w = 1; w <= 32; w++) {
    const prefix = bitsFor(BigInt(w - 1));
    for (let i = 0; i < 200; i++) {
      const ub = randomWire(next, w);
      const uv = i % 5 === 0 ? ub : randomWire(next, w);
      const writer = new BitWriter(1);
      writer.writeBits(0, i % 8);
      const changed = writeChange(writer, Number(ub), Number(uv), w, prefix);
      eq(changed, ub !== uv, `w=${w} changed`);
      const end = writer.bitPos;
      const bits = written(writer).slice(i % 8);
      eq(bits, expectedChange(ub, uv, w), `w=${w} ${ub} -> ${uv}`);
      if (!changed) {
        continue;
      }
      const r = new BitReader(writer.finish());
      r.readBits(i % 8 + 1);
      const z = readDiff(r, w, prefix);
      eq(applyDiff(Number(ub), z, w), Number(uv), `w=${w} read back`);
      eq(r.bitPos, end, `w=${w} length`);
    }
  }
});

test("signed raw values give the difference of their unsigned bits", () => {
  // i7: -1 is 0x7f on the wire; -64 → 63 is a difference of -1 modulo 2^7.
  const w = new BitWriter();
  writeChange(w, -64, 63, 7, 3);
  eq(written(w), expectedChange(64n, 63n, 7));
  const r = new BitReader(w.finish());
  r.readBool();
  eq(applyDiff(-64, readDiff(r, 7, 3), 7), 63);
});

test("the costs spec §12.4 names", () => {
  // A bool flips in no bits after its changed bit.
  const b = new BitWriter();
  writeChange(b, 0, 1, 1, 0);
  eq(b.bitPos, 1);
  // A u32 tick that advanced by one: 6 bits after the changed bit.
  const t = new BitWriter();
  writeChange(t, 1000, 1001, 32, 5);
  eq(t.bitPos, 7);
  // No scalar costs more than w + bits_for(w - 1) - 1 bits.
  const m = new BitWriter();
  writeChange(m, 0, 0x80000000, 32, 5);
  eq(m.bitPos, 1 + 32 + 5 - 1);
});

test("difference codes of widths 33..64 in halves match spec §12.4 and read back", () => {
  const next = rng(11);
  for (let w = 33; w <= 64; w++) {
    const prefix = bitsFor(BigInt(w - 1));
    for (let i = 0; i < 200; i++) {
      const ub = randomWire(next, w);
      const uv = i % 7 === 0 ? ub : randomWire(next, w);
      const half = (v: bigint): [number, number] => [Number(v & 0xffffffffn), Number(v >> 32n)];
      const [bLo, bHi] = half(ub);
      const [vLo, vHi] = half(uv);
      const writer = new BitWriter(1);
      writer.writeBits(0, i % 5);
      eq(writeChange64(writer, bLo, bHi, vLo, vHi, w, prefix), ub !== uv, `w=${w} changed`);
      eq(written(writer).slice(i % 5), expectedChange(ub, uv, w), `w=${w} ${ub} -> ${uv}`);
      if (ub === uv) {
        continue;
      }
      const r = new BitReader(writer.finish());
      r.readBits(i % 5 + 1);
      const zLo = readDiff64(r, w, prefix);
      const lo = applyDiff64(bLo, bHi, zLo, diffHi(), w);
      eq((BigInt(diffHi()) << 32n) | BigInt(lo), uv, `w=${w} read back`);
    }
  }
});

test("a length prefix of w or more is OutOfRange, a cut code Truncated, at the code", () => {
  // w = 12: the prefix has 4 bits, so 12..15 can be written and are rejected.
  const w = new BitWriter();
  w.writeBits(1, 3);
  w.writeBits(12, 4);
  const bytes = w.finish().slice();
  const r = new BitReader(bytes);
  r.readBits(3);
  eq(kindAt(thrown(() => readDiff(r, 12, 4))), "OutOfRange@3");
  // m = 11 needs 11 more bits than the input has.
  const cut = new BitWriter();
  cut.writeBits(11, 4);
  eq(kindAt(thrown(() => readDiff(new BitReader(cut.finish().slice()), 12, 4))), "Truncated@0");
  eq(kindAt(thrown(() => readDiff(new BitReader(new Uint8Array(0)), 12, 4))), "Truncated@0");
  const big = new BitWriter();
  big.writeBits(63, 6);
  eq(kindAt(thrown(() => readDiff64(new BitReader(big.finish().slice()), 40, 6))), "OutOfRange@0");
});

test("Exp-Golomb codes: 0 is 1 bit, 1-2 are 3, 3-6 are 5; round trips", () => {
  const code = (x: number): string => {
    const w = new BitWriter();
    writeGolomb(w, x);
    return written(w);
  };
  eq(code(0), "1");
  eq(code(1), "010");
  eq(code(2), "011");
  eq(code(3), "00100");
  eq(code(6), "00111");
  const values = [0, 1, 2, 7, 100, 65534, 65535, 65536, 1 << 20, 2 ** 31, 2 ** 32 - 2, 2 ** 32, 2 ** 40 + 12345];
  for (const x of values) {
    const k = bitsFor(BigInt(x + 1)) - 1;
    eq(code(x), `${"0".repeat(k)}1${bitString(BigInt(x + 1) - (1n << BigInt(k)), k)}`, `code of ${x}`);
    const w = new BitWriter();
    w.writeBits(5, 3);
    writeGolomb(w, x);
    const r = new BitReader(w.finish().slice());
    r.readBits(3);
    eq(r.readGolomb(63), x, `read back ${x}`);
  }
});

test("an event is the gap's code, then the op bit", () => {
  for (const gap of [0, 1, 5, 32766, 32767, 100000]) {
    for (const op of [0, 1] as const) {
      const a = new BitWriter();
      writeEvent(a, gap, op);
      const b = new BitWriter();
      writeGolomb(b, gap);
      b.writeBits(op, 1);
      eq(written(a), written(b), `gap ${gap}, op ${op}`);
    }
  }
});

test("gaps: too many zeros and gaps past the list are OutOfRange, cut codes Truncated", () => {
  const bytes = (bits: string): Uint8Array => {
    const w = new BitWriter();
    for (const c of bits) {
      w.writeBits(c === "1" ? 1 : 0, 1);
    }
    return w.finish().slice();
  };
  // 3 elements left: at most bits_for(4) - 1 = 2 zeros, a gap of at most 3.
  eq(readGap(new BitReader(bytes("00100")), 3), 3);
  eq(kindAt(thrown(() => readGap(new BitReader(bytes("00101")), 3))), "OutOfRange@0");
  eq(kindAt(thrown(() => readGap(new BitReader(bytes("0001000")), 3))), "OutOfRange@0");
  eq(readGap(new BitReader(bytes("1")), 0), 0);
  eq(kindAt(thrown(() => readGap(new BitReader(bytes("01")), 0))), "OutOfRange@0");
  // Input ends inside the zeros (before there are too many) or inside the rest.
  eq(kindAt(thrown(() => new BitReader(new Uint8Array(0)).readGolomb(3))), "Truncated@0");
  eq(kindAt(thrown(() => new BitReader(Uint8Array.of(0)).readGolomb(63))), "Truncated@0");
  eq(kindAt(thrown(() => new BitReader(Uint8Array.of(0)).readGolomb(7))), "OutOfRange@0");
  eq(kindAt(thrown(() => new BitReader(Uint8Array.of(0x80)).readGolomb(63))), "Truncated@0");
});

test("the added count: InvalidLength, then Truncated, then LimitExceeded, at the count", () => {
  const count = (x: number, pad: number): Uint8Array => {
    const w = new BitWriter();
    writeGolomb(w, x);
    w.writeBits(0, pad);
    return w.finish().slice();
  };
  // kept 2 + 3 added > max 4.
  eq(kindAt(thrown(() => readAdded(new BitReader(count(3, 0)), 2, 4, 8, 10))), "InvalidLength@0");
  eq(kindAt(thrown(() => readAdded(new BitReader(count(3, 0)), 2, 4n ** 40n, 8, 10))), "Truncated@0");
  // 3 added of 8 bits need 24 bits; 16 are left.
  eq(kindAt(thrown(() => readAdded(new BitReader(count(3, 16)), 0, 4, 8, 10))), "Truncated@0");
  eq(readAdded(new BitReader(count(3, 24)), 0, Infinity, 8, 10), 3);
  const r = new BitReader(count(3, 24), { base: 100, perInputByte: 0 });
  eq(kindAt(thrown(() => readAdded(r, 10, Infinity, 8, 10))), "LimitExceeded@0");
  eq(readAdded(new BitReader(count(3, 24)), 1, 4n ** 40n, 8, 10), 3);
});

test("rewind drops what was written after a position, flushed or not", () => {
  const next = rng(3);
  for (let i = 0; i < 300; i++) {
    const keep = next() % 100;
    const extra = next() % 100;
    const direct = new BitWriter(1);
    const rewound = new BitWriter(1);
    const bits: number[] = [];
    for (let p = 0; p < keep + extra; p++) {
      bits.push(next() & 1);
    }
    for (let p = 0; p < keep; p++) {
      direct.writeBits(bits[p], 1);
    }
    for (const b of bits) {
      rewound.writeBits(b, 1);
    }
    rewound.rewind(keep);
    eq(rewound.bitPos, keep);
    // Writing on after a rewind continues the stream.
    direct.writeBits(0x5a5, 11);
    rewound.writeBits(0x5a5, 11);
    eq(rewound.sameBits(direct), true, `rewind to ${keep} of ${keep + extra}`);
    eq(written(rewound), written(direct));
  }
});

test("sameBits and append compare and copy whole streams", () => {
  const a = new BitWriter(1);
  const b = new BitWriter(1);
  for (let i = 0; i < 70; i++) {
    a.writeBits(i & 3, 2);
    b.writeBits(i & 3, 2);
  }
  eq(a.sameBits(b), true);
  b.writeBits(0, 1);
  eq(a.sameBits(b), false);
  b.rewind(140);
  b.writeBits(1, 1);
  a.writeBits(0, 1);
  eq(a.sameBits(b), false);
  const c = new BitWriter(1);
  c.writeBits(1, 3);
  c.append(b);
  eq(written(c), `100${written(b)}`);
});
