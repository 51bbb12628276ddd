//! The reference codec: encodes and decodes the packed wire format (`docs/spec.md`) by
//! interpreting the IR directly, and maps values to and from JSON
//! (`docs/json-mapping.md`). [`bincode`] does the same for the bincode encoding
//! (spec §13), on the same [`Value`]s and errors.
//!
//! It is the oracle every generated codec is tested against, so it is written for
//! obviousness, not speed: bits go one at a time through the literal rules of spec §1
//! ([`bits`]), every integer is checked in `i128`, and each spec rule lives in one
//! place ([`rules`]) with its section number. It shares nothing with the runtime but
//! the closed list of error kinds ([`bitwire::ErrorKind`]).
//!
//! ```text
//! JSON ──value_from_json──▶ Value ──encode──▶ bytes
//! JSON ◀──value_to_json─── Value ◀──decode─── bytes
//! ```
//!
//! Every entry point takes the schema and a [`TypeId`] of a named type (the top-level
//! value, spec §2.1). The IR is trusted as the compiler produces it: a `TypeId` outside
//! the schema, or a tag value wider than its declared tag width, panics. `min_bits` of
//! named types (the list check of §5.6) is read from the IR's `packed.min_bits`.
//!
//! The codec recurses once per level of a value; the compiler rejects types more
//! than 64 levels deep (`E0402`, spec §11), so the recursion is bounded for every
//! schema it accepts.

pub mod bincode;
mod bits;
mod decode;
pub mod delta;
mod delta_decode;
mod encode;
mod error;
mod json;
mod json_text;
pub mod memory;
pub mod random;
pub mod random_delta;
mod rules;
pub mod trace;
mod value;

pub use decode::{decode, decode_with, decode_with_budget};
pub use delta::{decode_delta, decode_delta_with_budget, encode_delta, explain_delta, DeltaStep};
pub use encode::encode;
pub use error::{CodecError, ErrorKind, JsonErrorKind};
pub use json::{is_wide_int, value_from_json, value_to_json};
pub use json_text::{json_from_bytes, json_from_text, MAX_DEPTH};
pub use rules::min_bits;
pub use value::Value;

use crate::ir::{Schema, TypeId};

/// Maps JSON onto the named type `ty` and encodes it (top-level, padded to a byte).
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

/// Decodes a top-level value of the named type `ty` and maps it to JSON.
pub fn decode_to_json(
    schema: &Schema,
    ty: TypeId,
    bytes: &[u8],
) -> Result<serde_json::Value, CodecError> {
    let value = decode(schema, ty, bytes)?;
    Ok(value_to_json(schema, ty, &value))
}

/// Lowercase hex of `bytes`, two digits per byte, no separators (the form `bytes`
/// values take in JSON and `bitwire encode --hex` prints).
pub fn to_hex(bytes: &[u8]) -> String {
    json::hex_encode(bytes)
}
