// The network tests (docs/typescript.md, Networking), on whichever runtime runs this
// file: echo over every adapter the runtime has (Node net on all three; Bun's and
// Deno's own sockets; WebSocket); snapshots against acknowledged baselines over Node
// net (baseline.ts); on Node also minecraft-protocol interop in both
// directions and the faults of issue 12 §5 against a Node TCP server.

import { dirname, join } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { connectWebSocket } from "@bitwire/runtime";
import { connectTcp, listenTcp } from "@bitwire/runtime/node";
import { type Message, protocol } from "../../gen/frames.js";
import { runtimeName } from "../util.js";
import { type Stack, echoTests } from "./echo.js";
import { run } from "./harness.js";
import { mcprotoTests } from "./mcproto.js";
import { faultTests, wsFaultTests } from "./faults.js";
import { baselineTests } from "./baseline.js";

const runtime = runtimeName();

/** The echo tests and the snapshot test (baseline.ts) of `stack`. */
function stackTests(stack: Stack): void {
  echoTests(stack);
  baselineTests(stack);
}

stackTests({
  name: "node:net",
  listen: (opts, handler) => listenTcp<Message>(protocol, { ...opts, port: 0 }, handler),
  connect: (port, opts) => connectTcp(protocol, { ...opts, port }),
});

// WebSocket: the `ws` package's server (Node; Bun and Deno run it too), with the `ws`
// client on Node and the standard WebSocket on Bun and Deno.
{
  const { connectWs, listenWs } = await import("@bitwire/runtime/ws");
  const listen: Stack["listen"] = async (opts, handler) => listenWs<Message>(protocol, { ...opts, port: 0, path: "/ws" }, handler);
  stackTests({ name: "ws server, ws client", listen, connect: (port, opts) => connectWs(protocol, `ws://127.0.0.1:${port}/ws`, opts) });
  if (runtime !== "node") {
    stackTests({ name: "ws server, standard WebSocket client", listen, connect: (port, opts) => connectWebSocket(protocol, `ws://127.0.0.1:${port}/ws`, opts) });
  }
}

if (runtime === "node") {
  if (process.env.BITWIRE_MCPROTO_PEER === undefined) {
    console.log("FAIL minecraft-protocol interop: BITWIRE_MCPROTO_PEER is not set (run.sh sets it)");
    process.exitCode = 1;
  } else {
    mcprotoTests();
  }
  wsFaultTests();
  faultTests(join(dirname(fileURLToPath(import.meta.url)), "../../../../../testdata/vectors"));
}

if (runtime === "bun") {
  const { connectBun, listenBun, serveBunWs } = await import("@bitwire/runtime/bun");
  stackTests({
    name: "Bun.serve WebSocket, standard WebSocket client",
    listen: async (opts, handler) => serveBunWs<Message>(protocol, { ...opts, port: 0, path: "/ws" }, handler),
    connect: (port, opts) => connectWebSocket(protocol, `ws://127.0.0.1:${port}/ws`, opts),
  });
  stackTests({
    name: "Bun.listen / Bun.connect",
    listen: async (opts, handler) => listenBun<Message>(protocol, { ...opts, port: 0 }, handler),
    connect: (port, opts) => connectBun(protocol, { ...opts, port }),
  });
}
if (runtime === "deno") {
  const { connectDeno, listenDeno, serveDenoWs } = await import("@bitwire/runtime/deno");
  stackTests({
    name: "Deno.serve WebSocket, standard WebSocket client",
    listen: async (opts, handler) => serveDenoWs<Message>(protocol, { ...opts, port: 0, path: "/ws" }, handler),
    connect: (port, opts) => connectWebSocket(protocol, `ws://127.0.0.1:${port}/ws`, opts),
  });
  stackTests({
    name: "Deno.listen / Deno.connect",
    listen: async (opts, handler) => listenDeno<Message>(protocol, { ...opts, port: 0 }, handler),
    connect: (port, opts) => connectDeno(protocol, { ...opts, port }),
  });
}

process.exit((await run()) > 0 || process.exitCode === 1 ? 1 : 0);
