// The interop program of the guide's `deno` project (conformance/projects/run.py): the
// shared check (lobby_interop.ts, copied next to it by interop.sh) with Deno's own file
// system API, as a Deno program would do it (node:fs would need @types/node in the
// project's manually managed node_modules).
//
//   deno run --allow-read --allow-write interop_deno.ts write|read DIR
//
// Prints one line per file; exits non-zero on any mismatch.

import { check, encode, MESSAGES } from "./lobby_interop.ts";

const [phase, dir] = Deno.args;
if (dir === undefined || (phase !== "write" && phase !== "read")) {
  console.error("usage: interop_deno.ts write|read DIR");
  Deno.exit(2);
}

let failed = 0;
if (phase === "write") {
  for (const name of MESSAGES) {
    const file = `deno.${name}.bin`;
    const bytes = encode(name);
    Deno.writeFileSync(`${dir}/${file}`, bytes);
    console.log(`${file}: wrote ${bytes.length} bytes`);
  }
} else {
  const others = [...Deno.readDirSync(dir)]
    .map((e) => e.name)
    .filter((f) => f.endsWith(".bin") && !f.startsWith("deno."))
    .sort();
  for (const file of others) {
    try {
      console.log(check(file, Deno.readFileSync(`${dir}/${file}`)));
    } catch (e) {
      failed++;
      console.log(`FAIL ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  console.log(`deno: ${others.length - failed} files read, ${failed} failed`);
}
Deno.exit(failed === 0 ? 0 : 1);
