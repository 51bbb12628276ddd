// The simulator's client on Deno: TCP over `Deno.connect` (bench/sim/README.md; run with
// --allow-net, and --allow-write for --results).

import { connectDeno } from "@bitwire/runtime/deno";
import { main } from "./client.js";
import { rawProtocol } from "./frames.js";

await main("deno", (host, port, options) => connectDeno(rawProtocol, { ...options, host, port }));
