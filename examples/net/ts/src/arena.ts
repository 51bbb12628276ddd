// The arena client's part that every runtime and the browser page share
// (examples/net/README.md): join, move, chat, check what comes back, leave.

import type { Connection } from "@bitwire/runtime";
import { type Message, type Pose, encodePose } from "../gen/arena.js";

/** The pose a client takes: derived from its player id, on the grid the schema quantizes to. */
export function poseFor(player: number): Pose {
  return {
    x: ((player * 37) % 1000) - 500 + 0.25,
    y: ((player * 53) % 1000) - 500 - 0.5,
    heading: (player * 45) % 360,
  };
}

/** A pose as its packed bytes, in hex: poses are quantized, so they compare encoded. */
export function poseBytes(p: Pose): string {
  return Array.from(encodePose(p), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The next message, or an error naming what the client was waiting for. */
async function next(conn: Connection<Message>, waiting: string): Promise<Message> {
  const m = await conn.recv();
  if (m === undefined) {
    throw new Error(`the server closed while the client waited for ${waiting}`);
  }
  return m;
}

/**
 * Plays one round as `name` on runtime `runtime` and returns the summary line
 * (`node client: player 3, chat echoed, pose seen among 6 players, bye`).
 */
export async function play(conn: Connection<Message>, name: string, runtime: string): Promise<string> {
  conn.send({ kind: "Hello", value: { name, runtime } });
  let player = -1;
  while (player < 0) {
    const m = await next(conn, "Welcome");
    if (m.kind === "Welcome") {
      player = m.value.player;
    }
  }
  const pose = poseFor(player);
  const text = `hello from ${runtime}`;
  conn.send({ kind: "Move", value: { pose } });
  conn.send({ kind: "Say", value: { text } });
  let echoed = false;
  let seenAmong = 0;
  while (!echoed || seenAmong === 0) {
    const m = await next(conn, "its chat and its pose");
    if (m.kind === "Chat" && m.value.from === player && m.value.text === text) {
      echoed = true;
    } else if (m.kind === "Positions") {
      const mine = m.value.players.find((p) => p.player === player);
      if (mine !== undefined && poseBytes(mine.pose) === poseBytes(pose)) {
        seenAmong = m.value.players.length;
      }
    }
  }
  conn.send({ kind: "Bye", value: {} });
  // Whatever else arrives (more ticks), until the server closes.
  while ((await conn.recv()) !== undefined) {
    // The connection ends with `undefined` when the server closes cleanly.
  }
  return `${runtime} client: player ${player}, chat echoed, pose seen among ${seenAmong} players, bye`;
}
