// Snapshots against acknowledged baselines (docs/framing.md §10) on typed connections over
// a real 127.0.0.1 socket, on every stack the echo tests use (node:net, ws, Bun, Deno): a
// server sends 100 snapshots of frames.bw's `delta message World` through a
// SnapshotSender, as `{ kind: "World", envelope }`; a client hands each envelope to a
// SnapshotReceiver and acknowledges it in an `Input` message. The client loses a few
// snapshots, withholds its acks until the baseline leaves the server's ring (full
// snapshots follow), and restarts its receiver (BaselineMissing, then a requested full
// snapshot). The generated protocol is the whole protocol: nothing hand-written.

import { type Connection, DEFAULT_RING, SnapshotError, SnapshotReceiver, SnapshotSender, decodeSnapshotHeader } from "@bitwire/runtime";
import { type Message, type World, worldDeltaCodec } from "../../gen/frames.js";
import type { Stack } from "./echo.js";
import { check, test, within } from "./harness.js";

const TICKS = 100;

/** The world at tick `t`: 16 entities, every fifth of which moves each tick. */
const world = (t: number): World => ({
  tick: t,
  entities: Array.from({ length: 16 }, (_, i) => ({ id: i * 100, x: i * 10 + (i % 5 === 0 ? t : 0), y: -i })),
});

/** What the server sent for one tick: the header's `back` and the envelope's size. */
interface Sent {
  back: number;
  size: number;
}

/** The server's side: a snapshot per tick, each after the client's input for the previous one (lock-step). */
async function serveSnapshots(conn: Connection<Message>, sent: Sent[]): Promise<void> {
  const sender = new SnapshotSender(worldDeltaCodec, DEFAULT_RING);
  for (let t = 0; t < TICKS; t++) {
    const snapshot = sender.encode(world(t));
    check(snapshot.seq === t, `seq ${snapshot.seq} at tick ${t}`);
    sent.push({ back: snapshot.back, size: snapshot.bytes.length });
    conn.send({ kind: "World", envelope: snapshot.bytes });
    const input = await conn.recv();
    if (input?.kind !== "Input") {
      throw new Error(`tick ${t}: expected an input message, got ${input?.kind}`);
    }
    if (input.value.ack !== null) {
      sender.ack(input.value.ack);
    }
    if (input.value.full) {
      sender.requestFull();
    }
  }
  await conn.close();
}

/** The client: decodes, checks against the world, answers; returns [decoded, ticks that were BaselineMissing]. */
async function runClient(conn: Connection<Message>): Promise<[number, number[]]> {
  let receiver = new SnapshotReceiver(worldDeltaCodec, DEFAULT_RING);
  let decoded = 0;
  let frozen: number | null = null;
  const missing: number[] = [];
  for (let t = 0; t < TICKS; t++) {
    const m = await within(conn.recv(), 10_000, `snapshot ${t}`);
    if (m?.kind !== "World") {
      throw new Error(`tick ${t}: expected a snapshot, got ${m?.kind}`);
    }
    check(decodeSnapshotHeader(m.envelope).header.seq === t, `tick ${t}: the envelope's header`);
    const lose = t >= 20 && t < 24;
    const withhold = t >= 40 && t < 76;
    if (t === 80) {
      receiver = new SnapshotReceiver(worldDeltaCodec, DEFAULT_RING); // every baseline is gone
    }
    if (!lose) {
      try {
        const got = receiver.decode(m.envelope);
        check(got !== undefined && got.seq === t, `tick ${t}: seq ${got?.seq}`);
        check(JSON.stringify(got?.value) === JSON.stringify(world(t)), `tick ${t}: ${JSON.stringify(got?.value)}`);
        decoded++;
      } catch (e) {
        if (!(e instanceof SnapshotError && e.kind === "BaselineMissing")) {
          throw e;
        }
        missing.push(t);
      }
    }
    const ack = receiver.ack ?? null;
    if (!withhold) {
      frozen = ack;
    }
    conn.send({ kind: "Input", value: { ack: withhold ? frozen : ack, full: receiver.needFull } });
  }
  check((await within(conn.recv(), 10_000, "the end")) === undefined, "the server closes");
  await conn.close();
  return [decoded, missing];
}

/** Registers the test on `stack`. */
export function baselineTests(stack: Stack): void {
  test(`${stack.name}: snapshots against acknowledged baselines`, async () => {
    const sent: Sent[] = [];
    const server = await stack.listen({}, (conn) => serveSnapshots(conn, sent));
    try {
      const [decoded, missing] = await runClient(await stack.connect(server.port, {}));
      check(sent.length === TICKS, `${sent.length} snapshots sent`);
      const want: [number, number, string][] = [
        [0, 0, "nothing acknowledged yet"],
        [1, 1, ""],
        [20, 1, "20..24 lost: the acks stay at 19"],
        [23, 4, ""],
        [24, 5, ""],
        [71, DEFAULT_RING, "acks withheld at 39: the oldest in the ring"],
        [72, 0, "39 left the ring: full"],
        [76, 0, ""],
        [77, 1, "acks resumed"],
        [80, 1, "the client restarted its receiver"],
        [81, 0, "it asked for a full snapshot"],
        [82, 1, ""],
      ];
      for (const [t, back, why] of want) {
        check(sent[t]?.back === back, `snapshot ${t}: back ${sent[t]?.back}, want ${back} (${why})`);
      }
      check(missing.join() === "80", `BaselineMissing at ${missing.join()}`);
      check(decoded === TICKS - 4 - 1, `${decoded} decoded`);
      const [full, delta] = [sent[0]?.size ?? 0, sent[2]?.size ?? 0];
      check(delta * 4 < full, `a delta of three moved entities is ${delta} bytes, the full world ${full}`);
    } finally {
      await server.close();
    }
  });
}
