// The two functions of node:fs the demo uses. Node, Bun and Deno all provide the module;
// declaring them here spares the demo a dependency on @types/node.
declare module "node:fs" {
  export function readFileSync(path: string): Uint8Array;
  export function writeFileSync(path: string, data: Uint8Array): void;
}
