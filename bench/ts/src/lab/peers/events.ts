// The peers on events (a tick and a list of union values: chat, kill, join, leave, round
// over): bitwire, the hand-written packer (../hand.ts), FlatBuffers (a vector of
// EventItem tables), protobuf-es (a oneof; both given the weapon as a number, converted
// untimed) and msgpackr.

import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BitWriter } from "@bitwire/runtime";
import * as flatbuffers from "flatbuffers";

import * as bw from "../../../gen/game.js";
import * as fb from "../../peers/fb/bitwire/bench/fb.js";
import * as pb from "../../peers/pb/game_pb.js";
import * as hand from "../hand.js";
import { WEAPON_NUM, weaponOf } from "./enums.js";
import { KEEP_MASK, NOTES, type Peer, copies, kept, msgpackrPeer } from "./peer.js";

export function eventsPeers(values: bw.Events[]): Peer[] {
  const nums = values.map(numEvents);
  return [
    bitwireEvents(values),
    handwrittenEvents(values),
    flatbuffersEvents(nums),
    protobufEvents(nums),
    msgpackrPeer(values),
  ];
}

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

function bitwireEvents(values: bw.Events[]): Peer {
  const n = values.length;
  const w = new BitWriter(1024);
  const frames = copies(n, (i) => bw.encodeEvents(values[i] as bw.Events));
  const out = kept();
  return {
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
  };
}

function handwrittenEvents(values: bw.Events[]): Peer {
  const n = values.length;
  const frames = copies(n, (i) => hand.encodeEvents(values[i] as bw.Events));
  const out = kept();
  return {
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
  };
}

function flatbuffersEvents(nums: NumEvents[]): Peer {
  const n = nums.length;
  const b = new flatbuffers.Builder(1024);
  const offsets: number[] = [];
  const frames = copies(n, (i) => fbEncodeEvents(b, nums[i] as NumEvents, offsets));
  return {
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
  };
}

function protobufEvents(nums: NumEvents[]): Peer {
  const n = nums.length;
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
  return {
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
  };
}
