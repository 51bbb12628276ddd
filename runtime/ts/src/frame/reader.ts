// The incremental frame reader (docs/framing.md §2–§6): fed chunks of a byte stream as
// they arrive — split anywhere, several frames coalesced in one — it yields frames in
// order and reports the first malformed one with its byte offset.
//
// Memory is bounded by the settings, not by the peer: the Length is checked (width,
// minimality, zero, `maxFrame`) as soon as its bytes are there and before any of the
// body is buffered; a frame that arrives whole inside one chunk is not copied at all;
// one that spans chunks is assembled in a buffer of exactly its size. So the reader
// holds at most `maxFrame + 3` bytes of its own, plus the chunks pushed and not yet read.

import { FrameError } from "./errors.js";
import { type Frame, readBody, readLength } from "./body.js";
import { type FrameOptions, type FrameSettings, frameSettings } from "./settings.js";

/**
 * Reads frames from a byte stream fed in chunks. `push` a chunk, then call `next`
 * until it returns `undefined` (more bytes needed); at the end of the stream call
 * `end`, then `next` again: it throws `Truncated` if the stream stopped inside a frame.
 * Every error is a {@link FrameError}; after one, the reader keeps throwing it.
 *
 * ```ts
 * const reader = new bw.FrameReader({ threshold: 256 });
 * socket.on("data", (chunk) => {
 *   reader.push(chunk);
 *   for (let f = reader.next(); f !== undefined; f = reader.next()) {
 *     handle(decodeFrame(f)); // the generated dispatch
 *   }
 * });
 * ```
 */
export class FrameReader {
  /** The settings in force. */
  readonly settings: FrameSettings;
  /** Chunks pushed and not yet read, the first from `chunkPos`. */
  private chunks: Uint8Array[] = [];
  private chunkPos = 0;
  /** Bytes of a Length that arrived in pieces (at most 3). */
  private header = new Uint8Array(3);
  private headerLen = 0;
  /** The body of a frame that spans chunks, once its Length was accepted. */
  private body: Uint8Array | undefined;
  private bodyLen = 0;
  /** Stream offset of the first byte of the frame being read. */
  private frameStart = 0;
  /** Stream offset of the next byte to read. */
  private pos = 0;
  private ended = false;
  private failure: FrameError | undefined;

  /** A reader with the given settings (threshold, limits, zlib; see `FrameOptions`). */
  constructor(options: FrameOptions | FrameSettings = {}) {
    this.settings = frameSettings(options);
  }

  /** Adds the next chunk of the stream (kept by reference until read; do not reuse it). */
  push(chunk: Uint8Array): void {
    if (this.ended) {
      throw new Error("bitwire: FrameReader.push after end()");
    }
    if (chunk.length > 0) {
      this.chunks.push(chunk);
    }
  }

  /** Marks the end of the stream: after the last frame, `next` returns `undefined` or throws `Truncated`. */
  end(): void {
    this.ended = true;
  }

  /** Stream offset of the first byte of the frame being read (or the next one). */
  get offset(): number {
    return this.frameStart;
  }

  /** Whether part of a frame has been read: a frame is started and not complete. */
  get inFrame(): boolean {
    return this.headerLen > 0 || this.body !== undefined;
  }

  /** Bytes pushed and not yet read, plus the part of a frame being assembled. */
  get buffered(): number {
    let n = this.headerLen + this.bodyLen;
    for (const c of this.chunks) {
      n += c.length;
    }
    return n - this.chunkPos;
  }

  /**
   * The next frame, or `undefined` when more bytes are needed (or, after `end`, when
   * the stream ended cleanly). Throws a {@link FrameError} for a malformed frame.
   */
  next(): Frame | undefined {
    if (this.failure !== undefined) {
      throw this.failure;
    }
    try {
      return this.step();
    } catch (e) {
      if (e instanceof FrameError) {
        this.failure = e;
        this.chunks = [];
        this.body = undefined;
      }
      throw e;
    }
  }

  private step(): Frame | undefined {
    for (;;) {
      const chunk = this.chunks[0];
      if (chunk === undefined) {
        if (this.ended && this.inFrame) {
          throw new FrameError("Truncated", this.frameStart, { note: "the stream ends inside a frame" });
        }
        return undefined;
      }
      if (this.chunkPos >= chunk.length) {
        this.chunks.shift();
        this.chunkPos = 0;
        continue;
      }
      if (this.body !== undefined) {
        const frame = this.fillBody(chunk);
        if (frame !== undefined) {
          return frame;
        }
        continue;
      }
      if (this.headerLen === 0) {
        // The common case: the whole frame inside this chunk, read in place.
        this.frameStart = this.pos;
        const h = readLength(this.settings, chunk, this.chunkPos, chunk.length, this.pos);
        if (h !== undefined) {
          const start = this.chunkPos + h.width;
          if (start + h.length <= chunk.length) {
            this.chunkPos = start + h.length;
            this.pos += h.width + h.length;
            return readBody(this.settings, chunk.subarray(start, start + h.length), this.frameStart);
          }
          this.chunkPos = start;
          this.pos += h.width;
          this.body = new Uint8Array(h.length);
          this.bodyLen = 0;
          continue;
        }
      }
      // A Length in pieces: one byte at a time into `header`.
      this.header[this.headerLen++] = chunk[this.chunkPos++] as number;
      this.pos++;
      const h = readLength(this.settings, this.header, 0, this.headerLen, this.frameStart);
      if (h !== undefined) {
        this.headerLen = 0;
        this.body = new Uint8Array(h.length);
        this.bodyLen = 0;
      }
    }
  }

  /** Copies what `chunk` has of the body being assembled; the frame once complete. */
  private fillBody(chunk: Uint8Array): Frame | undefined {
    const body = this.body as Uint8Array;
    const n = Math.min(body.length - this.bodyLen, chunk.length - this.chunkPos);
    body.set(chunk.subarray(this.chunkPos, this.chunkPos + n), this.bodyLen);
    this.bodyLen += n;
    this.chunkPos += n;
    this.pos += n;
    if (this.bodyLen < body.length) {
      return undefined;
    }
    this.body = undefined;
    this.bodyLen = 0;
    return readBody(this.settings, body, this.frameStart);
  }
}

/**
 * Reads WebSocket messages as frames (docs/framing.md §5): each binary message must
 * hold exactly one frame. The same shape as {@link FrameReader}: `push` a message, then
 * `next` until `undefined`. A message with less than one frame is `Truncated` at the
 * first `next`; bytes after its frame are `TrailingBytes` at the second (the frame
 * itself is yielded first, as a stream reader would). Errors carry the offset inside the
 * message and its index (`detail.wsMessage`, counted from 0 per reader).
 */
export class WsFrameReader {
  /** The settings in force. */
  readonly settings: FrameSettings;
  private index = -1;
  private message: Uint8Array | undefined;
  private pos = 0;
  private failure: FrameError | undefined;

  /** A reader with the given settings. */
  constructor(options: FrameOptions | FrameSettings = {}) {
    this.settings = frameSettings(options);
  }

  /** Adds the next binary message (kept by reference until `next` returns `undefined`). */
  push(message: Uint8Array): void {
    if (this.message !== undefined) {
      throw new Error("bitwire: WsFrameReader.push before next() returned undefined");
    }
    this.index++;
    this.message = message;
    this.pos = 0;
  }

  /** The frame of the message pushed last, then `undefined`; throws a {@link FrameError}. */
  next(): Frame | undefined {
    if (this.failure !== undefined) {
      throw this.failure;
    }
    try {
      return this.step();
    } catch (e) {
      if (e instanceof FrameError) {
        this.failure = e;
        this.message = undefined;
      }
      throw e;
    }
  }

  private step(): Frame | undefined {
    const message = this.message;
    if (message === undefined) {
      return undefined;
    }
    const ws = this.index;
    if (this.pos > 0) {
      if (this.pos < message.length) {
        throw new FrameError("TrailingBytes", this.pos, { wsMessage: ws, note: `${message.length - this.pos} bytes after the frame` });
      }
      this.message = undefined;
      return undefined;
    }
    const h = readLength(this.settings, message, 0, message.length, 0, ws);
    if (h === undefined) {
      throw new FrameError("Truncated", 0, { wsMessage: ws, note: "the message ends inside the Length" });
    }
    const end = h.width + h.length;
    if (message.length < end) {
      throw new FrameError("Truncated", 0, { wsMessage: ws, length: h.length, note: "the message ends inside the frame" });
    }
    this.pos = end;
    return readBody(this.settings, message.subarray(h.width, end), 0, ws);
  }
}
