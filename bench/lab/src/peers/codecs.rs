//! [`Codec`]s for bitwire, the hand-written baseline, and the derive-based peers:
//! bitcode 0.6, wincode 0.6, bincode 1.3, bincode 2 and postcard 1. Each is used the way
//! its documentation shows, reusing an output buffer where the API allows it.

use bitwire::Packed;
use bitwire_example::game as bw;
use serde::de::DeserializeOwned;
use serde::Serialize;

use super::plain;
use super::Codec;
use crate::handwritten as hw;

/// bitwire's generated code: `T::encode(&mut out)` appends to a reused buffer,
/// `T::decode(bytes)` builds the value (both through the runtime's `Packed` entry
/// points the generated methods call).
#[derive(Default)]
pub struct Bitwire;

impl<T: Packed> Codec<T> for Bitwire {
    type Out = T;

    #[inline]
    fn append(&mut self, m: &T, out: &mut Vec<u8>) {
        bitwire::encode_packed(m, out).expect("dataset values are in range");
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<T> {
        bitwire::decode_packed(bytes).ok()
    }

    fn value(&mut self, bytes: &[u8]) -> Option<T> {
        self.decode(bytes)
    }
}

/// bitwire for a whole dataset at once: the messages' encodings concatenated (no
/// lengths), decoded one after the other with the generated `read`.
#[derive(Default)]
pub struct BitwireStream;

impl<T: Packed> Codec<Vec<T>> for BitwireStream {
    type Out = Vec<T>;

    #[inline]
    fn append(&mut self, m: &Vec<T>, out: &mut Vec<u8>) {
        for v in m {
            bitwire::encode_packed(v, out).expect("dataset values are in range");
        }
    }

    fn decode(&mut self, mut bytes: &[u8]) -> Option<Vec<T>> {
        let mut out = Vec::new();
        while !bytes.is_empty() {
            let mut r = bitwire::BitReader::new(bytes);
            out.push(T::read(&mut r).ok()?);
            bytes = &bytes[r.bit_pos().div_ceil(8) as usize..];
        }
        Some(out)
    }

    fn value(&mut self, bytes: &[u8]) -> Option<Vec<T>> {
        self.decode(bytes)
    }
}

/// The hand-written baseline ([`crate::handwritten`]).
#[derive(Default)]
pub struct Handwritten;

macro_rules! handwritten {
    ($($ty:ty => $enc:path, $dec:path;)*) => {$(
        impl Codec<$ty> for Handwritten {
            type Out = $ty;

            #[inline]
            fn append(&mut self, m: &$ty, out: &mut Vec<u8>) {
                $enc(m, out);
            }

            #[inline]
            fn decode(&mut self, bytes: &[u8]) -> Option<$ty> {
                $dec(bytes)
            }

            fn value(&mut self, bytes: &[u8]) -> Option<$ty> {
                $dec(bytes)
            }
        }
    )*};
}

handwritten! {
    bw::Packet64 => hw::packet64::encode, hw::packet64::decode;
    plain::Snapshot => hw::encode_snapshot, hw::decode_snapshot;
    plain::Input => hw::encode_input, hw::decode_input;
    plain::Events => hw::encode_events, hw::decode_events;
}

/// bitcode 0.6 (derive): `bitcode::Buffer::encode` / `decode`, one buffer reused.
#[derive(Default)]
pub struct Bitcode(bitcode::Buffer);

impl<M> Codec<M> for Bitcode
where
    M: bitcode::Encode + for<'de> bitcode::Decode<'de>,
{
    type Out = M;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        out.extend_from_slice(self.0.encode(m));
    }

    #[inline]
    fn encode<'a>(&'a mut self, m: &M, _out: &'a mut Vec<u8>) -> &'a [u8] {
        self.0.encode(m)
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<M> {
        self.0.decode(bytes).ok()
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        self.decode(bytes)
    }
}

/// wincode 0.6 (derive `SchemaWrite`/`SchemaRead`): `wincode::serialize_into` a reused
/// `Vec`, `wincode::deserialize`.
#[derive(Default)]
pub struct Wincode;

impl<M> Codec<M> for Wincode
where
    M: wincode::SchemaWrite<wincode::config::DefaultConfig, Src = M>
        + wincode::SchemaReadOwned<wincode::config::DefaultConfig, Dst = M>,
{
    type Out = M;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        wincode::serialize_into(out, m).expect("wincode writes to a Vec");
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<M> {
        wincode::deserialize(bytes).ok()
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        self.decode(bytes)
    }
}

/// bincode 1.3 (serde), default options: `bincode::serialize_into` a reused `Vec`,
/// `bincode::deserialize`.
#[derive(Default)]
pub struct Bincode1;

impl<M: Serialize + DeserializeOwned> Codec<M> for Bincode1 {
    type Out = M;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        bincode::serialize_into(out, m).expect("bincode writes to a Vec");
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<M> {
        bincode::deserialize(bytes).ok()
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        self.decode(bytes)
    }
}

/// bincode 2 with its native `Encode`/`Decode` derive and `config::standard()` (varint
/// integers): `encode_into_std_write` into a reused `Vec`, `decode_from_slice` (which
/// must consume every byte).
#[derive(Default)]
pub struct Bincode2;

impl<M: bincode2::Encode + bincode2::Decode<()>> Codec<M> for Bincode2 {
    type Out = M;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        bincode2::encode_into_std_write(m, out, bincode2::config::standard())
            .expect("bincode 2 writes to a Vec");
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<M> {
        match bincode2::decode_from_slice(bytes, bincode2::config::standard()) {
            Ok((m, used)) if used == bytes.len() => Some(m),
            _ => None,
        }
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        self.decode(bytes)
    }
}

/// postcard 1 (serde): `postcard::to_extend` into a reused `Vec`, `postcard::from_bytes`.
#[derive(Default)]
pub struct Postcard;

impl<M: Serialize + DeserializeOwned> Codec<M> for Postcard {
    type Out = M;

    #[inline]
    fn append(&mut self, m: &M, out: &mut Vec<u8>) {
        let buf = std::mem::take(out);
        *out = postcard::to_extend(m, buf).expect("postcard writes to a Vec");
    }

    #[inline]
    fn decode(&mut self, bytes: &[u8]) -> Option<M> {
        postcard::from_bytes(bytes).ok()
    }

    fn value(&mut self, bytes: &[u8]) -> Option<M> {
        self.decode(bytes)
    }
}
