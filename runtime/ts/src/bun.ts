// `@bitwire/runtime/bun`: connections over Bun's own TCP sockets (`Bun.connect`,
// `Bun.listen`). Bun's `socket.write` is unbuffered: it returns how many bytes it took
// (fewer when the kernel's buffer is full, -1 once closed), so the connection keeps the
// tail in its queue and resends it from the `drain` handler. Framing zlib: `nodeZlib`
// (Bun provides `node:zlib`; `Bun.inflateSync` has no output limit and defaults to raw
// deflate).

import type { Protocol } from "./frame/protocol.js";
import { Connection, type ConnectionOptions, type Transport, type TransportSink } from "./net/connection.js";
import { ConnectionError } from "./net/errors.js";
import { nodeZlib } from "./node/zlib.js";

/** The part of Bun's socket this adapter uses (bun-types `Socket`). */
interface BunSocket {
  data: TransportSink | undefined;
  write(data: Uint8Array): number;
  end(): void;
  terminate(): void;
  pause?(): void;
  resume?(): void;
  setNoDelay?(on: boolean): void;
}

/** The part of Bun's socket handlers this adapter sets. */
interface BunHandlers {
  open(s: BunSocket): void;
  data(s: BunSocket, data: Uint8Array): void;
  drain(s: BunSocket): void;
  end(s: BunSocket): void;
  close(s: BunSocket, error?: Error): void;
  error(s: BunSocket, error: Error): void;
}

interface BunListener {
  readonly port: number;
  stop(closeActive?: boolean): void;
}

interface BunApi {
  connect(o: { hostname: string; port: number; socket: BunHandlers }): Promise<BunSocket>;
  listen(o: { hostname: string; port: number; socket: BunHandlers }): BunListener;
}

function bun(): BunApi {
  const api = (globalThis as { Bun?: BunApi }).Bun;
  if (api === undefined) {
    throw new Error("bitwire: @bitwire/runtime/bun needs the Bun runtime");
  }
  return api;
}

function transport(s: BunSocket, sink: TransportSink): Transport {
  s.data = sink;
  s.setNoDelay?.(true);
  return {
    write: (bytes) => Math.max(0, s.write(bytes)),
    buffered: () => 0,
    pause: () => s.pause?.(),
    resume: () => s.resume?.(),
    end: () => s.end(),
    destroy: () => s.terminate(),
  };
}

/** Handlers that route each socket's events to the sink its connection put in `socket.data`. */
function handlers(onOpen: (s: BunSocket) => void): BunHandlers {
  return {
    open: onOpen,
    data: (s, d) => s.data?.data(d),
    drain: (s) => s.data?.drain(),
    end: (s) => s.data?.end(),
    close: (s, error) => {
      if (error !== undefined) {
        s.data?.error(error);
      } else {
        s.data?.end();
      }
      s.data?.closed();
    },
    error: (s, error) => s.data?.error(error),
  };
}

function withZlib(options: ConnectionOptions): ConnectionOptions {
  return options.zlib === undefined ? { ...options, zlib: nodeZlib } : options;
}

/** Where to connect or listen, and the connection settings. */
export interface BunTcpOptions extends ConnectionOptions {
  /** Host name or address; default `127.0.0.1`. */
  readonly host?: string;
  /** Port; 0 (when listening) picks a free one. */
  readonly port: number;
}

/** Connects with `Bun.connect`; rejects with a `ConnectionError` of kind `Io`. */
export async function connectBun<M>(protocol: Protocol<M>, options: BunTcpOptions): Promise<Connection<M>> {
  let conn: Connection<M> | undefined;
  const host = options.host ?? "127.0.0.1";
  try {
    await bun().connect({
      hostname: host,
      port: options.port,
      socket: handlers((s) => {
        conn = new Connection(protocol, withZlib(options), "stream", (sink) => transport(s, sink));
      }),
    });
  } catch (e) {
    throw new ConnectionError("Io", `connecting to ${host}:${options.port}: ${e instanceof Error ? e.message : String(e)}`, e);
  }
  if (conn === undefined) {
    throw new ConnectionError("Io", `connecting to ${host}:${options.port}: no open event`);
  }
  return conn;
}

/** A listening server of `listenBun`. */
export interface BunTcpServer<M> {
  readonly port: number;
  readonly connections: ReadonlySet<Connection<M>>;
  /** Stops accepting, closes every connection gracefully, resolves once all are closed. */
  close(): Promise<void>;
}

/** Listens with `Bun.listen` and calls `handler` with each connection (see `listenTcp`). */
export function listenBun<M>(
  protocol: Protocol<M>,
  options: BunTcpOptions,
  handler: (conn: Connection<M>) => void | Promise<void>,
): BunTcpServer<M> {
  const connections = new Set<Connection<M>>();
  const listener = bun().listen({
    hostname: options.host ?? "127.0.0.1",
    port: options.port,
    socket: handlers((s) => {
      const conn = new Connection(protocol, withZlib(options), "stream", (sink) => transport(s, sink));
      connections.add(conn);
      void conn.closed.then(() => connections.delete(conn));
      Promise.resolve()
        .then(() => handler(conn))
        .catch((e: unknown) => conn.abort(new ConnectionError("Closed", `the handler failed: ${e instanceof Error ? e.message : String(e)}`, e)));
    }),
  });
  return {
    port: listener.port,
    connections,
    async close() {
      listener.stop(false);
      await Promise.all([...connections].map((c) => c.close()));
    },
  };
}
