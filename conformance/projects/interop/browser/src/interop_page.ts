// The interop page of the guide's `browser` project (conformance/projects/run.py): the
// shared check (lobby_interop.ts) in a real browser, bundled by esbuild like the project's
// own page. The test server (browser-driver/drive.mjs) serves the exchange directory at
// /exchange/: GET lists or reads the files, PUT writes one. The page reports through
// `window.bitwireInterop`, which the driver waits for.

import { check, encode, MESSAGES } from "./lobby_interop.js";

/** What the page reports: one line per file, and whether every check passed. */
interface Report {
  done: true;
  ok: boolean;
  lines: string[];
}

declare global {
  interface Window {
    bitwireInterop?: Report;
  }
}

async function write(project: string, lines: string[]): Promise<void> {
  for (const name of MESSAGES) {
    const file = `${project}.${name}.bin`;
    const bytes = encode(name);
    const res = await fetch(`/exchange/${file}`, { method: "PUT", body: new Blob([bytes.slice()]) });
    if (!res.ok) {
      throw new Error(`PUT ${file}: ${res.status}`);
    }
    lines.push(`${file}: wrote ${bytes.length} bytes`);
  }
}

async function read(project: string, lines: string[]): Promise<boolean> {
  const files = ((await (await fetch("/exchange/")).json()) as string[])
    .filter((f) => f.endsWith(".bin") && !f.startsWith(`${project}.`))
    .sort();
  let failed = 0;
  for (const file of files) {
    const bytes = new Uint8Array(await (await fetch(`/exchange/${file}`)).arrayBuffer());
    try {
      lines.push(check(file, bytes));
    } catch (e) {
      failed++;
      lines.push(`FAIL ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  lines.push(`${project}: ${files.length - failed} files read, ${failed} failed`);
  return failed === 0;
}

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const project = params.get("project") ?? "browser";
  const lines: string[] = [];
  let ok = false;
  try {
    if (params.get("phase") === "write") {
      await write(project, lines);
      ok = true;
    } else {
      ok = await read(project, lines);
    }
  } catch (e) {
    lines.push(`FAIL ${e instanceof Error ? e.message : String(e)}`);
  }
  window.bitwireInterop = { done: true, ok, lines };
}

void main();
