//! The pod benchmark: for every element type × block size × library, the encode and
//! decode time of one block (median of a few rounds), the encoded size (and zstd/lz4
//! sizes for blocks up to 8 MB), and allocations per block; written as a raw result file
//! (`bench/README.md`).
//!
//! Every codec's round trip is checked on each block before it is timed, in the mode it
//! is timed in ([`super::check`]); that pass is also the warm-up. A `Fresh` codec's timed
//! call starts from a fresh output `Vec`, as a user encoding or decoding one block would,
//! and its result is dropped after the clock stops; a `Reuse` codec's call writes into
//! the buffers its check left (the reused output `Vec<u8>` and decoded values).

use std::hint::black_box;
use std::io::Write as _;
use std::time::Instant;

use serde_json::{json, Value};

use super::check::round_trip;
use super::data::{block_label, Elem, PodFile, MB};
use super::peers::{codecs, Codec, Decode, Encode, PodElem};
use crate::lab::alloc;
use crate::lab::harness::median;
use crate::sizes::{lz4, zstd};

/// Blocks up to this size also get zstd (level [`crate::sizes::ZSTD_LEVEL`]) and lz4 (block format)
/// sizes.
pub const COMPRESS_MAX: usize = 8 * MB;

/// Timed rounds per measurement for a block of `bytes` (the median is reported): 15 up
/// to 1 MB, then 9, 5, and 3 from 128 MB (a full run stays within about three minutes on
/// two cores).
pub fn rounds(bytes: usize) -> usize {
    match bytes {
        b if b <= MB => 15,
        b if b <= 8 * MB => 9,
        b if b <= 64 * MB => 5,
        _ => 3,
    }
}

/// One result record (one element type, block size and library).
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// `pod_u64`, `pod_u8` or `pod_f32`.
    pub dataset: &'static str,
    /// Block size label (`1MB`).
    pub variant: String,
    /// Library id.
    pub library: &'static str,
    /// Encoded size of the block.
    pub bytes: usize,
    /// zstd ([`crate::sizes::ZSTD_LEVEL`]) size of the encoding (blocks up to [`COMPRESS_MAX`]).
    pub zstd_bytes: Option<usize>,
    /// lz4 block-format size of the encoding (blocks up to [`COMPRESS_MAX`]).
    pub lz4_bytes: Option<usize>,
    /// Median ns to encode the block.
    pub encode_ns: f64,
    /// Median ns to decode the block.
    pub decode_ns: f64,
    /// Allocations per encode (`None` when the counting allocator is not installed).
    pub encode_allocs: Option<f64>,
    /// Allocations per decode (`None` when the counting allocator is not installed).
    pub decode_allocs: Option<f64>,
    /// Note shown in the report.
    pub note: Option<&'static str>,
}

impl Record {
    /// The record as in a raw result file.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "dataset": self.dataset,
            "variant": self.variant,
            "library": self.library,
            "messages": 1,
            "bytes": self.bytes,
            "encode_ns": self.encode_ns,
            "decode_ns": self.decode_ns,
            "encode_allocs": self.encode_allocs,
            "decode_allocs": self.decode_allocs,
        });
        let obj = v.as_object_mut().expect("an object");
        if let Some(z) = self.zstd_bytes {
            obj.insert("zstd_bytes".into(), z.into());
        }
        if let Some(l) = self.lz4_bytes {
            obj.insert("lz4_bytes".into(), l.into());
        }
        if let Some(n) = self.note {
            obj.insert("note".into(), n.into());
        }
        v
    }
}

/// The raw result file (format 1) of `records`.
pub fn results_json(records: &[Record], quick: bool) -> Value {
    json!({
        "format": 1,
        "language": "rust",
        "runtime": crate::RUNTIME,
        "quick": quick,
        "records": records.iter().map(Record::to_json).collect::<Vec<_>>(),
    })
}

/// Runs `f` `rounds` times; returns the median ns and the median allocations per call
/// (`None` when [`alloc::CountingAlloc`] is not the global allocator).
fn measure<R>(rounds: usize, mut f: impl FnMut() -> R) -> (f64, Option<f64>) {
    let counting = alloc::installed();
    let mut ns = Vec::with_capacity(rounds);
    let mut allocs = Vec::with_capacity(rounds);
    for _ in 0..rounds {
        let mut elapsed = 0.0;
        let mut once = || {
            let t = Instant::now();
            let r = black_box(f());
            elapsed = t.elapsed().as_nanos() as f64;
            drop(r);
        };
        if counting {
            allocs.extend(alloc::count(&mut once).map(|n| n as f64));
        } else {
            once();
        }
        ns.push(elapsed);
    }
    let allocs = (counting && !allocs.is_empty()).then(|| median(allocs));
    (median(ns), allocs)
}

/// Prints a progress line to stderr, or nothing when `quiet`.
fn progress(quiet: bool, text: std::fmt::Arguments<'_>) {
    if !quiet {
        eprint!("{text}");
        std::io::stderr().flush().ok();
    }
}

/// Measures one codec on one block (`values`), after checking its round trip.
fn bench_codec<E: PodElem>(
    codec: &Codec<E>,
    values: &mut Vec<E>,
    rounds: usize,
) -> Result<Record, String> {
    let block = std::mem::size_of_val(values.as_slice());
    let mut checked = round_trip(codec, values)?;
    let enc = &checked.enc;
    let bytes = enc.bytes().len();
    let (zstd_bytes, lz4_bytes) = if block <= COMPRESS_MAX {
        (Some(zstd(enc.bytes())), Some(lz4(enc.bytes())))
    } else {
        (None, None)
    };
    let (encode_ns, encode_allocs) = match codec.encode {
        Encode::Fresh(f) => measure(rounds, || f(values)),
        Encode::Reuse(f) => measure(rounds, || f(values, &mut checked.enc.buf)),
    };
    let input = checked.enc.bytes();
    let (decode_ns, decode_allocs) = match codec.decode {
        Decode::Fresh(f) => measure(rounds, || f(input)),
        Decode::Reuse(f) => measure(rounds, || f(input, &mut checked.values)),
        Decode::Read { read, .. } => measure(rounds, || read(input)),
    };
    Ok(Record {
        dataset: E::ELEM.dataset(),
        variant: block_label(block),
        library: codec.library,
        bytes,
        zstd_bytes,
        lz4_bytes,
        encode_ns,
        decode_ns,
        encode_allocs,
        decode_allocs,
        note: codec.note,
    })
}

/// Benchmarks every block of `file` (whose element type is `E`) with every codec.
fn bench_file<E: PodElem>(file: PodFile, quiet: bool, records: &mut Vec<Record>) {
    let all = E::from_le_block(&file.bytes).expect("pod file holds whole values");
    drop(file.bytes);
    let size = E::ELEM.size();
    for &block in &file.blocks {
        let mut values = all[..block / size].to_vec();
        let rounds = rounds(block);
        for codec in codecs::<E>() {
            let label = block_label(block);
            progress(
                quiet,
                format_args!(
                    "[rust-pod] {} {label} {} ...",
                    E::ELEM.dataset(),
                    codec.library
                ),
            );
            match bench_codec(&codec, &mut values, rounds) {
                Ok(r) => {
                    progress(
                        quiet,
                        format_args!(
                            " encode {:.3} ms, decode {:.3} ms\n",
                            r.encode_ns / 1e6,
                            r.decode_ns / 1e6
                        ),
                    );
                    records.push(r);
                }
                Err(why) => {
                    progress(quiet, format_args!("\n"));
                    eprintln!(
                        "[rust-pod] {} {label} {}: left out, round trip fails: {why}",
                        E::ELEM.dataset(),
                        codec.library
                    );
                }
            }
        }
    }
}

/// Benchmarks every pod file (as [`super::data::read_all`] returns them); progress on
/// stderr unless `quiet`.
pub fn run(files: Vec<PodFile>, quiet: bool) -> Vec<Record> {
    let mut records = Vec::new();
    for file in files {
        match file.elem {
            Elem::U64 => bench_file::<u64>(file, quiet, &mut records),
            Elem::U8 => bench_file::<u8>(file, quiet, &mut records),
            Elem::F32 => bench_file::<f32>(file, quiet, &mut records),
        }
    }
    records
}
