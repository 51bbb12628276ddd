// Package bitwire is the runtime of the Go code that the bitwire compiler generates.
//
// Generated code calls a small surface: [BitWriter] and [BitReader] (with [Chunk]
// for fixed-offset runs of fields), the varint, zigzag and float helpers, [Optional],
// the errors, and — for code generated with --json — the JSON helpers. The wire
// format is specified in docs/spec.md of the bitwire repository; section numbers (§)
// in this package refer to it.
//
// # Errors
//
// Every error a codec returns is an [*Error] with a [Kind] (the closed list of spec
// §7.1), the bit offset where the offending value starts, and the field path
// (spec §7.3, e.g. "entities[3].pos.x"). Match kinds with [errors.Is] against the
// sentinels ([ErrTruncated], [ErrOutOfRange], …); every error of this package also
// matches [ErrBitwire]. JSON mapping errors are [*JSONError] and match [ErrJSON].
//
// # Allocations
//
// Encoding appends to a caller's slice: reusing it (dst[:0]) makes encoding free of
// allocations once the slice has grown. Decoding allocates only for strings, bytes
// and lists, and reuses a destination's slice capacity when it can. Every length is
// charged against a decode budget proportional to the input's size before anything
// is allocated ([Limits], spec §11), so no input can make a decoder allocate more
// than a bound of its length. Errors are allocated only when they happen; their path
// is built while the error unwinds, so a successful call pays nothing for it.
package bitwire

// RuntimeAPIVersion7 exists in every runtime that provides version 7 of the API
// generated code calls (version 7: a bounded string written and read in one call,
// [BitWriter.WriteLenString] and [BitReader.ReadStringMax]), and of every earlier
// version, which this runtime still provides. Only code generated for a schema with
// a string<max N> refers to it; the code of other schemas still refers to
// [RuntimeAPIVersion4], [RuntimeAPIVersion5] or [RuntimeAPIVersion6].
const RuntimeAPIVersion7 = 7

// RuntimeAPIVersion5 exists in every runtime that provides version 5 of the API
// generated code calls (version 5: the delta encoding of spec §12, [Keyed],
// [InvalidKey], and the snapshot envelopes of package baseline, which the message
// sets hold for a delta message). Only code generated for a schema with a delta
// message refers to it; code of other schemas still refers to [RuntimeAPIVersion4].
const RuntimeAPIVersion5 = 5

// RuntimeAPIVersion4 exists in every runtime that provides version 4 of the API
// generated code calls (version 4: frames, [MessageSet]). Generated files refer to
// it (const _ = bitwire.RuntimeAPIVersion4), so code generated for a newer API fails
// to compile against an older runtime instead of misbehaving.
const RuntimeAPIVersion4 = 4

// RuntimeAPIVersion3 is an earlier API version (a detail on every error,
// [PaddingError]), which this runtime still provides: code generated for it
// compiles and works unchanged.
const RuntimeAPIVersion3 = 3

// RuntimeAPIVersion2 is an earlier API version (decode budgets, error details,
// multi-segment run tables), which this runtime still provides: code generated for
// it compiles and works unchanged.
const RuntimeAPIVersion2 = 2
