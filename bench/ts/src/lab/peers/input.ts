// The peers on input (a player's input: a sequence number, quantized movement and view
// angles, a nested struct of button flags): bitwire, the hand-written packer (../hand.ts),
// FlatBuffers, protobuf-es and msgpackr.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";

import * as bw from "../../../gen/game.js";
import * as fb from "../../peers/fb/bitwire/bench/fb.js";
import * as pb from "../../peers/pb/game_pb.js";
import * as hand from "../hand.js";
import { KEEP_MASK, NOTES, type Peer, copies, kept, msgpackrPeer } from "./peer.js";

export function inputPeers(values: bw.Input[]): Peer[] {
  return [
    bitwireInput(values),
    handwrittenInput(values),
    flatbuffersInput(values),
    protobufInput(values),
    msgpackrPeer(values),
  ];
}

function bitwireInput(values: bw.Input[]): Peer {
  const n = values.length;
  const w = new BitWriter(8);
  const frames = copies(n, (i) => bw.encodeInput(values[i] as bw.Input));
  const out = kept();
  return {
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
  };
}

function handwrittenInput(values: bw.Input[]): Peer {
  const n = values.length;
  const frames = copies(n, (i) => hand.encodeInput(values[i] as bw.Input));
  const out = kept();
  return {
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
  };
}

function flatbuffersInput(values: bw.Input[]): Peer {
  const n = values.length;
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
  return {
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
  };
}

function protobufInput(values: bw.Input[]): Peer {
  const n = values.length;
  const msgs = values.map((v) => create(pb.InputSchema, { ...v, buttons: { ...v.buttons } }));
  const frames = copies(n, (i) => toBinary(pb.InputSchema, msgs[i] as pb.Input));
  const out = kept();
  return {
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
  };
}
