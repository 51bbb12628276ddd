// Snapshots against acknowledged baselines (docs/framing.md §10) over a real 127.0.0.1
// socket, on Node, Bun and Deno: a `listenTcp` server sends 100 snapshots through a
// SnapshotSender, a `connectTcp` client decodes them with a SnapshotReceiver and
// acknowledges each in an input message. The client loses a few snapshots, withholds its
// acks until the baseline leaves the server's ring (full snapshots follow), and restarts
// its receiver (BaselineMissing, then a requested full snapshot).
//
// The body codec is the test codec of testdata/vectors/envelope (a list of u32), and the
// protocol is hand-written for this test: id 1 carries a snapshot envelope as it is,
// id 2 an input (a flags byte, 1: has an ack, 2: full; then the ack as u16 LE).

import {
  type Connection,
  type DeltaCodec,
  DEFAULT_RING,
  type Protocol,
  SnapshotError,
  SnapshotReceiver,
  SnapshotSender,
  error,
  lengthError,
} from "@bitwire/runtime";
import { connectTcp, listenTcp } from "@bitwire/runtime/node";
import { check, test, within } from "./harness.js";

type TestMessage = { kind: "snapshot"; envelope: Uint8Array } | { kind: "input"; ack: number | undefined; full: boolean };

const protocol: Protocol<TestMessage> = {
  messageId: (m) => (m.kind === "snapshot" ? 1 : 2),
  isMessageId: (id) => id === 1 || id === 2,
  encode: (m) => {
    if (m.kind === "snapshot") {
      return m.envelope;
    }
    const flags = (m.ack === undefined ? 0 : 1) | (m.full ? 2 : 0);
    return m.ack === undefined ? Uint8Array.of(flags) : Uint8Array.of(flags, m.ack & 0xff, m.ack >>> 8);
  },
  decode: (id, bytes) => {
    if (id === 1) {
      return { kind: "snapshot", envelope: bytes.slice() };
    }
    const flags = bytes[0] ?? 0xff;
    const want = flags & 1 ? 3 : 1;
    if (bytes.length === 0 || flags > 3 || bytes.length !== want) {
      throw error(bytes.length < want ? "Truncated" : "TrailingData", 0);
    }
    return { kind: "input", ack: flags & 1 ? bytes[1]! | (bytes[2]! << 8) : undefined, full: (flags & 2) !== 0 };
  },
};

/** The test codec (the vectors' README): a count byte, then each u32 little-endian. */
function writeList(values: readonly number[]): Uint8Array {
  if (values.length > 255) {
    throw lengthError(0, values.length, 255);
  }
  const out = new Uint8Array(1 + 4 * values.length);
  const view = new DataView(out.buffer);
  out[0] = values.length;
  values.forEach((v, i) => view.setUint32(1 + 4 * i, v, true));
  return out;
}

function readList(bytes: Uint8Array): number[] {
  const n = bytes[0];
  if (n === undefined || bytes.length !== 1 + 4 * n) {
    throw error(n === undefined || bytes.length < 1 + 4 * n ? "Truncated" : "TrailingData", 0);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return Array.from({ length: n }, (_, i) => view.getUint32(1 + 4 * i, true));
}

const listCodec: DeltaCodec<number[]> = {
  encode: writeList,
  encodeDelta: (base, value) => writeList(value.map((v, i) => (v - (base[i] ?? 0)) >>> 0)),
  decode: readList,
  decodeDelta: (base, bytes) => readList(bytes).map((d, i) => (d + (base[i] ?? 0)) >>> 0),
};

const TICKS = 100;

/** The world at tick `t`: 16 entities, a few of which move each tick. */
const world = (t: number): number[] => Array.from({ length: 16 }, (_, i) => i * 1000 + (i % 5 === 0 ? t : 0));

/** The server's side: a snapshot per tick, each after the client's input for the previous one (lock-step). */
async function serveSnapshots(conn: Connection<TestMessage>, backs: number[]): Promise<void> {
  const sender = new SnapshotSender(listCodec, DEFAULT_RING);
  for (let t = 0; t < TICKS; t++) {
    const sent = sender.encode(world(t));
    check(sent.seq === t, `seq ${sent.seq} at tick ${t}`);
    backs.push(sent.back);
    conn.send({ kind: "snapshot", envelope: sent.bytes });
    const input = await conn.recv();
    check(input?.kind === "input", `tick ${t}: expected an input message`);
    if (input?.kind === "input") {
      if (input.ack !== undefined) {
        sender.ack(input.ack);
      }
      if (input.full) {
        sender.requestFull();
      }
    }
  }
  await conn.close();
}

/** The client: decodes, checks against the world, answers; returns [decoded, ticks that were BaselineMissing]. */
async function runClient(port: number): Promise<[number, number[]]> {
  const conn = await connectTcp(protocol, { port });
  let receiver = new SnapshotReceiver(listCodec, DEFAULT_RING);
  let decoded = 0;
  let frozen: number | undefined;
  const missing: number[] = [];
  for (let t = 0; t < TICKS; t++) {
    const m = await within(conn.recv(), 10_000, `snapshot ${t}`);
    if (m?.kind !== "snapshot") {
      throw new Error(`tick ${t}: expected a snapshot`);
    }
    const lose = t >= 20 && t < 24;
    const withhold = t >= 40 && t < 76;
    if (t === 80) {
      receiver = new SnapshotReceiver(listCodec, DEFAULT_RING); // every baseline is gone
    }
    if (!lose) {
      try {
        const got = receiver.decode(m.envelope);
        check(got !== undefined && got.seq === t, `tick ${t}: seq ${got?.seq}`);
        check(got?.value.join() === world(t).join(), `tick ${t}: ${got?.value.join()}`);
        decoded++;
      } catch (e) {
        if (!(e instanceof SnapshotError && e.kind === "BaselineMissing")) {
          throw e;
        }
        missing.push(t);
      }
    }
    if (!withhold) {
      frozen = receiver.ack;
    }
    conn.send({ kind: "input", ack: withhold ? frozen : receiver.ack, full: receiver.needFull });
  }
  check((await within(conn.recv(), 10_000, "the end")) === undefined, "the server closes");
  await conn.close();
  return [decoded, missing];
}

/** Registers the test. */
export function baselineTests(): void {
  test("snapshots against acknowledged baselines over node:net", async () => {
    const backs: number[] = [];
    const server = await listenTcp<TestMessage>(protocol, { port: 0 }, (conn) => serveSnapshots(conn, backs));
    try {
      const [decoded, missing] = await runClient(server.port);
      check(backs.length === TICKS, `${backs.length} snapshots sent`);
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
        check(backs[t] === back, `snapshot ${t}: back ${backs[t]}, want ${back} (${why})`);
      }
      check(missing.join() === "80", `BaselineMissing at ${missing.join()}`);
      check(decoded === TICKS - 4 - 1, `${decoded} decoded`);
    } finally {
      await server.close();
    }
  });
}
