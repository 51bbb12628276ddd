// The hand-written baselines for `input`, `snapshot` and `events` (packet64's is
// ../handwritten.ts): the bytes of examples/game.bw's layout packed by hand, as a careful
// engineer writes them without a schema compiler. A small LSB-first bit packer with a
// 32-bit accumulator, quantization formulas written inline, an ASCII fast path for
// strings, masks instead of range checks on encode, and on decode the checks that keep
// the decoder honest: enum tags, list bounds, quantized values on their grid, and the
// frame's length. The lab checks that these encoders produce exactly the corpus bytes
// (bitwire's) and that the decoders give back the same values before timing them.

import type { Entity, Event, Events, Input, Snapshot, Team, Weapon } from "../../gen/game.js";

// ---- writing -------------------------------------------------------------------------

/** Output buffer shared by every encoder here: the result is valid until the next call. */
let out = new Uint8Array(4096);
let outView = new DataView(out.buffer);
/** Bytes flushed so far. */
let at = 0;
/** Pending bits, oldest in bit 0; `n` of them count. */
let acc = 0;
let n = 0;

function begin(): void {
  at = 0;
  acc = 0;
  n = 0;
}

function grow(): void {
  const bigger = new Uint8Array(out.length * 2);
  bigger.set(out.subarray(0, at));
  out = bigger;
  outView = new DataView(out.buffer);
}

/** Appends the low `bits` bits of `v` (1..32; higher bits of `v` must be zero). */
function put(v: number, bits: number): void {
  acc |= v << n;
  const total = n + bits;
  if (total < 32) {
    n = total;
    return;
  }
  if (at + 4 > out.length) {
    grow();
  }
  outView.setUint32(at, acc, true);
  at += 4;
  // What did not fit (nothing when n was 0: a shift by 32 is a shift by 0 in JS).
  acc = n === 0 ? 0 : v >>> (32 - n);
  n = total - 32;
}

/** Pads the last byte with zeros and returns the message (a view of the shared buffer). */
function end(): Uint8Array {
  if (at + 4 > out.length) {
    grow();
  }
  for (; n > 0; n -= 8) {
    out[at++] = acc & 0xff;
    acc >>>= 8;
  }
  acc = 0;
  n = 0;
  return out.subarray(0, at);
}

/**
 * A varint of groups of 4 bits (spec §5.4): `g - 1` one bits and a zero (no zero when
 * `g` is the type's most groups, `gmax`), then the value in `4g` bits. `v` below 2^32.
 */
function putVarint(v: number, gmax: number): void {
  let g = 1;
  while (g < 8 && v >= 16 ** g) {
    g++;
  }
  put((1 << (g - 1)) - 1, g < gmax ? g : g - 1);
  if (g <= 6) {
    put(v, 4 * g);
  } else {
    put(v & 0xffff, 16);
    put(v >>> 16, 4 * g - 16);
  }
}

const utf8 = new TextEncoder();

/** A string: its UTF-8 length in `lenBits` bits (at most `max`), then its bytes. */
function putString(s: string, lenBits: number, max: number): void {
  let ascii = true;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    if (s.length > max) {
      throw new RangeError(`string longer than ${max} bytes`);
    }
    put(s.length, lenBits);
    for (let i = 0; i < s.length; i++) {
      put(s.charCodeAt(i), 8);
    }
    return;
  }
  const b = utf8.encode(s);
  if (b.length > max) {
    throw new RangeError(`string longer than ${max} bytes`);
  }
  put(b.length, lenBits);
  for (let i = 0; i < b.length; i++) {
    put(b[i] as number, 8);
  }
}

/** `v` on a grid of `steps` steps over `min..min+range` (spec §4.3), clamped. */
function quant(v: number, min: number, range: number, steps: number): number {
  const q = Math.floor(((v - min) / range) * steps + 0.5);
  return q > 0 ? (q < steps ? q : steps) : 0;
}

function weaponTag(w: Weapon): number {
  switch (w) {
    case "Fist": return 0;
    case "Pistol": return 1;
    case "Rifle": return 2;
    case "Shotgun": return 3;
    case "Sniper": return 4;
    case "Rocket": return 9;
  }
}

function teamTag(t: Team): number {
  switch (t) {
    case "Red": return 0;
    case "Blue": return 1;
    case "Green": return 2;
    case "Spectator": return 3;
  }
}

// ---- reading -------------------------------------------------------------------------

let src: Uint8Array = new Uint8Array(0);
/** Next byte to load. */
let rat = 0;
/** Loaded bits not yet taken, oldest in bit 0; `rn` of them count (at most 31). */
let racc = 0;
let rn = 0;

function open(b: Uint8Array): void {
  src = b;
  rat = 0;
  racc = 0;
  rn = 0;
}

/** Takes `bits` (1..24) bits. Past the end it reads zeros; {@link close} reports that. */
function take(bits: number): number {
  while (rn < bits) {
    racc |= (src[rat++] ?? 0) << rn;
    rn += 8;
  }
  const v = racc & ((1 << bits) - 1);
  racc >>>= bits;
  rn -= bits;
  return v;
}

/** The message must end here: every byte used, no byte missing, the padding zero. */
function close(): void {
  // Loaded past the end, bytes never loaded, a whole loaded byte unused, or padding set.
  if (rat !== src.length || rn >= 8 || racc !== 0) {
    throw new RangeError("bad frame: truncated, trailing bytes or non-zero padding");
  }
}

function takeVarint(gmax: number): number {
  let g = 1;
  while (g < gmax && take(1) === 1) {
    g++;
  }
  if (g <= 6) {
    return take(4 * g);
  }
  const lo = take(16);
  return lo + take(4 * g - 16) * 65536;
}

const utf8d = new TextDecoder();
const scratch = new Uint8Array(256);

function takeString(lenBits: number, max: number): string {
  const len = take(lenBits);
  if (len > max) {
    throw new RangeError(`string longer than ${max} bytes`);
  }
  let s = "";
  let high = 0;
  for (let i = 0; i < len; i++) {
    const c = take(8);
    scratch[i] = c;
    high |= c;
    s += String.fromCharCode(c);
  }
  return high < 0x80 ? s : utf8d.decode(scratch.subarray(0, len));
}

/** Grid value of `q` (spec §4.3), rounded to f32 like the field. */
function unquant(q: number, min: number, range: number, steps: number): number {
  return Math.fround(min + (range * q) / steps);
}

const WEAPONS: readonly (Weapon | undefined)[] = [
  "Fist", "Pistol", "Rifle", "Shotgun", "Sniper", undefined, undefined, undefined, undefined, "Rocket",
];
const TEAMS: readonly Team[] = ["Red", "Blue", "Green", "Spectator"];

function weaponOf(tag: number): Weapon {
  const w = WEAPONS[tag];
  if (w === undefined) {
    throw new RangeError(`bad weapon tag ${tag}`);
  }
  return w;
}

// ---- Input: 60 bits, two 32-bit words ------------------------------------------------

const inputOut = new Uint8Array(8);
const inputView = new DataView(inputOut.buffer);

/** The 8 bytes of an `Input`, in a buffer reused by the next call. */
export function encodeInput(v: Input): Uint8Array {
  const b = v.buttons;
  const lo =
    (v.seq & 0xffff) | (quant(v.moveX, -1, 2, 255) << 16) | (quant(v.moveY, -1, 2, 255) << 24);
  const hi =
    (b.fire ? 1 : 0) |
    (b.aim ? 2 : 0) |
    (b.jump ? 4 : 0) |
    (b.crouch ? 8 : 0) |
    (b.reload ? 16 : 0) |
    (b.useItem ? 32 : 0) |
    (quant(v.yaw, 0, 360, 4095) << 6) |
    (quant(v.pitch, -90, 180, 1023) << 18);
  inputView.setUint32(0, lo, true);
  inputView.setUint32(4, hi, true);
  return inputOut;
}

export function decodeInput(b: Uint8Array): Input {
  if (b.length !== 8 || (b[7] as number) >>> 4 !== 0) {
    throw new RangeError("an Input is 8 bytes, the last 4 bits zero");
  }
  const lo = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24);
  const hi = b[4] | (b[5] << 8) | (b[6] << 16) | (b[7] << 24);
  return {
    seq: lo & 0xffff,
    moveX: unquant((lo >>> 16) & 0xff, -1, 2, 255),
    moveY: unquant(lo >>> 24, -1, 2, 255),
    buttons: {
      fire: (hi & 1) !== 0,
      aim: (hi & 2) !== 0,
      jump: (hi & 4) !== 0,
      crouch: (hi & 8) !== 0,
      reload: (hi & 16) !== 0,
      useItem: (hi & 32) !== 0,
    },
    yaw: unquant((hi >>> 6) & 0xfff, 0, 360, 4095),
    pitch: unquant((hi >>> 18) & 0x3ff, -90, 180, 1023),
  };
}

// ---- Snapshot ------------------------------------------------------------------------

function putEntity(e: Entity): void {
  put(e.id & 0xfff, 12);
  put(quant(e.pos.x, -1024, 2048, 131072), 18);
  put(quant(e.pos.y, -1024, 2048, 131072), 18);
  put(
    quant(e.velX, -64, 127.875, 1023) | (quant(e.velY, -64, 127.875, 1023) << 10) | (quant(e.yaw, 0, 360, 255) << 20),
    28,
  );
  put(
    (e.health & 0xff) |
      (weaponTag(e.weapon) << 8) |
      (teamTag(e.team) << 12) |
      (e.onGround ? 1 << 14 : 0) |
      (e.sprinting ? 1 << 15 : 0),
    16,
  );
  if (e.target === null) {
    put(0, 1);
  } else {
    put(1 | ((e.target & 0xfff) << 1), 13);
  }
  putString(e.name, 5, 16);
}

/** The bytes of a `Snapshot`, in a buffer reused by the next call. */
export function encodeSnapshot(s: Snapshot): Uint8Array {
  begin();
  putVarint(s.tick, 8);
  put(s.ackSeq & 0xffff, 16);
  const es = s.entities;
  if (es.length > 64) {
    throw new RangeError("more than 64 entities");
  }
  put(es.length, 7);
  for (let i = 0; i < es.length; i++) {
    putEntity(es[i] as Entity);
  }
  return end();
}

function takeEntity(): Entity {
  const id = take(12);
  const qx = take(18);
  const qy = take(18);
  if (qx > 131072 || qy > 131072) {
    throw new RangeError("position off the grid");
  }
  const velX = unquant(take(10), -64, 127.875, 1023);
  const velY = unquant(take(10), -64, 127.875, 1023);
  const yaw = unquant(take(8), 0, 360, 255);
  const health = take(8);
  if (health > 200) {
    throw new RangeError("health above 200");
  }
  const weapon = weaponOf(take(4));
  const team = TEAMS[take(2)] as Team;
  const onGround = take(1) === 1;
  const sprinting = take(1) === 1;
  const target = take(1) === 1 ? take(12) : null;
  const name = takeString(5, 16);
  return {
    id,
    pos: { x: unquant(qx, -1024, 2048, 131072), y: unquant(qy, -1024, 2048, 131072) },
    velX,
    velY,
    yaw,
    health,
    weapon,
    team,
    onGround,
    sprinting,
    target,
    name,
  };
}

export function decodeSnapshot(b: Uint8Array): Snapshot {
  open(b);
  const tick = takeVarint(8);
  const ackSeq = take(16);
  const len = take(7);
  if (len > 64) {
    throw new RangeError("more than 64 entities");
  }
  const entities: Entity[] = [];
  for (let i = 0; i < len; i++) {
    entities.push(takeEntity());
  }
  close();
  return { tick, ackSeq, entities };
}

// ---- Events --------------------------------------------------------------------------

function putEvent(e: Event): void {
  switch (e.kind) {
    case "Chat":
      put(0, 3);
      putString(e.value.from, 5, 16);
      putString(e.value.text, 9, 256);
      return;
    case "Kill": {
      const k = e.value;
      put(1, 3);
      put((k.killer & 0xfff) | ((k.victim & 0xfff) << 12), 24);
      put(weaponTag(k.weapon) | (k.headshot ? 16 : 0), 5);
      return;
    }
    case "Join":
      put(2, 3);
      putString(e.value, 5, 16);
      return;
    case "Leave":
      put(3 | ((e.value & 0xfff) << 3), 15);
      return;
    case "RoundOver":
      put(4, 3);
      return;
  }
}

/** The bytes of an `Events`, in a buffer reused by the next call. */
export function encodeEvents(v: Events): Uint8Array {
  begin();
  putVarint(v.tick, 8);
  const es = v.events;
  putVarint(es.length, 16);
  for (let i = 0; i < es.length; i++) {
    putEvent(es[i] as Event);
  }
  return end();
}

function takeEvent(): Event {
  switch (take(3)) {
    case 0: {
      const from = takeString(5, 16);
      return { kind: "Chat", value: { from, text: takeString(9, 256) } };
    }
    case 1: {
      const killer = take(12);
      const victim = take(12);
      const weapon = weaponOf(take(4));
      return { kind: "Kill", value: { killer, victim, weapon, headshot: take(1) === 1 } };
    }
    case 2:
      return { kind: "Join", value: takeString(5, 16) };
    case 3:
      return { kind: "Leave", value: take(12) };
    case 4:
      return { kind: "RoundOver" };
    default:
      throw new RangeError("bad event tag");
  }
}

export function decodeEvents(b: Uint8Array): Events {
  open(b);
  const tick = takeVarint(8);
  const len = takeVarint(16);
  // Each event takes at least 3 bits: a longer list cannot be in this frame.
  if (len * 3 > b.length * 8) {
    throw new RangeError("event count exceeds the frame");
  }
  const events: Event[] = [];
  for (let i = 0; i < len; i++) {
    events.push(takeEvent());
  }
  close();
  return { tick, events };
}
