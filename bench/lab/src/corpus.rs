//! Corpus files: the datasets written once, so every language benchmarks the same values
//! and bytes.
//!
//! Layout of a corpus directory (default `target/lab/corpus/` at the workspace root, or
//! `target/lab/corpus-quick/` with `--quick`; ignored by git):
//!
//! - `<dataset>.jsonl` — one message per line, in bitwire's JSON mapping (version 1,
//!   `docs/json-mapping.md`) of the message type named in the manifest. Produced by the
//!   compiler's reference codec from the bytes below, so any bitwire JSON reader (and
//!   `bitwire encode --schema examples/game.bw --type <T>`) reads it.
//! - `<dataset>.bin` — the same messages' bitwire encodings (top-level values as
//!   `encode` writes them, no message-id header), each preceded by its length as a
//!   4-byte little-endian unsigned integer.
//! - `manifest.json` — `{"format": 1, "schema": "examples/game.bw", "schema_fingerprint":
//!   "<hex>", "datasets": [{"name", "type", "seed", "count", "bin_bytes", "payload_bytes",
//!   "bin_fnv1a64", "jsonl_fnv1a64"}, ...]}`; the hashes are FNV-1a 64 of the whole
//!   files, as 16 lowercase hex digits, for other languages to check what they read.
//!   The manifest also lists the `pod` files under `"pod"` (below).
//! - `pod_u64.bin`, `pod_u8.bin`, `pod_f32.bin` — the `pod` dataset (messages `PodU64`,
//!   `PodU8`, `PodF32` of `bench/schemas/pod.bw`): the raw little-endian values of the
//!   largest block, no framing. Each block is a prefix of the file. Manifest entries:
//!   `"pod": [{"name": "pod_u64", "type": "PodU64", "elem": "u64", "seed", "bytes",
//!   "blocks": [bytes, ...], "fnv1a64"}, ...]`. Values and seeds: [`crate::pod::data`].
//!
//! Writing checks, for every message, that the reference codec encodes the JSON line back
//! to exactly the generated code's bytes.

use bitwire::Packed;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec;
use bitwire_compiler::fingerprint::fnv1a64;
use bitwire_compiler::ir::Schema;
use bitwire_example::game;
use serde_json::json;

use crate::datasets::{self, Scale};

/// Version of the corpus layout described in this module.
pub const FORMAT: u32 = 1;

/// The example schema, as the generated code was compiled from.
pub const GAME_BW: &str = include_str!("../../../examples/game.bw");

/// The default corpus directory at the workspace root: `target/lab/corpus`, or
/// `target/lab/corpus-quick` for `quick` (every binary's `--quick` means this one).
pub fn default_dir(quick: bool) -> PathBuf {
    let name = if quick { "corpus-quick" } else { "corpus" };
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../target/lab")
        .join(name)
}

/// Reads and parses `dir/manifest.json`.
pub fn read_manifest(dir: &Path) -> Result<serde_json::Value, String> {
    let path = dir.join("manifest.json");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The example schema, compiled.
pub fn schema() -> Schema {
    bitwire_compiler::compile_source("game.bw", GAME_BW).expect("examples/game.bw compiles")
}

/// One dataset as corpus data: its name, message type, seed, and each message's bitwire
/// encoding.
pub struct Dataset {
    /// Dataset name (`snapshot`).
    pub name: &'static str,
    /// Message type in `examples/game.bw` (`Snapshot`).
    pub ty: &'static str,
    /// Seed of its generator.
    pub seed: u64,
    /// The messages' encodings.
    pub frames: Vec<Vec<u8>>,
}

fn frames<T>(msgs: &[T], enc: fn(&T) -> Result<Vec<u8>, bitwire::Error>) -> Vec<Vec<u8>> {
    msgs.iter()
        .map(|m| enc(m).expect("dataset values encode"))
        .collect()
}

/// Every dataset at `scale`, encoded by the generated Rust code.
pub fn datasets(scale: Scale) -> Vec<Dataset> {
    vec![
        Dataset {
            name: "packet64",
            ty: "Packet64",
            seed: 42,
            frames: frames(
                &datasets::packet64(scale.packet64),
                game::Packet64::encode_to_vec,
            ),
        },
        Dataset {
            name: "snapshot",
            ty: "Snapshot",
            seed: datasets::SEED_SNAPSHOT,
            frames: frames(
                &datasets::snapshot(scale.snapshot_ticks, scale.entities),
                game::Snapshot::encode_to_vec,
            ),
        },
        Dataset {
            name: "input",
            ty: "Input",
            seed: datasets::SEED_INPUT,
            frames: frames(
                &datasets::input(scale.input_clients, scale.input_ticks),
                game::Input::encode_to_vec,
            ),
        },
        Dataset {
            name: "events",
            ty: "Events",
            seed: datasets::SEED_EVENTS,
            frames: frames(&datasets::events(scale.events), game::Events::encode_to_vec),
        },
        Dataset {
            name: "profiles",
            ty: "Profiles",
            seed: crate::profiles::SEED_PROFILES,
            frames: frames(
                &crate::profiles::profiles(scale.profiles),
                game::Profiles::encode_to_vec,
            ),
        },
    ]
}

/// The `.bin` file contents of `frames`: each frame preceded by its u32 LE length.
pub fn bin_file(frames: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(frames.iter().map(|f| f.len() + 4).sum());
    for f in frames {
        out.extend_from_slice(&(f.len() as u32).to_le_bytes());
        out.extend_from_slice(f);
    }
    out
}

/// Splits a `.bin` file into frames; `None` if it is truncated.
pub fn read_bin(mut bytes: &[u8]) -> Option<Vec<&[u8]>> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let len = u32::from_le_bytes(bytes.get(..4)?.try_into().ok()?) as usize;
        out.push(bytes.get(4..4 + len)?);
        bytes = &bytes[4 + len..];
    }
    Some(out)
}

/// The `.jsonl` file contents of `d`, checked against the reference codec both ways.
pub fn jsonl_file(schema: &Schema, d: &Dataset) -> String {
    let ty = schema
        .type_by_name(d.ty)
        .expect("dataset type is in the schema");
    let mut out = String::new();
    for (i, frame) in d.frames.iter().enumerate() {
        let value = codec::decode_to_json(schema, ty, frame)
            .unwrap_or_else(|e| panic!("{} #{i}: reference decode failed: {e:?}", d.name));
        let back = codec::encode_json(schema, ty, &value)
            .unwrap_or_else(|e| panic!("{} #{i}: reference encode failed: {e:?}", d.name));
        assert_eq!(
            &back, frame,
            "{} #{i}: reference codec disagrees with generated code",
            d.name
        );
        out.push_str(&serde_json::to_string(&value).expect("JSON serializes"));
        out.push('\n');
    }
    out
}

/// Writes every dataset at `scale` into `dir` (created if missing); returns the manifest.
pub fn write(dir: &Path, scale: Scale) -> io::Result<serde_json::Value> {
    fs::create_dir_all(dir)?;
    let schema = schema();
    let mut entries = Vec::new();
    for d in datasets(scale) {
        let bin = bin_file(&d.frames);
        let jsonl = jsonl_file(&schema, &d);
        fs::write(dir.join(format!("{}.bin", d.name)), &bin)?;
        fs::write(dir.join(format!("{}.jsonl", d.name)), &jsonl)?;
        entries.push(json!({
            "name": d.name,
            "type": d.ty,
            "seed": d.seed,
            "count": d.frames.len(),
            "bin_bytes": bin.len(),
            "payload_bytes": d.frames.iter().map(Vec::len).sum::<usize>(),
            "bin_fnv1a64": format!("{:016x}", fnv1a64(&bin)),
            "jsonl_fnv1a64": format!("{:016x}", fnv1a64(jsonl.as_bytes())),
        }));
    }
    let manifest = json!({
        "format": FORMAT,
        "schema": "examples/game.bw",
        "schema_fingerprint": format!("{:016x}", game::SCHEMA_FINGERPRINT),
        "datasets": entries,
        "pod": crate::pod::data::write_files(dir, scale.pod_blocks)?,
    });
    let text = serde_json::to_string_pretty(&manifest).expect("JSON serializes");
    fs::write(dir.join("manifest.json"), text + "\n")?;
    Ok(manifest)
}
