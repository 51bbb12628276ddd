// The few `node:fs` functions the program uses. Node, Bun and Deno all provide the module;
// declaring them here keeps the build free of @types/node, whose globals would let
// Node-only APIs into code that runs on Bun and Deno too (tsconfig "types": []).

declare module "node:fs" {
  /** The whole file (a Buffer on Node, a Uint8Array everywhere). */
  export function readFileSync(path: string): Uint8Array;
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function writeFileSync(path: string, data: string): void;
  export function mkdirSync(path: string, options: { recursive: true }): void;
}
