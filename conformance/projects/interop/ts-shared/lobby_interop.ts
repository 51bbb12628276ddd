// The interop values of conformance/projects (from docs/getting-started.md's lobby.bw) and
// the check of another project's bytes, for the TypeScript projects: node, deno, bun and
// browser copy this file next to their generated `gen/lobby.ts` and call it from their
// own entry point (interop_fs.ts, or the browser's page). Standard JavaScript only.

import * as lobby from "./gen/lobby.js";

/** The messages every project writes, as `<project>.<Message>.bin`. */
export const MESSAGES = ["Join", "Chat", "Move"] as const;

/** One of {@link MESSAGES}. */
export type MessageName = (typeof MESSAGES)[number];

const join: lobby.Join = { name: "Ada \u2713", role: "Host", build: 9223372036854775813n, region: 7 };
const chat: lobby.Chat = { from: 300, text: "hello, lobby", mentions: [1, 2, 70000] };
const move: lobby.Move = { player: 1023, x: -12.5, y: 100.0625, heading: 90.0, running: true };

/** The bytes of the interop value of `name`, encoded by this project (a copy). */
export function encode(name: MessageName): Uint8Array {
  switch (name) {
    case "Join":
      return lobby.encodeJoin(join).slice();
    case "Chat":
      return lobby.encodeChat(chat).slice();
    case "Move":
      return lobby.encodeMove(move).slice();
  }
}

/** `field: got …, expected …` for each field of `got` that differs from `want`. */
function differences<T extends object>(got: T, want: T, fields: (keyof T)[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const [g, w] = [got[f], want[f]];
    const same = Array.isArray(g) && Array.isArray(w) ? g.join() === w.join() : g === w;
    if (!same) {
      out.push(`${String(f)}: got ${String(g)}, expected ${String(w)}`);
    }
  }
  return out;
}

/** Decodes `bytes` as `name`, checks the fields the values pin down, re-encodes. */
function decodeAndEncode(name: MessageName, bytes: Uint8Array): [string[], Uint8Array] {
  switch (name) {
    case "Join": {
      const v = lobby.decodeJoin(bytes);
      return [differences(v, join, ["name", "role", "build", "region"]), lobby.encodeJoin(v).slice()];
    }
    case "Chat": {
      const v = lobby.decodeChat(bytes);
      return [differences(v, chat, ["from", "text", "mentions"]), lobby.encodeChat(v).slice()];
    }
    case "Move": {
      const v = lobby.decodeMove(bytes);
      // x and y are on their grid (exact); heading is quantized to 9 bits.
      return [differences(v, move, ["player", "x", "y", "running"]), lobby.encodeMove(v).slice()];
    }
  }
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/**
 * Checks another project's file `file` (`<project>.<Message>.bin`) holding `bytes`: the
 * same bytes as this project's encoding, a decoded value with the expected fields, the
 * same bytes again when re-encoded. Returns the line to print; throws an `Error` that
 * says what differs.
 */
export function check(file: string, bytes: Uint8Array): string {
  const name = file.split(".")[1];
  if (!(MESSAGES as readonly string[]).includes(name ?? "")) {
    throw new Error(`${file}: not a <project>.<Message>.bin of ${MESSAGES.join(", ")}`);
  }
  const message = name as MessageName;
  const own = encode(message);
  if (hex(own) !== hex(bytes)) {
    throw new Error(`${file}: bytes ${hex(bytes)}, this project encodes ${hex(own)}`);
  }
  const [problems, again] = decodeAndEncode(message, bytes);
  if (problems.length > 0) {
    throw new Error(`${file}: decoded ${problems.join("; ")}`);
  }
  if (hex(again) !== hex(bytes)) {
    throw new Error(`${file}: re-encoded as ${hex(again)}`);
  }
  return `${file}: ${bytes.length} bytes, decoded and re-encoded identically`;
}
