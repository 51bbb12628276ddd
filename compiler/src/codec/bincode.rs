//! The bincode encoding (docs/spec.md §13) in the reference codec: the bytes
//! `bincode::serialize` 1.3 and wincode 0.6 write for the Rust types generated Rust
//! declares, encoded and decoded by interpreting the IR directly.
//!
//! Like the packed side it is the oracle for the generated codecs, so it is written
//! from the spec, not from the codec plan (`plan/bincode.rs`, ADR 0010): every width
//! comes from the schema type (`bincode_rules.rs`), the decode budget from the reference memory
//! model (`codec/memory.rs`), and errors are the packed codec's [`CodecError`]s with
//! bit offsets 8 × the byte offset (§13.1) and the same field paths (§7.3).
//!
//! ```text
//! JSON ──value_from_json──▶ Value ──bincode::encode──▶ bytes
//! JSON ◀──value_to_json─── Value ◀──bincode::decode─── bytes
//! ```
//!
//! Every value decodes to a [`Value`] that encodes to the same bytes again: bincode
//! has one form per value once the schema's checks pass, and an `f32` NaN keeps its
//! payload in the `f64` that holds it (`bincode_rules.rs`).
//!
//! The IR is trusted as the compiler produces it (as for packed): types are not
//! recursive and at most 64 levels deep (`E0402`), so the recursion is bounded, and
//! arrays are bounded by the footprint limit (`E0403`). Input never panics the codec;
//! every length is checked against the input left and the decode budget (§11.5)
//! before anything is allocated for it.

#[path = "bincode_decode.rs"]
mod decode;
#[path = "bincode_encode.rs"]
mod encode;
#[path = "bincode_rules.rs"]
mod rules;
#[cfg(test)]
#[path = "bincode_tests.rs"]
mod tests;

pub use decode::{decode, decode_with, decode_with_budget};
pub use encode::encode;

use super::trace::Trace;
use super::{value_from_json, value_to_json, CodecError, Value};
use crate::ir::{Schema, TypeId};

/// Maps JSON onto the named type `ty` and encodes it in bincode.
///
/// JSON problems are [`CodecError::Json`]; range problems of well-typed JSON are the
/// encoder's [`CodecError::Wire`] errors.
pub fn encode_json(
    schema: &Schema,
    ty: TypeId,
    json: &serde_json::Value,
) -> Result<Vec<u8>, CodecError> {
    let value = value_from_json(schema, ty, json)?;
    encode(schema, ty, &value)
}

/// Decodes a bincode top-level value of the named type `ty` and maps it to JSON.
pub fn decode_to_json(
    schema: &Schema,
    ty: TypeId,
    bytes: &[u8],
) -> Result<serde_json::Value, CodecError> {
    let value = decode(schema, ty, bytes)?;
    Ok(value_to_json(schema, ty, &value))
}

/// Decodes like [`decode`] and also returns the trace of everything read up to the
/// end or the error (offsets in bits: 8 × the byte offsets), for `bitwire explain`.
pub fn trace(schema: &Schema, ty: TypeId, bytes: &[u8]) -> (Trace, Result<Value, CodecError>) {
    let mut t = Trace::default();
    let result = decode_with(schema, ty, bytes, &mut t);
    (t, result)
}
