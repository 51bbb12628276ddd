// The simulator's client on Bun: TCP over `Bun.connect` (bench/sim/README.md).

import { connectBun } from "@bitwire/runtime/bun";
import { main } from "./client.js";
import { rawProtocol } from "./frames.js";

await main("bun", (host, port, options) => connectBun(rawProtocol, { ...options, host, port }));
