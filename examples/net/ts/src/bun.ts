// The arena client on Bun: `Bun.connect` for TCP, Bun's standard WebSocket.

import { connectWebSocket } from "@bitwire/runtime";
import { connectBun } from "@bitwire/runtime/bun";
import { nodeZlib } from "@bitwire/runtime/node";
import { protocol } from "../gen/arena.js";
import { main } from "./client.js";

await main("bun", {
  tcp: (host, port, options) => connectBun(protocol, { ...options, host, port }),
  ws: (url, options) => connectWebSocket(protocol, url, { ...options, zlib: nodeZlib }),
});
