// Connections over Node's `net` (TCP): `connectTcp`, and `listenTcp`'s accept loop.
// Backpressure: `socket.write` returns false once Node's buffer passes its high-water
// mark; the connection then keeps frames in its own queue until `'drain'`, and the two
// together are bounded by `maxSendQueue`.

import { type Server, type Socket, connect, createServer } from "node:net";
import type { Protocol } from "../frame/protocol.js";
import { Connection, type ConnectionOptions, type Transport, type TransportSink } from "../net/connection.js";
import { ConnectionError } from "../net/errors.js";
import { nodeZlib } from "./zlib.js";

/** Where to connect or listen, and the connection settings (default zlib: `nodeZlib`). */
export interface TcpOptions extends ConnectionOptions {
  /** Host name or address; default `127.0.0.1`. */
  readonly host?: string;
  /** Port; 0 (when listening) picks a free one. */
  readonly port: number;
}

/** A Node socket as a connection's transport. */
function socketTransport(socket: Socket, sink: TransportSink): Transport {
  socket.on("data", (b: Uint8Array) => sink.data(b));
  socket.on("drain", () => sink.drain());
  socket.on("end", () => sink.end());
  socket.on("error", (e) => sink.error(e));
  socket.on("close", () => sink.closed());
  return {
    write(bytes) {
      if (socket.writableNeedDrain) {
        return 0;
      }
      socket.write(bytes);
      return bytes.length;
    },
    buffered: () => socket.writableLength,
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    end: () => socket.end(),
    destroy: () => socket.destroy(),
  };
}

function withZlib(options: ConnectionOptions): ConnectionOptions {
  return options.zlib === undefined ? { ...options, zlib: nodeZlib } : options;
}

/** A connection over an open Node socket (for servers of your own, or sockets from elsewhere). */
export function socketConnection<M>(protocol: Protocol<M>, socket: Socket, options: ConnectionOptions = {}): Connection<M> {
  socket.setNoDelay(true);
  return new Connection(protocol, withZlib(options), "stream", (sink) => socketTransport(socket, sink));
}

/** Connects to a TCP server; rejects with a `ConnectionError` of kind `Io`. */
export function connectTcp<M>(protocol: Protocol<M>, options: TcpOptions): Promise<Connection<M>> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: options.host ?? "127.0.0.1", port: options.port });
    const failed = (e: Error): void => reject(new ConnectionError("Io", `connecting to ${options.host ?? "127.0.0.1"}:${options.port}: ${e.message}`, e));
    socket.once("error", failed);
    socket.once("connect", () => {
      socket.off("error", failed);
      resolve(socketConnection(protocol, socket, options));
    });
  });
}

/** A listening TCP server of `listenTcp`. */
export interface TcpServer<M> {
  /** The address it listens on. */
  readonly host: string;
  /** The port it listens on (the one picked for port 0). */
  readonly port: number;
  /** The open connections. */
  readonly connections: ReadonlySet<Connection<M>>;
  /** Stops accepting, closes every connection gracefully, resolves once all are closed. */
  close(): Promise<void>;
}

/** Settings of `listenTcp`: the connections', and how many may be open at once. */
export interface TcpServerOptions extends TcpOptions {
  /** Connections above this are refused (closed at once); default: no limit. */
  readonly maxConnections?: number;
}

/**
 * Listens for TCP connections and calls `handler` with each one. When the handler's
 * promise rejects, that connection is aborted; the others go on. A connection's
 * malformed frame, timeout or full send queue closes that connection only.
 */
export function listenTcp<M>(
  protocol: Protocol<M>,
  options: TcpServerOptions,
  handler: (conn: Connection<M>) => void | Promise<void>,
): Promise<TcpServer<M>> {
  const connections = new Set<Connection<M>>();
  const server: Server = createServer((socket) => {
    const conn = socketConnection(protocol, socket, options);
    connections.add(conn);
    void conn.closed.then(() => connections.delete(conn));
    Promise.resolve()
      .then(() => handler(conn))
      .catch((e: unknown) => conn.abort(new ConnectionError("Closed", `the handler failed: ${e instanceof Error ? e.message : String(e)}`, e)));
  });
  if (options.maxConnections !== undefined) {
    server.maxConnections = options.maxConnections;
  }
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      const addr = server.address();
      const port = typeof addr === "object" && addr !== null ? addr.port : options.port;
      resolve({
        host: options.host ?? "127.0.0.1",
        port,
        connections,
        async close() {
          const stopped = new Promise<void>((ok) => server.close(() => ok()));
          await Promise.all([...connections].map((c) => c.close()));
          await stopped;
        },
      });
    });
  });
}
