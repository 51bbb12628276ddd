// The logic the network benchmark's TypeScript servers share (bench/net/README.md):
// the command line, the bitwire handler (each Ping answered with its Pong), the raw
// echo's frame counter, and the life of a server — `listening HOST:PORT`, serve until
// stdin ends or SIGTERM, `served P packets, E errors`, exit 0. Each runtime's entry
// (node.ts, bun.ts, deno.ts; mcproto.ts on Node) supplies its sockets and process
// through a `Runtime`.

import { type Connection, ConnectionError } from "@bitwire/runtime";
import type { Message } from "../gen/netbench.js";

/** What a server reports when it stops. */
export interface Counts {
  /** Requests answered (raw echo: frames that went through, counted by `FrameCounter`). */
  packets: number;
  /** Connections closed by an error: a malformed frame, an unexpected message, a failed read or write. */
  errors: number;
}

/** A listening server. */
export interface Listener {
  /** The port it listens on (the one picked for port 0). */
  readonly port: number;
  /** Stops accepting and closes every connection; resolves once they are closed. */
  close(): Promise<void>;
}

/** Listens on host:port and serves every connection, counting into `counts`. */
export type Listen = (host: string, port: number, counts: Counts) => Promise<Listener>;

/** What a runtime's entry provides: its command line, process and sockets. */
export interface Runtime {
  /** The command line after the script. */
  readonly args: readonly string[];
  /** Resolves once stdin reaches end of file (or fails) or SIGTERM or SIGINT arrives. */
  readonly stopped: Promise<void>;
  /** Writes a line to stdout; resolves once it is written. */
  print(line: string): Promise<void>;
  /** Ends the process with `code`. */
  exit(code: number): void;
}

/** The settings of a server's command line. */
export interface Settings {
  readonly host: string;
  readonly port: number;
  readonly shape: string;
}

/**
 * Reads `--addr HOST:PORT` (default 127.0.0.1:0) and `--shape S` (one of `shapes`,
 * default the first); throws an `Error` that says what is wrong.
 */
export function parseArgs(args: readonly string[], shapes: readonly string[]): Settings {
  let addr = "127.0.0.1:0";
  let shape = shapes[0] ?? "";
  for (let i = 0; i < args.length; i += 2) {
    const [name, value] = [args[i], args[i + 1]];
    if (value === undefined) {
      throw new Error(`${name} needs a value`);
    }
    if (name === "--addr") {
      addr = value;
    } else if (name === "--shape" && shapes.includes(value)) {
      shape = value;
    } else {
      throw new Error(`unknown argument ${name} ${value} (--addr HOST:PORT, --shape ${shapes.join("|")})`);
    }
  }
  const at = addr.lastIndexOf(":");
  const port = Number(addr.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--addr ${addr}: not HOST:PORT`);
  }
  return { host: addr.slice(0, at), port, shape };
}

/**
 * Runs a server: parses the command line, listens with the `Listen` of the chosen
 * shape, prints `listening HOST:PORT`, serves until the runtime's `stopped`, closes,
 * prints `served P packets, E errors` and exits 0 (2 for a bad command line, 1 when
 * listening fails).
 */
export async function serve(rt: Runtime, shapes: Readonly<Record<string, Listen>>): Promise<void> {
  let settings: Settings;
  try {
    settings = parseArgs(rt.args, Object.keys(shapes));
  } catch (e) {
    console.error(`netserver: ${describe(e)}`);
    rt.exit(2);
    return;
  }
  const counts: Counts = { packets: 0, errors: 0 };
  let listener: Listener;
  try {
    listener = await (shapes[settings.shape] as Listen)(settings.host, settings.port, counts);
  } catch (e) {
    console.error(`netserver: listening on ${settings.host}:${settings.port}: ${describe(e)}`);
    rt.exit(1);
    return;
  }
  await rt.print(`listening ${settings.host}:${listener.port}`);
  await rt.stopped;
  await listener.close();
  await rt.print(`served ${counts.packets} packets, ${counts.errors} errors`);
  rt.exit(0);
}

/**
 * Serves one bitwire connection: every Ping is answered with the Pong of the same seq
 * and data, sent (queued) as it arrives — the connection writes what one turn of the
 * event loop queued in one write. A message other than Ping aborts the connection; a
 * connection that closes for any reason but a clean end is counted as an error.
 */
export async function pingPong(conn: Connection<Message>, counts: Counts): Promise<void> {
  void conn.closed.then((reason) => {
    if (reason !== undefined) {
      counts.errors++;
      console.error(`netserver: closed a connection: ${reason.message}`);
    }
  });
  try {
    for await (const m of conn) {
      if (m.kind !== "Ping") {
        conn.abort(new ConnectionError("Protocol", `a ${m.kind}, not a Ping`));
        return;
      }
      // The Pong's value is the Ping's: the same seq and data.
      conn.send({ kind: "Pong", value: m.value });
      counts.packets++;
    }
  } catch {
    // The reason closed the connection, and `closed` counts it.
  }
}

/** The most bytes a raw echo keeps for a peer that does not read before it closes the connection (bwnet's and the connections' `maxSendQueue`). */
export const RAW_MAX_PENDING = 4 * 1024 * 1024;

/**
 * Counts the frames of a stream of uncompressed frames (docs/framing.md §2: a Length
 * VarInt, then Length bytes) from the chunks it is given, wherever they split: a few
 * steps per frame, none per byte of a body. It checks nothing: a raw echo does not
 * frame, the count only makes its `served` line comparable with the other servers'.
 */
export class FrameCounter {
  /** Bytes of the current frame's body still to come. */
  private body = 0;
  /** The Length VarInt read so far, and its bits. */
  private length = 0;
  private shift = 0;

  /** Whether a frame is partly read (for tests). */
  get inFrame(): boolean {
    return this.body > 0 || this.shift > 0;
  }

  /** Scans a chunk; returns the number of frames that end in it. */
  scan(chunk: Uint8Array): number {
    let frames = 0;
    let at = 0;
    while (at < chunk.length) {
      if (this.body > 0) {
        const skip = Math.min(this.body, chunk.length - at);
        this.body -= skip;
        at += skip;
        if (this.body === 0) {
          frames++;
        }
        continue;
      }
      const b = chunk[at++] as number;
      if (this.shift < 28) {
        this.length += (b & 0x7f) * 2 ** this.shift;
      }
      this.shift += 7;
      if (b & 0x80) {
        continue;
      }
      this.body = this.length;
      this.length = 0;
      this.shift = 0;
      if (this.body === 0) {
        frames++;
      }
    }
    return frames;
  }
}

/** A short text for an error of unknown type. */
export function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
