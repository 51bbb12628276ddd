// The client codecs (src/codec.ts) on real encoders: the generated packed Snapshot, and
// the runtime's SnapshotSender with the generated delta encoder for `bitwire-delta`.

import assert from "node:assert/strict";
import { test } from "node:test";
import { SnapshotSender } from "@bitwire/runtime";
import { type Entity, Kind, type Snapshot, decodeInput, encodeSnapshot, snapshotDeltaCodec } from "../gen/sim.js";
import { CodecError, clientCodec } from "../src/codec.js";

function world(tick: number): Snapshot {
  const entities: Entity[] = [1, 5, 2048, 2100].map((id, i) => ({
    id,
    kind: id < 2048 ? Kind.Player : Kind.Npc,
    x: i * 10 + (tick % 64) / 64,
    y: i * -5 + 0,
    yaw: 0,
    vx: 0.125 * i,
    vy: 0,
    health: 100 + i,
    anim: i,
  }));
  return { tick, inputSeq: tick - 1, you: 5, entities };
}

test("bitwire: packed snapshots, acknowledged with the tick's low 16 bits", () => {
  const c = clientCodec("bitwire");
  const s = world(70_000);
  const got = c.decodeSnapshot(encodeSnapshot(s));
  assert.deepEqual(got?.snapshot, s);
  assert.equal(got?.ack, 70_000 & 0xffff);
  assert.throws(() => c.decodeSnapshot(new Uint8Array([1, 2, 3])), CodecError);
});

test("bitwire-delta: envelopes through the receiver, acknowledged with their Seq; old ones dropped", () => {
  const c = clientCodec("bitwire-delta");
  const sender = new SnapshotSender(snapshotDeltaCodec);
  const first = sender.encode(world(1));
  assert.equal(first.back, 0);
  const got1 = c.decodeSnapshot(first.bytes);
  assert.deepEqual(got1?.snapshot, world(1));
  assert.equal(got1?.ack, 0);
  sender.ack(got1?.ack ?? -1);
  const second = sender.encode(world(2));
  assert.equal(second.back, 1, "a delta against the acknowledged snapshot");
  assert.ok(second.bytes.length < first.bytes.length);
  const got2 = c.decodeSnapshot(second.bytes);
  assert.deepEqual(got2?.snapshot, world(2));
  assert.equal(got2?.ack, 1);
  assert.equal(c.decodeSnapshot(second.bytes), undefined, "a duplicate is dropped");
});

test("bitwire-delta: a missing baseline and a short envelope are codec errors", () => {
  const sender = new SnapshotSender(snapshotDeltaCodec);
  sender.encode(world(1));
  sender.ack(0);
  const delta = sender.encode(world(2));
  const c = clientCodec("bitwire-delta");
  assert.throws(() => c.decodeSnapshot(delta.bytes), (e: unknown) => e instanceof CodecError && /BaselineMissing/.test(e.message));
  assert.throws(() => c.decodeSnapshot(new Uint8Array([0, 0])), (e: unknown) => e instanceof CodecError && /Truncated/.test(e.message));
});

test("inputs are packed in both codecs, the same bytes", () => {
  const input = { seq: 30, ack: 7, moveX: 1, moveY: -1, aim: 359.5, fire: true, rttUs: 1234 };
  const a = clientCodec("bitwire").encodeInput(input).slice();
  const b = clientCodec("bitwire-delta").encodeInput(input).slice();
  assert.deepEqual(a, b);
  const back = decodeInput(a);
  assert.deepEqual([back.seq, back.ack, back.fire, back.rttUs], [30, 7, true, 1234]);
});
