// One simulated client on one connection (bench/sim/README.md, "simclient"): an `Input`
// every 1/60 s from the moment it connects, RTT from each input to the first snapshot
// that reflects it, and every snapshot validated. What it counts goes into the process's
// shared `Tally`.

import { type Connection, ConnectionError, FrameError } from "@bitwire/runtime";
import { type Entity, INPUT_MESSAGE_ID, type Input, SNAPSHOT_MESSAGE_ID, type Snapshot } from "../gen/sim.js";
import { Behaviour } from "./behaviour.js";
import { type ClientCodec, CodecError } from "./codec.js";
import { type RawFrame, frameBytes } from "./frames.js";
import { RTT_EVERY, TICK_MS } from "./rules.js";
import { validate } from "./validate.js";

/** Errors and validation failures kept (the rest are only counted). */
export const KEPT_ERRORS = 5;
/** Inputs whose send time is remembered: an RTT sample needs the input to be at most this many back. */
const SENT_RING = 1024;

/** The counters of a client process, over every connection (the results' fields). */
export class Tally {
  inputsSent = 0;
  bytesOut = 0;
  snapshots = 0;
  bytesIn = 0;
  dropped = 0;
  rttReports = 0;
  rttReportSumUs = 0;
  /** Every RTT sample, integer nanoseconds. */
  readonly rttNs: number[] = [];
  invalid = 0;
  decodeErrors = 0;
  readonly errors: string[] = [];

  /** Keeps `message` if fewer than `KEPT_ERRORS` are kept. */
  error(message: string): void {
    if (this.errors.length < KEPT_ERRORS) {
      this.errors.push(message);
    }
  }
}

/** A client: its connection, codec and behaviour, and what it has seen. */
export class Player {
  /** Whether it decoded at least one snapshot. */
  gotSnapshot = false;

  private readonly behaviour: Behaviour;
  private seq = 0;
  private ack = 0;
  private last: Snapshot | undefined;
  private me: Entity | undefined;
  private newestInputSeq = 0;
  private rttUs: number | undefined;
  private readonly sentAt = new Float64Array(SENT_RING);
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking = false;

  constructor(
    /** Its index in the process, 0-based (behaviour seed `SEED + index`). */
    readonly index: number,
    private readonly conn: Connection<RawFrame>,
    private readonly codec: ClientCodec,
    private readonly tally: Tally,
  ) {
    this.behaviour = new Behaviour(index);
  }

  /**
   * Plays until the server closes the connection (then closes ours) or it fails;
   * resolves once the connection is closed.
   */
  async run(): Promise<void> {
    this.startTicking();
    try {
      for (;;) {
        const f = await this.conn.recv();
        if (f === undefined) {
          break;
        }
        this.onFrame(f);
      }
    } catch (e) {
      if (e instanceof FrameError) {
        this.tally.decodeErrors++;
      }
      this.tally.error(`client ${this.index}: ${e instanceof Error ? e.message : String(e)}`);
    }
    this.stopTicking();
    if (!this.gotSnapshot && this.conn.error === undefined) {
      this.tally.error(`client ${this.index}: the server closed the connection before any snapshot`);
    }
    await this.conn.close();
  }

  /** Stops sending and closes the connection now (the process's timeout). */
  abort(reason: string): void {
    this.stopTicking();
    this.conn.abort(new ConnectionError("Closed", reason));
  }

  /**
   * An input at the client's phase of the first tick period, then one every period: a
   * timer aimed at `start + k × period`; when it fires so late that the next tick's time
   * has passed too, the missed ticks are skipped and the next one is the next multiple of
   * the period (tokio's `MissedTickBehavior::Skip`, as the Rust client's interval).
   */
  private startTicking(): void {
    this.ticking = true;
    const start = performance.now() + this.behaviour.phase * TICK_MS;
    let k = 0;
    const step = (): void => {
      if (!this.ticking) {
        return;
      }
      this.sendInput();
      k++;
      const now = performance.now();
      if (now > start + k * TICK_MS) {
        // The next tick's time has passed too: it is skipped, not sent late.
        k = Math.ceil((now - start) / TICK_MS);
      }
      this.timer = setTimeout(step, Math.max(0, start + k * TICK_MS - now));
    };
    this.timer = setTimeout(step, Math.max(0, start - performance.now()));
  }

  private stopTicking(): void {
    this.ticking = false;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private sendInput(): void {
    const seq = this.seq + 1;
    const report = seq % RTT_EVERY === 0 && this.rttUs !== undefined ? this.rttUs : null;
    const input: Input = { seq, ack: this.ack, ...this.behaviour.next(this.me), rttUs: report };
    const data = this.codec.encodeInput(input);
    try {
      this.conn.send({ id: INPUT_MESSAGE_ID, data, at: 0 });
    } catch (e) {
      // Closed: the server ended the connection and the reader will see it; anything else
      // (a full send queue) is an error.
      if (!(e instanceof ConnectionError && e.kind === "Closed")) {
        this.tally.error(`client ${this.index}: sending input ${seq}: ${e instanceof Error ? e.message : String(e)}`);
      }
      this.stopTicking();
      return;
    }
    this.seq = seq;
    this.sentAt[seq % SENT_RING] = performance.now();
    this.tally.inputsSent++;
    this.tally.bytesOut += frameBytes(INPUT_MESSAGE_ID, data.length);
    if (report !== null) {
      this.tally.rttReports++;
      this.tally.rttReportSumUs += report;
    }
  }

  private onFrame(f: RawFrame): void {
    if (f.id !== SNAPSHOT_MESSAGE_ID) {
      this.tally.decodeErrors++;
      this.tally.error(`client ${this.index}: a frame with PacketID ${f.id}, expected ${SNAPSHOT_MESSAGE_ID} (Snapshot)`);
      return;
    }
    this.tally.snapshots++;
    this.tally.bytesIn += frameBytes(f.id, f.data.length);
    let got;
    try {
      got = this.codec.decodeSnapshot(f.data);
    } catch (e) {
      if (!(e instanceof CodecError)) {
        throw e;
      }
      this.tally.decodeErrors++;
      this.tally.error(`client ${this.index}: snapshot ${this.tally.snapshots}: ${e.message}`);
      return;
    }
    if (got === undefined) {
      this.tally.dropped++;
      return;
    }
    const s = got.snapshot;
    const problems = validate(this.last, s, this.seq);
    if (problems.length > 0) {
      this.tally.invalid++;
      for (const p of problems) {
        this.tally.error(`client ${this.index}, tick ${s.tick}: ${p.rule}: ${p.message}`);
      }
    }
    if (s.inputSeq > this.newestInputSeq) {
      // An input_seq above the newest sent is invalid (above) and has no send time.
      if (s.inputSeq <= this.seq && this.seq - s.inputSeq < SENT_RING) {
        const ms = f.at - (this.sentAt[s.inputSeq % SENT_RING] as number);
        this.tally.rttNs.push(Math.max(0, Math.round(ms * 1e6)));
        // Whole microseconds, truncated (Rust's `as_micros`).
        this.rttUs = Math.max(0, Math.floor(ms * 1000));
      }
      this.newestInputSeq = s.inputSeq;
    }
    this.gotSnapshot = true;
    this.ack = got.ack;
    this.last = s;
    this.me = s.entities.find((e) => e.id === s.you);
  }
}
