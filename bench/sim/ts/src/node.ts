// The simulator's client on Node: TCP over `node:net` (bench/sim/README.md).

import { connectTcp } from "@bitwire/runtime/node";
import { main } from "./client.js";
import { rawProtocol } from "./frames.js";

await main("node", (host, port, options) => connectTcp(rawProtocol, { ...options, host, port }));
