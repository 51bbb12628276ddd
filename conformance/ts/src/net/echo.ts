// Echo over every transport this runtime has: a server of the adapter under test sends
// back each message it receives; a client sends a mix of messages (with and without
// compression, a 60 KB one across many chunks) and must get each back, in order, typed.

import type { Connection, ConnectionOptions } from "@bitwire/runtime";
import type { Message } from "../../gen/frames.js";
import { check, test, within } from "./harness.js";
import { message, rng, show } from "./messages.js";

/** A transport under test: a server and a client of one adapter (or of two). */
export interface Stack {
  name: string;
  listen(opts: ConnectionOptions, handler: (c: Connection<Message>) => Promise<void>): Promise<{ port: number; close(): Promise<void> }>;
  connect(port: number, opts: ConnectionOptions): Promise<Connection<Message>>;
}

/** The echo handler: every message back, then close when the peer does. */
export async function echo(conn: Connection<Message>): Promise<void> {
  for await (const m of conn) {
    conn.send(m);
  }
  await conn.close();
}

/** Registers the echo tests of `stack`. */
export function echoTests(stack: Stack): void {
  for (const threshold of [null, 64]) {
    test(`${stack.name}: echo, threshold ${threshold}`, async () => {
      const opts: ConnectionOptions = { threshold };
      const server = await stack.listen(opts, echo);
      try {
        const client = await stack.connect(server.port, opts);
        const next = rng(5);
        const sent: string[] = [];
        for (let i = 0; i < 60; i++) {
          const m = message(next, i, i === 42 ? 60000 : 500);
          sent.push(show(m));
          client.send(m);
        }
        for (let i = 0; i < sent.length; i++) {
          const got = await within(client.recv(), 10_000, `message ${i}`);
          check(got !== undefined && show(got) === sent[i], `message ${i}: ${got === undefined ? "end" : show(got).slice(0, 80)}, expected ${sent[i]?.slice(0, 80)}`);
        }
        await client.close();
        check((await client.closed) === undefined, "the client closed cleanly");
        check((await client.recv()) === undefined, "recv after close is the end");
      } finally {
        await server.close();
      }
    });
  }
}
