// The arena's browser client (examples/net/README.md): the generated TypeScript codec
// and @bitwire/runtime bundled with esbuild, over the browser's WebSocket (one frame per
// binary message), with bitwire's own zlib when `?threshold=T` turns compression on.
// It plays one round like every other client (../ts/src/arena.ts), checks a frame's
// bytes against the writer of the framing spec, and reports its verdict in
// `window.bitwireInterop` ({ done, ok, lines }) for the headless driver.

import { FrameReader, connectWebSocket, jsZlib } from "@bitwire/runtime";
import { type Message, decodeFrame, encodeFrame, protocol } from "../../ts/gen/arena.js";
import { play } from "../../ts/src/arena.js";

interface Verdict {
  done: boolean;
  ok: boolean;
  lines: string[];
}

const verdict: Verdict = { done: false, ok: false, lines: [] };
(globalThis as { bitwireInterop?: Verdict }).bitwireInterop = verdict;

function say(line: string): void {
  verdict.lines.push(line);
  const log = document.getElementById("log");
  if (log !== null) {
    log.textContent += `${line}\n`;
  }
}

const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");

/** Frames built here read back here, with and without compression (bitwire's own zlib in the browser). */
function checkFrames(): void {
  const bye: Message = { kind: "Bye", value: {} };
  const plain = hex(encodeFrame(bye));
  if (plain !== "01 07") {
    throw new Error(`the frame of Bye is ${plain}, expected 01 07 (docs/framing.md §2)`);
  }
  const line: Message = { kind: "Say", value: { text: "compressed in the browser ".repeat(8) } };
  const frame = encodeFrame(line, { threshold: 0, zlib: jsZlib });
  const r = new FrameReader({ threshold: 0 });
  r.push(frame);
  const f = r.next();
  const back = f === undefined ? undefined : decodeFrame(f);
  if (back === undefined || back.kind !== "Say" || back.value.text !== line.value.text) {
    throw new Error("a compressed frame did not read back");
  }
  say(`frames: Bye is ${plain}; a ${frame.length}-byte compressed Say reads back`);
}

async function main(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const url = query.get("ws") ?? `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  const t = query.get("threshold");
  checkFrames();
  const conn = await connectWebSocket(protocol, url, { threshold: t === null ? null : Number(t), zlib: jsZlib });
  say(`connected to ${url}${t === null ? "" : ` (threshold ${t})`}`);
  say(await play(conn, query.get("name") ?? "browser", "browser"));
  verdict.ok = true;
}

main()
  .catch((e: unknown) => say(`FAIL ${e instanceof Error ? e.message : String(e)}`))
  .finally(() => {
    verdict.done = true;
  });
