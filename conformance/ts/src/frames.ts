// The frame vectors (testdata/vectors/frames/frames.json, docs/framing.md) through the
// runtime's framer and the generated frame functions of frames.bw, with both zlibs
// (bitwire's own and node:zlib):
//
// - reading cases: the stream fed whole, one byte at a time and in other chunkings (or
//   the WebSocket messages one by one) yields the listed frames — id and data, and with
//   `type`, the decoded message and value (for the delta message World, the envelope
//   with the listed header: docs/framing.md §10.8) — then ends cleanly or with the listed error
//   (kind, offset, WebSocket message index, the packed error of `Message`, details);
// - `encode: "exact"`: writing the listed frames gives the stream (or messages), a prefix
//   of it when the case ends in an error; `"roundtrip"`: what is written reads back;
// - writing cases: writing the values fails with the listed error.

import { readFileSync } from "node:fs";
import { join } from "node:path";

import {
  BitwireError,
  FrameError,
  FrameReader,
  type Frame,
  type FrameOptions,
  WsFrameReader,
  decodeSnapshotHeader,
  encodeFrame,
  jsZlib,
  type Zlib,
} from "@bitwire/runtime";
import { nodeZlib } from "@bitwire/runtime/node";

import { type Message, codecs, decodeFrame, encodeFrame as encodeMessageFrame } from "../gen/frames.js";
import { hex, jsonEqual, sameBytes, show, unhex, why } from "./util.js";

interface FrameCase {
  id: number;
  data: string;
  type?: string;
  value?: unknown;
  /** The header of a frame of the delta message World, which decodes to its envelope. */
  envelope?: { seq: number; back: number };
}

interface Case {
  id: string;
  threshold: number | null;
  max_frame: number;
  max_data: number;
  transport?: string;
  stream?: string;
  messages?: string[];
  frames?: FrameCase[];
  end?: "clean" | Record<string, unknown>;
  encode?: "exact" | "roundtrip";
  write?: { type: string; value: unknown }[];
  write_error?: { kind: string };
}

const CHUNKINGS: number[][] = [[1 << 30], [1], [2], [3], [5, 1], [7, 2, 1], [64]];
const ZLIBS: Zlib[] = [jsZlib, nodeZlib];

function optionsOf(c: Case, zlib: Zlib): FrameOptions {
  return { threshold: c.threshold, maxFrame: c.max_frame, maxData: c.max_data, zlib };
}

/** The message of a listed frame with a type. */
function messageOf(f: { type: string; value?: unknown; data?: string; envelope?: unknown }): Message {
  if (f.envelope !== undefined) {
    return { kind: "World", envelope: unhex(f.data ?? "") };
  }
  const codec = codecs[f.type];
  if (codec === undefined) {
    throw new Error(`no type ${f.type} in frames.bw`);
  }
  return { kind: f.type, value: codec.fromJson(f.value) } as Message;
}

/** `undefined` when `got` is the listed frame (and decodes to its message), else why not. */
function checkFrame(got: Frame, want: FrameCase): string | undefined {
  if (got.id !== want.id || hex(got.data) !== want.data) {
    return `frame ${got.id}:${hex(got.data)}, expected ${want.id}:${want.data}`;
  }
  if (want.type === undefined) {
    return undefined;
  }
  const m = decodeFrame(got);
  if (want.envelope !== undefined) {
    if (m.kind !== "World") {
      return `decoded a ${m.kind}, expected a World envelope`;
    }
    const { header } = decodeSnapshotHeader(m.envelope);
    const same = header.seq === want.envelope.seq && header.back === want.envelope.back && hex(m.envelope) === want.data;
    return same ? undefined : `decoded the envelope ${show(header)} ${hex(m.envelope)}, expected ${show(want.envelope)} ${want.data}`;
  }
  const codec = codecs[want.type];
  if (m.kind !== want.type || m.kind === "World" || codec === undefined) {
    return `decoded a ${m.kind}, expected ${want.type}`;
  }
  const value = codec.toJson(m.value);
  const expected = codec.toJson(codec.fromJson(want.value));
  return jsonEqual(value, expected) ? undefined : `decoded ${show(value)}, expected ${show(expected)}`;
}

const DETAILS: [string, string][] = [
  ["length", "length"],
  ["max", "max"],
  ["data_length", "dataLength"],
  ["threshold", "threshold"],
  ["message_id", "messageId"],
];

/** `undefined` when `e` is the listed end error, else why not. */
function checkEnd(e: unknown, want: Record<string, unknown>, ws: boolean): string | undefined {
  if (!(e instanceof FrameError)) {
    return `threw ${why(e)}, expected a FrameError ${show(want)}`;
  }
  if (e.kind !== want.kind || e.offset !== want.offset) {
    return `${e.kind} at ${e.offset}, expected ${String(want.kind)} at ${String(want.offset)}`;
  }
  if (ws && e.detail.wsMessage !== want.message) {
    return `in WebSocket message ${e.detail.wsMessage}, expected ${String(want.message)}`;
  }
  if (e.kind === "Message") {
    const inner = want.message as { kind: string; bit: number; path: string };
    const cause = e.cause;
    if (!(cause instanceof BitwireError) || cause.kind !== inner.kind || cause.bit !== inner.bit || cause.path !== inner.path) {
      return `packed error ${cause instanceof Error ? cause.message : "none"}, expected ${show(inner)}`;
    }
  }
  for (const [key, prop] of DETAILS) {
    const got = (e.detail as Record<string, unknown>)[prop];
    if (want[key] !== undefined && got !== want[key]) {
      return `detail ${prop} ${String(got)}, expected ${String(want[key])}`;
    }
  }
  return undefined;
}

/** Reads the case's stream in `sizes` chunks (or its messages); `undefined` when all is as listed. */
function readCase(c: Case, zlib: Zlib, sizes: number[]): string | undefined {
  const wanted = c.frames ?? [];
  let seen = 0;
  const onFrame = (f: Frame): string | undefined => {
    const want = wanted[seen++];
    if (want !== undefined) {
      return checkFrame(f, want);
    }
    decodeFrame(f); // past the listed frames: this must throw the end error
    return `an extra frame ${f.id}:${hex(f.data)}`;
  };
  try {
    if (c.transport === "websocket") {
      const r = new WsFrameReader(optionsOf(c, zlib));
      for (const m of c.messages ?? []) {
        r.push(unhex(m));
        for (let f = r.next(); f !== undefined; f = r.next()) {
          const p = onFrame(f);
          if (p !== undefined) {
            return p;
          }
        }
      }
    } else {
      const stream = unhex(c.stream ?? "");
      const r = new FrameReader(optionsOf(c, zlib));
      let at = 0;
      for (let k = 0; at < stream.length; k++) {
        const n = sizes[k % sizes.length] as number;
        r.push(stream.subarray(at, at + n));
        at += n;
        for (let f = r.next(); f !== undefined; f = r.next()) {
          const p = onFrame(f);
          if (p !== undefined) {
            return p;
          }
        }
      }
      r.end();
      const f = r.next();
      if (f !== undefined) {
        return `a frame after the end: ${f.id}`;
      }
    }
  } catch (e) {
    if (c.end === "clean" || c.end === undefined) {
      return `unexpected ${why(e)}`;
    }
    if (seen < wanted.length) {
      return `failed after ${seen} of ${wanted.length} frames: ${why(e)}`;
    }
    return checkEnd(e, c.end, c.transport === "websocket");
  }
  if (seen !== wanted.length) {
    return `read ${seen} frames, expected ${wanted.length}`;
  }
  return c.end === "clean" ? undefined : `ended cleanly, expected ${show(c.end)}`;
}

/** The frames of the listed values (or data, for frame-level frames). */
function writeFrames(c: Case, zlib: Zlib): Uint8Array[] {
  const options = optionsOf(c, zlib);
  return (c.frames ?? []).map((f) =>
    f.type === undefined ? encodeFrame(f.id, unhex(f.data), options) : encodeMessageFrame(messageOf({ ...f, type: f.type }), options),
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function encodeCase(c: Case, zlib: Zlib): string | undefined {
  const frames = writeFrames(c, zlib);
  if (c.encode === "roundtrip") {
    const again: Case = { ...c, stream: hex(concat(frames)), end: "clean", messages: frames.map(hex) };
    const p = readCase(again, zlib, [1 << 30]);
    return p === undefined ? undefined : `reading what was written: ${p}`;
  }
  if (c.transport === "websocket") {
    // Frames in order are the messages' bytes, up to where the case's error is.
    const got = frames.map(hex).join("");
    const want = (c.messages ?? []).join("");
    const ok = c.end === "clean" ? got === want : want.startsWith(got);
    return ok ? undefined : `wrote ${got}, expected ${want}`;
  }
  const got = concat(frames);
  const stream = unhex(c.stream ?? "");
  const expected = c.end === "clean" ? stream : stream.subarray(0, got.length);
  return sameBytes(got, expected) ? undefined : `wrote ${hex(got)}, expected ${hex(expected)}`;
}

function writeErrorCase(c: Case, zlib: Zlib): string | undefined {
  try {
    for (const w of c.write ?? []) {
      encodeMessageFrame(messageOf(w), optionsOf(c, zlib));
    }
  } catch (e) {
    return e instanceof FrameError && e.kind === c.write_error?.kind ? undefined : `threw ${why(e)}, expected ${show(c.write_error)}`;
  }
  return `wrote the frames, expected ${show(c.write_error)}`;
}

/** Every case of frames.json; returns the counts and the problems. */
export function runFrames(vectorsDir: string): { passed: number; failed: number; problems: string[] } {
  const doc = JSON.parse(readFileSync(join(vectorsDir, "frames", "frames.json"), "utf8")) as { cases: Case[] };
  const problems: string[] = [];
  let passed = 0;
  for (const c of doc.cases) {
    const found: string[] = [];
    for (const zlib of ZLIBS) {
      const runs: (() => string | undefined)[] = [];
      if (c.write_error !== undefined) {
        runs.push(() => writeErrorCase(c, zlib));
      } else {
        for (const sizes of c.transport === "websocket" ? [[0]] : CHUNKINGS) {
          runs.push(() => readCase(c, zlib, sizes));
        }
        if (c.encode !== undefined) {
          runs.push(() => encodeCase(c, zlib));
        }
      }
      for (const run of runs) {
        let p: string | undefined;
        try {
          p = run();
        } catch (e) {
          p = `threw ${why(e)}`;
        }
        if (p !== undefined) {
          found.push(`[${zlib.name}] ${p}`);
          break;
        }
      }
    }
    if (found.length === 0) {
      passed++;
    } else {
      problems.push(`${c.id}: ${found.join("; ")}`);
    }
  }
  return { passed, failed: problems.length, problems };
}
