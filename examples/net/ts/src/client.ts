// The arena client (examples/net/README.md) for Node, Bun and Deno: one source, with a
// tiny entry per runtime (node.ts, bun.ts, deno.ts) that picks its TCP and WebSocket
// adapters.
//
//   client (--tcp 127.0.0.1:PORT | --ws ws://127.0.0.1:PORT/ws) --name NAME [--threshold T]

import process from "node:process";
import type { Connection, ConnectionOptions } from "@bitwire/runtime";
import type { Message } from "../gen/arena.js";
import { play } from "./arena.js";

/** How a runtime connects. */
export interface Connectors {
  tcp(host: string, port: number, options: ConnectionOptions): Promise<Connection<Message>>;
  ws(url: string, options: ConnectionOptions): Promise<Connection<Message>>;
}

/** The value of `--name` in `args`, or `undefined`. */
function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Runs the client: exits 0 after one round, 1 on any error or after 10 s. */
export async function main(runtime: string, connectors: Connectors): Promise<void> {
  const args = process.argv.slice(2);
  const timer = setTimeout(() => {
    console.error(`${runtime} client: not finished after 10 s`);
    process.exit(1);
  }, 10_000);
  try {
    const tcp = flag(args, "tcp");
    const ws = flag(args, "ws");
    const name = flag(args, "name") ?? runtime;
    const threshold = flag(args, "threshold");
    const options: ConnectionOptions = { threshold: threshold === undefined ? null : Number(threshold), frameTimeout: 5000 };
    let conn: Connection<Message>;
    if (tcp !== undefined) {
      const at = tcp.lastIndexOf(":");
      conn = await connectors.tcp(tcp.slice(0, at), Number(tcp.slice(at + 1)), options);
    } else if (ws !== undefined) {
      conn = await connectors.ws(ws, options);
    } else {
      throw new Error("usage: client (--tcp HOST:PORT | --ws URL) --name NAME [--threshold T]");
    }
    console.log(await play(conn, name, runtime));
    clearTimeout(timer);
    process.exit(0);
  } catch (e) {
    console.error(`${runtime} client: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
