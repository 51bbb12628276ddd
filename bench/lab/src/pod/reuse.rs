//! The pod codecs that write into buffers kept across calls (`Encode::Reuse`,
//! `Decode::Reuse`), the way a service encoding block after block would:
//!
//! - `bitwire-bincode-reuse`: the code generated from `bench/schemas/pod.bw` with the
//!   bincode encoding: `encode_bincode` into a cleared, reused `Vec<u8>`, and
//!   `decode_bincode_into` a reused message with the default `Limits` (its `Vec` keeps
//!   its capacity).
//! - `memcpy`: the baseline every reuse codec is measured against: the block's bytes
//!   (bytemuck's byte view of the values, which on a little-endian machine are the
//!   values' little-endian encoding) appended to a cleared, reused `Vec<u8>`, and copied
//!   back over a reused `Vec<E>` of the block's length.
//! - `wincode-reuse`: `wincode::config::serialize_into` a cleared, reused `Vec<u8>` (the
//!   same configuration as `wincode`). wincode has no decode-into API, so its decode is
//!   `wincode::config::deserialize`, a fresh `Vec` per call, as in `wincode`.
//! - `bincode1-reuse`: `bincode::serialize_into` a cleared, reused `Vec<u8>`. bincode
//!   1.3's only in-place decode is `#[doc(hidden)]` ("only use this if you know what
//!   you're doing"), so its decode is `bincode::deserialize`, as in `bincode1`.

use super::peers::{bincode1_decode, Codec, Decode, Encode, PodElem};

/// Note of the `bitwire-bincode` records.
pub const NOTE_BITWIRE_BINCODE: &str = "generated code (pod.bw, bincode encoding): \
     encode_bincode_to_vec, decode_bincode with the default Limits; a fresh Vec per call";

/// Note of the `bitwire-bincode-reuse` records.
pub const NOTE_BITWIRE_BINCODE_REUSE: &str = "generated code (pod.bw, bincode encoding): \
     encode_bincode into a cleared, reused Vec; decode_bincode_into a reused value with the \
     default Limits";

/// Note of the `wincode` records.
pub const NOTE_WINCODE: &str = "wincode::config with the preallocation limit raised from \
     its 4 MiB default to 512 MiB (the default refuses any block over 4 MiB)";

/// Note of the `memcpy` records.
pub const NOTE_MEMCPY: &str = "the baseline: the block's bytes appended to a cleared, reused \
     Vec<u8>, and copied back over a reused Vec of the block's values (bytemuck byte views)";

/// Note of the `wincode-reuse` records.
pub const NOTE_WINCODE_REUSE: &str = "serialize_into a cleared, reused Vec (limit raised as for \
     wincode); wincode has no decode-into, so decode is its fresh deserialize";

/// Note of the `bincode1-reuse` records.
pub const NOTE_BINCODE1_REUSE: &str = "serialize_into a cleared, reused Vec; bincode 1.3 has no \
     documented decode-into, so decode is its fresh deserialize";

/// `bitwire-bincode` with buffer reuse.
pub fn bitwire_bincode_reuse<E: PodElem>() -> Codec<E> {
    Codec {
        library: "bitwire-bincode-reuse",
        note: Some(NOTE_BITWIRE_BINCODE_REUSE),
        encode: Encode::Reuse(E::bincode_encode_into),
        decode: Decode::Reuse(E::bincode_decode_into),
    }
}

/// The `memcpy` baseline.
pub fn memcpy<E: PodElem>() -> Codec<E> {
    Codec {
        library: "memcpy",
        note: Some(NOTE_MEMCPY),
        encode: Encode::Reuse(memcpy_encode::<E>),
        decode: Decode::Reuse(memcpy_decode::<E>),
    }
}

/// `wincode` with a reused output buffer.
pub fn wincode_reuse<E: PodElem>() -> Codec<E> {
    Codec {
        library: "wincode-reuse",
        note: Some(NOTE_WINCODE_REUSE),
        encode: Encode::Reuse(E::wincode_encode_into),
        decode: Decode::Fresh(E::wincode_decode),
    }
}

/// `bincode1` with a reused output buffer.
pub fn bincode1_reuse<E: PodElem>() -> Codec<E> {
    Codec {
        library: "bincode1-reuse",
        note: Some(NOTE_BINCODE1_REUSE),
        encode: Encode::Reuse(bincode1_encode_into::<E>),
        decode: Decode::Fresh(bincode1_decode::<E>),
    }
}

#[allow(clippy::ptr_arg)]
fn memcpy_encode<E: PodElem>(values: &mut Vec<E>, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(bytemuck::cast_slice(values));
}

fn memcpy_decode<E: PodElem>(bytes: &[u8], out: &mut Vec<E>) -> bool {
    let size = std::mem::size_of::<E>();
    if !bytes.len().is_multiple_of(size) {
        return false;
    }
    // The same length every call after the first: no allocation, no writes.
    out.resize(bytes.len() / size, E::zeroed());
    bytemuck::cast_slice_mut::<E, u8>(out).copy_from_slice(bytes);
    true
}

#[allow(clippy::ptr_arg)]
fn bincode1_encode_into<E: PodElem>(values: &mut Vec<E>, out: &mut Vec<u8>) {
    out.clear();
    bincode::serialize_into(&mut *out, &*values).expect("bincode serializes a Vec");
}
