//! Every library's codec for a pod block (`Vec<u64>`, `Vec<u8>`, `Vec<f32>`), used the
//! way its documentation shows:
//!
//! - `bitwire`: the code generated from `bench/schemas/pod.bw` (`encode_to_vec`, `decode`).
//! - `bitwire-bincode`: the same code's bincode encoding (`encode_bincode_to_vec`,
//!   `decode_bincode`, the default `Limits`); `bitwire-bincode-reuse` in [`super::reuse`].
//! - `handwritten`: what one writes by hand for a block of numbers: the raw
//!   little-endian values (`to_le_bytes` per value into a presized `Vec`; decoding
//!   `chunks_exact` + `from_le_bytes`; for bytes, a copy). The block length is the
//!   frame's length, so no prefix.
//! - `memcpy`: the baseline, a copy of the block's bytes each way into reused buffers
//!   ([`super::reuse`]).
//! - `bitcode` (`bitcode::encode(&Vec<T>)`), `wincode` (`wincode::config::serialize`, the
//!   default configuration with the 4 MiB preallocation limit raised), `bincode1`
//!   (`bincode::serialize`, default options), `bincode2` (its own `Encode`/`Decode`,
//!   `config::standard()`, i.e. varint integers), `postcard` (`to_allocvec`).
//! - `wincode-reuse`, `bincode1-reuse`: the same crates' `serialize_into` a reused `Vec`
//!   ([`super::reuse`]; neither has a documented decode-into, so their decode is the
//!   fresh one).
//!
//! Each timed call of a `Fresh` codec starts from a fresh output `Vec`, as a user encoding
//! or decoding one block would; a `Reuse` codec writes into buffers kept across calls.
//! - `prost`: the `PodU64`/`PodU8`/`PodF32` messages of `bench/schemas/game.proto`
//!   (`repeated fixed64`, `bytes`, `repeated float`; `encode_to_vec`, `decode`).
//! - `flatbuffers`: the tables of `bench/schemas/game.fbs`; encoding is
//!   `FlatBufferBuilder::new()` + `create_vector` + `finish`, the encoding being the
//!   builder's finished data (no copy out); decoding is zero-copy, so what is timed is
//!   `flatbuffers::root` (verification) and reading every value (a wrapping sum).

use bitwire::{Bincode, Packed};
use std::fmt::Debug;

use flatbuffers::FlatBufferBuilder;
use prost::Message as _;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::data::Elem;
use super::gen;
use super::reuse;
use crate::peers::flatbuffers_generated::bitwire::bench::fb;
use crate::peers::prost_generated as pb;

/// An encoding: `buf[start..]` (FlatBuffers builds back to front, so its finished data
/// starts inside the buffer; every other library has `start == 0`).
pub struct Encoded {
    /// The buffer holding the encoding.
    pub buf: Vec<u8>,
    /// Where the encoding starts in `buf`.
    pub start: usize,
}

impl Encoded {
    /// A buffer that is all encoding.
    pub fn whole(buf: Vec<u8>) -> Self {
        Encoded { buf, start: 0 }
    }

    /// The encoded bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }
}

/// Encodes a block into a fresh buffer. The values are taken by `&mut` only so that the
/// libraries whose message type owns its `Vec` (bitwire, prost) can move it in and back
/// out without a copy; they are unchanged afterwards.
pub type EncodeFn<E> = fn(&mut Vec<E>) -> Encoded;
/// Encodes a block into a reused buffer, which it clears first (values as [`EncodeFn`]).
pub type EncodeIntoFn<E> = fn(&mut Vec<E>, &mut Vec<u8>);
/// Decodes a block into owned values; `None` if the bytes are invalid.
pub type DecodeFn<E> = fn(&[u8]) -> Option<Vec<E>>;
/// Decodes a block into a reused `Vec`, replacing its values and keeping its capacity;
/// `false` if the bytes are invalid.
pub type DecodeIntoFn<E> = fn(&[u8], &mut Vec<E>) -> bool;
/// Checks a block and reads every value in place (see [`Decode::Read`]).
pub type ReadFn = fn(&[u8]) -> Option<u64>;

/// How a codec encodes: what one timed call does.
#[derive(Clone, Copy)]
pub enum Encode<E> {
    /// Into a fresh output `Vec` per call (dropped after the clock stops).
    Fresh(EncodeFn<E>),
    /// Into one output `Vec` reused by every call.
    Reuse(EncodeIntoFn<E>),
}

/// How a codec decodes: what one timed call does.
#[derive(Clone, Copy)]
pub enum Decode<E> {
    /// Into a fresh `Vec` per call (dropped after the clock stops).
    Fresh(DecodeFn<E>),
    /// Into one value reused by every call.
    Reuse(DecodeIntoFn<E>),
    /// A zero-copy library: `read` (check the bytes and read every value, returning their
    /// [`super::check::checksum`]) is timed; `decode` copies the values out for the round-trip check.
    Read {
        /// Copies the values out (untimed).
        decode: DecodeFn<E>,
        /// What is timed.
        read: ReadFn,
    },
}

/// One library's codec for blocks of `E`, in one mode (fresh or reused buffers).
pub struct Codec<E> {
    /// Library id (bench/README.md).
    pub library: &'static str,
    /// Note for the result records, if any.
    pub note: Option<&'static str>,
    /// Encoding.
    pub encode: Encode<E>,
    /// Decoding.
    pub decode: Decode<E>,
}

/// An element type of the pod dataset, with the per-type glue of the libraries that
/// have one message type per element type.
pub trait PodElem:
    Copy
    + PartialEq
    + Debug
    + Serialize
    + DeserializeOwned
    + bitcode::Encode
    + bitcode::DecodeOwned
    + bincode2::Encode
    + bincode2::Decode<()>
    + bytemuck::Pod
    + Send
    + Sync
    + 'static
{
    /// The element type.
    const ELEM: Elem;
    /// The value's bits (for comparing floats exactly and for [`super::check::checksum`]).
    fn bits(self) -> u64;
    /// Hand-written encoding: the raw little-endian values.
    fn to_le_block(values: &[Self]) -> Vec<u8>;
    /// Hand-written decoding; `None` if the length is not a whole number of values.
    fn from_le_block(bytes: &[u8]) -> Option<Vec<Self>>;
    /// bitwire: the generated message's `encode_to_vec`.
    fn bitwire_encode(values: &mut Vec<Self>) -> Encoded;
    /// bitwire: the generated message's `decode`.
    fn bitwire_decode(bytes: &[u8]) -> Option<Vec<Self>>;
    /// bitwire-bincode: the generated message's `encode_bincode_to_vec`.
    fn bincode_encode(values: &mut Vec<Self>) -> Encoded;
    /// bitwire-bincode: the generated message's `decode_bincode` (the default `Limits`).
    fn bincode_decode(bytes: &[u8]) -> Option<Vec<Self>>;
    /// bitwire-bincode-reuse: `encode_bincode` into a cleared, reused `Vec`.
    fn bincode_encode_into(values: &mut Vec<Self>, out: &mut Vec<u8>);
    /// bitwire-bincode-reuse: `decode_bincode_into` a reused message (the default
    /// `Limits`), whose `Vec` is `out`'s, moved in and back out.
    fn bincode_decode_into(bytes: &[u8], out: &mut Vec<Self>) -> bool;
    /// prost: the message's `encode_to_vec`.
    fn prost_encode(values: &mut Vec<Self>) -> Encoded;
    /// prost: `Message::decode`.
    fn prost_decode(bytes: &[u8]) -> Option<Vec<Self>>;
    /// wincode: `wincode::serialize(&Vec<T>)`.
    fn wincode_encode(values: &mut Vec<Self>) -> Encoded;
    /// wincode: `wincode::serialize_into` a cleared, reused `Vec`.
    fn wincode_encode_into(values: &mut Vec<Self>, out: &mut Vec<u8>);
    /// wincode: `wincode::deserialize::<Vec<T>>`.
    fn wincode_decode(bytes: &[u8]) -> Option<Vec<Self>>;
    /// FlatBuffers: builder, `create_vector`, table, `finish`.
    fn fb_encode(values: &mut Vec<Self>) -> Encoded;
    /// FlatBuffers: verified root, then every value copied out.
    fn fb_decode(bytes: &[u8]) -> Option<Vec<Self>>;
    /// FlatBuffers: verified root, then every value read ([`super::check::checksum`]).
    fn fb_read(bytes: &[u8]) -> Option<u64>;
}

/// wincode's default configuration with the preallocation limit (4 MiB by default, which
/// rejects any larger block) raised to twice the largest block, as its documentation says
/// to do for large trusted inputs.
pub(super) fn wincode_config() -> impl wincode::config::Config {
    const LIMIT: usize = 2 * super::gen::MAX_BLOCK as usize;
    wincode::config::Configuration::default().with_preallocation_size_limit::<LIMIT>()
}

/// Implements [`PodElem`] for one element type and its message types. The closures are
/// spliced in as expressions (not called through function pointers) so they inline.
macro_rules! pod_elem {
    ($t:ty, $elem:expr, $bw:ident, $pb:ident, $fb:ident, $fb_args:ident,
     bits: |$b:ident| $bits:expr,
     to_le: |$tv:ident| $to_le:expr,
     from_le: |$fv:ident| $from_le:expr,
     fb_sum: |$sv:ident| $fb_sum:expr $(,)?) => {
        impl PodElem for $t {
            const ELEM: Elem = $elem;

            #[inline]
            fn bits(self) -> u64 {
                let $b = self;
                $bits
            }

            fn to_le_block(values: &[Self]) -> Vec<u8> {
                let $tv = values;
                $to_le
            }

            fn from_le_block(bytes: &[u8]) -> Option<Vec<Self>> {
                if bytes.len() % std::mem::size_of::<$t>() != 0 {
                    return None;
                }
                let $fv = bytes;
                Some($from_le)
            }

            fn bitwire_encode(values: &mut Vec<Self>) -> Encoded {
                let msg = gen::$bw {
                    values: std::mem::take(values),
                };
                let out = msg.encode_to_vec();
                *values = msg.values;
                Encoded::whole(out.expect("block fits the schema"))
            }

            fn bitwire_decode(bytes: &[u8]) -> Option<Vec<Self>> {
                gen::$bw::decode(bytes).ok().map(|m| m.values)
            }

            fn bincode_encode(values: &mut Vec<Self>) -> Encoded {
                let msg = gen::$bw {
                    values: std::mem::take(values),
                };
                let out = msg.encode_bincode_to_vec();
                *values = msg.values;
                Encoded::whole(out.expect("block fits the schema"))
            }

            fn bincode_decode(bytes: &[u8]) -> Option<Vec<Self>> {
                gen::$bw::decode_bincode(bytes).ok().map(|m| m.values)
            }

            fn bincode_encode_into(values: &mut Vec<Self>, out: &mut Vec<u8>) {
                let msg = gen::$bw {
                    values: std::mem::take(values),
                };
                out.clear();
                let written = msg.encode_bincode(out);
                *values = msg.values;
                written.expect("block fits the schema");
            }

            fn bincode_decode_into(bytes: &[u8], out: &mut Vec<Self>) -> bool {
                let mut msg = gen::$bw {
                    values: std::mem::take(out),
                };
                let ok = msg
                    .decode_bincode_into(bytes, &bitwire::Limits::DEFAULT)
                    .is_ok();
                *out = msg.values;
                ok
            }

            fn prost_encode(values: &mut Vec<Self>) -> Encoded {
                let msg = pb::$pb {
                    values: std::mem::take(values),
                };
                let out = msg.encode_to_vec();
                *values = msg.values;
                Encoded::whole(out)
            }

            fn prost_decode(bytes: &[u8]) -> Option<Vec<Self>> {
                pb::$pb::decode(bytes).ok().map(|m| m.values)
            }

            fn wincode_encode(values: &mut Vec<Self>) -> Encoded {
                let out = wincode::config::serialize(&*values, wincode_config());
                Encoded::whole(out.expect("wincode serializes a Vec"))
            }

            fn wincode_encode_into(values: &mut Vec<Self>, out: &mut Vec<u8>) {
                out.clear();
                wincode::config::serialize_into(&mut *out, &*values, wincode_config())
                    .expect("wincode serializes a Vec");
            }

            fn wincode_decode(bytes: &[u8]) -> Option<Vec<Self>> {
                wincode::config::deserialize::<Vec<$t>, _>(bytes, wincode_config()).ok()
            }

            fn fb_encode(values: &mut Vec<Self>) -> Encoded {
                let mut b = FlatBufferBuilder::new();
                let v = b.create_vector(values);
                let root = fb::$fb::create(&mut b, &fb::$fb_args { values: Some(v) });
                b.finish(root, None);
                let (buf, start) = b.collapse();
                Encoded { buf, start }
            }

            fn fb_decode(bytes: &[u8]) -> Option<Vec<Self>> {
                let root = flatbuffers::root::<fb::$fb>(bytes).ok()?;
                Some(root.values()?.iter().collect())
            }

            fn fb_read(bytes: &[u8]) -> Option<u64> {
                let root = flatbuffers::root::<fb::$fb>(bytes).ok()?;
                let $sv = root.values()?;
                Some($fb_sum)
            }
        }
    };
}

// Hand-written: a presized buffer filled value by value through `chunks_exact_mut`, and
// `chunks_exact` + `from_le_bytes` back (the fastest of the obvious loops; pushing
// `to_le_bytes` one by one is about twice as slow). Bytes are simply copied.

pod_elem!(u64, Elem::U64, PodU64, PodU64, PodU64, PodU64Args,
    bits: |v| v,
    to_le: |values| {
        let mut out = vec![0u8; values.len() * 8];
        for (o, v) in out.chunks_exact_mut(8).zip(values) {
            o.copy_from_slice(&v.to_le_bytes());
        }
        out
    },
    from_le: |bytes| bytes
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect(),
    fb_sum: |v| v.iter().fold(0u64, |a, x| a.wrapping_add(x)),
);

pod_elem!(u8, Elem::U8, PodU8, PodU8, PodU8, PodU8Args,
    bits: |v| u64::from(v),
    to_le: |values| values.to_vec(),
    from_le: |bytes| bytes.to_vec(),
    fb_sum: |v| v.bytes().iter().fold(0u64, |a, &x| a.wrapping_add(u64::from(x))),
);

pod_elem!(f32, Elem::F32, PodF32, PodF32, PodF32, PodF32Args,
    bits: |v| u64::from(v.to_bits()),
    to_le: |values| {
        let mut out = vec![0u8; values.len() * 4];
        for (o, v) in out.chunks_exact_mut(4).zip(values) {
            o.copy_from_slice(&v.to_le_bytes());
        }
        out
    },
    from_le: |bytes| bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect(),
    fb_sum: |v| v.iter().fold(0u64, |a, x| a.wrapping_add(u64::from(x.to_bits()))),
);

// The generic encoders below take `&mut Vec` only to have the type of `Codec::encode`.

#[allow(clippy::ptr_arg)]
fn handwritten_encode<E: PodElem>(values: &mut Vec<E>) -> Encoded {
    Encoded::whole(E::to_le_block(values))
}

#[allow(clippy::ptr_arg)]
fn bitcode_encode<E: PodElem>(values: &mut Vec<E>) -> Encoded {
    Encoded::whole(bitcode::encode(&*values))
}

fn bitcode_decode<E: PodElem>(bytes: &[u8]) -> Option<Vec<E>> {
    bitcode::decode(bytes).ok()
}

#[allow(clippy::ptr_arg)]
fn bincode1_encode<E: PodElem>(values: &mut Vec<E>) -> Encoded {
    Encoded::whole(bincode::serialize(&*values).expect("bincode serializes a Vec"))
}

pub(super) fn bincode1_decode<E: PodElem>(bytes: &[u8]) -> Option<Vec<E>> {
    bincode::deserialize(bytes).ok()
}

#[allow(clippy::ptr_arg)]
fn bincode2_encode<E: PodElem>(values: &mut Vec<E>) -> Encoded {
    let out = bincode2::encode_to_vec(&*values, bincode2::config::standard());
    Encoded::whole(out.expect("bincode 2 encodes a Vec"))
}

fn bincode2_decode<E: PodElem>(bytes: &[u8]) -> Option<Vec<E>> {
    match bincode2::decode_from_slice(bytes, bincode2::config::standard()) {
        Ok((values, used)) if used == bytes.len() => Some(values),
        _ => None,
    }
}

#[allow(clippy::ptr_arg)]
fn postcard_encode<E: PodElem>(values: &mut Vec<E>) -> Encoded {
    Encoded::whole(postcard::to_allocvec(&*values).expect("postcard serializes a Vec"))
}

fn postcard_decode<E: PodElem>(bytes: &[u8]) -> Option<Vec<E>> {
    postcard::from_bytes(bytes).ok()
}

/// Every library's codec for blocks of `E`, in report order.
pub fn codecs<E: PodElem>() -> Vec<Codec<E>> {
    let fresh = |library, note, encode, decode| Codec {
        library,
        note,
        encode: Encode::Fresh(encode),
        decode: Decode::Fresh(decode),
    };
    vec![
        fresh("bitwire", None, E::bitwire_encode, E::bitwire_decode),
        fresh(
            "bitwire-bincode",
            Some(reuse::NOTE_BITWIRE_BINCODE),
            E::bincode_encode,
            E::bincode_decode,
        ),
        reuse::bitwire_bincode_reuse(),
        fresh(
            "handwritten",
            None,
            handwritten_encode::<E>,
            E::from_le_block,
        ),
        reuse::memcpy(),
        fresh("bitcode", None, bitcode_encode::<E>, bitcode_decode::<E>),
        fresh(
            "wincode",
            Some(reuse::NOTE_WINCODE),
            E::wincode_encode,
            E::wincode_decode,
        ),
        reuse::wincode_reuse(),
        fresh("bincode1", None, bincode1_encode::<E>, bincode1_decode::<E>),
        reuse::bincode1_reuse(),
        fresh("bincode2", None, bincode2_encode::<E>, bincode2_decode::<E>),
        fresh("postcard", None, postcard_encode::<E>, postcard_decode::<E>),
        Codec {
            library: "flatbuffers",
            note: Some("decode = verify + read every value (zero-copy)"),
            encode: Encode::Fresh(E::fb_encode),
            decode: Decode::Read {
                decode: E::fb_decode,
                read: E::fb_read,
            },
        },
        fresh("prost", None, E::prost_encode, E::prost_decode),
    ]
}
