// Interop with minecraft-protocol 1.68 (npm) in both directions over real 127.0.0.1
// sockets, through conformance/peers/mcproto (its own splitter, framer, compressor and
// decompressor): frames it writes are read by bitwire's reader, frames bitwire writes
// are read by it; uncompressed frames are compared byte for byte with bitwire's writer,
// compressed ones after inflating (zlib streams differ between implementations). Also
// the known handshake / Status Request bytes of its serializer, and a typed connection
// to its echo server.

import { type ChildProcess, spawn } from "node:child_process";
import { type Socket, createConnection, createServer } from "node:net";
import process from "node:process";
import { type Frame, FrameReader, type Zlib, encodeFrame, jsZlib, readVarInt } from "@bitwire/runtime";
import { connectTcp, nodeZlib } from "@bitwire/runtime/node";
import { protocol } from "../../gen/frames.js";
import { hex, unhex } from "../util.js";
import { check, test, within } from "./harness.js";
import { message, rng, show } from "./messages.js";

const HANDSHAKE = "008106096c6f63616c686f737463dd01";

/** Payloads (PacketID ‖ Data) of every shape: Minecraft's, bitwire messages, sizes around the threshold, 100 KB. */
function payloads(): string[] {
  const next = rng(3);
  const bytes = (id: string, n: number): string => id + hex(Uint8Array.from({ length: n }, () => Math.floor(next() * 16)));
  return [
    HANDSHAKE,
    "00",
    "01a52bca0e4b40e204",
    "ac0207",
    "ffffffff07ff",
    bytes("02", 254), // 255 bytes: below a threshold of 256
    bytes("02", 255), // 256 bytes: compressed at 256
    bytes("2a", 100_000),
    bytes("05", 3000),
  ];
}

/** The peer's `node peer.mjs ARGS`, its stdout lines, and the first line once it is there. */
function peer(args: string[], input?: string): { child: ChildProcess; lines: string[]; first: Promise<string>; exited: Promise<number | null> } {
  const script = process.env.BITWIRE_MCPROTO_PEER as string;
  const child = spawn(process.execPath, [script, ...args], { stdio: ["pipe", "pipe", "inherit"] });
  const lines: string[] = [];
  let buf = "";
  let firstLine: (l: string) => void = () => {};
  const first = new Promise<string>((ok) => {
    firstLine = ok;
  });
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (s: string) => {
    buf += s;
    let i: number;
    while ((i = buf.indexOf("\n")) >= 0) {
      lines.push(buf.slice(0, i));
      if (lines.length === 1) {
        firstLine(buf.slice(0, i));
      }
      buf = buf.slice(i + 1);
    }
  });
  child.stdin?.end(input ?? "");
  const exited = new Promise<number | null>((ok) => child.on("exit", (code) => ok(code)));
  return { child, lines, first, exited };
}

/** The frame bitwire writes for a payload. */
function frameOf(payload: string, threshold: number | null, zlib: Zlib): Uint8Array {
  const p = unhex(payload);
  const id = readVarInt(p, 0, p.length);
  if (typeof id === "string") {
    throw new Error(`payload ${payload} has no PacketID`);
  }
  return encodeFrame(id.value, p.subarray(id.width), { threshold, zlib });
}

/** Reads `stream` with bitwire's reader; checks every frame against the payloads, and uncompressed ones byte for byte. */
function checkStream(stream: Uint8Array, want: string[], threshold: number | null): void {
  const r = new FrameReader({ threshold });
  r.push(stream);
  r.end();
  const frames: Frame[] = [];
  for (let f = r.next(); f !== undefined; f = r.next()) {
    frames.push({ ...f, data: f.data.slice() });
  }
  check(frames.length === want.length, `read ${frames.length} frames, expected ${want.length}`);
  frames.forEach((f, i) => {
    const end = i + 1 < frames.length ? (frames[i + 1] as Frame).offset : stream.length;
    const raw = stream.subarray(f.offset, end);
    const payload = want[i] as string;
    const bwPlain = frameOf(payload, threshold, jsZlib);
    const compressed = threshold !== null && unhex(payload).length >= threshold;
    if (!compressed) {
      check(hex(raw) === hex(bwPlain), `frame ${i}: ${hex(raw).slice(0, 60)}, bitwire writes ${hex(bwPlain).slice(0, 60)}`);
    }
    const back = hex(frameOf(payload, null, jsZlib));
    const mine = hex(encodeFrame(f.id, f.data));
    check(mine === back, `frame ${i} inflates to ${mine.slice(0, 60)}, expected ${back.slice(0, 60)}`);
  });
}

/** Resolves once `cond` holds (polled); rejects after 15 s. */
function until(cond: () => boolean, what: string): Promise<void> {
  return within(
    (async () => {
      while (!cond()) {
        await new Promise((ok) => setTimeout(ok, 10));
      }
    })(),
    15_000,
    what,
  );
}

/** How many whole frames `parts` hold so far. */
function countFrames(parts: Uint8Array[], threshold: number | null): number {
  const r = new FrameReader({ threshold });
  r.push(new Uint8Array(Buffer.concat(parts)));
  let n = 0;
  while (r.next() !== undefined) {
    n++;
  }
  return n;
}

/** Collects everything a socket receives until it closes. */
function collect(socket: Socket): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  socket.on("data", (b: Uint8Array) => parts.push(b));
  return new Promise((ok, fail) => {
    socket.on("error", fail);
    socket.on("close", () => ok(new Uint8Array(Buffer.concat(parts))));
  });
}

export function mcprotoTests(): void {
  test("minecraft-protocol: its serializer's handshake and Status Request, framed by bitwire", async () => {
    const p = peer(["handshake"]);
    await within(p.exited, 15_000, "peer handshake");
    check(p.lines[0] === `handshake ${HANDSHAKE}`, `serializer gave ${p.lines[0]}`);
    check(p.lines[1] === "status 00", `serializer gave ${p.lines[1]}`);
    check(hex(frameOf(HANDSHAKE, null, jsZlib)) === "10008106096c6f63616c686f737463dd01", "handshake frame");
    check(hex(frameOf("00", null, jsZlib)) === "0100", "status request frame");
  });

  for (const threshold of [null, 256, 0]) {
    const flag = threshold === null ? [] : ["--threshold", String(threshold)];
    test(`minecraft-protocol writes, bitwire reads (threshold ${threshold})`, async () => {
      const want = payloads();
      const server = createServer();
      await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
      const accepted = new Promise<Socket>((ok) => server.once("connection", ok));
      const addr = server.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : 0;
      const p = peer(["send", "--addr", `127.0.0.1:${port}`, ...flag], `${want.join("\n")}\n`);
      const stream = await within(collect(await accepted), 15_000, "the peer's frames");
      server.close();
      check((await p.exited) === 0, "the peer exits 0");
      checkStream(stream, want, threshold);
    });

    for (const zlib of [jsZlib, nodeZlib]) {
      test(`bitwire writes (${zlib.name}), minecraft-protocol reads and echoes (threshold ${threshold})`, async () => {
        const want = payloads();
        const p = peer(["echo-server", ...flag]);
        try {
          const port = Number((await within(p.first, 15_000, "the peer listening")).split(" ")[1]);
          const socket = createConnection({ host: "127.0.0.1", port });
          const echoed: Uint8Array[] = [];
          socket.on("data", (b: Uint8Array) => echoed.push(b));
          for (const w of want) {
            socket.write(frameOf(w, threshold, zlib));
          }
          // The peer prints `listening`, then one `recv` line per payload it read.
          await until(() => p.lines.length > want.length, "the peer's reads");
          const got = p.lines.slice(1).map((l) => l.replace(/^recv /, ""));
          check(got.join() === want.join(), `the peer read ${got.length} payloads: ${got.map((g) => g.slice(0, 16)).join()}`);
          // Its echo, written by its compressor and framer, read by bitwire.
          await until(() => countFrames(echoed, threshold) === want.length, "the echo");
          socket.destroy();
          checkStream(new Uint8Array(Buffer.concat(echoed)), want, threshold);
        } finally {
          p.child.kill();
        }
      });
    }
  }

  test("a typed bitwire connection to minecraft-protocol's echo server (threshold 256)", async () => {
    const p = peer(["echo-server", "--threshold", "256"]);
    try {
      const port = Number((await within(p.first, 15_000, "the peer listening")).split(" ")[1]);
      const conn = await connectTcp(protocol, { port, threshold: 256 });
      const next = rng(9);
      const sent = Array.from({ length: 50 }, (_, i) => message(next, i, i % 7 === 0 ? 20000 : 400));
      for (const m of sent) {
        conn.send(m);
      }
      for (const m of sent) {
        const got = await within(conn.recv(), 10_000, "an echo");
        check(got !== undefined && show(got) === show(m), `echo ${got === undefined ? "end" : show(got).slice(0, 60)}, expected ${show(m).slice(0, 60)}`);
      }
      await conn.close();
    } finally {
      p.child.kill();
    }
  });
}
