//! A contender: one library's checked encodings of one dataset view, and closures that
//! run one timed encode or decode pass over it.

use std::fmt::Debug;
use std::hint::black_box;

use crate::peers::Codec;

/// One library on one dataset view.
pub struct Contender {
    /// Library id (`bench/README.md`).
    pub library: &'static str,
    /// How it is used, for the report.
    pub note: String,
    /// Messages per pass.
    pub messages: usize,
    /// The encodings (one per message, or one for a batch), each checked by decoding.
    pub frames: Vec<Vec<u8>>,
    /// Encodes every message once.
    pub encode: Box<dyn FnMut()>,
    /// Decodes every encoding once.
    pub decode: Box<dyn FnMut()>,
}

impl Contender {
    /// The encodings concatenated.
    pub fn stream(&self) -> Vec<u8> {
        self.frames.concat()
    }
}

/// Encodes `values` with codec `C` and checks that each encoding decodes to its value;
/// then packages the timed passes. `messages` is the number of dataset messages the
/// values hold (their count, or the dataset size for one batch value).
pub fn build<M, C>(
    library: &'static str,
    note: &str,
    values: Vec<M>,
    messages: usize,
) -> Result<Contender, String>
where
    M: PartialEq + Debug + 'static,
    C: Codec<M> + Default + 'static,
{
    let mut codec = C::default();
    let mut out = Vec::new();
    let frames: Vec<Vec<u8>> = values
        .iter()
        .map(|m| codec.encode(m, &mut out).to_vec())
        .collect();
    for (i, (m, f)) in values.iter().zip(&frames).enumerate() {
        if codec.value(f).as_ref() != Some(m) {
            return Err(format!("{library}: value {i} does not round-trip"));
        }
    }
    let mut enc = C::default();
    let mut buf = Vec::new();
    let encode = Box::new(move || {
        for m in &values {
            black_box(enc.encode(black_box(m), &mut buf));
        }
    });
    let mut dec = C::default();
    let input = frames.clone();
    let decode = Box::new(move || {
        for f in &input {
            black_box(dec.decode(black_box(f)));
        }
    });
    Ok(Contender {
        library,
        note: note.to_string(),
        messages,
        frames,
        encode,
        decode,
    })
}
