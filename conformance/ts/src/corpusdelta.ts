// The delta lines of the differential corpus (conformance/go/README.md, spec §12):
// lines with a `baseline`, checked with the generated `encodeDeltaX`, `decodeDeltaX`
// and `verifyDeltaX` of the delta message (through its `deltaCodecs` entry):
//
// - `{"suite", "type", "baseline", "value", "delta"}`: the value encodes against the
//   baseline to exactly the delta, `verifyDelta` accepts it, and it decodes against the
//   baseline to the value (compared through the JSON mapping);
// - `{"suite", "type", "baseline", "input", "outcome": {"value"} | {"error"}}`: decoding
//   the input against the baseline gives the same value, or the same error kind, bit
//   and path, and `verifyDelta` agrees;
// - `{"suite", "type", "baseline", "value", "outcome": {"error": {kind, path}}}`:
//   encoding the value against the baseline fails with that kind and path.

import type { DeltaTypeCodec, TypeCodec } from "@bitwire/runtime";

import { deltaSuites } from "../gen/delta/registry.js";
import { type Expected, checkError, hex, jsonEqual, observe, sameBytes, sameError, show, unhex, why } from "./util.js";

/** A delta line of the corpus. */
export interface DeltaLine {
  suite?: string;
  type: string;
  baseline?: unknown;
  value?: unknown;
  delta?: string;
  input?: string;
  outcome?: { value?: unknown; error?: Expected };
}

/** A line the generated code disagrees with: which check, what it got, and why. */
export interface DeltaProblem {
  check: "encode" | "roundtrip" | "decode" | "verify" | "baseline" | "missing";
  got: unknown;
  detail: string;
}

/** The outcome-record form of a thrown value. */
function thrown(e: unknown): unknown {
  const o = observe(e);
  return o === undefined ? { panic: why(e) } : { error: o.bit === undefined ? { kind: o.kind, path: o.path } : o };
}

/** The delta functions of `suite.type`, if the suite has that delta message. */
function findDelta(suite: string, type: string): DeltaTypeCodec<unknown> | undefined {
  const s = deltaSuites[suite];
  return s !== undefined && Object.hasOwn(s.deltas, type) ? s.deltas[type] : undefined;
}

/** Checks a delta line with `codec`, the message's full codec. */
export function checkDeltaLine(codec: TypeCodec<unknown>, line: DeltaLine): DeltaProblem | undefined {
  const delta = findDelta(line.suite ?? "", line.type);
  if (delta === undefined) {
    return { check: "missing", got: null, detail: "no generated delta message" };
  }
  let baseline: unknown;
  try {
    baseline = codec.fromJson(line.baseline);
  } catch (e) {
    return { check: "baseline", got: thrown(e), detail: `the baseline does not map: ${why(e)}` };
  }
  if (line.value !== undefined && line.delta !== undefined) {
    return checkPair(codec, delta, baseline, line.value, line.delta);
  }
  if (line.input !== undefined && line.outcome !== undefined) {
    return checkInput(codec, delta, baseline, line.input, line.outcome);
  }
  if (line.value !== undefined && line.outcome?.error !== undefined) {
    return checkEncodeError(codec, delta, baseline, line.value, line.outcome.error);
  }
  return { check: "decode", got: null, detail: "malformed delta line" };
}

/** A pair: the exact delta, `verifyDelta` accepts it, it decodes back to the value. */
function checkPair(codec: TypeCodec<unknown>, delta: DeltaTypeCodec<unknown>, baseline: unknown, value: unknown, hexDelta: string): DeltaProblem | undefined {
  const want = unhex(hexDelta);
  let got: Uint8Array;
  try {
    got = delta.encodeDelta(baseline, codec.fromJson(value));
  } catch (e) {
    return { check: "encode", got: thrown(e), detail: `encodeDelta threw ${why(e)}` };
  }
  if (!sameBytes(got, want)) {
    return { check: "encode", got: { bytes: hex(got) }, detail: `encoded ${hex(got)}, reference ${hexDelta}` };
  }
  try {
    delta.verifyDelta(baseline, want);
  } catch (e) {
    return { check: "verify", got: thrown(e), detail: `verifyDelta threw ${why(e)} on the reference delta` };
  }
  let back: unknown;
  try {
    back = codec.toJson(delta.decodeDelta(baseline, want));
  } catch (e) {
    return { check: "roundtrip", got: thrown(e), detail: `decoding the reference delta threw ${why(e)}` };
  }
  return jsonEqual(back, value) ? undefined : { check: "roundtrip", got: { value: back }, detail: `decoded ${show(back)}, reference ${show(value)}` };
}

/** A hostile delta: the reference's value or error (kind, bit, path); verify agrees. */
function checkInput(
  codec: TypeCodec<unknown>,
  delta: DeltaTypeCodec<unknown>,
  baseline: unknown,
  hexInput: string,
  want: { value?: unknown; error?: Expected },
): DeltaProblem | undefined {
  const input = unhex(hexInput);
  let got: unknown;
  try {
    got = codec.toJson(delta.decodeDelta(baseline, input));
  } catch (e) {
    if (want.error === undefined) {
      return { check: "decode", got: thrown(e), detail: `decoding ${hexInput} threw ${why(e)}, reference ${show(want.value)}` };
    }
    const p = checkError(e, want.error);
    if (p !== undefined) {
      return { check: "decode", got: thrown(e), detail: `${hexInput}: ${p}` };
    }
    try {
      delta.verifyDelta(baseline, input);
    } catch (v) {
      const q = sameError(v, e);
      return q === undefined ? undefined : { check: "verify", got: thrown(v), detail: q };
    }
    return { check: "verify", got: { accepted: true }, detail: `verifyDelta accepted ${hexInput}, expected ${show(want.error)}` };
  }
  if (want.error !== undefined) {
    return { check: "decode", got: { value: got }, detail: `decoded ${hexInput} to ${show(got)}, reference ${show(want.error)}` };
  }
  if (!jsonEqual(got, want.value)) {
    return { check: "decode", got: { value: got }, detail: `decoded ${hexInput} to ${show(got)}, reference ${show(want.value)}` };
  }
  try {
    delta.verifyDelta(baseline, input);
  } catch (e) {
    return { check: "verify", got: thrown(e), detail: `verifyDelta threw ${why(e)} on ${hexInput}, which decodes` };
  }
  return undefined;
}

/** A pair the encoder rejects: the reference's kind and path. */
function checkEncodeError(codec: TypeCodec<unknown>, delta: DeltaTypeCodec<unknown>, baseline: unknown, value: unknown, want: Expected): DeltaProblem | undefined {
  try {
    const got = delta.encodeDelta(baseline, codec.fromJson(value));
    return { check: "encode", got: { bytes: hex(got) }, detail: `encoded ${hex(got)}, reference fails with ${show(want)}` };
  } catch (e) {
    const p = checkError(e, want);
    return p === undefined ? undefined : { check: "encode", got: thrown(e), detail: p };
  }
}
