// The peers on packet64 (eight fixed-width fields in 8 bytes): bitwire, the hand-written
// packer (src/handwritten.ts), a FlatBuffers struct-like table, protobuf-es and msgpackr.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";

import * as bw from "../../../gen/game.js";
import * as hand64 from "../../handwritten.js";
import * as fb from "../../peers/fb/bitwire/bench/fb.js";
import * as pb from "../../peers/pb/game_pb.js";
import { KEEP_MASK, NOTES, type Peer, copies, kept, msgpackrPeer } from "./peer.js";

export function packet64Peers(values: bw.Packet64[]): Peer[] {
  return [
    bitwirePacket64(values),
    handwrittenPacket64(values),
    flatbuffersPacket64(values),
    protobufPacket64(values),
    msgpackrPeer(values),
  ];
}

function bitwirePacket64(values: bw.Packet64[]): Peer {
  const n = values.length;
  const w = new BitWriter(8);
  const frames = copies(n, (i) => bw.encodePacket64(values[i] as bw.Packet64));
  const out = kept();
  return {
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
  };
}

function handwrittenPacket64(values: bw.Packet64[]): Peer {
  const n = values.length;
  const frames = copies(n, (i) => hand64.encode(values[i] as bw.Packet64));
  const out = kept();
  return {
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
  };
}

function flatbuffersPacket64(values: bw.Packet64[]): Peer {
  const n = values.length;
  const b = new flatbuffers.Builder(64);
  const enc = (p: bw.Packet64): Uint8Array => {
    b.clear();
    const off = fb.Packet64.createPacket64(b, p.isAlive, p.weaponId, p.teamId, p.health, p.posX, p.posY, p.rotation, p.score);
    b.finish(off);
    return b.asUint8Array();
  };
  const frames = copies(n, (i) => enc(values[i] as bw.Packet64));
  const acc = new fb.Packet64();
  return {
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
  };
}

function protobufPacket64(values: bw.Packet64[]): Peer {
  const n = values.length;
  const msgs = values.map((v) => create(pb.Packet64Schema, { ...v }));
  const frames = copies(n, (i) => toBinary(pb.Packet64Schema, msgs[i] as pb.Packet64));
  const out = kept();
  return {
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
  };
}
