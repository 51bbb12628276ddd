// minecraft-protocol 1.68 as a framing peer: its own splitter, framer, compressor and
// decompressor (src/transforms/framing.js and compression.js, which the package does
// not export: deep-required), over real TCP sockets, for bitwire's interop tests in
// any language. A payload is what those transforms carry: PacketID VarInt ‖ Data, in hex.
//
//   node peer.mjs echo-server [--threshold T] [--host H]
//       listens on a free port, prints `listening PORT`; for every connection, prints
//       `recv HEX` for each packet it reads and sends the same payload back; runs until
//       killed.
//   node peer.mjs send --addr HOST:PORT [--threshold T] [--expect N]
//       sends each hex payload of stdin (one a line) on one connection, prints `recv HEX`
//       for each packet it reads back, and once N have arrived (default 0) closes and
//       exits 0; exits 1 after 20 s or on an error.
//   node peer.mjs handshake
//       prints the payloads of the library's own serializer: `handshake HEX` (protocol
//       769, localhost:25565, next state 1) and `status HEX` (Status Request).
//
// Without --threshold there is no compression (minecraft-protocol's state before Set
// Compression); with it, frames carry DataLength and zlib as the library writes them.

import { createRequire } from "node:module";
import { connect, createServer } from "node:net";

const require = createRequire(import.meta.url);
const { createSplitter, createFramer } = require("minecraft-protocol/src/transforms/framing");
const { createCompressor, createDecompressor } = require("minecraft-protocol/src/transforms/compression");

function options(args) {
  const out = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i].startsWith("--")) {
      out[args[i].slice(2)] = args[i + 1];
      i++;
    }
  }
  return out;
}

/** Reading and writing packets on a socket with the library's transforms. */
function wire(socket, threshold) {
  const splitter = createSplitter();
  const framer = createFramer();
  let input = socket.pipe(splitter);
  let output = framer;
  if (threshold !== undefined) {
    input = input.pipe(createDecompressor(threshold));
    const compressor = createCompressor(threshold);
    compressor.pipe(framer);
    output = compressor;
  }
  framer.pipe(socket);
  // Ending the first transform ends the socket once everything written went through.
  return { input, write: (payload) => output.write(payload), end: () => output.end() };
}

const hex = (b) => Buffer.from(b).toString("hex");
const [command, ...rest] = process.argv.slice(2);
const opt = options(rest);
const threshold = opt.threshold === undefined ? undefined : Number(opt.threshold);

if (command === "echo-server") {
  const server = createServer((socket) => {
    socket.on("error", () => socket.destroy());
    const { input, write } = wire(socket, threshold);
    input.on("data", (p) => {
      console.log(`recv ${hex(p)}`);
      write(p);
    });
  });
  server.listen(0, opt.host ?? "127.0.0.1", () => console.log(`listening ${server.address().port}`));
} else if (command === "send") {
  const [host, port] = (opt.addr ?? "").split(/:(?=\d+$)/);
  const expect = Number(opt.expect ?? 0);
  const timer = setTimeout(() => {
    console.error("mcproto peer: timed out");
    process.exit(1);
  }, 20_000);
  const socket = connect({ host, port: Number(port) });
  socket.on("error", (e) => {
    console.error(`mcproto peer: ${e.message}`);
    process.exit(1);
  });
  const { input, write, end } = wire(socket, threshold);
  let received = 0;
  let sent = false;
  const done = () => {
    if (sent && received >= expect) {
      clearTimeout(timer);
      end();
    }
  };
  input.on("data", (p) => {
    console.log(`recv ${hex(p)}`);
    received++;
    done();
  });
  socket.on("close", () => process.exit(received >= expect ? 0 : 1));
  socket.on("connect", async () => {
    let text = "";
    for await (const chunk of process.stdin) {
      text += chunk;
    }
    for (const line of text.split("\n")) {
      if (line.trim() !== "") {
        write(Buffer.from(line.trim(), "hex"));
      }
    }
    sent = true;
    done();
  });
} else if (command === "handshake") {
  const { createSerializer, states } = require("minecraft-protocol");
  const handshaking = createSerializer({ state: states.HANDSHAKING, isServer: false, version: "1.21.4" });
  const hs = handshaking.createPacketBuffer({
    name: "set_protocol",
    params: { protocolVersion: 769, serverHost: "localhost", serverPort: 25565, nextState: 1 },
  });
  const status = createSerializer({ state: states.STATUS, isServer: false, version: "1.21.4" });
  console.log(`handshake ${hex(hs)}`);
  console.log(`status ${hex(status.createPacketBuffer({ name: "ping_start", params: {} }))}`);
} else {
  console.error("usage: node peer.mjs echo-server|send|handshake [--threshold T] [--addr HOST:PORT] [--expect N]");
  process.exit(2);
}
