// Connections (docs/typescript.md, Networking): the core every adapter shares, its
// errors, and the standard WebSocket adapter (browsers, Bun, Deno, Node 22+).

export { CONNECTION_ERROR_KINDS, type ConnectionErrorKind, ConnectionError } from "./errors.js";
export {
  Connection,
  type ConnectionOptions,
  type CloseReason,
  type Transport,
  type TransportSink,
  DEFAULT_MAX_SEND_QUEUE,
  DEFAULT_FRAME_TIMEOUT,
  DEFAULT_IDLE_TIMEOUT,
} from "./connection.js";
export { connectWebSocket, webSocketConnection } from "./websocket.js";
