// The network benchmark's server on Bun (bench/net/README.md):
//
//   bun build/src/bun.js --addr 127.0.0.1:0 [--shape bitwire|raw]
//
// bitwire: `listenBun` of @bitwire/runtime/bun (`Bun.listen`), each Ping answered
// with its Pong. raw: `Bun.listen` handlers that write back every chunk they read.
// Bun's `socket.write` is unbuffered (it returns how many bytes it took), so what it
// does not take waits in a queue, reading pauses, and `drain` writes the rest.

import { listenBun } from "@bitwire/runtime/bun";
import { type Message, protocol } from "../gen/netbench.js";
import { nodeProcess } from "./process.js";
import { type Counts, FrameCounter, type Listener, RAW_MAX_PENDING, describe, pingPong, serve } from "./server.js";

/** What a raw connection keeps: its frame count and the bytes Bun has not taken yet. */
interface Echo {
  frames: FrameCounter;
  pending: Uint8Array[];
  pendingBytes: number;
  /** Set once an error closed it (Bun may report one through both `error` and `close`). */
  failed: boolean;
}

/** The part of Bun's socket the raw echo uses (bun-types `Socket`). */
interface BunSocket {
  data: Echo;
  write(data: Uint8Array): number;
  end(): void;
  terminate(): void;
  pause?(): void;
  resume?(): void;
  setNoDelay?(on: boolean): void;
}

interface BunApi {
  listen(o: {
    hostname: string;
    port: number;
    socket: {
      open(s: BunSocket): void;
      data(s: BunSocket, chunk: Uint8Array): void;
      drain(s: BunSocket): void;
      close(s: BunSocket, error?: Error): void;
      error(s: BunSocket, error: Error): void;
    };
  }): { readonly port: number; stop(closeActive?: boolean): void };
}

async function listenBitwire(host: string, port: number, counts: Counts): Promise<Listener> {
  return listenBun<Message>(protocol, { host, port }, (conn) => pingPong(conn, counts));
}

/** Writes what waits for `s` while Bun takes it; resumes reading once nothing waits. */
function flush(s: BunSocket): void {
  const echo = s.data;
  while (echo.pending.length > 0) {
    const chunk = echo.pending[0] as Uint8Array;
    const n = Math.max(0, s.write(chunk));
    echo.pendingBytes -= n;
    if (n < chunk.length) {
      echo.pending[0] = chunk.subarray(n);
      return;
    }
    echo.pending.shift();
  }
  s.resume?.();
}

async function listenRaw(host: string, port: number, counts: Counts): Promise<Listener> {
  const bun = (globalThis as { Bun?: BunApi }).Bun;
  if (bun === undefined) {
    throw new Error("bun.js needs the Bun runtime");
  }
  let stopping = false;
  const failed = (s: BunSocket, why: string): void => {
    if (!stopping && !s.data.failed) {
      s.data.failed = true;
      counts.errors++;
      console.error(`netserver: closed a connection: ${why}`);
    }
  };
  const listener = bun.listen({
    hostname: host,
    port,
    socket: {
      open(s) {
        s.data = { frames: new FrameCounter(), pending: [], pendingBytes: 0, failed: false };
        s.setNoDelay?.(true);
      },
      data(s, chunk) {
        const echo = s.data;
        counts.packets += echo.frames.scan(chunk);
        const n = echo.pending.length > 0 ? 0 : Math.max(0, s.write(chunk));
        if (n < chunk.length) {
          // Bun may reuse the chunk after this handler: keep a copy of the rest.
          echo.pending.push(chunk.slice(n));
          echo.pendingBytes += chunk.length - n;
          s.pause?.();
          if (echo.pendingBytes > RAW_MAX_PENDING) {
            failed(s, `more than ${RAW_MAX_PENDING} bytes wait for a peer that does not read`);
            s.terminate();
          }
        }
      },
      drain: flush,
      close(s, error) {
        if (error !== undefined) {
          failed(s, describe(error));
        }
      },
      error: (s, error) => failed(s, describe(error)),
    },
  });
  return {
    port: listener.port,
    async close() {
      stopping = true;
      listener.stop(true);
    },
  };
}

await serve(nodeProcess(), { bitwire: listenBitwire, raw: listenRaw });
