// The test client of the TypeScript servers (test.sh), on Node: one connection over
// `node:net`, Ping frames from the generated `encodeFrame`, replies read with the
// runtime's `FrameReader` and checked with `decodeFrame`.
//
//   node build/src/client.js --addr HOST:PORT [--reply pong|echo] [--packets N] [--window W]
//   node build/src/client.js --addr HOST:PORT --bad message|frame
//
// Packet i is the Ping of seq i whose packed message is SIZES[i % 8] bytes
// (bench/net/README.md). With --reply pong (bitwire and mcproto servers) each reply
// must be the Pong of the same seq and data; with echo (raw servers) the Ping itself.
// W packets are in flight at once (1: ping-pong). It prints
// `ok N packets, window W: S s, X packets/s` and exits 0, or says what was wrong and
// exits 1 (after 20 s at most).
//
// --bad message sends a Pong, --bad frame a non-minimal Length (`80 00`): the server
// must close the connection (FIN or reset) without a reply (exit 0), else exit 1.

import { connect } from "node:net";
import process from "node:process";
import { BitWriter, FrameReader } from "@bitwire/runtime";
import { type Message, decodeFrame, encodeFrame } from "../gen/netbench.js";
import { describe, parseArgs } from "./server.js";

/** The packet sizes of the benchmark: the packed Ping's bytes. */
export const SIZES = [8, 16, 32, 64, 128, 256, 512, 1024] as const;

/** The Ping of seq `seq`: 43 bits of seq and length, so SIZES[seq % 8] - 6 bytes of data. */
function ping(seq: number): Message {
  const data = new Uint8Array((SIZES[seq % SIZES.length] as number) - 6);
  for (let i = 0; i < data.length; i++) {
    data[i] = (seq + i) & 0xff;
  }
  return { kind: "Ping", value: { seq, data } };
}

function fail(why: string): never {
  console.error(`client: ${why}`);
  process.exit(1);
}

function flag(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  if (i < 0) {
    return fallback;
  }
  const [value] = args.splice(i, 2).slice(1);
  return value ?? fail(`--${name} needs a value`);
}

const args = process.argv.slice(2);
const reply = flag(args, "reply", "pong");
const packets = Number(flag(args, "packets", "100"));
const window = Number(flag(args, "window", "1"));
const bad = flag(args, "bad", "");
const { host, port } = parseArgs(args, [""]);
setTimeout(() => fail("timed out after 20 s"), 20_000).unref();

const socket = connect({ host, port, noDelay: true });

if (bad !== "") {
  // Closing by a reset (Bun's `terminate`) is closing too: `close` follows the error.
  socket.on("error", () => {});
  socket.on("connect", () => {
    socket.write(bad === "frame" ? Uint8Array.of(0x80, 0x00) : encodeFrame({ kind: "Pong", value: { seq: 1, data: new Uint8Array(2) } }));
  });
  socket.on("data", () => fail(`the server answered a bad ${bad}`));
  socket.on("close", () => {
    console.log(`ok: the server closed the connection after a bad ${bad}`);
    process.exit(0);
  });
} else {
  socket.on("error", (e) => fail(describe(e)));
  const w = new BitWriter(1100);
  let sent = 0;
  let received = 0;
  let started = 0;
  const send = (): void => {
    socket.write(encodeFrame(ping(sent++), undefined, w));
  };
  const check = (m: Message, seq: number): void => {
    const want = ping(seq);
    const kind = reply === "echo" ? "Ping" : "Pong";
    const same = m.value.seq === seq && Buffer.compare(m.value.data, want.value.data) === 0;
    if (m.kind !== kind || !same) {
      fail(`reply ${seq}: a ${m.kind} of seq ${m.value.seq} with ${m.value.data.length} bytes of data, want the ${kind} of seq ${seq} with ${want.value.data.length}`);
    }
  };
  const frames = new FrameReader();
  socket.on("connect", () => {
    started = performance.now();
    while (sent < Math.min(window, packets)) {
      send();
    }
  });
  socket.on("data", (chunk: Buffer) => {
    frames.push(chunk);
    for (let f = frames.next(); f !== undefined; f = frames.next()) {
      check(decodeFrame(f), received++);
      if (sent < packets) {
        send();
      }
    }
    if (received === packets) {
      const seconds = (performance.now() - started) / 1000;
      console.log(`ok ${packets} packets, window ${window}: ${seconds.toFixed(3)} s, ${Math.round(packets / seconds)} packets/s`);
      socket.end();
    } else if (received > packets) {
      fail(`${received} replies to ${packets} packets`);
    }
  });
  socket.on("close", () => (received === packets ? process.exit(0) : fail(`the server closed the connection after ${received} of ${packets} replies`)));
}
