//! The bitwire bytes of the scenarios, for the Go and TypeScript programs (`go/`, `ts/`):
//! every tick's full encoding and its deltas at both baseline ages, as the reference codec
//! writes them ([`crate::delta_sizes::reference`]). One generator (Rust) makes the ticks;
//! the other languages decode the full encodings with their own generated decoders (a
//! check of its own) and must write the deltas byte for byte.
//!
//! ```text
//! DIR/world.bin, DIR/cubes.bin   records: a u32 little-endian length, then that many bytes;
//!                                `ticks` full encodings (tick 0, 1, …), then for each age
//!                                of `ages` the delta of tick t against tick max(0, t − age),
//!                                t = 1 … ticks − 1
//! DIR/encodings.json             {"format":"bitwire-delta-encodings/1","quick":…,"ticks":…,
//!                                 "ages":[1,6],"scenarios":{"world":"<fnv1a64>",…},
//!                                 "files":[{"scenario":"world","message":"World",
//!                                           "file":"world.bin","records":…,"fnv1a64":"…"},…]}
//! ```
//!
//! `scenarios` holds the hashes of the scenario files (`manifest.json`'s) the bytes were made
//! from, which every raw file repeats; `fnv1a64` is the hash of the binary file. Readers
//! check both, and the record count.

use crate::delta_sizes::{Reference, AGES};
use crate::scenario::{fnv1a64, Manifest, Scenarios};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The `format` of `encodings.json`.
pub const FORMAT: &str = "bitwire-delta-encodings/1";
/// The index file's name in the scenarios' directory.
pub const FILE: &str = "encodings.json";

/// `encodings.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Encodings {
    /// [`FORMAT`].
    pub format: String,
    /// Quick mode (the scenarios').
    pub quick: bool,
    /// Ticks per scenario.
    pub ticks: usize,
    /// The baseline ages of the deltas, in file order.
    pub ages: Vec<usize>,
    /// The FNV-1a 64 of each scenario file the bytes were made from (its manifest's).
    pub scenarios: BTreeMap<String, String>,
    /// One binary file per scenario.
    pub files: Vec<EncodingFile>,
}

/// One scenario's binary file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodingFile {
    /// `world` or `cubes`.
    pub scenario: String,
    /// The message of `delta.bw` encoded (`World`, `Cubes`).
    pub message: String,
    /// File name in the directory.
    pub file: String,
    /// Records in the file: `ticks + ages.len() × (ticks − 1)`.
    pub records: usize,
    /// FNV-1a 64 of the whole file, 16 hex digits.
    pub fnv1a64: String,
}

/// Computes both scenarios' reference bytes and writes them and [`FILE`] into `dir`
/// (where `manifest` describes the scenario files of `s`).
pub fn write(dir: &Path, s: &Scenarios, manifest: &Manifest) -> Result<Encodings, String> {
    let references = [
        (
            "world",
            "World",
            crate::delta_sizes::reference("world", "World", &s.world)?,
        ),
        (
            "cubes",
            "Cubes",
            crate::delta_sizes::reference("cubes", "Cubes", &s.cubes)?,
        ),
    ];
    let mut files = Vec::new();
    for (scenario, message, r) in &references {
        let mut bytes = Vec::new();
        let mut records = 0;
        for record in r.full.iter().chain(r.deltas.iter().flatten()) {
            let len = u32::try_from(record.len())
                .map_err(|_| format!("{scenario}: a record over 4 GiB"))?;
            bytes.extend_from_slice(&len.to_le_bytes());
            bytes.extend_from_slice(record);
            records += 1;
        }
        let file = format!("{scenario}.bin");
        let path = dir.join(&file);
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        files.push(EncodingFile {
            scenario: (*scenario).into(),
            message: (*message).into(),
            file,
            records,
            fnv1a64: format!("{:016x}", fnv1a64(&bytes)),
        });
    }
    let index = Encodings {
        format: FORMAT.into(),
        quick: s.quick,
        ticks: s.world.len(),
        ages: AGES.iter().map(|&(age, _)| age).collect(),
        scenarios: manifest
            .files
            .iter()
            .map(|f| (f.scenario.clone(), f.fnv1a64.clone()))
            .collect(),
        files,
    };
    let text = serde_json::to_string_pretty(&index).map_err(|e| e.to_string())? + "\n";
    let path = dir.join(FILE);
    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(index)
}

/// Reads what [`write`] wrote, checking the format, the hashes and the record counts.
pub fn read(dir: &Path) -> Result<(Encodings, BTreeMap<String, Reference>), String> {
    let path = dir.join(FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let index: Encodings =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if index.format != FORMAT {
        return Err(format!(
            "{}: format {:?}, expected {FORMAT:?}",
            path.display(),
            index.format
        ));
    }
    let mut out = BTreeMap::new();
    for f in &index.files {
        let path = dir.join(&f.file);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let hash = format!("{:016x}", fnv1a64(&bytes));
        if hash != f.fnv1a64 {
            return Err(format!(
                "{}: FNV-1a 64 is {hash}, {FILE} says {}",
                path.display(),
                f.fnv1a64
            ));
        }
        let mut records = records(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let per_age = index.ticks.saturating_sub(1);
        let want = index.ticks + index.ages.len() * per_age;
        if records.len() != want || f.records != want {
            return Err(format!(
                "{}: {} records, {FILE} says {}, {} ticks at {} ages make {want}",
                path.display(),
                records.len(),
                f.records,
                index.ticks,
                index.ages.len()
            ));
        }
        let deltas = records.split_off(index.ticks);
        let reference = Reference {
            full: records,
            deltas: (0..index.ages.len())
                .map(|a| deltas[a * per_age..(a + 1) * per_age].to_vec())
                .collect(),
        };
        out.insert(f.scenario.clone(), reference);
    }
    Ok((index, out))
}

/// The records of a binary file.
fn records(mut bytes: &[u8]) -> Result<Vec<Vec<u8>>, String> {
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let (len, rest) = bytes
            .split_first_chunk::<4>()
            .ok_or("a record length cut short")?;
        let len = u32::from_le_bytes(*len) as usize;
        if rest.len() < len {
            return Err(format!(
                "record {} claims {len} bytes, {} left",
                out.len(),
                rest.len()
            ));
        }
        out.push(rest[..len].to_vec());
        bytes = &rest[len..];
    }
    Ok(out)
}
