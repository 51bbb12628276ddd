// The network benchmark's server on Deno (bench/net/README.md):
//
//   deno run --allow-net build/src/deno.js --addr 127.0.0.1:0 [--shape bitwire|raw]
//
// bitwire: `listenDeno` of @bitwire/runtime/deno (`Deno.listen`), each Ping answered
// with its Pong. raw: a `Deno.listen` loop per connection that reads into a buffer
// (64 KiB, as the runtime's adapter reads) and writes each chunk back, awaiting the
// write before the next read. The process side is Deno's own: `Deno.stdin`,
// `Deno.addSignalListener`, `Deno.stdout`, `Deno.exit`.

import { listenDeno } from "@bitwire/runtime/deno";
import { type Message, protocol } from "../gen/netbench.js";
import { type Counts, FrameCounter, type Listener, type Runtime, describe, pingPong, serve } from "./server.js";

/** The part of `Deno.TcpConn` the raw echo uses. */
interface DenoConn {
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  close(): void;
  setNoDelay?(on?: boolean): void;
}

/** The part of `Deno` this entry uses. */
interface DenoApi {
  readonly args: string[];
  readonly stdin: { read(p: Uint8Array): Promise<number | null> };
  readonly stdout: { write(p: Uint8Array): Promise<number> };
  listen(o: { hostname: string; port: number }): AsyncIterable<DenoConn> & { readonly addr: { port: number }; close(): void };
  addSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  exit(code: number): never;
}

const deno = (globalThis as unknown as { Deno: DenoApi }).Deno;

/** Reads stdin until its end (or an error). */
async function stdinEnd(): Promise<void> {
  const buf = new Uint8Array(4096);
  try {
    while ((await deno.stdin.read(buf)) !== null) {
      // Whatever arrives on stdin is ignored; only its end matters.
    }
  } catch {
    // A failing stdin stops the server too.
  }
}

function denoProcess(): Runtime {
  const signalled = new Promise<void>((resolve) => {
    deno.addSignalListener("SIGTERM", resolve);
    deno.addSignalListener("SIGINT", resolve);
  });
  return {
    args: deno.args,
    stopped: Promise.race([stdinEnd(), signalled]),
    async print(line) {
      const bytes = new TextEncoder().encode(`${line}\n`);
      for (let at = 0; at < bytes.length; ) {
        at += await deno.stdout.write(bytes.subarray(at));
      }
    },
    exit: (code) => deno.exit(code),
  };
}

async function listenBitwire(host: string, port: number, counts: Counts): Promise<Listener> {
  return listenDeno<Message>(protocol, { host, port }, (conn) => pingPong(conn, counts));
}

const RAW_READ_SIZE = 64 * 1024;

async function listenRaw(host: string, port: number, counts: Counts): Promise<Listener> {
  const listener = deno.listen({ hostname: host, port });
  const conns = new Set<DenoConn>();
  let stopping = false;
  const echo = async (c: DenoConn): Promise<void> => {
    c.setNoDelay?.(true);
    const buf = new Uint8Array(RAW_READ_SIZE);
    const frames = new FrameCounter();
    try {
      for (let n = await c.read(buf); n !== null; n = await c.read(buf)) {
        counts.packets += frames.scan(buf.subarray(0, n));
        for (let at = 0; at < n; ) {
          at += await c.write(buf.subarray(at, n));
        }
      }
    } catch (e) {
      if (!stopping) {
        counts.errors++;
        console.error(`netserver: closed a connection: ${describe(e)}`);
      }
    }
    conns.delete(c);
    try {
      c.close();
    } catch {
      // Closed by close() below.
    }
  };
  const accepting = (async () => {
    try {
      for await (const c of listener) {
        conns.add(c);
        void echo(c);
      }
    } catch (e) {
      if (!stopping) {
        throw e;
      }
    }
  })();
  return {
    port: listener.addr.port,
    async close() {
      stopping = true;
      listener.close();
      for (const c of conns) {
        c.close();
      }
      await accepting;
    },
  };
}

await serve(denoProcess(), { bitwire: listenBitwire, raw: listenRaw });
