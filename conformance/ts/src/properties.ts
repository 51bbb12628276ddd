// The property test over hostile bytes, for every named type of every suite: decoding
// random and mutated byte strings never throws anything but a BitwireError, and
// whatever decodes re-encodes to exactly the same bytes (canonical form, spec §2.4),
// also after a round trip through the JSON mapping; `verifyX` agrees with decoding on
// every input (accepts exactly what decodes, else throws the same kind, bit and path).
//
// Nothing but a BitwireError may come out of decoding or verifying, whatever the bytes;
// and where the runtime can measure its heap (Node with --expose-gc), the values decoded
// from each type's hostile inputs keep at most HEAP_FACTOR times their inputs' decode
// budgets (see heap.ts).
//
// Fixed seed (BITWIRE_SEED, default 42, printed) and bounded count (BITWIRE_PROP_CASES
// inputs per type, default 300). Starting points for mutations: the valid bytes of the
// vector files, all-zero inputs that decode (zeros are the smallest values and empty
// lists), and every input that decodes along the way.

import { BitwireError, type TypeCodec } from "@bitwire/runtime";

import { suites } from "../gen/registry.js";
import { HEAP_FACTOR, budget, heapGrowth } from "./heap.js";
import { Rng, mutate } from "./rng.js";
import { hex, sameBytes, sameError, why } from "./util.js";



/** `undefined` when `input` behaves canonically under `codec`, else why not. */
function probe(codec: TypeCodec<unknown>, input: Uint8Array): { decoded: boolean; problem?: string } {
  let value: unknown;
  let verifyError: unknown;
  let verified = true;
  try {
    codec.verify(input);
  } catch (e) {
    if (!(e instanceof BitwireError)) {
      return { decoded: false, problem: `verify threw ${why(e)}` };
    }
    verified = false;
    verifyError = e;
  }
  try {
    value = codec.decode(input);
  } catch (e) {
    if (!(e instanceof BitwireError)) {
      return { decoded: false, problem: `decode threw ${why(e)}` };
    }
    if (verified) {
      return { decoded: false, problem: `verify accepted ${hex(input)}, decode threw ${why(e)}` };
    }
    const differs = sameError(verifyError, e);
    return differs === undefined ? { decoded: false } : { decoded: false, problem: `${hex(input)}: ${differs}` };
  }
  if (!verified) {
    return { decoded: true, problem: `verify rejected ${hex(input)}, which decodes: ${why(verifyError)}` };
  }
  try {
    const again = codec.encode(value);
    if (!sameBytes(again, input)) {
      return { decoded: true, problem: `accepted ${hex(input)} re-encodes to ${hex(again)}` };
    }
    const viaJson = codec.encode(codec.fromJson(codec.toJson(value)));
    if (!sameBytes(viaJson, input)) {
      return { decoded: true, problem: `${hex(input)} via JSON re-encodes to ${hex(viaJson)}` };
    }
  } catch (e) {
    return { decoded: true, problem: `re-encoding ${hex(input)} threw ${why(e)}` };
  }
  return { decoded: true };
}

/**
 * Runs the property over every type of `registry` (the vector suites' codecs unless
 * told otherwise); `seeds` are valid encodings by `suite.type`. `heap`: also bound the
 * heap of the decoded values where it can be measured.
 */
export function runProperties(
  seed: number,
  perType: number,
  seeds: Map<string, Uint8Array[]>,
  registry: Readonly<Record<string, Readonly<Record<string, TypeCodec<unknown>>>>> = suites,
  heap = true,
): { inputs: number; decoded: number; problems: string[] } {
  const rng = new Rng(seed);
  const out = { inputs: 0, decoded: 0, problems: [] as string[] };
  for (const [suite, codecs] of Object.entries(registry)) {
    for (const [type, codec] of Object.entries(codecs)) {
      const pool = [...(seeds.get(`${suite}.${type}`) ?? [])];
      const decodable: Uint8Array[] = [];
      for (let len = 0; len <= 12; len++) {
        const zeros = new Uint8Array(len);
        if (probe(codec, zeros).decoded) {
          pool.push(zeros);
        }
      }
      for (let n = 0; n < perType; n++) {
        let input: Uint8Array;
        const pick = rng.below(10);
        if (pool.length > 0 && pick < 7) {
          input = mutate(rng, pool[rng.below(pool.length)] as Uint8Array);
        } else if (pick < 9) {
          input = rng.bytes(rng.below(24));
        } else {
          input = new Uint8Array(rng.below(16) + 1).fill(0xff);
        }
        const r = probe(codec, input);
        out.inputs++;
        if (r.decoded) {
          out.decoded++;
          decodable.push(input);
          if (pool.length < 64) {
            pool.push(input);
          }
        }
        if (r.problem !== undefined && out.problems.length < 50) {
          out.problems.push(`seed ${seed}, ${suite}.${type}: ${r.problem}`);
        }
      }
      const grown = heap ? heapBound(codec, decodable) : undefined;
      if (grown !== undefined && out.problems.length < 50) {
        out.problems.push(`seed ${seed}, ${suite}.${type}: ${grown}`);
      }
    }
  }
  return out;
}

/**
 * `undefined` when the values decoded from `inputs`, kept together, take at most
 * HEAP_FACTOR times the sum of the inputs' decode budgets (or when the heap cannot be
 * measured here), else what they took.
 */
function heapBound(codec: TypeCodec<unknown>, inputs: Uint8Array[]): string | undefined {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined || inputs.length === 0) {
    return undefined;
  }
  const allowed = HEAP_FACTOR * inputs.reduce((sum, b) => sum + budget(b.length), 0);
  const used = heapGrowth(gc, () => inputs.map((b) => codec.decode(b)));
  return used <= allowed ? undefined : `${inputs.length} decoded values take ${used} bytes, over ${allowed}`;
}
