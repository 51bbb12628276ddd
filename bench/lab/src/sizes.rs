//! Encoded sizes: bitwire against the peer libraries on the same values.
//!
//! Per library and dataset, every message is encoded on its own (as it would be sent in
//! one packet) and the figures are, per message:
//!
//! - `raw`: mean encoded bytes;
//! - `zstd`: zstd level 3 over the concatenation of all the dataset's encodings (a replay
//!   or log file, or a compressed stream), divided by the message count;
//! - `zstd each`: mean of zstd level 3 applied to each message alone (what per-packet
//!   compression would cost, frame overhead included).
//!
//! - `lz4`: lz4 (block format, `lz4_flex::block::compress`) over the concatenation,
//!   divided by the message count.
//!
//! Every library's encoding is decoded again and compared with its input before it
//! counts (see [`crate::lab::contender::build`]).

use crate::lab::contender::Contender;
use crate::lab::suite::{self, Game};
use crate::peers::codecs::{Bincode1, Bincode2, Bitcode, Postcard, Wincode};
use crate::peers::Codec;

/// zstd compression level used for every compressed figure.
pub const ZSTD_LEVEL: i32 = 3;

/// Sizes of one library's encodings of one dataset.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeRow {
    /// Library name.
    pub library: String,
    /// Messages measured.
    pub count: usize,
    /// Sum of the raw encodings' lengths.
    pub raw_total: usize,
    /// Smallest and largest single encoding.
    pub raw_min: usize,
    /// Largest single encoding.
    pub raw_max: usize,
    /// zstd of all encodings concatenated.
    pub zstd_stream: usize,
    /// Sum of zstd of each encoding alone.
    pub zstd_each_total: usize,
    /// lz4 (block format) of all encodings concatenated.
    pub lz4_stream: usize,
}

impl SizeRow {
    /// Mean raw bytes per message.
    pub fn raw(&self) -> f64 {
        self.raw_total as f64 / self.count as f64
    }

    /// zstd (whole stream) bytes per message.
    pub fn zstd(&self) -> f64 {
        self.zstd_stream as f64 / self.count as f64
    }

    /// lz4 (whole stream) bytes per message.
    pub fn lz4(&self) -> f64 {
        self.lz4_stream as f64 / self.count as f64
    }

    /// Mean zstd bytes per message compressed alone.
    pub fn zstd_each(&self) -> f64 {
        self.zstd_each_total as f64 / self.count as f64
    }
}

/// Size of `bytes` after lz4 (block format).
pub fn lz4(bytes: &[u8]) -> usize {
    lz4_flex::block::compress(bytes).len()
}

/// Size of `bytes` after zstd at [`ZSTD_LEVEL`].
pub fn zstd(bytes: &[u8]) -> usize {
    zstd::bulk::compress(bytes, ZSTD_LEVEL)
        .expect("zstd compresses in memory")
        .len()
}

/// Measures one library's encodings of `count` messages (one `Vec<u8>` per message, or
/// one for a batch).
pub fn measure(library: &str, count: usize, frames: &[Vec<u8>]) -> SizeRow {
    assert!(count > 0 && !frames.is_empty(), "no messages to measure");
    let stream: Vec<u8> = frames.concat();
    SizeRow {
        library: library.to_string(),
        count,
        raw_total: stream.len(),
        raw_min: frames.iter().map(Vec::len).min().unwrap_or(0),
        raw_max: frames.iter().map(Vec::len).max().unwrap_or(0),
        zstd_stream: zstd(&stream),
        zstd_each_total: frames.iter().map(|f| zstd(f)).sum(),
        lz4_stream: lz4(&stream),
    }
}

/// The size rows of checked contenders; failed ones are reported on stderr and left out.
pub fn rows(dataset: &str, contenders: Vec<Result<Contender, String>>) -> Vec<SizeRow> {
    contenders
        .into_iter()
        .filter_map(|c| match c {
            Ok(c) => Some(measure(c.library, c.messages, &c.frames)),
            Err(e) => {
                eprintln!("{dataset}: left out: {e}");
                None
            }
        })
        .collect()
}

/// bitwire (first row) and every other library on `msgs`, one message at a time.
pub fn compare<B: Game>(msgs: &[B]) -> Vec<SizeRow>
where
    Bitcode: Codec<B::Plain>,
    Wincode: Codec<B::Plain>,
    Bincode1: Codec<B::Plain>,
    Bincode2: Codec<B::Plain>,
    Postcard: Codec<B::Plain>,
{
    rows(B::DATASET, suite::contenders(msgs))
}

/// The batch view: the whole of `msgs` as one value per library.
pub fn compare_batch<B: Game>(msgs: &[B]) -> Vec<SizeRow>
where
    Bitcode: Codec<Vec<B::Plain>>,
    Wincode: Codec<Vec<B::Plain>>,
    Bincode1: Codec<Vec<B::Plain>>,
    Bincode2: Codec<Vec<B::Plain>>,
    Postcard: Codec<Vec<B::Plain>>,
{
    rows(B::DATASET, suite::batch_contenders(msgs))
}

/// A Markdown table of `rows` (the first row is the baseline of the ratios).
pub fn table(dataset: &str, rows: &[SizeRow]) -> String {
    use std::fmt::Write;
    let base = &rows[0];
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{dataset} ({} messages), bytes per message, ratio to {}:\n",
        base.count, base.library
    );
    let _ = writeln!(
        s,
        "| library | raw | ratio | min..max | zstd (stream) | ratio | zstd (each) | ratio | lz4 (stream) | ratio |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {:.2} | {:.2}x | {}..{} | {:.2} | {:.2}x | {:.2} | {:.2}x | {:.2} | {:.2}x |",
            r.library,
            r.raw(),
            r.raw() / base.raw(),
            r.raw_min,
            r.raw_max,
            r.zstd(),
            r.zstd() / base.zstd(),
            r.zstd_each(),
            r.zstd_each() / base.zstd_each(),
            r.lz4(),
            r.lz4() / base.lz4(),
        );
    }
    s
}
