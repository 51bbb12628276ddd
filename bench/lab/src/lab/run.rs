//! The Rust lab run: read the corpus (checking the manifest's hashes), measure every
//! library on every game dataset (sizes, encode and decode time, allocations), then the
//! packet64 scaling, and return the raw result JSON of `bench/README.md`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use bitwire_compiler::fingerprint::fnv1a64;
use bitwire_example::game as bw;
use serde_json::{json, Value};

use super::alloc;
use super::contender::Contender;
use super::harness::{compare, Plan};
use super::scaling::scaling;
use super::suite::{self, Game};
use crate::corpus;
use crate::peers::codecs::{Bincode1, Bincode2, Bitcode, Postcard, Wincode};
use crate::peers::Codec;
use crate::sizes::{lz4, zstd};

/// What to run and how long to measure.
#[derive(Debug, Clone)]
pub struct Options {
    /// Quick mode (recorded in the output; chooses the defaults below).
    pub quick: bool,
    /// Corpus directory written by `--bin corpus`.
    pub corpus: PathBuf,
    /// Timing of the datasets.
    pub plan: Plan,
    /// packet64 scaling sizes.
    pub scaling: Vec<usize>,
    /// Timing of a scaling size.
    pub scaling_plan: fn(usize, bool) -> Plan,
}

fn scaling_plan(n: usize, quick: bool) -> Plan {
    Plan {
        rounds: match (quick, n) {
            (true, _) => 5,
            (false, n) if n >= 10_000_000 => 5,
            (false, n) if n >= 1_000_000 => 7,
            _ => 15,
        },
        min_sample: Duration::from_millis(if quick { 1 } else { 5 }),
    }
}

impl Options {
    /// The defaults of full or quick mode (full: ≤ 2 minutes on two cores; quick: a few
    /// seconds).
    pub fn new(quick: bool, corpus: PathBuf) -> Self {
        Options {
            quick,
            corpus,
            plan: if quick {
                Plan {
                    rounds: 9,
                    min_sample: Duration::from_millis(2),
                }
            } else {
                Plan {
                    rounds: 31,
                    min_sample: Duration::from_millis(5),
                }
            },
            scaling: if quick {
                vec![100, 1_000, 10_000]
            } else {
                vec![100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000]
            },
            scaling_plan,
        }
    }
}

fn progress(line: String) {
    eprintln!("[rust] {line}");
}

/// The frames of one corpus dataset, its `.bin` file checked against the manifest.
fn read_frames(dir: &Path, manifest: &Value, name: &str) -> Result<Vec<Vec<u8>>, String> {
    let entry = manifest["datasets"]
        .as_array()
        .and_then(|a| a.iter().find(|d| d["name"] == name))
        .ok_or_else(|| format!("dataset {name} is not in the manifest"))?;
    let path = dir.join(format!("{name}.bin"));
    let bin = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let hash = format!("{:016x}", fnv1a64(&bin));
    if entry["bin_fnv1a64"].as_str() != Some(hash.as_str()) {
        return Err(format!(
            "{}: FNV-1a 64 {hash} does not match the manifest",
            path.display()
        ));
    }
    let frames = corpus::read_bin(&bin).ok_or_else(|| format!("{}: truncated", path.display()))?;
    if entry["count"].as_u64() != Some(frames.len() as u64) {
        return Err(format!(
            "{}: message count differs from the manifest",
            path.display()
        ));
    }
    Ok(frames.into_iter().map(<[u8]>::to_vec).collect())
}

/// Measures one view of one dataset and appends its records.
fn measure(
    dataset: &str,
    variant: &str,
    contenders: Vec<Result<Contender, String>>,
    plan: Plan,
    records: &mut Vec<Value>,
) {
    let label = if variant.is_empty() {
        dataset.to_string()
    } else {
        format!("{dataset} {variant}")
    };
    let mut cs: Vec<Contender> = contenders
        .into_iter()
        .filter_map(|c| {
            c.map_err(|e| progress(format!("{label}: left out: {e}")))
                .ok()
        })
        .collect();
    let Some(messages) = cs.first().map(|c| c.messages) else {
        return;
    };
    let names: Vec<&str> = cs.iter().map(|c| c.library).collect();
    progress(format!("{label}: encode, {} interleaved", names.join(", ")));
    let enc = compare(
        plan,
        messages,
        &mut cs
            .iter_mut()
            .map(|c| &mut *c.encode as _)
            .collect::<Vec<_>>(),
    );
    progress(format!("{label}: decode, {} interleaved", names.join(", ")));
    let dec = compare(
        plan,
        messages,
        &mut cs
            .iter_mut()
            .map(|c| &mut *c.decode as _)
            .collect::<Vec<_>>(),
    );
    progress(format!("{label}: allocations, sizes, zstd, lz4"));
    for ((c, e), d) in cs.iter_mut().zip(enc).zip(dec) {
        let per = |n: Option<u64>| n.map(|n| n as f64 / messages as f64);
        let encode_allocs = per(alloc::count(&mut *c.encode));
        let decode_allocs = per(alloc::count(&mut *c.decode));
        let stream = c.stream();
        records.push(json!({
            "dataset": dataset,
            "variant": variant,
            "library": c.library,
            "messages": messages,
            "bytes": stream.len(),
            "zstd_bytes": zstd(&stream),
            "lz4_bytes": lz4(&stream),
            "encode_ns": e,
            "decode_ns": d,
            "encode_allocs": encode_allocs,
            "decode_allocs": decode_allocs,
            "note": c.note,
        }));
    }
}

/// Decodes a dataset's frames with the generated code, then measures both views.
fn dataset<B: Game>(
    dir: &Path,
    manifest: &Value,
    plan: Plan,
    records: &mut Vec<Value>,
) -> Result<Vec<B>, String>
where
    Bitcode: Codec<B::Plain> + Codec<Vec<B::Plain>>,
    Wincode: Codec<B::Plain> + Codec<Vec<B::Plain>>,
    Bincode1: Codec<B::Plain> + Codec<Vec<B::Plain>>,
    Bincode2: Codec<B::Plain> + Codec<Vec<B::Plain>>,
    Postcard: Codec<B::Plain> + Codec<Vec<B::Plain>>,
{
    let name = B::DATASET;
    let frames = read_frames(dir, manifest, name)?;
    let msgs: Vec<B> = frames
        .iter()
        .map(|f| bitwire::decode_packed(f))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{name}: the generated code rejects a corpus frame: {e:?}"))?;
    progress(format!(
        "{name}: {} messages, checking every library",
        msgs.len()
    ));
    measure(name, "", suite::contenders(&msgs), plan, records);
    measure(name, "batch", suite::batch_contenders(&msgs), plan, records);
    Ok(msgs)
}

/// Runs everything; the raw result JSON (format 1).
pub fn run(opts: &Options) -> Result<Value, String> {
    let dir = &opts.corpus;
    let manifest = corpus::read_manifest(dir)?;
    if !alloc::installed() {
        progress("allocation counting is off (no counting global allocator)".to_string());
    }
    let mut records = Vec::new();
    let packets = dataset::<bw::Packet64>(dir, &manifest, opts.plan, &mut records)?;
    dataset::<bw::Snapshot>(dir, &manifest, opts.plan, &mut records)?;
    dataset::<bw::Input>(dir, &manifest, opts.plan, &mut records)?;
    dataset::<bw::Events>(dir, &manifest, opts.plan, &mut records)?;
    dataset::<bw::Profiles>(dir, &manifest, opts.plan, &mut records)?;
    let quick = opts.quick;
    let plan = opts.scaling_plan;
    let scaling = scaling(&opts.scaling, &packets, |n| plan(n, quick), &mut progress)?;
    Ok(json!({
        "format": 1,
        "language": "rust",
        "runtime": crate::RUNTIME,
        "quick": opts.quick,
        "records": records,
        "scaling": scaling,
    }))
}
