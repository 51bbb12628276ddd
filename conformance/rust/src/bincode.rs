//! The bincode encoding (docs/spec.md §13) of a generated type, type-erased for the
//! bincode tests: values in and out through the JSON mapping, bytes through the
//! generated `bitwire::Bincode` impl.

use bitwire::{Bincode, Error, Limits};
use serde_json::Value;

use crate::{Failure, Vector};

/// See [`BincodeCodec::decode_into`]: `(seed, bytes, limits)`.
pub type DecodeInto = fn(&[u8], &[u8], &Limits) -> Result<Value, Failure>;

/// A generated type's bincode codec.
#[derive(Clone, Copy)]
pub struct BincodeCodec {
    /// The suite (schema file stem).
    pub suite: &'static str,
    /// Absolute path of the suite's schema.
    pub schema: &'static str,
    /// The type's schema name.
    pub type_name: &'static str,
    /// `from_json`, then `encode_bincode` appending to a buffer that already holds
    /// bytes: the result is what was appended, and the runner panics if the buffer's
    /// earlier bytes changed or a failed encode left anything behind.
    pub encode: fn(&Value) -> Result<Vec<u8>, Failure>,
    /// `decode_bincode_with`, then `to_json`.
    pub decode: fn(&[u8], &Limits) -> Result<Value, Failure>,
    /// `decode_bincode_with` alone, the value dropped (what allocation tests measure).
    pub decode_only: fn(&[u8], &Limits) -> Result<(), Error>,
    /// The generated `verify_bincode_with`: checks without building.
    pub verify: fn(&[u8], &Limits) -> Result<(), Error>,
    /// Decodes `seed` (which must decode), then `decode_bincode_into` that value from
    /// `bytes`, then `to_json`: decoding into a used value.
    pub decode_into: DecodeInto,
    /// `from_json`, then `to_json`.
    pub normalize: fn(&Value) -> Result<Value, Failure>,
    /// `decode_bincode`, then `encode_bincode_to_vec` of the value, without JSON in
    /// between (so NaN payloads are kept).
    pub reencode: fn(&[u8]) -> Result<Vec<u8>, Error>,
    /// `Bincode::MIN_BYTES`.
    pub min_bytes: u64,
    /// `Bincode::MAX_BYTES`.
    pub max_bytes: Option<u64>,
}

impl BincodeCodec {
    /// The bincode codec of generated type `T`.
    pub fn of<T: Vector + Bincode>(
        suite: &'static str,
        schema: &'static str,
        type_name: &'static str,
    ) -> BincodeCodec {
        BincodeCodec {
            suite,
            schema,
            type_name,
            encode: encode::<T>,
            decode: decode::<T>,
            decode_only: |bytes, limits| T::decode_bincode_with(bytes, limits).map(drop),
            verify: T::verify_bincode_with,
            decode_into: decode_into::<T>,
            normalize: |v| T::json_in(v).map(|x| x.json_out()).map_err(Failure::Json),
            reencode: |bytes| T::decode_bincode(bytes)?.encode_bincode_to_vec(),
            min_bytes: T::MIN_BYTES,
            max_bytes: T::MAX_BYTES,
        }
    }
}

/// What `encode` finds in the buffer before the value.
const PREFIX: [u8; 3] = [0xA5, 0x5A, 0xA5];

fn encode<T: Vector + Bincode>(v: &Value) -> Result<Vec<u8>, Failure> {
    let value = T::json_in(v).map_err(Failure::Json)?;
    let mut out = PREFIX.to_vec();
    let result = value.encode_bincode(&mut out);
    assert_eq!(
        &out[..3],
        PREFIX,
        "encode_bincode changed the bytes before it"
    );
    match result {
        Ok(n) => {
            assert_eq!(n, out.len() - 3, "encode_bincode's count");
            Ok(out.split_off(3))
        }
        Err(e) => {
            assert_eq!(out.len(), 3, "a failed encode_bincode left bytes behind");
            Err(Failure::Wire(e))
        }
    }
}

fn decode<T: Vector + Bincode>(bytes: &[u8], limits: &Limits) -> Result<Value, Failure> {
    let value = T::decode_bincode_with(bytes, limits).map_err(Failure::Wire)?;
    Ok(value.json_out())
}

fn decode_into<T: Vector + Bincode>(
    seed: &[u8],
    bytes: &[u8],
    limits: &Limits,
) -> Result<Value, Failure> {
    let mut value = T::decode_bincode(seed).expect("the seed decodes");
    value
        .decode_bincode_into(bytes, limits)
        .map_err(Failure::Wire)?;
    Ok(value.json_out())
}

/// The bincode codec of `type_name` in the bincode vector suite `suite`.
pub fn find_bincode(suite: &str, type_name: &str) -> Option<BincodeCodec> {
    crate::bincode_vectors::bincode_registry()
        .into_iter()
        .find(|c| c.suite == suite && c.type_name == type_name)
}
