// Transport errors of connections (docs/framing.md §7, last paragraph): what closes a
// connection other than a malformed frame (which is a `FrameError`).

/** Every connection error kind. */
export const CONNECTION_ERROR_KINDS = [
  /** The connection is closed: a send after close, or the reason it closed is elsewhere. */
  "Closed",
  /** The transport failed (reset, broken pipe, refused); `cause` holds the runtime's error. */
  "Io",
  /** The peer sent nothing for `idleTimeout` milliseconds. */
  "IdleTimeout",
  /** A frame the peer started was not complete within `frameTimeout` milliseconds. */
  "FrameTimeout",
  /** More than `maxSendQueue` bytes waited for a peer that does not read. */
  "SendQueueFull",
  /** The peer broke the transport's rules: a WebSocket text message, a WebSocket too large. */
  "Protocol",
] as const;

/** Why a connection failed, other than a malformed frame. */
export type ConnectionErrorKind = (typeof CONNECTION_ERROR_KINDS)[number];

/** A connection failure of one of the {@link ConnectionErrorKind}s; `cause` holds the underlying error, if any. */
export class ConnectionError extends Error {
  /** The kind of failure. */
  readonly kind: ConnectionErrorKind;

  /** A new error; `cause` is the underlying error, if any. */
  constructor(kind: ConnectionErrorKind, message: string, cause?: unknown) {
    super(`${kind}: ${message}`, cause === undefined ? undefined : { cause });
    this.name = "ConnectionError";
    this.kind = kind;
  }
}
