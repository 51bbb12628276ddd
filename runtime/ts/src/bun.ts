// `@bitwire/runtime/bun`: connections over Bun's own TCP sockets (`Bun.connect`,
// `Bun.listen`). Bun's `socket.write` is unbuffered: it returns how many bytes it took
// (fewer when the kernel's buffer is full, -1 once closed), so the connection keeps the
// tail in its queue and resends it from the `drain` handler. Framing zlib: `nodeZlib`
// (Bun provides `node:zlib`; `Bun.inflateSync` has no output limit and defaults to raw
// deflate).

import type { Protocol } from "./frame/protocol.js";
import { frameSettings } from "./frame/settings.js";
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

/** The part of Bun's `ServerWebSocket` this adapter uses. */
interface BunServerWebSocket {
  data: { sink?: TransportSink };
  sendBinary(data: Uint8Array): number;
  getBufferedAmount(): number;
  pause?(): void;
  resume?(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

interface BunServer {
  readonly port: number;
  upgrade(req: Request, o: { data: { sink?: TransportSink } }): boolean;
  stop(closeActive?: boolean): void;
}

interface BunServe {
  serve(o: {
    hostname: string;
    port: number;
    fetch(req: Request, server: BunServer): Response | undefined;
    websocket: {
      maxPayloadLength: number;
      open(ws: BunServerWebSocket): void;
      message(ws: BunServerWebSocket, m: string | Uint8Array): void;
      drain(ws: BunServerWebSocket): void;
      close(ws: BunServerWebSocket, code: number, reason: string): void;
    };
  }): BunServer;
}

function wsTransport(ws: BunServerWebSocket, sink: TransportSink): Transport {
  ws.data.sink = sink;
  return {
    // -1: Bun queued it (backpressure, counted by getBufferedAmount); 0: dropped (closing).
    write: (bytes) => (ws.sendBinary(bytes), bytes.length),
    buffered: () => ws.getBufferedAmount(),
    pause: () => ws.pause?.(),
    resume: () => ws.resume?.(),
    end: () => ws.close(1000),
    destroy: (code) => (code === undefined ? ws.terminate() : ws.close(code, "closed by bitwire")),
  };
}

/** Settings of `serveBunWs`: where, which path upgrades, and the connections'. */
export interface BunWsOptions extends ConnectionOptions {
  /** Host to listen on; default `127.0.0.1`. */
  readonly host?: string;
  /** Port (0: a free one). */
  readonly port: number;
  /** Only requests for this path are upgraded (default: any). */
  readonly path?: string;
}

/**
 * A WebSocket server with `Bun.serve` (one frame per binary message): messages above
 * `maxFrame + 3` bytes are refused by Bun before they are buffered (close 1009), text
 * messages close with 1003, malformed frames with 1008. Calls `handler` with each
 * connection (see `listenTcp`).
 */
export function serveBunWs<M>(
  protocol: Protocol<M>,
  options: BunWsOptions,
  handler: (conn: Connection<M>) => void | Promise<void>,
): BunTcpServer<M> {
  const connections = new Set<Connection<M>>();
  const api = bun() as unknown as BunServe;
  const server = api.serve({
    hostname: options.host ?? "127.0.0.1",
    port: options.port,
    fetch(req, srv) {
      if (options.path !== undefined && new URL(req.url).pathname !== options.path) {
        return new Response("not found", { status: 404 });
      }
      return srv.upgrade(req, { data: {} }) ? undefined : new Response("a WebSocket upgrade expected", { status: 400 });
    },
    websocket: {
      maxPayloadLength: frameSettings(options).maxFrame + 3,
      open(ws) {
        const conn = new Connection(protocol, withZlib(options), "message", (sink) => wsTransport(ws, sink));
        connections.add(conn);
        void conn.closed.then(() => connections.delete(conn));
        Promise.resolve()
          .then(() => handler(conn))
          .catch((e: unknown) => conn.abort(new ConnectionError("Closed", `the handler failed: ${e instanceof Error ? e.message : String(e)}`, e)));
      },
      message(ws, m) {
        if (typeof m === "string") {
          ws.data.sink?.error(new ConnectionError("Protocol", "a text message (frames travel in binary messages)"), 1003);
          return;
        }
        ws.data.sink?.message(m);
      },
      drain: (ws) => ws.data.sink?.drain(),
      close(ws, code, reason) {
        if (code === 1000 || code === 1001 || code === 1005) {
          ws.data.sink?.end();
        } else {
          ws.data.sink?.error(new ConnectionError(code === 1009 ? "Protocol" : "Io", `the WebSocket closed with code ${code} ${reason}`.trim()));
        }
        ws.data.sink?.closed();
      },
    },
  });
  return {
    port: server.port,
    connections,
    async close() {
      await Promise.all([...connections].map((c) => c.close()));
      server.stop(true);
    },
  };
}
