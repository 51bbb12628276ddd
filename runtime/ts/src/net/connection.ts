// One connection core for every transport (Node `net`, Bun and Deno sockets, WebSocket
// in browsers, Node's `ws`, Bun and Deno): typed `send` / `recv` over the framer, with
// every limit of docs/framing.md §6.3. An adapter only moves bytes: it hands the core
// what arrives (`TransportSink`) and takes what the core writes (`Transport`).
//
// Bounds per connection: the frame reader holds at most `maxFrame + 3` bytes of a frame;
// at most `RECV_HIGH` decoded messages wait for `recv` before the adapter stops reading
// (TCP pushes back on the peer); at most `maxSendQueue` bytes wait for a peer that does
// not read (counting what the transport itself buffers) — one more is `SendQueueFull`
// and the connection closes. A peer silent for `idleTimeout`, or slower than
// `frameTimeout` to finish a frame it started, is closed too.

import { BitWriter } from "../writer.js";
import { FrameError } from "../frame/errors.js";
import { FrameReader, WsFrameReader } from "../frame/reader.js";
import { type Protocol, decodeMessageFrame, encodeMessageFrame } from "../frame/protocol.js";
import { type FrameOptions, type FrameSettings, frameSettings } from "../frame/settings.js";
import { ConnectionError } from "./errors.js";

/** Settings of a connection: the framer's, and the transport limits. */
export interface ConnectionOptions extends FrameOptions {
  /** Milliseconds without a byte from the peer before it is closed (`IdleTimeout`); default 60,000; 0: never. */
  readonly idleTimeout?: number;
  /** Milliseconds a started frame may take to complete (`FrameTimeout`, slow-loris); default 10,000; 0: no limit. */
  readonly frameTimeout?: number;
  /** Bytes that may wait for a peer that does not read (`SendQueueFull` above); default 4 MiB. */
  readonly maxSendQueue?: number;
}

/** The default `maxSendQueue`: room for two frames of the largest size. */
export const DEFAULT_MAX_SEND_QUEUE = 4 * 1024 * 1024;
/** The default `idleTimeout` in milliseconds (the same in every runtime: docs/framing.md §6.3). */
export const DEFAULT_IDLE_TIMEOUT = 60_000;
/** The default `frameTimeout` in milliseconds (the same in every runtime: docs/framing.md §6.3). */
export const DEFAULT_FRAME_TIMEOUT = 10_000;
/** Decoded messages waiting for `recv` before the connection stops reading. */
const RECV_HIGH = 64;
/** How long a graceful `close` waits for the peer before dropping the transport (ms). */
const CLOSE_LINGER = 5_000;
/**
 * Microtask turns a scheduled write waits without the application taking a message from
 * the inbox (an `await` in a `for await` loop takes a few) before it writes anyway.
 */
const PUMP_PATIENCE = 8;
/** Stream mode: queued frames are joined into writes of up to this many bytes. */
const WRITE_BATCH = 64 * 1024;

/** What an adapter gives the core: how to write, and how to stop. */
export interface Transport {
  /**
   * Writes `bytes` (stream mode: frames, possibly several; message mode: one frame as one
   * message). Returns how many bytes the transport took (and now counts in `buffered`
   * until sent): all of them, or fewer when its buffer is full, after which the core
   * waits for {@link TransportSink.drain}.
   */
  write(bytes: Uint8Array): number;
  /** Bytes the transport holds that the peer has not taken yet. */
  buffered(): number;
  /** Stops reading (backpressure on the peer); browsers' WebSocket cannot, and ignores it. */
  pause(): void;
  /** Reads again. */
  resume(): void;
  /** Closes after what was written: TCP FIN, WebSocket close 1000. */
  end(): void;
  /** Closes now, dropping what is buffered; `code` for WebSocket (1003, 1008, 1009). */
  destroy(code?: number): void;
}

/** What the core gives an adapter: where to put what happens on the transport. */
export interface TransportSink {
  /** Stream bytes from the peer (TCP). */
  data(chunk: Uint8Array): void;
  /** One binary WebSocket message. */
  message(bytes: Uint8Array): void;
  /** The transport can take more after a short write. */
  drain(): void;
  /** The peer closed its side cleanly (FIN, WebSocket close). */
  end(): void;
  /** The transport failed, or the peer broke a rule (`code`: the WebSocket close code to send, 1003 for a text message). */
  error(e: unknown, code?: number): void;
  /** The transport is closed; nothing more will happen. */
  closed(): void;
}

/** How a connection ended: `undefined` when cleanly, else the error. */
export type CloseReason = FrameError | ConnectionError | undefined;

type Waiter<M> = { resolve: (m: M | undefined) => void; reject: (e: unknown) => void };

/**
 * A connection carrying a schema's messages in frames (docs/framing.md). Made by the
 * adapters (`connectTcp`, `connectWebSocket`, servers' accept loops), not directly.
 *
 * - `send(m)` queues the message's frame and returns at once; it throws a
 *   `ConnectionError` once the connection is closed, or when the send queue would pass
 *   `maxSendQueue` (which also closes the connection: the peer does not read).
 * - `recv()` resolves to the next message, `undefined` once the peer closed cleanly, and
 *   rejects with the reason (a `FrameError` or a `ConnectionError`) once the connection
 *   failed — after every message that arrived before. `for await (const m of conn)` does
 *   the same.
 * - A malformed frame, a timeout or a full send queue closes the connection at once;
 *   `closed` resolves with the reason.
 */
export class Connection<M> implements AsyncIterable<M> {
  /** The framer's settings in force. */
  readonly settings: FrameSettings;
  /** Resolves when the transport is closed: `undefined` for a clean close, else the reason. */
  readonly closed: Promise<CloseReason>;

  private readonly protocol: Protocol<M>;
  private readonly transport: Transport;
  private readonly reader: FrameReader | undefined;
  private readonly wsReader: WsFrameReader | undefined;
  private readonly writer = new BitWriter(256);
  private readonly idleTimeout: number;
  private readonly frameTimeout: number;
  private readonly maxSendQueue: number;

  private sendQueue: Uint8Array[] = [];
  private sendHead = 0;
  private sendBytes = 0;
  private blocked = false;
  private pumpScheduled = false;
  private readonly inbox: M[] = [];
  private readonly waiters: Waiter<M>[] = [];
  private flushWaiters: (() => void)[] = [];
  private paused = false;
  /** Set once the connection can no longer send: closing, ended or failed. */
  private closing = false;
  /** Set once nothing more will be received: `failure` or a clean end. */
  private done = false;
  private failure: FrameError | ConnectionError | undefined;
  /** A failure after a clean end (the peer had closed; ours failed): only for `closed`. */
  private lateFailure: FrameError | ConnectionError | undefined;
  private lastData = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private frameTimer: ReturnType<typeof setTimeout> | undefined;
  private frameTimerAt = -1;
  private lingerTimer: ReturnType<typeof setTimeout> | undefined;
  private resolveClosed!: (r: CloseReason) => void;

  /**
   * A connection over the transport `attach` returns, which it builds around the sink
   * it is given; `mode` is `"stream"` (TCP) or `"message"` (WebSocket: one frame per
   * binary message). For adapters.
   */
  constructor(
    protocol: Protocol<M>,
    options: ConnectionOptions,
    mode: "stream" | "message",
    attach: (sink: TransportSink) => Transport,
  ) {
    this.protocol = protocol;
    this.settings = frameSettings(options);
    this.idleTimeout = options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT;
    this.frameTimeout = options.frameTimeout ?? DEFAULT_FRAME_TIMEOUT;
    this.maxSendQueue = options.maxSendQueue ?? DEFAULT_MAX_SEND_QUEUE;
    this.reader = mode === "stream" ? new FrameReader(this.settings) : undefined;
    this.wsReader = mode === "message" ? new WsFrameReader(this.settings) : undefined;
    this.closed = new Promise((resolve) => {
      this.resolveClosed = resolve;
    });
    this.transport = attach({
      data: (c) => this.onData(c),
      message: (b) => this.onMessage(b),
      drain: () => this.onDrain(),
      end: () => this.onEnd(),
      error: (e, code) => this.fail(e instanceof FrameError || e instanceof ConnectionError ? e : new ConnectionError("Io", describe(e), e), code),
      closed: () => this.onClosed(),
    });
    this.lastData = Date.now();
    this.armIdle();
  }

  /** Bytes waiting to be sent: the connection's queue and the transport's buffer. */
  get queued(): number {
    return this.sendBytes + (this.done && this.failure !== undefined ? 0 : this.transport.buffered());
  }

  /** The reason the connection failed, once it has. */
  get error(): FrameError | ConnectionError | undefined {
    return this.failure;
  }

  /**
   * Queues message `m`. Throws the encoder's `BitwireError` or a `FrameError`
   * (`FrameTooLarge`) for a message that cannot be sent (the connection stays open), and
   * a `ConnectionError`: `Closed` after `close()` or a failure, `SendQueueFull` when
   * the queue would pass `maxSendQueue` (the connection is then closed).
   */
  send(m: M): void {
    if (this.closing) {
      throw new ConnectionError("Closed", "the connection is closed", this.failure);
    }
    const frame = encodeMessageFrame(this.protocol, m, this.settings, this.writer);
    if (this.queued + frame.length > this.maxSendQueue) {
      const e = new ConnectionError("SendQueueFull", `${this.queued} bytes wait for the peer, at most ${this.maxSendQueue}`);
      this.fail(e);
      throw e;
    }
    this.sendQueue.push(frame);
    this.sendBytes += frame.length;
    if (this.reader === undefined) {
      this.pump();
    } else if (!this.pumpScheduled) {
      this.schedulePump();
    }
  }

  /**
   * Writes the queued frames after the current microtasks. While the application is still
   * working through messages that arrived together (the inbox is not empty and shrinks),
   * the write waits for its replies too, so a batch of requests read in one chunk is
   * answered in one write instead of one system call per reply; a bounded number of
   * checks without progress (an application busy elsewhere) writes anyway.
   */
  private schedulePump(): void {
    this.pumpScheduled = true;
    let inbox = this.inbox.length;
    let idle = 0;
    const run = (): void => {
      if (this.inbox.length > 0 && !this.done && idle < PUMP_PATIENCE) {
        idle = this.inbox.length < inbox ? 0 : idle + 1;
        inbox = this.inbox.length;
        queueMicrotask(run);
        return;
      }
      this.pumpScheduled = false;
      this.pump();
    };
    queueMicrotask(run);
  }

  /** Resolves once everything sent so far has been handed to the transport's buffer. */
  flush(): Promise<void> {
    if (this.sendBytes === 0 || this.done) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.flushWaiters.push(resolve));
  }

  /**
   * The next message; `undefined` once the peer closed cleanly (or after `close()`);
   * rejects with the reason once the connection failed, after the messages before it.
   */
  recv(): Promise<M | undefined> {
    const m = this.inbox.shift();
    if (m !== undefined) {
      if (this.paused && this.inbox.length <= RECV_HIGH / 2 && !this.done) {
        this.paused = false;
        this.lastData = Date.now();
        this.armIdle();
        this.transport.resume();
      }
      return Promise.resolve(m);
    }
    if (this.done) {
      return this.failure === undefined ? Promise.resolve(undefined) : Promise.reject(this.failure);
    }
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** Iterates over the messages until the peer closes; throws the reason of a failure. */
  async *[Symbol.asyncIterator](): AsyncIterator<M> {
    for (;;) {
      const m = await this.recv();
      if (m === undefined) {
        return;
      }
      yield m;
    }
  }

  /**
   * Closes gracefully: no more sends, what is queued is sent, then the transport is
   * ended (FIN; WebSocket close 1000). Resolves when it is closed (dropped after 5 s if
   * the peer does not finish). Messages already received stay readable.
   */
  close(): Promise<CloseReason> {
    if (!this.closing) {
      this.closing = true;
      this.lingerTimer = setTimeout(() => this.transport.destroy(), CLOSE_LINGER);
      this.endIfFlushed();
    }
    return this.closed;
  }

  /** Closes now, dropping what is queued; `reason` becomes the connection's error. */
  abort(reason?: FrameError | ConnectionError): void {
    this.fail(reason ?? new ConnectionError("Closed", "aborted"));
  }

  private endIfFlushed(): void {
    if (this.closing && this.sendBytes === 0 && this.failure === undefined) {
      this.transport.end();
    }
  }

  private pump(): void {
    while (this.sendQueue.length > 0 && !this.blocked && !this.done) {
      let chunk = this.sendQueue[0] as Uint8Array;
      let frames = 1;
      if (this.reader !== undefined && this.sendQueue.length > 1 && this.sendHead === 0) {
        [chunk, frames] = this.batch();
      }
      const view = this.sendHead === 0 ? chunk : chunk.subarray(this.sendHead);
      const n = this.transport.write(view);
      this.sendBytes -= n;
      if (n >= view.length) {
        this.sendQueue.splice(0, frames);
        this.sendHead = 0;
      } else {
        if (frames > 1) {
          this.sendQueue.splice(0, frames, chunk);
        }
        this.sendHead += n;
        this.blocked = true;
      }
    }
    if (this.sendBytes === 0) {
      const waiters = this.flushWaiters;
      this.flushWaiters = [];
      for (const w of waiters) {
        w();
      }
      this.endIfFlushed();
    }
  }

  /** The first queued frames joined, up to `WRITE_BATCH` bytes, and how many. */
  private batch(): [Uint8Array, number] {
    let size = 0;
    let frames = 0;
    for (const f of this.sendQueue) {
      if (frames > 0 && size + f.length > WRITE_BATCH) {
        break;
      }
      size += f.length;
      frames++;
    }
    if (frames === 1) {
      return [this.sendQueue[0] as Uint8Array, 1];
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (let i = 0; i < frames; i++) {
      const f = this.sendQueue[i] as Uint8Array;
      out.set(f, at);
      at += f.length;
    }
    return [out, frames];
  }

  private onDrain(): void {
    this.blocked = false;
    this.pump();
  }

  private onData(chunk: Uint8Array): void {
    const reader = this.reader;
    if (this.done || reader === undefined) {
      return;
    }
    this.lastData = Date.now();
    try {
      reader.push(chunk);
      for (let f = reader.next(); f !== undefined; f = reader.next()) {
        this.deliver(decodeMessageFrame(this.protocol, f, this.settings.limits));
        if (this.done) {
          return;
        }
      }
    } catch (e) {
      this.fail(e instanceof FrameError ? e : new ConnectionError("Io", describe(e), e));
      return;
    }
    this.armFrameTimer(reader);
  }

  private onMessage(bytes: Uint8Array): void {
    const reader = this.wsReader;
    if (this.done || reader === undefined) {
      return;
    }
    this.lastData = Date.now();
    try {
      reader.push(bytes);
      for (let f = reader.next(); f !== undefined; f = reader.next()) {
        this.deliver(decodeMessageFrame(this.protocol, f, this.settings.limits));
      }
    } catch (e) {
      const reason = e instanceof FrameError ? e : new ConnectionError("Io", describe(e), e);
      this.fail(reason, 1008);
    }
  }

  private deliver(m: M): void {
    const w = this.waiters.shift();
    if (w !== undefined) {
      w.resolve(m);
      return;
    }
    this.inbox.push(m);
    if (!this.paused && this.inbox.length >= RECV_HIGH) {
      this.paused = true;
      this.transport.pause();
      this.clearIdle();
    }
  }

  /** Starts the frame timer when a frame is left incomplete, stops it when none is. */
  private armFrameTimer(reader: FrameReader): void {
    if (!reader.inFrame || this.frameTimeout <= 0) {
      this.clearFrameTimer();
      return;
    }
    if (this.frameTimer !== undefined && this.frameTimerAt === reader.offset) {
      return;
    }
    this.clearFrameTimer();
    this.frameTimerAt = reader.offset;
    this.frameTimer = setTimeout(() => {
      this.fail(new ConnectionError("FrameTimeout", `the frame at byte ${reader.offset} took more than ${this.frameTimeout} ms`));
    }, this.frameTimeout);
  }

  private clearFrameTimer(): void {
    if (this.frameTimer !== undefined) {
      clearTimeout(this.frameTimer);
      this.frameTimer = undefined;
    }
  }

  /** (Re)arms the idle timer for the time left since the last byte. */
  private armIdle(): void {
    this.clearIdle();
    if (this.idleTimeout <= 0 || this.done || this.paused) {
      return;
    }
    const left = this.lastData + this.idleTimeout - Date.now();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (Date.now() - this.lastData >= this.idleTimeout) {
        this.fail(new ConnectionError("IdleTimeout", `nothing received for ${this.idleTimeout} ms`));
      } else {
        this.armIdle();
      }
    }, Math.max(left, 1));
  }

  private clearIdle(): void {
    if (this.idleTimer !== undefined) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
    }
  }

  private onEnd(): void {
    if (this.done) {
      return;
    }
    if (this.reader !== undefined) {
      try {
        this.reader.end();
        this.reader.next();
      } catch (e) {
        this.fail(e instanceof FrameError ? e : new ConnectionError("Io", describe(e), e));
        return;
      }
    }
    this.finish(undefined);
    // The peer is done sending: finish ours, then close.
    this.closing = true;
    this.endIfFlushed();
  }

  /** Nothing more will be received: wake the waiters (with `undefined` or the failure). */
  private finish(failure: FrameError | ConnectionError | undefined): void {
    this.done = true;
    this.failure = failure;
    this.clearIdle();
    this.clearFrameTimer();
    for (const w of this.waiters.splice(0)) {
      if (failure === undefined) {
        w.resolve(undefined);
      } else {
        w.reject(failure);
      }
    }
  }

  private fail(e: FrameError | ConnectionError, wsCode?: number): void {
    if (this.failure !== undefined || this.lateFailure !== undefined || (this.done && this.sendBytes === 0)) {
      return;
    }
    this.closing = true;
    this.sendQueue = [];
    this.sendBytes = 0;
    if (this.done) {
      // The peer had ended cleanly (recv keeps reporting that); ours did not finish.
      this.lateFailure = e;
    } else {
      this.finish(e);
    }
    for (const w of this.flushWaiters.splice(0)) {
      w();
    }
    this.transport.destroy(wsCode);
  }

  private onClosed(): void {
    if (!this.done) {
      this.onEnd();
    }
    this.clearIdle();
    this.clearFrameTimer();
    if (this.lingerTimer !== undefined) {
      clearTimeout(this.lingerTimer);
    }
    this.resolveClosed(this.failure ?? this.lateFailure);
  }
}

/** A short text for an error of unknown type. */
export function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
