// What the program needs from the runtime: its name and version, the arguments and a way
// to fail. Node, Bun and Deno expose these differently; files go through `node:fs`, which
// all three implement.

interface Host {
  Deno?: { args: string[]; version: { deno: string }; exit(code: number): never };
  Bun?: { version: string };
  process?: { argv: string[]; version: string; exit(code: number): never };
}
const host = globalThis as Host;

/** Command-line arguments after the script. */
export const args: readonly string[] = host.Deno?.args ?? host.process?.argv.slice(2) ?? [];

/** What runs this file, with its version: `node v20.20.2`, `bun 1.4.5`, `deno 2.9.6`. */
export const runtime: string =
  host.Bun !== undefined
    ? `bun ${host.Bun.version}`
    : host.Deno !== undefined
      ? `deno ${host.Deno.version.deno}`
      : `node ${host.process?.version ?? "?"}`;

/** The value after `--name`, or undefined. */
export function flag(name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

/** Ends the process with `code`. */
export function exit(code: number): never {
  if (host.Deno !== undefined) {
    return host.Deno.exit(code);
  }
  if (host.process !== undefined) {
    return host.process.exit(code);
  }
  throw new Error(`exit ${code}`);
}
