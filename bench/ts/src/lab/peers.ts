// The peers on the game datasets (packet64, input, snapshot, events): bitwire's generated
// code, the hand-written baselines, FlatBuffers, protobuf-es and msgpackr, each used as
// its documentation shows. Every peer gets its own form of the values before timing
// (converted untimed), encodes each message once for the byte count and the decode
// input, and turns its encodings back into bitwire's shape for the comparison with the
// corpus values. Each timed loop is written out per library, so that no engine shares
// one call site (and its type feedback) between libraries.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";
import { FLOAT32_OPTIONS, Packr, isNativeAccelerationEnabled } from "msgpackr";

import * as bw from "../../gen/game.js";
import * as hand64 from "../handwritten.js";
import * as fb from "../peers/fb/bitwire/bench/fb.js";
import * as pb from "../peers/pb/game_pb.js";
import * as hand from "./hand.js";

/** One library on one dataset, ready to time. */
export interface Peer {
  library: string;
  /** Shown in the report. */
  note: string | undefined;
  /** The library's encoding of each message (copies): decode input and byte count. */
  frames: Uint8Array[];
  /** One timed pass: encodes the first `count` messages. */
  encodeAll(count: number): number;
  /** One timed pass: decodes the first `count` frames. */
  decodeAll(count: number): number;
  /** Untimed: frame `i` decoded into bitwire's shape, for the comparison. */
  check(i: number): unknown;
  /** Whether the frames must be the corpus bytes (bitwire's wire format). */
  bitwireBytes: boolean;
}

export const NOTES = {
  bitwire: "generated encodeX into one reused BitWriter; decodeX builds the objects",
  handwritten: "DataView/bit-shift code written by hand, same bytes as bitwire (checked)",
  flatbuffers:
    "one Builder reused (clear()); decode = new ByteBuffer + getRootAsX + read every field in place (accessor objects reused; flatbuffers TS has no verifier)",
  "protobuf-es": "@bufbuild/protobuf v2: create() untimed, toBinary / fromBinary",
  msgpackr: `Packr({useRecords: false, useFloat32: ALWAYS}): plain msgpack maps of the same objects, f32 fields as float32; decode = unpack; native string acceleration (msgpackr-extract) ${isNativeAccelerationEnabled ? "on" : "off"}`,
} as const;

/** Allocation counts are not measured in JavaScript; said once, on the first record. */
export const ALLOC_NOTE = "JS has no allocation counter: encode_allocs/decode_allocs are null for every TS record";

function packr(): Packr {
  return new Packr({ useRecords: false, useFloat32: FLOAT32_OPTIONS.ALWAYS });
}

/**
 * Each message's encoding, copied into one shared buffer (one view per message: a million
 * separate copies would each carry an ArrayBuffer of their own).
 */
function copies(n: number, enc: (i: number) => Uint8Array): Uint8Array[] {
  let buf = new Uint8Array(1 << 16);
  const ends: number[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const b = enc(i);
    if (at + b.length > buf.length) {
      const bigger = new Uint8Array(Math.max(buf.length * 2, at + b.length));
      bigger.set(buf.subarray(0, at));
      buf = bigger;
    }
    buf.set(b, at);
    at += b.length;
    ends.push(at);
  }
  const out: Uint8Array[] = [];
  let start = 0;
  for (const end of ends) {
    out.push(buf.subarray(start, end));
    start = end;
  }
  return out;
}

/**
 * Decoded values are stored, as an application would store them (an engine could
 * otherwise drop the objects of one contender and not another), in a ring of the last
 * 1024: they escape, but most die young. Keeping every decoded value of a large dataset
 * alive makes V8 pretenure whichever allocation site sees survivors first, which then
 * decides the comparison more than the decoders do.
 */
const KEEP_MASK = 1023;

function kept(): unknown[] {
  return new Array<unknown>(KEEP_MASK + 1).fill(undefined);
}

const WEAPON_NUM: Readonly<Record<bw.Weapon, number>> = { Fist: 0, Pistol: 1, Rifle: 2, Shotgun: 3, Sniper: 4, Rocket: 9 };
const WEAPON_OF: Readonly<Record<number, bw.Weapon>> = { 0: "Fist", 1: "Pistol", 2: "Rifle", 3: "Shotgun", 4: "Sniper", 9: "Rocket" };
const TEAM_NUM: Readonly<Record<bw.Team, number>> = { Red: 0, Blue: 1, Green: 2, Spectator: 3 };
const TEAM_OF: Readonly<Record<number, bw.Team>> = { 0: "Red", 1: "Blue", 2: "Green", 3: "Spectator" };

function weaponOf(n: number): bw.Weapon {
  const w = WEAPON_OF[n];
  if (w === undefined) {
    throw new Error(`weapon ${n}`);
  }
  return w;
}

function teamOf(n: number): bw.Team {
  const t = TEAM_OF[n];
  if (t === undefined) {
    throw new Error(`team ${n}`);
  }
  return t;
}

// ---- packet64 ------------------------------------------------------------------------

export function packet64Peers(values: bw.Packet64[]): Peer[] {
  const n = values.length;
  const peers: Peer[] = [];

  {
    const w = new BitWriter(8);
    const frames = copies(n, (i) => bw.encodePacket64(values[i] as bw.Packet64));
    const out = kept();
    peers.push({
      library: "bitwire",
      note: NOTES.bitwire,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s ^= bw.encodePacket64(values[i] as bw.Packet64, w)[7] ?? 0;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = bw.decodePacket64(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => bw.decodePacket64(frames[i] as Uint8Array),
    });
  }

  {
    const frames = copies(n, (i) => hand64.encode(values[i] as bw.Packet64));
    const out = kept();
    peers.push({
      library: "handwritten",
      note: `${NOTES.handwritten}; encode masks fields to their widths`,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s ^= hand64.encode(values[i] as bw.Packet64)[7] ?? 0;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = hand64.decode(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => hand64.decode(frames[i] as Uint8Array),
    });
  }

  {
    const b = new flatbuffers.Builder(64);
    const enc = (p: bw.Packet64): Uint8Array => {
      b.clear();
      const off = fb.Packet64.createPacket64(b, p.isAlive, p.weaponId, p.teamId, p.health, p.posX, p.posY, p.rotation, p.score);
      b.finish(off);
      return b.asUint8Array();
    };
    const frames = copies(n, (i) => enc(values[i] as bw.Packet64));
    const acc = new fb.Packet64();
    peers.push({
      library: "flatbuffers",
      note: NOTES.flatbuffers,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          const p = values[i] as bw.Packet64;
          b.clear();
          const off = fb.Packet64.createPacket64(b, p.isAlive, p.weaponId, p.teamId, p.health, p.posX, p.posY, p.rotation, p.score);
          b.finish(off);
          s += b.asUint8Array().length;
        }
        return s;
      },
      decodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          const p = fb.Packet64.getRootAsPacket64(new flatbuffers.ByteBuffer(frames[i] as Uint8Array), acc);
          s +=
            (p.isAlive() ? 1 : 0) + p.weaponId() + p.teamId() + p.health() + p.posX() + p.posY() + p.rotation() + p.score();
        }
        return s;
      },
      check(i) {
        const p = fb.Packet64.getRootAsPacket64(new flatbuffers.ByteBuffer(frames[i] as Uint8Array));
        return {
          isAlive: p.isAlive(),
          weaponId: p.weaponId(),
          teamId: p.teamId(),
          health: p.health(),
          posX: p.posX(),
          posY: p.posY(),
          rotation: p.rotation(),
          score: p.score(),
        };
      },
    });
  }

  {
    const msgs = values.map((v) => create(pb.Packet64Schema, { ...v }));
    const frames = copies(n, (i) => toBinary(pb.Packet64Schema, msgs[i] as pb.Packet64));
    const out = kept();
    peers.push({
      library: "protobuf-es",
      note: NOTES["protobuf-es"],
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += toBinary(pb.Packet64Schema, msgs[i] as pb.Packet64).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = fromBinary(pb.Packet64Schema, frames[i] as Uint8Array);
        }
        return count;
      },
      check(i) {
        const m = fromBinary(pb.Packet64Schema, frames[i] as Uint8Array);
        const { isAlive, weaponId, teamId, health, posX, posY, rotation, score } = m;
        return { isAlive, weaponId, teamId, health, posX, posY, rotation, score };
      },
    });
  }

  {
    const pk = packr();
    const frames = copies(n, (i) => pk.pack(values[i]));
    const out = kept();
    peers.push({
      library: "msgpackr",
      note: NOTES.msgpackr,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += pk.pack(values[i]).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = pk.unpack(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => pk.unpack(frames[i] as Uint8Array),
    });
  }
  return peers;
}

// ---- input ---------------------------------------------------------------------------

export function inputPeers(values: bw.Input[]): Peer[] {
  const n = values.length;
  const peers: Peer[] = [];

  {
    const w = new BitWriter(8);
    const frames = copies(n, (i) => bw.encodeInput(values[i] as bw.Input));
    const out = kept();
    peers.push({
      library: "bitwire",
      note: NOTES.bitwire,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s ^= bw.encodeInput(values[i] as bw.Input, w)[7] ?? 0;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = bw.decodeInput(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => bw.decodeInput(frames[i] as Uint8Array),
    });
  }

  {
    const frames = copies(n, (i) => hand.encodeInput(values[i] as bw.Input));
    const out = kept();
    peers.push({
      library: "handwritten",
      note: `${NOTES.handwritten}; quantization inline, clamped`,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s ^= hand.encodeInput(values[i] as bw.Input)[7] ?? 0;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = hand.decodeInput(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => hand.decodeInput(frames[i] as Uint8Array),
    });
  }

  {
    const b = new flatbuffers.Builder(64);
    const enc = (v: bw.Input): Uint8Array => {
      b.clear();
      fb.Input.startInput(b);
      fb.Input.addSeq(b, v.seq);
      fb.Input.addMoveX(b, v.moveX);
      fb.Input.addMoveY(b, v.moveY);
      const k = v.buttons;
      fb.Input.addButtons(b, fb.Buttons.createButtons(b, k.fire, k.aim, k.jump, k.crouch, k.reload, k.useItem));
      fb.Input.addYaw(b, v.yaw);
      fb.Input.addPitch(b, v.pitch);
      b.finish(fb.Input.endInput(b));
      return b.asUint8Array();
    };
    const frames = copies(n, (i) => enc(values[i] as bw.Input));
    const acc = new fb.Input();
    const btn = new fb.Buttons();
    peers.push({
      library: "flatbuffers",
      note: NOTES.flatbuffers,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          const v = values[i] as bw.Input;
          b.clear();
          fb.Input.startInput(b);
          fb.Input.addSeq(b, v.seq);
          fb.Input.addMoveX(b, v.moveX);
          fb.Input.addMoveY(b, v.moveY);
          const k = v.buttons;
          fb.Input.addButtons(b, fb.Buttons.createButtons(b, k.fire, k.aim, k.jump, k.crouch, k.reload, k.useItem));
          fb.Input.addYaw(b, v.yaw);
          fb.Input.addPitch(b, v.pitch);
          b.finish(fb.Input.endInput(b));
          s += b.asUint8Array().length;
        }
        return s;
      },
      decodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          const v = fb.Input.getRootAsInput(new flatbuffers.ByteBuffer(frames[i] as Uint8Array), acc);
          const k = v.buttons(btn);
          s += v.seq() + v.moveX() + v.moveY() + v.yaw() + v.pitch();
          if (k !== null) {
            s += (k.fire() ? 1 : 0) + (k.aim() ? 1 : 0) + (k.jump() ? 1 : 0) + (k.crouch() ? 1 : 0) + (k.reload() ? 1 : 0) + (k.useItem() ? 1 : 0);
          }
        }
        return s;
      },
      check(i) {
        const v = fb.Input.getRootAsInput(new flatbuffers.ByteBuffer(frames[i] as Uint8Array));
        const k = v.buttons();
        return {
          seq: v.seq(),
          moveX: v.moveX(),
          moveY: v.moveY(),
          buttons:
            k === null
              ? null
              : { fire: k.fire(), aim: k.aim(), jump: k.jump(), crouch: k.crouch(), reload: k.reload(), useItem: k.useItem() },
          yaw: v.yaw(),
          pitch: v.pitch(),
        };
      },
    });
  }

  {
    const msgs = values.map((v) => create(pb.InputSchema, { ...v, buttons: { ...v.buttons } }));
    const frames = copies(n, (i) => toBinary(pb.InputSchema, msgs[i] as pb.Input));
    const out = kept();
    peers.push({
      library: "protobuf-es",
      note: NOTES["protobuf-es"],
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += toBinary(pb.InputSchema, msgs[i] as pb.Input).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = fromBinary(pb.InputSchema, frames[i] as Uint8Array);
        }
        return count;
      },
      check(i) {
        const m = fromBinary(pb.InputSchema, frames[i] as Uint8Array);
        const k = m.buttons;
        return {
          seq: m.seq,
          moveX: m.moveX,
          moveY: m.moveY,
          buttons:
            k === undefined
              ? null
              : { fire: k.fire, aim: k.aim, jump: k.jump, crouch: k.crouch, reload: k.reload, useItem: k.useItem },
          yaw: m.yaw,
          pitch: m.pitch,
        };
      },
    });
  }

  {
    const pk = packr();
    const frames = copies(n, (i) => pk.pack(values[i]));
    const out = kept();
    peers.push({
      library: "msgpackr",
      note: NOTES.msgpackr,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += pk.pack(values[i]).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = pk.unpack(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => pk.unpack(frames[i] as Uint8Array),
    });
  }
  return peers;
}

// ---- snapshot ------------------------------------------------------------------------

/** An entity with its enums as their numbers, as FlatBuffers and protobuf users hold them. */
type NumEntity = Omit<bw.Entity, "weapon" | "team"> & { weapon: number; team: number };
interface NumSnapshot {
  tick: number;
  ackSeq: number;
  entities: NumEntity[];
}

function numSnapshot(s: bw.Snapshot): NumSnapshot {
  return {
    tick: s.tick,
    ackSeq: s.ackSeq,
    entities: s.entities.map((e) => ({ ...e, pos: { ...e.pos }, weapon: WEAPON_NUM[e.weapon], team: TEAM_NUM[e.team] })),
  };
}

function fbEncodeSnapshot(b: flatbuffers.Builder, s: NumSnapshot, offsets: number[]): Uint8Array {
  b.clear();
  const es = s.entities;
  offsets.length = 0;
  for (let i = 0; i < es.length; i++) {
    const e = es[i] as NumEntity;
    const name = b.createString(e.name);
    fb.Entity.startEntity(b);
    fb.Entity.addId(b, e.id);
    fb.Entity.addPos(b, fb.Vec2.createVec2(b, e.pos.x, e.pos.y));
    fb.Entity.addVelX(b, e.velX);
    fb.Entity.addVelY(b, e.velY);
    fb.Entity.addYaw(b, e.yaw);
    fb.Entity.addHealth(b, e.health);
    fb.Entity.addWeapon(b, e.weapon);
    fb.Entity.addTeam(b, e.team);
    fb.Entity.addOnGround(b, e.onGround);
    fb.Entity.addSprinting(b, e.sprinting);
    if (e.target !== null) {
      fb.Entity.addTarget(b, e.target);
    }
    fb.Entity.addName(b, name);
    offsets.push(fb.Entity.endEntity(b));
  }
  const vec = fb.Snapshot.createEntitiesVector(b, offsets);
  b.finish(fb.Snapshot.createSnapshot(b, s.tick, s.ackSeq, vec));
  return b.asUint8Array();
}

export function snapshotPeers(values: bw.Snapshot[]): Peer[] {
  const n = values.length;
  const nums = values.map(numSnapshot);
  const peers: Peer[] = [];

  {
    const w = new BitWriter(2048);
    const frames = copies(n, (i) => bw.encodeSnapshot(values[i] as bw.Snapshot));
    const out = kept();
    peers.push({
      library: "bitwire",
      note: NOTES.bitwire,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += bw.encodeSnapshot(values[i] as bw.Snapshot, w).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = bw.decodeSnapshot(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => bw.decodeSnapshot(frames[i] as Uint8Array),
    });
  }

  {
    const frames = copies(n, (i) => hand.encodeSnapshot(values[i] as bw.Snapshot));
    const out = kept();
    peers.push({
      library: "handwritten",
      note: `${NOTES.handwritten}; a small bit packer, ASCII fast path for names`,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += hand.encodeSnapshot(values[i] as bw.Snapshot).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = hand.decodeSnapshot(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => hand.decodeSnapshot(frames[i] as Uint8Array),
    });
  }

  {
    const b = new flatbuffers.Builder(4096);
    const offsets: number[] = [];
    const frames = copies(n, (i) => fbEncodeSnapshot(b, nums[i] as NumSnapshot, offsets));
    const acc = new fb.Snapshot();
    const ent = new fb.Entity();
    const pos = new fb.Vec2();
    peers.push({
      library: "flatbuffers",
      note: NOTES.flatbuffers,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += fbEncodeSnapshot(b, nums[i] as NumSnapshot, offsets).length;
        }
        return s;
      },
      decodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          const v = fb.Snapshot.getRootAsSnapshot(new flatbuffers.ByteBuffer(frames[i] as Uint8Array), acc);
          s += v.tick() + v.ackSeq();
          const len = v.entitiesLength();
          for (let k = 0; k < len; k++) {
            const e = v.entities(k, ent) as fb.Entity;
            const p = e.pos(pos);
            s += e.id() + (p === null ? 0 : p.x() + p.y()) + e.velX() + e.velY() + e.yaw() + e.health() + e.weapon() + e.team();
            s += (e.onGround() ? 1 : 0) + (e.sprinting() ? 1 : 0) + (e.target() ?? 0) + (e.name()?.length ?? 0);
          }
        }
        return s;
      },
      check(i) {
        const v = fb.Snapshot.getRootAsSnapshot(new flatbuffers.ByteBuffer(frames[i] as Uint8Array));
        const entities: bw.Entity[] = [];
        for (let k = 0; k < v.entitiesLength(); k++) {
          const e = v.entities(k) as fb.Entity;
          const p = e.pos();
          entities.push({
            id: e.id(),
            pos: { x: p?.x() ?? Number.NaN, y: p?.y() ?? Number.NaN },
            velX: e.velX(),
            velY: e.velY(),
            yaw: e.yaw(),
            health: e.health(),
            weapon: weaponOf(e.weapon()),
            team: teamOf(e.team()),
            onGround: e.onGround(),
            sprinting: e.sprinting(),
            target: e.target(),
            name: e.name() ?? "",
          });
        }
        return { tick: v.tick(), ackSeq: v.ackSeq(), entities };
      },
    });
  }

  {
    const msgs = nums.map((s) =>
      create(pb.SnapshotSchema, {
        tick: s.tick,
        ackSeq: s.ackSeq,
        entities: s.entities.map((e) => {
          const { target, ...rest } = e;
          return target === null ? rest : { ...rest, target };
        }),
      }),
    );
    const frames = copies(n, (i) => toBinary(pb.SnapshotSchema, msgs[i] as pb.Snapshot));
    const out = kept();
    peers.push({
      library: "protobuf-es",
      note: NOTES["protobuf-es"],
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += toBinary(pb.SnapshotSchema, msgs[i] as pb.Snapshot).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = fromBinary(pb.SnapshotSchema, frames[i] as Uint8Array);
        }
        return count;
      },
      check(i) {
        const m = fromBinary(pb.SnapshotSchema, frames[i] as Uint8Array);
        return {
          tick: m.tick,
          ackSeq: m.ackSeq,
          entities: m.entities.map(
            (e): bw.Entity => ({
              id: e.id,
              pos: { x: e.pos?.x ?? Number.NaN, y: e.pos?.y ?? Number.NaN },
              velX: e.velX,
              velY: e.velY,
              yaw: e.yaw,
              health: e.health,
              weapon: weaponOf(e.weapon),
              team: teamOf(e.team),
              onGround: e.onGround,
              sprinting: e.sprinting,
              target: e.target ?? null,
              name: e.name,
            }),
          ),
        };
      },
    });
  }

  {
    const pk = packr();
    const frames = copies(n, (i) => pk.pack(values[i]));
    const out = kept();
    peers.push({
      library: "msgpackr",
      note: NOTES.msgpackr,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += pk.pack(values[i]).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = pk.unpack(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => pk.unpack(frames[i] as Uint8Array),
    });
  }
  return peers;
}

// ---- events --------------------------------------------------------------------------

type NumEvent =
  | { kind: "Chat"; value: bw.Chat }
  | { kind: "Kill"; value: Omit<bw.Kill, "weapon"> & { weapon: number } }
  | { kind: "Join"; value: string }
  | { kind: "Leave"; value: number }
  | { kind: "RoundOver" };
interface NumEvents {
  tick: number;
  events: NumEvent[];
}

function numEvents(v: bw.Events): NumEvents {
  return {
    tick: v.tick,
    events: v.events.map((e): NumEvent => (e.kind === "Kill" ? { kind: "Kill", value: { ...e.value, weapon: WEAPON_NUM[e.value.weapon] } } : e)),
  };
}

function fbEncodeEvents(b: flatbuffers.Builder, v: NumEvents, offsets: number[]): Uint8Array {
  b.clear();
  const es = v.events;
  offsets.length = 0;
  for (let i = 0; i < es.length; i++) {
    const e = es[i] as NumEvent;
    let type: fb.Event;
    let off: number;
    switch (e.kind) {
      case "Chat": {
        const from = b.createString(e.value.from);
        const text = b.createString(e.value.text);
        type = fb.Event.Chat;
        off = fb.Chat.createChat(b, from, text);
        break;
      }
      case "Kill":
        type = fb.Event.Kill;
        off = fb.Kill.createKill(b, e.value.killer, e.value.victim, e.value.weapon, e.value.headshot);
        break;
      case "Join":
        type = fb.Event.Join;
        off = fb.Join.createJoin(b, b.createString(e.value));
        break;
      case "Leave":
        type = fb.Event.Leave;
        off = fb.Leave.createLeave(b, e.value);
        break;
      case "RoundOver":
        type = fb.Event.RoundOver;
        off = fb.RoundOver.createRoundOver(b);
        break;
    }
    offsets.push(fb.EventItem.createEventItem(b, type, off));
  }
  const vec = fb.Events.createEventsVector(b, offsets);
  b.finish(fb.Events.createEvents(b, v.tick, vec));
  return b.asUint8Array();
}

/** Reusable accessor objects for reading FlatBuffers events in place. */
const fbEv = {
  root: new fb.Events(),
  item: new fb.EventItem(),
  chat: new fb.Chat(),
  kill: new fb.Kill(),
  join: new fb.Join(),
  leave: new fb.Leave(),
};

export function eventsPeers(values: bw.Events[]): Peer[] {
  const n = values.length;
  const nums = values.map(numEvents);
  const peers: Peer[] = [];

  {
    const w = new BitWriter(1024);
    const frames = copies(n, (i) => bw.encodeEvents(values[i] as bw.Events));
    const out = kept();
    peers.push({
      library: "bitwire",
      note: NOTES.bitwire,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += bw.encodeEvents(values[i] as bw.Events, w).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = bw.decodeEvents(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => bw.decodeEvents(frames[i] as Uint8Array),
    });
  }

  {
    const frames = copies(n, (i) => hand.encodeEvents(values[i] as bw.Events));
    const out = kept();
    peers.push({
      library: "handwritten",
      note: `${NOTES.handwritten}; a small bit packer, ASCII fast path for strings`,
      frames,
      bitwireBytes: true,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += hand.encodeEvents(values[i] as bw.Events).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = hand.decodeEvents(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => hand.decodeEvents(frames[i] as Uint8Array),
    });
  }

  {
    const b = new flatbuffers.Builder(1024);
    const offsets: number[] = [];
    const frames = copies(n, (i) => fbEncodeEvents(b, nums[i] as NumEvents, offsets));
    peers.push({
      library: "flatbuffers",
      note: `${NOTES.flatbuffers}; the union is a vector of EventItem tables (game.fbs)`,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += fbEncodeEvents(b, nums[i] as NumEvents, offsets).length;
        }
        return s;
      },
      decodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          const v = fb.Events.getRootAsEvents(new flatbuffers.ByteBuffer(frames[i] as Uint8Array), fbEv.root);
          s += v.tick();
          const len = v.eventsLength();
          for (let k = 0; k < len; k++) {
            const item = v.events(k, fbEv.item) as fb.EventItem;
            switch (item.eventType()) {
              case fb.Event.Chat: {
                const c = item.event(fbEv.chat) as fb.Chat;
                s += (c.from()?.length ?? 0) + (c.text()?.length ?? 0);
                break;
              }
              case fb.Event.Kill: {
                const c = item.event(fbEv.kill) as fb.Kill;
                s += c.killer() + c.victim() + c.weapon() + (c.headshot() ? 1 : 0);
                break;
              }
              case fb.Event.Join:
                s += ((item.event(fbEv.join) as fb.Join).name()?.length ?? 0);
                break;
              case fb.Event.Leave:
                s += (item.event(fbEv.leave) as fb.Leave).id();
                break;
              default:
                s += 1;
            }
          }
        }
        return s;
      },
      check(i) {
        const v = fb.Events.getRootAsEvents(new flatbuffers.ByteBuffer(frames[i] as Uint8Array));
        const events: bw.Event[] = [];
        for (let k = 0; k < v.eventsLength(); k++) {
          const item = v.events(k) as fb.EventItem;
          switch (item.eventType()) {
            case fb.Event.Chat: {
              const c = item.event(new fb.Chat()) as fb.Chat;
              events.push({ kind: "Chat", value: { from: c.from() ?? "", text: c.text() ?? "" } });
              break;
            }
            case fb.Event.Kill: {
              const c = item.event(new fb.Kill()) as fb.Kill;
              events.push({
                kind: "Kill",
                value: { killer: c.killer(), victim: c.victim(), weapon: weaponOf(c.weapon()), headshot: c.headshot() },
              });
              break;
            }
            case fb.Event.Join:
              events.push({ kind: "Join", value: (item.event(new fb.Join()) as fb.Join).name() ?? "" });
              break;
            case fb.Event.Leave:
              events.push({ kind: "Leave", value: (item.event(new fb.Leave()) as fb.Leave).id() });
              break;
            case fb.Event.RoundOver:
              events.push({ kind: "RoundOver" });
              break;
            default:
              throw new Error(`event type ${item.eventType()}`);
          }
        }
        return { tick: v.tick(), events };
      },
    });
  }

  {
    const msgs = nums.map((v) =>
      create(pb.EventsSchema, {
        tick: v.tick,
        events: v.events.map((e) => {
          switch (e.kind) {
            case "Chat":
              return { kind: { case: "chat" as const, value: { ...e.value } } };
            case "Kill":
              return { kind: { case: "kill" as const, value: { ...e.value } } };
            case "Join":
              return { kind: { case: "join" as const, value: e.value } };
            case "Leave":
              return { kind: { case: "leave" as const, value: e.value } };
            case "RoundOver":
              return { kind: { case: "roundOver" as const, value: {} } };
          }
        }),
      }),
    );
    const frames = copies(n, (i) => toBinary(pb.EventsSchema, msgs[i] as pb.Events));
    const out = kept();
    peers.push({
      library: "protobuf-es",
      note: `${NOTES["protobuf-es"]}; the union is a oneof`,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += toBinary(pb.EventsSchema, msgs[i] as pb.Events).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = fromBinary(pb.EventsSchema, frames[i] as Uint8Array);
        }
        return count;
      },
      check(i) {
        const m = fromBinary(pb.EventsSchema, frames[i] as Uint8Array);
        return {
          tick: m.tick,
          events: m.events.map((e): bw.Event => {
            const k = e.kind;
            switch (k.case) {
              case "chat":
                return { kind: "Chat", value: { from: k.value.from, text: k.value.text } };
              case "kill":
                return {
                  kind: "Kill",
                  value: { killer: k.value.killer, victim: k.value.victim, weapon: weaponOf(k.value.weapon), headshot: k.value.headshot },
                };
              case "join":
                return { kind: "Join", value: k.value };
              case "leave":
                return { kind: "Leave", value: k.value };
              case "roundOver":
                return { kind: "RoundOver" };
              default:
                throw new Error("an event with no kind");
            }
          }),
        };
      },
    });
  }

  {
    const pk = packr();
    const frames = copies(n, (i) => pk.pack(values[i]));
    const out = kept();
    peers.push({
      library: "msgpackr",
      note: NOTES.msgpackr,
      frames,
      bitwireBytes: false,
      encodeAll(count) {
        let s = 0;
        for (let i = 0; i < count; i++) {
          s += pk.pack(values[i]).length;
        }
        return s;
      },
      decodeAll(count) {
        for (let i = 0; i < count; i++) {
          out[i & KEEP_MASK] = pk.unpack(frames[i] as Uint8Array);
        }
        return count;
      },
      check: (i) => pk.unpack(frames[i] as Uint8Array),
    });
  }
  return peers;
}
