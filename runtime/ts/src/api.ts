// What ties generated code to this runtime: the API version, and the shape of the
// per-type codec table that generated files export for generic tooling.

import type { DeltaCodec } from "./baseline.js";
import type { ByteWriter } from "./bincode.js";
import type { Limits } from "./limits.js";
import type { BitWriter } from "./writer.js";

/**
 * Version of the runtime API generated code is written against: the newest this runtime
 * provides, and as a type, every version it provides — 3 (frames, connections), 4 (the
 * delta encoding of spec §12 and the snapshot envelopes of docs/framing.md §10 in the
 * `Message` union), 5 (the bincode encoding of spec §13: {@link ByteWriter},
 * `ByteReader`) and 6 (`BitWriter.writeAscii` and `BitWriter.wordMessage`, which
 * generated encoders of bounded strings and of types of at most 64 bits call). Generated files pass their version to {@link requireApiVersion} with
 * `satisfies typeof RUNTIME_API_VERSION`, so a runtime without it fails to type-check,
 * and plain JavaScript fails on load. Only files with a `delta message` need version 4,
 * only files generated with `--encoding bincode` version 5, files whose encoders call
 * the methods of version 6 version 6.
 */
export const RUNTIME_API_VERSION: 3 | 4 | 5 | 6 = 6;

/** Throws unless generated code written for API `version` can use this runtime. */
export function requireApiVersion(version: number): void {
  if (version !== 3 && version !== 4 && version !== 5 && version !== 6) {
    throw new Error(
      `bitwire: generated code needs runtime API ${version}, but @bitwire/runtime provides 3 to ${RUNTIME_API_VERSION}`,
    );
  }
}

/**
 * One named type of a generated file, for code that handles types by schema name
 * (tools, test runners). Generated files export these, keyed by schema name, as
 * `codecs` when generated with `--json`.
 */
export interface TypeCodec<T> {
  /** The type's name in the schema. */
  readonly name: string;
  /** Encodes a value at the top level (spec §2); see the generated `encodeX`. */
  encode(value: T, w?: BitWriter): Uint8Array;
  /** Decodes a whole input (spec §2.2) within the decode budget; see the generated `decodeX`. */
  decode(bytes: Uint8Array, limits?: Limits): T;
  /**
   * Checks a whole input as {@link TypeCodec.decode} would, throwing the same error,
   * without building the value; see the generated `verifyX`.
   */
  verify(bytes: Uint8Array, limits?: Limits): void;
  /** The value in the JSON mapping. */
  toJson(value: T): unknown;
  /** A value from the JSON mapping. */
  fromJson(json: unknown): T;
}

/**
 * The delta functions of one `delta message` of a generated file (spec §12), for code
 * that handles types by schema name. Generated files export these, keyed by schema
 * name, as `deltaCodecs` when generated with `--json`. (The snapshot rings take a
 * {@link DeltaCodec}, which generated files export per message as `xDeltaCodec`.)
 */
export interface DeltaTypeCodec<T> {
  /** The message's name in the schema. */
  readonly name: string;
  /** Encodes `value` as a delta against `baseline`; see the generated `encodeDeltaX`. */
  encodeDelta(baseline: T, value: T, w?: BitWriter): Uint8Array;
  /** Decodes a delta against `baseline` within the decode budget; see `decodeDeltaX`. */
  decodeDelta(baseline: T, bytes: Uint8Array, limits?: Limits): T;
  /** Checks a delta as {@link DeltaTypeCodec.decodeDelta} would; see `verifyDeltaX`. */
  verifyDelta(baseline: T, bytes: Uint8Array, limits?: Limits): void;
}

/**
 * The bincode functions of one named type of a file generated with `--encoding
 * bincode` (spec §13), for code that handles types by schema name. Generated files
 * export these, keyed by schema name, as `bincodeCodecs` when generated with `--json`.
 */
export interface BincodeTypeCodec<T> {
  /** The type's name in the schema. */
  readonly name: string;
  /** Encodes a value (spec §13); see the generated `encodeBincodeX`. */
  encode(value: T, w?: ByteWriter): Uint8Array;
  /** Decodes a whole input within the decode budget; see the generated `decodeBincodeX`. */
  decode(bytes: Uint8Array, limits?: Limits): T;
  /** Checks a whole input as {@link BincodeTypeCodec.decode} would; see `verifyBincodeX`. */
  verify(bytes: Uint8Array, limits?: Limits): void;
  /** The value in the JSON mapping. */
  toJson(value: T): unknown;
  /** A value from the JSON mapping. */
  fromJson(json: unknown): T;
}
