//! Tests of the reference codec (`bitwire_compiler::codec`) on hand-built IR: the spec's
//! examples, every type's round trip and exact bits, varint boundaries, every error kind
//! with its bit offset and path, the JSON mapping, and random/mutated inputs.

mod codec {
    mod bits;
    mod errors;
    mod frontend;
    mod json;
    mod random;
    mod support;
}
