//! The contenders of every game dataset: each library on its own in-memory types,
//! converted from the generated values before anything is timed.

use std::fmt::Debug;

use bitwire::Packed;
use bitwire_example::game as bw;

use super::contender::{build, Contender};
use crate::peers::codecs::{
    Bincode1, Bincode2, Bitcode, Bitwire, BitwireStream, Handwritten, Postcard, Wincode,
};
use crate::peers::flatbuffers::{FlatMessage, Flatbuffers};
use crate::peers::prost::{Prost, ProstStream, ToProst};
use crate::peers::{plain, profiles, Codec};

/// Notes shown in the report, per library.
pub mod notes {
    /// bitwire.
    pub const BITWIRE: &str =
        "generated encode() appending to a reused Vec; decode() builds the value";
    /// The hand-written baseline.
    pub const HANDWRITTEN: &str =
        "hand-written shifts and masks, same bytes as bitwire; appends to a reused Vec";
    /// bitcode.
    pub const BITCODE: &str = "derive; one bitcode::Buffer reused for encode and decode";
    /// wincode.
    pub const WINCODE: &str = "derive SchemaWrite/SchemaRead; serialize_into a reused Vec";
    /// bincode 1.3.
    pub const BINCODE1: &str = "serde, default options; serialize_into a reused Vec";
    /// bincode 2.
    pub const BINCODE2: &str =
        "native Encode/Decode derive, config::standard(); encode_into_std_write into a reused Vec";
    /// postcard.
    pub const POSTCARD: &str = "serde; to_extend into a reused Vec";
    /// FlatBuffers.
    pub const FLATBUFFERS: &str =
        "FlatBufferBuilder reused; decode = verify + read every field (no allocation)";
    /// prost.
    pub const PROST: &str = "Message::encode into a reused Vec; decode builds the message";
    /// Batch view, libraries that encode a `Vec<T>`.
    pub const BATCH: &str = "batch: the whole dataset as one Vec<T> value";
    /// Batch view of bitwire.
    pub const BATCH_BITWIRE: &str =
        "batch: the messages' encodings concatenated (no lengths), read one after another";
    /// Batch view of prost.
    pub const BATCH_PROST: &str = "batch: length-delimited messages concatenated";
}

/// A generated message type of `examples/game.bw` and its peers' types.
pub trait Game: Packed + Clone + PartialEq + Debug + 'static {
    /// The plain type serde-style users write.
    type Plain: for<'a> From<&'a Self> + Clone + PartialEq + Debug + FlatMessage + ToProst + 'static;
    /// Dataset name.
    const DATASET: &'static str;

    /// The hand-written baseline on these messages, if the dataset has one.
    fn handwritten(msgs: &[Self], plain: &[Self::Plain]) -> Option<Result<Contender, String>>;
}

impl Game for bw::Packet64 {
    type Plain = plain::Packet64;
    const DATASET: &'static str = "packet64";

    fn handwritten(msgs: &[Self], _: &[Self::Plain]) -> Option<Result<Contender, String>> {
        let n = msgs.len();
        Some(build::<_, Handwritten>(
            "handwritten",
            notes::HANDWRITTEN,
            msgs.to_vec(),
            n,
        ))
    }
}

macro_rules! handwritten_on_plain {
    ($($ty:ident => $name:literal;)*) => {$(
        impl Game for bw::$ty {
            type Plain = plain::$ty;
            const DATASET: &'static str = $name;

            fn handwritten(
                _: &[Self],
                plain: &[Self::Plain],
            ) -> Option<Result<Contender, String>> {
                let n = plain.len();
                Some(build::<_, Handwritten>("handwritten", notes::HANDWRITTEN, plain.to_vec(), n))
            }
        }
    )*};
}

handwritten_on_plain! {
    Snapshot => "snapshot";
    Input => "input";
    Events => "events";
}

/// The string-heavy dataset: no hand-written baseline (no goal asks for one).
impl Game for bw::Profiles {
    type Plain = profiles::Profiles;
    const DATASET: &'static str = "profiles";

    fn handwritten(_: &[Self], _: &[Self::Plain]) -> Option<Result<Contender, String>> {
        None
    }
}

/// Every library on `msgs`, one message at a time (the hand-written baseline only where
/// the dataset has one). A library whose encoding does not decode back to its input is an
/// `Err` with the reason.
pub fn contenders<B: Game>(msgs: &[B]) -> Vec<Result<Contender, String>>
where
    Bitcode: Codec<B::Plain>,
    Wincode: Codec<B::Plain>,
    Bincode1: Codec<B::Plain>,
    Bincode2: Codec<B::Plain>,
    Postcard: Codec<B::Plain>,
{
    let n = msgs.len();
    let plain: Vec<B::Plain> = msgs.iter().map(B::Plain::from).collect();
    let pb: Vec<<B::Plain as ToProst>::Pb> = plain.iter().map(ToProst::to_prost).collect();
    let lossless = pb
        .iter()
        .zip(&plain)
        .all(|(m, p)| B::Plain::from_prost(m).as_ref() == Some(p));
    let p = || plain.clone();
    let bitwire = build::<_, Bitwire>("bitwire", notes::BITWIRE, msgs.to_vec(), n);
    let handwritten = B::handwritten(msgs, &plain).map(|h| {
        h.and_then(|h| match &bitwire {
            Ok(b) => match b.frames.iter().zip(&h.frames).position(|(x, y)| x != y) {
                Some(i) => Err(format!(
                    "handwritten: message {i} differs from bitwire's bytes"
                )),
                None => Ok(h),
            },
            Err(_) => Ok(h),
        })
    });
    let mut out = vec![bitwire];
    out.extend(handwritten);
    out.extend([
        build::<_, Bitcode>("bitcode", notes::BITCODE, p(), n),
        build::<_, Wincode>("wincode", notes::WINCODE, p(), n),
        build::<_, Bincode1>("bincode1", notes::BINCODE1, p(), n),
        build::<_, Bincode2>("bincode2", notes::BINCODE2, p(), n),
        build::<_, Postcard>("postcard", notes::POSTCARD, p(), n),
        build::<_, Flatbuffers>("flatbuffers", notes::FLATBUFFERS, p(), n),
        if lossless {
            build::<_, Prost>("prost", notes::PROST, pb, n)
        } else {
            Err("prost: the plain values do not survive the conversion".to_string())
        },
    ]);
    out
}

/// The batch view: the whole dataset as one value per library (bitwire: its messages'
/// encodings concatenated; prost: length-delimited messages). FlatBuffers has no batch
/// here: `game.fbs` has no table holding a list of messages.
pub fn batch_contenders<B: Game>(msgs: &[B]) -> Vec<Result<Contender, String>>
where
    Bitcode: Codec<Vec<B::Plain>>,
    Wincode: Codec<Vec<B::Plain>>,
    Bincode1: Codec<Vec<B::Plain>>,
    Bincode2: Codec<Vec<B::Plain>>,
    Postcard: Codec<Vec<B::Plain>>,
{
    let n = msgs.len();
    let plain: Vec<B::Plain> = msgs.iter().map(B::Plain::from).collect();
    let pb: Vec<<B::Plain as ToProst>::Pb> = plain.iter().map(ToProst::to_prost).collect();
    let p = || vec![plain.clone()];
    vec![
        build::<_, BitwireStream>("bitwire", notes::BATCH_BITWIRE, vec![msgs.to_vec()], n),
        build::<_, Bitcode>("bitcode", notes::BATCH, p(), n),
        build::<_, Wincode>("wincode", notes::BATCH, p(), n),
        build::<_, Bincode1>("bincode1", notes::BATCH, p(), n),
        build::<_, Bincode2>("bincode2", notes::BATCH, p(), n),
        build::<_, Postcard>("postcard", notes::BATCH, p(), n),
        build::<_, ProstStream>("prost", notes::BATCH_PROST, vec![pb], n),
    ]
}
