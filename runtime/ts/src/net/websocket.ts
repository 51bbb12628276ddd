// Connections over the standard `WebSocket` (browsers, Bun, Deno, Node 22+): one frame
// per binary message (docs/framing.md §5). A text message closes the connection
// (`Protocol`). Browsers cannot pause a WebSocket, so a browser connection reads every
// message the server sends; `maxSendQueue` counts `bufferedAmount`.

import type { Protocol } from "../frame/protocol.js";
import { Connection, type ConnectionOptions, type Transport, type TransportSink } from "./connection.js";
import { ConnectionError } from "./errors.js";

/** Close codes a WebSocket ends cleanly with: normal, going away, none given. */
const CLEAN_CODES = new Set([1000, 1001, 1005]);

/**
 * Closes `ws` with `code`. The standard API only lets applications send 1000 and
 * 3000–4999, so 1003 / 1008 / 1009 become 4003 / 4008 / 4009 where it refuses them.
 */
function closeWith(ws: WebSocket, code: number, reason: string): void {
  try {
    ws.close(code, reason);
  } catch {
    ws.close(code >= 1000 && code < 2000 ? 4000 + (code - 1000) : 1000, reason);
  }
}

function transport(ws: WebSocket, sink: TransportSink): Transport {
  ws.binaryType = "arraybuffer";
  ws.addEventListener("message", (ev: MessageEvent) => {
    const data: unknown = ev.data;
    if (data instanceof ArrayBuffer) {
      sink.message(new Uint8Array(data));
    } else if (ArrayBuffer.isView(data)) {
      sink.message(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    } else {
      sink.error(new ConnectionError("Protocol", "a text message (frames travel in binary messages)"), 1003);
    }
  });
  ws.addEventListener("close", (ev: CloseEvent) => {
    if (CLEAN_CODES.has(ev.code)) {
      sink.end();
    } else {
      sink.error(new ConnectionError("Io", `the WebSocket closed with code ${ev.code}${ev.reason === "" ? "" : ` (${ev.reason})`}`));
    }
    sink.closed();
  });
  ws.addEventListener("error", () => sink.error(new ConnectionError("Io", "WebSocket error")));
  return {
    write(bytes) {
      if (ws.readyState === 1) {
        // Frames are built in arrays of their own (never over a SharedArrayBuffer).
        ws.send(bytes as Uint8Array<ArrayBuffer>);
      }
      return bytes.length;
    },
    buffered: () => ws.bufferedAmount,
    pause: () => {},
    resume: () => {},
    end: () => closeWith(ws, 1000, ""),
    destroy: (code) => closeWith(ws, code ?? 1000, "closed by bitwire"),
  };
}

/** A connection over a standard `WebSocket` that is already open (a server's, say: Deno's `upgradeWebSocket`). */
export function webSocketConnection<M>(protocol: Protocol<M>, ws: WebSocket, options: ConnectionOptions = {}): Connection<M> {
  return new Connection(protocol, options, "message", (sink) => transport(ws, sink));
}

/**
 * Opens a standard `WebSocket` to `url` and resolves with its connection once open;
 * rejects with a `ConnectionError` of kind `Io`. `WebSocket` defaults to the global one.
 */
export function connectWebSocket<M>(
  protocol: Protocol<M>,
  url: string,
  options: ConnectionOptions = {},
  WebSocketClass: typeof WebSocket = globalThis.WebSocket,
): Promise<Connection<M>> {
  return new Promise((resolve, reject) => {
    if (WebSocketClass === undefined) {
      reject(new ConnectionError("Io", "no global WebSocket in this runtime (Node: use @bitwire/runtime/ws)"));
      return;
    }
    const ws = new WebSocketClass(url);
    ws.binaryType = "arraybuffer";
    const failed = (): void => reject(new ConnectionError("Io", `cannot open ${url}`));
    ws.addEventListener("error", failed, { once: true });
    ws.addEventListener(
      "open",
      () => {
        ws.removeEventListener("error", failed);
        resolve(webSocketConnection(protocol, ws, options));
      },
      { once: true },
    );
  });
}
