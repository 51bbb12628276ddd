// The arena client on Node: `node:net` for TCP, the `ws` package for WebSocket.

import { connectTcp } from "@bitwire/runtime/node";
import { connectWs } from "@bitwire/runtime/ws";
import { protocol } from "../gen/arena.js";
import { main } from "./client.js";

await main("node", {
  tcp: (host, port, options) => connectTcp(protocol, { ...options, host, port }),
  ws: (url, options) => connectWs(protocol, url, options),
});
