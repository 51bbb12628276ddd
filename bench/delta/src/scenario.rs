//! The scenario files: one JSON line per tick of wire values ([`crate::wire`]), written by
//! the Rust generator and read by every program of the delta lab, with a manifest that
//! holds each file's FNV-1a 64 hash (readers check it).
//!
//! ```text
//! DIR/world.jsonl    {"tick":216000,"entities":[{"id":1,"kind":0,"x":…,…},…]}   one line per tick
//! DIR/cubes.jsonl    {"tick":0,"cubes":[{"id":0,"interacting":false,"x":…,…},…]}
//! DIR/manifest.json  {"format":"bitwire-delta-scenarios/1","quick":false,"ticks":600,
//!                     "files":[{"scenario":"world","file":"world.jsonl","seed":"0x…",
//!                               "ticks":600,"fnv1a64":"…"},…],
//!                     "fields":{"world":[{"name":"id","width":12},
//!                                        {"name":"x","width":17,"quant":{"min":-512.0,"max":512.0,"steps":65536}},…],
//!                               "cubes":[…]}}
//! ```

use crate::wire::{CubesTick, Field, Quant, WorldTick, CUBE_FIELDS, ENTITY_FIELDS};
use crate::{cubes, world};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// Ticks of a full run: 10 s at 60 Hz.
pub const TICKS: usize = 600;
/// Ticks in quick mode: 2 s, enough for the cube player to start rolling (1.5 s).
pub const QUICK_TICKS: usize = 120;
/// The manifest's `format`.
pub const FORMAT: &str = "bitwire-delta-scenarios/1";

/// Both scenarios, tick by tick.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenarios {
    /// Whether this is the quick (CI) length.
    pub quick: bool,
    /// The moving world.
    pub world: Vec<WorldTick>,
    /// The cube scene.
    pub cubes: Vec<CubesTick>,
}

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: String,
    /// Quick mode.
    pub quick: bool,
    /// Ticks per scenario.
    pub ticks: usize,
    /// One entry per scenario file.
    pub files: Vec<FileEntry>,
    /// Per scenario, its list element's fields in schema order (the key first).
    pub fields: BTreeMap<String, Vec<FieldEntry>>,
}

/// A list element's field in the manifest: what a reader needs to turn wire values back
/// into values (`v = min + (max - min) · q / steps` for quantized floats, §4.3).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldEntry {
    /// The field's name in `delta.bw`.
    pub name: String,
    /// Bits in the full encoding.
    pub width: u32,
    /// The grid of a quantized float (`min`, `max` as binary32 values, `steps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quant: Option<Quant>,
}

fn field_entries(fields: &[Field]) -> Vec<FieldEntry> {
    fields
        .iter()
        .map(|f| FieldEntry {
            name: f.name.into(),
            width: f.width,
            quant: f.quant,
        })
        .collect()
}

/// A scenario file in the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileEntry {
    /// `world` or `cubes`.
    pub scenario: String,
    /// File name in the directory.
    pub file: String,
    /// The generator's seed, `0x…`.
    pub seed: String,
    /// Lines (ticks).
    pub ticks: usize,
    /// FNV-1a 64 of the whole file, 16 hex digits.
    pub fnv1a64: String,
}

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Scenarios {
    /// Generates both scenarios ([`TICKS`] ticks, or [`QUICK_TICKS`]).
    pub fn generate(quick: bool) -> Scenarios {
        let ticks = if quick { QUICK_TICKS } else { TICKS };
        Scenarios {
            quick,
            world: world::generate(ticks),
            cubes: cubes::generate(ticks),
        }
    }

    /// Writes `world.jsonl`, `cubes.jsonl` and `manifest.json` into `dir` (created).
    pub fn write(&self, dir: &Path) -> Result<Manifest, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let files = vec![
            write_lines(dir, "world", world::SEED, &self.world)?,
            write_lines(dir, "cubes", cubes::SEED, &self.cubes)?,
        ];
        let manifest = Manifest {
            format: FORMAT.into(),
            quick: self.quick,
            ticks: self.world.len(),
            files,
            fields: BTreeMap::from([
                ("world".to_string(), field_entries(&ENTITY_FIELDS)),
                ("cubes".to_string(), field_entries(&CUBE_FIELDS)),
            ]),
        };
        let text = serde_json::to_string_pretty(&manifest).map_err(|e| e.to_string())? + "\n";
        let path = dir.join("manifest.json");
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(manifest)
    }

    /// Reads what [`write`](Self::write) wrote, checking the format, hashes and tick
    /// counts; returns the manifest too.
    pub fn read(dir: &Path) -> Result<(Scenarios, Manifest), String> {
        let path = dir.join("manifest.json");
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let manifest: Manifest =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if manifest.format != FORMAT {
            return Err(format!(
                "{}: format {:?}, expected {FORMAT:?}",
                path.display(),
                manifest.format
            ));
        }
        let entry = |name: &str| {
            manifest
                .files
                .iter()
                .find(|f| f.scenario == name)
                .ok_or_else(|| format!("{}: no {name} file", path.display()))
        };
        let world = read_lines(dir, entry("world")?)?;
        let cubes = read_lines(dir, entry("cubes")?)?;
        let scenarios = Scenarios {
            quick: manifest.quick,
            world,
            cubes,
        };
        Ok((scenarios, manifest))
    }
}

fn write_lines<T: Serialize>(
    dir: &Path,
    scenario: &str,
    seed: u64,
    ticks: &[T],
) -> Result<FileEntry, String> {
    let mut text = String::new();
    for t in ticks {
        text.push_str(&serde_json::to_string(t).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    let file = format!("{scenario}.jsonl");
    let path = dir.join(&file);
    std::fs::write(&path, &text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(FileEntry {
        scenario: scenario.into(),
        file,
        seed: format!("{seed:#x}"),
        ticks: ticks.len(),
        fnv1a64: format!("{:016x}", fnv1a64(text.as_bytes())),
    })
}

fn read_lines<T: DeserializeOwned>(dir: &Path, entry: &FileEntry) -> Result<Vec<T>, String> {
    let path = dir.join(&entry.file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let hash = format!("{:016x}", fnv1a64(text.as_bytes()));
    if hash != entry.fnv1a64 {
        return Err(format!(
            "{}: FNV-1a 64 is {hash}, the manifest says {}",
            path.display(),
            entry.fnv1a64
        ));
    }
    let ticks = text
        .lines()
        .enumerate()
        .map(|(i, line)| {
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))
        })
        .collect::<Result<Vec<T>, String>>()?;
    if ticks.len() != entry.ticks {
        return Err(format!(
            "{}: {} ticks, the manifest says {}",
            path.display(),
            ticks.len(),
            entry.ticks
        ));
    }
    Ok(ticks)
}
