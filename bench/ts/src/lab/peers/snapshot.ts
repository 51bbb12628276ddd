// The peers on snapshot (a tick and a list of entities with strings, enums and an
// optional target): bitwire, the hand-written packer (../hand.ts), FlatBuffers,
// protobuf-es (both given the enums as numbers, converted untimed) and msgpackr.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";

import * as bw from "../../../gen/game.js";
import * as fb from "../../peers/fb/bitwire/bench/fb.js";
import * as pb from "../../peers/pb/game_pb.js";
import * as hand from "../hand.js";
import { TEAM_NUM, WEAPON_NUM, teamOf, weaponOf } from "./enums.js";
import { KEEP_MASK, NOTES, type Peer, copies, kept, msgpackrPeer } from "./peer.js";

export function snapshotPeers(values: bw.Snapshot[]): Peer[] {
  const nums = values.map(numSnapshot);
  return [
    bitwireSnapshot(values),
    handwrittenSnapshot(values),
    flatbuffersSnapshot(nums),
    protobufSnapshot(nums),
    msgpackrPeer(values),
  ];
}

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

function bitwireSnapshot(values: bw.Snapshot[]): Peer {
  const n = values.length;
  const w = new BitWriter(2048);
  const frames = copies(n, (i) => bw.encodeSnapshot(values[i] as bw.Snapshot));
  const out = kept();
  return {
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
  };
}

function handwrittenSnapshot(values: bw.Snapshot[]): Peer {
  const n = values.length;
  const frames = copies(n, (i) => hand.encodeSnapshot(values[i] as bw.Snapshot));
  const out = kept();
  return {
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
  };
}

function flatbuffersSnapshot(nums: NumSnapshot[]): Peer {
  const n = nums.length;
  const b = new flatbuffers.Builder(4096);
  const offsets: number[] = [];
  const frames = copies(n, (i) => fbEncodeSnapshot(b, nums[i] as NumSnapshot, offsets));
  const acc = new fb.Snapshot();
  const ent = new fb.Entity();
  const pos = new fb.Vec2();
  return {
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
  };
}

function protobufSnapshot(nums: NumSnapshot[]): Peer {
  const n = nums.length;
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
  return {
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
  };
}
