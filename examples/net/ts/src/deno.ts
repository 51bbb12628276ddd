// The arena client on Deno: `Deno.connect` for TCP, Deno's standard WebSocket
// (run with --allow-net).

import { connectWebSocket } from "@bitwire/runtime";
import { connectDeno } from "@bitwire/runtime/deno";
import { nodeZlib } from "@bitwire/runtime/node";
import { protocol } from "../gen/arena.js";
import { main } from "./client.js";

await main("deno", {
  tcp: (host, port, options) => connectDeno(protocol, { ...options, host, port }),
  ws: (url, options) => connectWebSocket(protocol, url, { ...options, zlib: nodeZlib }),
});
