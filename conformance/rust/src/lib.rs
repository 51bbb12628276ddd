//! The Rust side of the shared test vectors (`testdata/vectors/`).
//!
//! `build.rs` generates the code of every suite's schema into `OUT_DIR`; this crate
//! compiles it (which is the compile test of the generated code, clippy included) and
//! exposes one [`TypeCodec`] per named type, found by suite and type name, for the
//! runner in `tests/vectors.rs`, and one [`BincodeCodec`] per named type for the
//! bincode encoding (`tests/bincode_*.rs`).

pub mod adversarial;
mod bincode;
pub mod bincode_corpus;
pub mod check;
pub mod corpus;
pub mod delta_corpus;
pub mod mutate;
pub mod outcome;
pub mod values;

use bitwire::json::JsonError;
use serde_json::Value;

/// The generated suites, one module per `testdata/vectors/*.bw`, and [`registry`].
#[allow(missing_docs)]
pub mod suites {
    include!(concat!(env!("OUT_DIR"), "/suites.rs"));
    include!(concat!(env!("OUT_DIR"), "/extra.rs"));
    include!(concat!(env!("OUT_DIR"), "/deltas.rs"));
}

/// The bincode vector suites, one module per `testdata/vectors/bincode/*.bw`, with
/// `registry()` and `bincode_registry()`.
#[allow(missing_docs)]
pub mod bincode_vectors {
    include!(concat!(env!("OUT_DIR"), "/bincode_suites.rs"));
}

pub use bincode::{find_bincode, BincodeCodec};
pub use suites::{bincode_registry, delta_registry, registry};

/// What a generated type offers the runner besides its packed encoding: its JSON
/// mapping (the inherent `from_json` / `to_json` of generated code).
pub trait Vector: bitwire::Packed {
    /// `T::from_json`.
    fn json_in(v: &Value) -> Result<Self, JsonError>;
    /// `T::to_json`.
    fn json_out(&self) -> Value;
}

/// Why an operation of a generated codec failed.
#[derive(Debug, Clone)]
pub enum Failure {
    /// The JSON could not be mapped onto the Rust type.
    Json(JsonError),
    /// The packed encoder or decoder rejected the value or input.
    Wire(bitwire::Error),
}

/// A generated type, type-erased: JSON in, bytes out and back.
#[derive(Clone, Copy)]
pub struct TypeCodec {
    /// The suite (schema file stem).
    pub suite: &'static str,
    /// Absolute path of the suite's schema, for the reference codec.
    pub schema: &'static str,
    /// The type's schema name.
    pub type_name: &'static str,
    /// `from_json`, then `encode_to_vec`.
    pub encode: fn(&Value) -> Result<Vec<u8>, Failure>,
    /// `decode`, then `to_json`.
    pub decode: fn(&[u8]) -> Result<Value, Failure>,
    /// `from_json`, then `to_json`: the value as the type's JSON mapping prints it.
    pub normalize: fn(&Value) -> Result<Value, Failure>,
    /// `decode` alone, the value dropped: what the allocation test measures.
    pub decode_only: fn(&[u8]) -> Result<(), bitwire::Error>,
    /// The generated `verify`: checks the bytes without building the value.
    pub verify: fn(&[u8]) -> Result<(), bitwire::Error>,
    /// For a type that derives `Default`: encodes `T::default()`, decodes it and
    /// encodes that again, returning the bytes if they are the same both times.
    pub default: Option<DefaultRoundTrip>,
}

/// See [`TypeCodec::default`].
pub type DefaultRoundTrip = fn() -> Result<Vec<u8>, String>;

impl TypeCodec {
    /// The codec of generated type `T`.
    pub fn of<T: Vector>(
        suite: &'static str,
        schema: &'static str,
        type_name: &'static str,
    ) -> TypeCodec {
        TypeCodec {
            suite,
            schema,
            type_name,
            encode: encode::<T>,
            decode: decode::<T>,
            normalize: normalize::<T>,
            decode_only: decode_only::<T>,
            verify: bitwire::verify_packed::<T>,
            default: None,
        }
    }

    /// The codec with [`TypeCodec::default`] set, for a type that derives `Default`.
    pub fn with_default<T: Vector + Default>(mut self) -> TypeCodec {
        self.default = Some(default_round_trip::<T>);
        self
    }
}

fn default_round_trip<T: Vector + Default>() -> Result<Vec<u8>, String> {
    let bytes = T::default().encode_to_vec().map_err(|e| e.to_string())?;
    let again = T::decode(&bytes)
        .and_then(|v| v.encode_to_vec())
        .map_err(|e| e.to_string())?;
    if again != bytes {
        return Err(format!("{bytes:02x?} decodes and encodes to {again:02x?}"));
    }
    Ok(bytes)
}

fn encode<T: Vector>(v: &Value) -> Result<Vec<u8>, Failure> {
    let value = T::json_in(v).map_err(Failure::Json)?;
    let mut out = Vec::new();
    bitwire::encode_packed(&value, &mut out).map_err(Failure::Wire)?;
    Ok(out)
}

fn decode<T: Vector>(bytes: &[u8]) -> Result<Value, Failure> {
    let value: T = bitwire::decode_packed(bytes).map_err(Failure::Wire)?;
    Ok(value.json_out())
}

fn decode_only<T: Vector>(bytes: &[u8]) -> Result<(), bitwire::Error> {
    bitwire::decode_packed::<T>(bytes).map(drop)
}

fn normalize<T: Vector>(v: &Value) -> Result<Value, Failure> {
    T::json_in(v).map(|x| x.json_out()).map_err(Failure::Json)
}

/// A generated `delta message`, type-erased for the delta vector runner: values in
/// and out through the JSON mapping, deltas through the generated `bitwire::Delta`.
#[derive(Clone, Copy)]
pub struct DeltaCodec {
    /// Absolute path of the suite's schema, for the reference codec.
    pub schema: &'static str,
    /// The message's schema name.
    pub type_name: &'static str,
    /// `from_json` of the baseline and the value, then `encode_delta`.
    pub encode: fn(&Value, &Value) -> Result<Vec<u8>, Failure>,
    /// `from_json` of the baseline, `decode_delta` with `limits`, then `to_json`.
    pub decode: fn(&Value, &[u8], &bitwire::Limits) -> Result<Value, Failure>,
    /// `from_json` of the baseline, then `verify_delta`.
    pub verify: fn(&Value, &[u8]) -> Result<(), Failure>,
    /// `from_json`, then the full `encode_to_vec`: what the delta must decode to.
    pub encode_full: fn(&Value) -> Result<Vec<u8>, Failure>,
}

impl DeltaCodec {
    /// The codec of the generated `delta message` `T`.
    pub fn of<T: Vector + bitwire::Delta>(schema: &'static str, type_name: &'static str) -> Self {
        DeltaCodec {
            schema,
            type_name,
            encode: delta_encode::<T>,
            decode: delta_decode::<T>,
            verify: delta_verify::<T>,
            encode_full: encode::<T>,
        }
    }
}

fn delta_encode<T: Vector + bitwire::Delta>(b: &Value, v: &Value) -> Result<Vec<u8>, Failure> {
    let baseline = T::json_in(b).map_err(Failure::Json)?;
    let value = T::json_in(v).map_err(Failure::Json)?;
    value.encode_delta_to_vec(&baseline).map_err(Failure::Wire)
}

fn delta_decode<T: Vector + bitwire::Delta>(
    b: &Value,
    bytes: &[u8],
    limits: &bitwire::Limits,
) -> Result<Value, Failure> {
    let baseline = T::json_in(b).map_err(Failure::Json)?;
    let value = T::decode_delta_with(&baseline, bytes, limits).map_err(Failure::Wire)?;
    Ok(value.json_out())
}

fn delta_verify<T: Vector + bitwire::Delta>(b: &Value, bytes: &[u8]) -> Result<(), Failure> {
    let baseline = T::json_in(b).map_err(Failure::Json)?;
    T::verify_delta(&baseline, bytes).map_err(Failure::Wire)
}

/// The delta codec of `type_name`.
pub fn find_delta(type_name: &str) -> Option<DeltaCodec> {
    delta_registry()
        .into_iter()
        .find(|c| c.type_name == type_name)
}

/// Finds the codec of `type_name` in `suite`.
pub fn find(suite: &str, type_name: &str) -> Option<TypeCodec> {
    registry()
        .into_iter()
        .find(|c| c.suite == suite && c.type_name == type_name)
}
