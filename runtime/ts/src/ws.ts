// `@bitwire/runtime/ws`: connections over WebSocket in Node with the `ws` package (8.x,
// a peer dependency of this entry point only): a server (`listenWs`, or attached to an
// HTTP server of your own) and a client (`connectWs`). One frame per binary message
// (docs/framing.md §5); messages above `maxFrame + 3` bytes are refused by `ws` before
// they are buffered (close 1009), text messages close with 1003, malformed frames 1008.

import type { Server as HttpServer } from "node:http";
import { WebSocket, WebSocketServer } from "ws";
import type { Protocol } from "./frame/protocol.js";
import { frameSettings } from "./frame/settings.js";
import { Connection, type ConnectionOptions, type Transport, type TransportSink } from "./net/connection.js";
import { ConnectionError } from "./net/errors.js";
import { nodeZlib } from "./node/zlib.js";

const CLEAN_CODES = new Set([1000, 1001, 1005]);

function transport(ws: WebSocket, sink: TransportSink): Transport {
  ws.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
    if (!isBinary) {
      sink.error(new ConnectionError("Protocol", "a text message (frames travel in binary messages)"), 1003);
      return;
    }
    sink.message(Array.isArray(data) ? Buffer.concat(data) : data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  });
  ws.on("close", (code: number, reason: Buffer) => {
    if (CLEAN_CODES.has(code)) {
      sink.end();
    } else {
      sink.error(new ConnectionError(code === 1009 ? "Protocol" : "Io", `the WebSocket closed with code ${code} ${reason.toString()}`.trim()));
    }
    sink.closed();
  });
  ws.on("error", (e: Error & { code?: string }) => {
    const kind = e.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH" ? "Protocol" : "Io";
    sink.error(new ConnectionError(kind, e.message, e));
  });
  return {
    write(bytes) {
      if (ws.readyState === WebSocket.OPEN) {
        ws.send(bytes, { binary: true });
      }
      return bytes.length;
    },
    buffered: () => ws.bufferedAmount,
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    end: () => ws.close(1000),
    destroy: (code) => (code === undefined ? ws.terminate() : ws.close(code, "closed by bitwire")),
  };
}

function withZlib(options: ConnectionOptions): ConnectionOptions {
  return options.zlib === undefined ? { ...options, zlib: nodeZlib } : options;
}

/** A connection over an open `ws` WebSocket. */
export function wsConnection<M>(protocol: Protocol<M>, ws: WebSocket, options: ConnectionOptions = {}): Connection<M> {
  return new Connection(protocol, withZlib(options), "message", (sink) => transport(ws, sink));
}

/** The `maxPayload` a WebSocket of these settings accepts: one whole frame, `maxFrame + 3` bytes. */
export function maxPayload(options: ConnectionOptions): number {
  return frameSettings(options).maxFrame + 3;
}

/** Connects to `url` (`ws://127.0.0.1:PORT/ws`); rejects with a `ConnectionError` of kind `Io`. */
export function connectWs<M>(protocol: Protocol<M>, url: string, options: ConnectionOptions = {}): Promise<Connection<M>> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { maxPayload: maxPayload(options) });
    const failed = (e: Error): void => reject(new ConnectionError("Io", `cannot open ${url}: ${e.message}`, e));
    ws.once("error", failed);
    ws.once("open", () => {
      ws.off("error", failed);
      resolve(wsConnection(protocol, ws, options));
    });
  });
}

/** Settings of `listenWs`: where, and the connections'. */
export interface WsServerOptions extends ConnectionOptions {
  /** Host to listen on (default `127.0.0.1`); ignored with `server`. */
  readonly host?: string;
  /** Port to listen on (0: a free one); ignored with `server`. */
  readonly port?: number;
  /** An HTTP server of your own to attach to (which then also serves your pages). */
  readonly server?: HttpServer;
  /** Only upgrade requests for this path (e.g. `/ws`). */
  readonly path?: string;
}

/** A WebSocket server of `listenWs`. */
export interface WsServer<M> {
  /** The port it listens on. */
  readonly port: number;
  /** The open connections. */
  readonly connections: ReadonlySet<Connection<M>>;
  /** Stops accepting, closes every connection gracefully, resolves once all are closed. */
  close(): Promise<void>;
}

/** Accepts WebSocket connections and calls `handler` with each (see `listenTcp`). */
export function listenWs<M>(
  protocol: Protocol<M>,
  options: WsServerOptions,
  handler: (conn: Connection<M>) => void | Promise<void>,
): Promise<WsServer<M>> {
  const connections = new Set<Connection<M>>();
  const common = { maxPayload: maxPayload(options), ...(options.path === undefined ? {} : { path: options.path }) };
  const wss =
    options.server === undefined
      ? new WebSocketServer({ ...common, host: options.host ?? "127.0.0.1", port: options.port ?? 0 })
      : new WebSocketServer({ ...common, server: options.server });
  wss.on("connection", (ws: WebSocket) => {
    const conn = wsConnection(protocol, ws, options);
    connections.add(conn);
    void conn.closed.then(() => connections.delete(conn));
    Promise.resolve()
      .then(() => handler(conn))
      .catch((e: unknown) => conn.abort(new ConnectionError("Closed", `the handler failed: ${e instanceof Error ? e.message : String(e)}`, e)));
  });
  const ready =
    options.server === undefined
      ? new Promise<void>((ok, fail) => {
          wss.once("listening", ok);
          wss.once("error", fail);
        })
      : Promise.resolve();
  return ready.then(() => {
    const addr = options.server === undefined ? wss.address() : options.server.address();
    return {
      port: typeof addr === "object" && addr !== null ? addr.port : 0,
      connections,
      async close() {
        await Promise.all([...connections].map((c) => c.close()));
        await new Promise<void>((ok) => wss.close(() => ok()));
      },
    };
  });
}
