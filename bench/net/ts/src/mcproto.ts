// The network benchmark's minecraft-protocol server on Node (bench/net/README.md): the
// kind of stack the report we reproduce measured, with no bitwire in it.
//
//   BITWIRE_MCPROTO=DIR node build/src/mcproto.js --addr 127.0.0.1:0
//
// Each connection is piped through npm minecraft-protocol 1.68's own splitter and
// framer (src/transforms/framing.js, deep-required as conformance/peers/mcproto does:
// the package does not export them). For each packet the splitter emits, the PacketID
// VarInt is read with protodef's `varint` (what the library's deserializer uses); a
// Ping (id 1) is answered with the same body under PacketID 2 through the framer, and
// anything else is an error that closes the connection.
//
// The library comes from the minecraft-protocol peer's installation, not from this
// package: `bash conformance/peers/mcproto/install.sh` installs it (its minecraft-data
// dependency is about 500 MB) and prints the directory; BITWIRE_MCPROTO names it
// (default: the repository's target/mcproto, where install.sh puts it).
//
// The library buffers frames of any length and writes without backpressure; the server
// bounds both (max_frame + 3 bytes held of an incomplete frame, RAW_MAX_PENDING bytes
// waiting for the peer), closing a connection that passes them, so that a hostile peer
// costs bounded memory.

import { createRequire } from "node:module";
import { type Socket, createServer } from "node:net";
import process from "node:process";
import type { Duplex } from "node:stream";
import { fileURLToPath } from "node:url";
import { nodeProcess } from "./process.js";
import { type Counts, type Listener, RAW_MAX_PENDING, describe, serve } from "./server.js";

/** The transforms of minecraft-protocol's src/transforms/framing.js. */
interface Framing {
  createSplitter(): Duplex;
  createFramer(): Duplex;
}

/** protodef's `types.varint`: read, write, size (Minecraft's VarInt). */
type VarInt = [
  (buffer: Buffer, offset: number) => { value: number; size: number },
  (value: number, buffer: Buffer, offset: number) => number,
  (value: number) => number,
];

/** The largest frame a bitwire reader buffers (docs/framing.md §2.2: max_frame + 3). */
const MAX_BUFFERED = 2_097_151 + 3;

const PING_ID = 1;
const PONG_ID = 2;

/** Loads the library from the peer's installation (see the top of this file). */
function load(): { framing: Framing; varint: VarInt } {
  const dir = process.env.BITWIRE_MCPROTO ?? fileURLToPath(new URL("../../../../../target/mcproto/", import.meta.url));
  const require = createRequire(`${dir}/node_modules/minecraft-protocol/package.json`);
  const version = (require("minecraft-protocol/package.json") as { version: string }).version;
  if (version !== "1.68.0") {
    throw new Error(`minecraft-protocol ${version} in ${dir}, want 1.68.0 (conformance/peers/mcproto/install.sh)`);
  }
  const framing = require("minecraft-protocol/src/transforms/framing") as Framing;
  const varint = (require("protodef") as { types: { varint: VarInt } }).types.varint;
  return { framing, varint };
}

function listenMcproto(host: string, port: number, counts: Counts): Promise<Listener> {
  const { framing, varint } = load();
  const [readVarInt, writeVarInt, sizeOfVarInt] = varint;
  const sockets = new Set<Socket>();
  let stopping = false;
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    const splitter = framing.createSplitter();
    const framer = framing.createFramer();
    socket.pipe(splitter);
    framer.pipe(socket);
    let failed = false;
    const fail = (why: string): void => {
      if (!failed && !stopping) {
        counts.errors++;
        console.error(`netserver: closed a connection: ${why}`);
      }
      failed = true;
      socket.destroy();
    };
    // Bytes received and bytes the splitter has emitted as packets (with their Length).
    let received = 0;
    let consumed = 0;
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      if (received - consumed > MAX_BUFFERED) {
        fail(`more than ${MAX_BUFFERED} bytes of an incomplete frame`);
      }
    });
    splitter.on("data", (packet: Buffer) => {
      if (failed) {
        return;
      }
      consumed += sizeOfVarInt(packet.length) + packet.length;
      let id: { value: number; size: number };
      try {
        id = readVarInt(packet, 0);
      } catch (e) {
        fail(`a packet without a PacketID: ${describe(e)}`);
        return;
      }
      if (id.value !== PING_ID) {
        fail(`PacketID ${id.value}, not a Ping (${PING_ID})`);
        return;
      }
      const head = sizeOfVarInt(PONG_ID);
      const out = Buffer.allocUnsafe(head + packet.length - id.size);
      writeVarInt(PONG_ID, out, 0);
      packet.copy(out, head, id.size);
      framer.write(out);
      counts.packets++;
      if (framer.writableLength + framer.readableLength + socket.writableLength > RAW_MAX_PENDING) {
        fail(`more than ${RAW_MAX_PENDING} bytes wait for a peer that does not read`);
      }
    });
    splitter.on("error", (e: Error) => fail(describe(e)));
    socket.on("error", (e) => fail(describe(e)));
    socket.on("close", () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const addr = server.address();
      resolve({
        port: typeof addr === "object" && addr !== null ? addr.port : port,
        close: () =>
          new Promise((closed) => {
            stopping = true;
            server.close(() => closed());
            for (const s of sockets) {
              s.destroy();
            }
          }),
      });
    });
  });
}

await serve(nodeProcess(), { mcproto: listenMcproto });
