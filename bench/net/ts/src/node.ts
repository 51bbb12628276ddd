// The network benchmark's server on Node (bench/net/README.md):
//
//   node build/src/node.js --addr 127.0.0.1:0 [--shape bitwire|raw]
//
// bitwire: `listenTcp` of @bitwire/runtime/node, each Ping answered with its Pong.
// raw: a `node:net` server that writes back every chunk it reads (pausing the socket
// while Node's write buffer is above its high-water mark, as `pipe` does).

import { type Socket, createServer } from "node:net";
import { listenTcp } from "@bitwire/runtime/node";
import { type Message, protocol } from "../gen/netbench.js";
import { nodeProcess } from "./process.js";
import { type Counts, FrameCounter, type Listener, describe, pingPong, serve } from "./server.js";

async function listenBitwire(host: string, port: number, counts: Counts): Promise<Listener> {
  return listenTcp<Message>(protocol, { host, port }, (conn) => pingPong(conn, counts));
}

function listenRaw(host: string, port: number, counts: Counts): Promise<Listener> {
  const sockets = new Set<Socket>();
  let stopping = false;
  const server = createServer({ noDelay: true }, (socket) => {
    sockets.add(socket);
    const frames = new FrameCounter();
    socket.on("data", (chunk: Buffer) => {
      counts.packets += frames.scan(chunk);
      if (!socket.write(chunk)) {
        socket.pause();
      }
    });
    socket.on("drain", () => socket.resume());
    socket.on("error", (e) => {
      if (!stopping) {
        counts.errors++;
        console.error(`netserver: closed a connection: ${describe(e)}`);
      }
    });
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

await serve(nodeProcess(), { bitwire: listenBitwire, raw: listenRaw });
