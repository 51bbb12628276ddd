// The few `node:fs` functions the lab uses. Node, Bun and Deno all provide the module;
// declaring these here keeps the build free of @types/node (tsconfig "types": []).

declare module "node:fs" {
  /** The whole file (a Buffer on Node, a Uint8Array everywhere). */
  export function readFileSync(path: string): Uint8Array;
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function writeFileSync(path: string, data: string): void;
}
