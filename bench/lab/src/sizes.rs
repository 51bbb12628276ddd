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
//! Every peer's encoding is decoded again and compared with its input before it counts.

use serde::{Deserialize, Serialize};

use crate::peers::{self, Peer};

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

    /// Mean zstd bytes per message compressed alone.
    pub fn zstd_each(&self) -> f64 {
        self.zstd_each_total as f64 / self.count as f64
    }
}

fn zstd(bytes: &[u8]) -> usize {
    zstd::bulk::compress(bytes, ZSTD_LEVEL)
        .expect("zstd compresses in memory")
        .len()
}

/// Measures one library's encodings (one `Vec<u8>` per message).
pub fn measure(library: &str, frames: &[Vec<u8>]) -> SizeRow {
    assert!(!frames.is_empty(), "no messages to measure");
    let stream: Vec<u8> = frames.concat();
    SizeRow {
        library: library.to_string(),
        count: frames.len(),
        raw_total: stream.len(),
        raw_min: frames.iter().map(Vec::len).min().unwrap_or(0),
        raw_max: frames.iter().map(Vec::len).max().unwrap_or(0),
        zstd_stream: zstd(&stream),
        zstd_each_total: frames.iter().map(|f| zstd(f)).sum(),
    }
}

/// bitwire (first row) and every peer on `msgs`, each peer's encoding checked by decoding.
pub fn compare<B, P>(msgs: &[B], bitwire_encode: fn(&B) -> Vec<u8>) -> Vec<SizeRow>
where
    P: for<'a> From<&'a B>
        + PartialEq
        + std::fmt::Debug
        + Serialize
        + for<'de> Deserialize<'de>
        + bitcode::Encode
        + for<'de> bitcode::Decode<'de>,
{
    let mut rows = vec![measure(
        "bitwire",
        &msgs.iter().map(bitwire_encode).collect::<Vec<_>>(),
    )];
    let plain: Vec<P> = msgs.iter().map(P::from).collect();
    for Peer {
        name,
        encode,
        decode,
    } in peers::peers::<P>()
    {
        let frames: Vec<Vec<u8>> = plain.iter().map(encode).collect();
        for (value, frame) in plain.iter().zip(&frames) {
            assert_eq!(
                decode(frame).as_ref(),
                Some(value),
                "{name} does not round-trip"
            );
        }
        rows.push(measure(name, &frames));
    }
    rows
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
        "| library | raw | ratio | min..max | zstd (stream) | ratio | zstd (each) | ratio |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {:.2} | {:.2}x | {}..{} | {:.2} | {:.2}x | {:.2} | {:.2}x |",
            r.library,
            r.raw(),
            r.raw() / base.raw(),
            r.raw_min,
            r.raw_max,
            r.zstd(),
            r.zstd() / base.zstd(),
            r.zstd_each(),
            r.zstd_each() / base.zstd_each(),
        );
    }
    s
}
