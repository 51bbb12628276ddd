// `@bitwire/runtime/deno`: connections over Deno's TCP (`Deno.connect`, `Deno.listen`).
// Deno's `conn.write` may write part of the buffer and its promise stays pending while
// the peer does not read: the adapter writes one chunk at a time, awaiting each, and
// the connection queues the rest (bounded by `maxSendQueue`). Reading pauses by not
// calling `read`. Framing zlib: `nodeZlib` (Deno provides `node:zlib`).

import type { Protocol } from "./frame/protocol.js";
import { webSocketConnection } from "./net/websocket.js";
import { Connection, type ConnectionOptions, type Transport, type TransportSink } from "./net/connection.js";
import { ConnectionError } from "./net/errors.js";
import { nodeZlib } from "./node/zlib.js";

/** The part of `Deno.TcpConn` this adapter uses. */
interface DenoConn {
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  closeWrite(): Promise<void>;
  close(): void;
  setNoDelay?(on?: boolean): void;
}

interface DenoListener extends AsyncIterable<DenoConn> {
  readonly addr: { port: number };
  close(): void;
}

interface DenoHttpServer {
  readonly addr: { port: number };
  shutdown(): Promise<void>;
}

interface DenoApi {
  connect(o: { hostname: string; port: number }): Promise<DenoConn>;
  listen(o: { hostname: string; port: number }): DenoListener;
  serve(o: { hostname: string; port: number; onListen?: () => void }, handler: (req: Request) => Response): DenoHttpServer;
  upgradeWebSocket(req: Request): { socket: WebSocket; response: Response };
}

function deno(): DenoApi {
  const api = (globalThis as { Deno?: DenoApi }).Deno;
  if (api === undefined) {
    throw new Error("bitwire: @bitwire/runtime/deno needs the Deno runtime");
  }
  return api;
}

const READ_SIZE = 64 * 1024;

function transport(c: DenoConn, sink: TransportSink): Transport {
  c.setNoDelay?.(true);
  let pending = 0;
  let paused = false;
  let wake: (() => void) | undefined;
  let closed = false;
  let endAfterWrite = false;
  const close = (): void => {
    if (!closed) {
      closed = true;
      try {
        c.close();
      } catch {
        // Already closed by Deno.
      }
    }
  };
  const halfClose = (): void => {
    c.closeWrite().catch(() => close());
  };
  void (async () => {
    const buf = new Uint8Array(READ_SIZE);
    try {
      for (;;) {
        while (paused && !closed) {
          await new Promise<void>((ok) => {
            wake = ok;
          });
        }
        if (closed) {
          break;
        }
        const n = await c.read(buf);
        if (n === null) {
          sink.end();
          break;
        }
        // The connection reads every frame out of a chunk before `data` returns, so
        // the buffer can be reused.
        sink.data(buf.subarray(0, n));
      }
    } catch (e) {
      if (!closed) {
        sink.error(e);
      }
    }
    close();
    sink.closed();
  })();
  return {
    write(bytes) {
      if (pending > 0 || closed) {
        return 0;
      }
      pending = bytes.length;
      void (async () => {
        try {
          let at = 0;
          while (at < bytes.length) {
            at += await c.write(bytes.subarray(at));
            pending = bytes.length - at;
          }
          if (endAfterWrite) {
            halfClose();
          }
          sink.drain();
        } catch (e) {
          pending = 0;
          if (!closed) {
            sink.error(e);
          }
        }
      })();
      return bytes.length;
    },
    buffered: () => pending,
    pause: () => {
      paused = true;
    },
    resume: () => {
      paused = false;
      wake?.();
    },
    end: () => {
      if (pending > 0) {
        endAfterWrite = true;
      } else {
        halfClose();
      }
    },
    destroy: () => {
      close();
      wake?.();
    },
  };
}

function withZlib(options: ConnectionOptions): ConnectionOptions {
  return options.zlib === undefined ? { ...options, zlib: nodeZlib } : options;
}

/** A connection over an open `Deno.TcpConn`. */
export function denoConnection<M>(protocol: Protocol<M>, conn: DenoConn, options: ConnectionOptions = {}): Connection<M> {
  return new Connection(protocol, withZlib(options), "stream", (sink) => transport(conn, sink));
}

/** Where to connect or listen, and the connection settings. */
export interface DenoTcpOptions extends ConnectionOptions {
  /** Host name or address; default `127.0.0.1`. */
  readonly host?: string;
  /** Port; 0 (when listening) picks a free one. */
  readonly port: number;
}

/** Connects with `Deno.connect` (needs `--allow-net`); rejects with a `ConnectionError` of kind `Io`. */
export async function connectDeno<M>(protocol: Protocol<M>, options: DenoTcpOptions): Promise<Connection<M>> {
  const host = options.host ?? "127.0.0.1";
  let c: DenoConn;
  try {
    c = await deno().connect({ hostname: host, port: options.port });
  } catch (e) {
    throw new ConnectionError("Io", `connecting to ${host}:${options.port}: ${e instanceof Error ? e.message : String(e)}`, e);
  }
  return denoConnection(protocol, c, options);
}

/** A listening server of `listenDeno`. */
export interface DenoTcpServer<M> {
  readonly port: number;
  readonly connections: ReadonlySet<Connection<M>>;
  /** Stops accepting, closes every connection gracefully, resolves once all are closed. */
  close(): Promise<void>;
}

/** Listens with `Deno.listen` and calls `handler` with each connection (see `listenTcp`). */
export function listenDeno<M>(
  protocol: Protocol<M>,
  options: DenoTcpOptions,
  handler: (conn: Connection<M>) => void | Promise<void>,
): DenoTcpServer<M> {
  const connections = new Set<Connection<M>>();
  const listener = deno().listen({ hostname: options.host ?? "127.0.0.1", port: options.port });
  void (async () => {
    try {
      for await (const c of listener) {
        const conn = denoConnection(protocol, c, options);
        connections.add(conn);
        void conn.closed.then(() => connections.delete(conn));
        Promise.resolve()
          .then(() => handler(conn))
          .catch((e: unknown) => conn.abort(new ConnectionError("Closed", `the handler failed: ${e instanceof Error ? e.message : String(e)}`, e)));
      }
    } catch {
      // The listener was closed.
    }
  })();
  return {
    port: listener.addr.port,
    connections,
    async close() {
      listener.close();
      await Promise.all([...connections].map((c) => c.close()));
    },
  };
}

/** Settings of `serveDenoWs`: where, which path upgrades, and the connections'. */
export interface DenoWsOptions extends DenoTcpOptions {
  /** Only requests for this path are upgraded (default: any). */
  readonly path?: string;
}

/**
 * A WebSocket server with `Deno.serve` and `Deno.upgradeWebSocket` (one frame per binary
 * message; needs `--allow-net`). Deno has no message size limit: a message above
 * `maxFrame + 3` bytes is buffered by Deno and then refused by the reader
 * (`FrameTooLarge`). Calls `handler` with each connection (see `listenTcp`).
 */
export function serveDenoWs<M>(
  protocol: Protocol<M>,
  options: DenoWsOptions,
  handler: (conn: Connection<M>) => void | Promise<void>,
): DenoTcpServer<M> {
  const connections = new Set<Connection<M>>();
  const api = deno();
  const server = api.serve({ hostname: options.host ?? "127.0.0.1", port: options.port, onListen: () => {} }, (req) => {
    if (options.path !== undefined && new URL(req.url).pathname !== options.path) {
      return new Response("not found", { status: 404 });
    }
    const { socket, response } = api.upgradeWebSocket(req);
    socket.addEventListener(
      "open",
      () => {
        const conn = webSocketConnection(protocol, socket, withZlib(options));
        connections.add(conn);
        void conn.closed.then(() => connections.delete(conn));
        Promise.resolve()
          .then(() => handler(conn))
          .catch((e: unknown) => conn.abort(new ConnectionError("Closed", `the handler failed: ${e instanceof Error ? e.message : String(e)}`, e)));
      },
      { once: true },
    );
    return response;
  });
  return {
    port: server.addr.port,
    connections,
    async close() {
      await Promise.all([...connections].map((c) => c.close()));
      await server.shutdown();
    },
  };
}
