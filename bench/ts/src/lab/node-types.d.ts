// The only Node types the lab's dependencies name in their declarations: msgpackr's
// index.d.ts returns `Buffer` (a Uint8Array subclass) and declares its stream classes
// with `stream`'s Transform / Readable, which the lab does not use. Declaring these two
// here keeps the build free of @types/node, whose globals would let Node-only APIs slip
// into code that must run on Bun and Deno too (tsconfig "types": []).

interface Buffer extends Uint8Array {}

declare module "stream" {
  export class Transform {}
  export class Readable {}
}
