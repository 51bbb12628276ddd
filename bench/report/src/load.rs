//! Reading a results directory (`raw/*.json` and `machine.json`) into one merged set, and
//! the merged `results.json`.

use crate::model::{self, Machine, Platform, RawFile, Record, Scaling};
use serde::Serialize;
use std::path::Path;

/// A record with the platform that measured it.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    /// Where it was measured.
    #[serde(flatten)]
    pub platform: Platform,
    /// The file it came from (`rust.json`).
    pub file: String,
    /// The measurement.
    #[serde(flatten)]
    pub record: Record,
}

/// A packet64 scaling point with the platform that measured it.
#[derive(Debug, Clone, Serialize)]
pub struct ScaleRow {
    /// Where it was measured.
    #[serde(flatten)]
    pub platform: Platform,
    /// The measurement.
    #[serde(flatten)]
    pub point: Scaling,
}

/// One raw file as read, without its records (those are in [`Results::rows`]).
#[derive(Debug, Clone, Serialize)]
pub struct FileInfo {
    /// File name inside `raw/`.
    pub file: String,
    /// Its language.
    pub language: String,
    /// Its runtime string, as written.
    pub runtime: String,
    /// Its platform key (`ts-node`).
    pub platform: String,
    /// Record and scaling counts.
    pub records: usize,
    /// Scaling points.
    pub scaling: usize,
}

/// Everything one run measured, merged.
#[derive(Debug, Clone, Default)]
pub struct Results {
    /// The machine and toolchains.
    pub machine: Machine,
    /// Whether the run was in quick mode.
    pub quick: bool,
    /// The raw files read, in name order.
    pub files: Vec<FileInfo>,
    /// Every record.
    pub rows: Vec<Row>,
    /// Every packet64 scaling point.
    pub scaling: Vec<ScaleRow>,
    /// bitwire's sizes in the committed run the raw-size goal compares with (not part of
    /// this run; set by [`crate::write_report_with`]).
    pub size_reference: crate::size_reference::SizeReference,
    /// Compiler speed (`raw/compiler.json`), if measured.
    pub compiler: Option<crate::compiler::Run>,
}

impl Results {
    /// Merges parsed raw files (name, content) with the machine record. Fails if two files
    /// report the same platform, dataset, view and library, or if quick and full runs mix.
    /// Files are taken in platform order (Rust, Go, TS on Node, Bun, Deno), then by name.
    pub fn merge(machine: Machine, mut files: Vec<(String, RawFile)>) -> Result<Results, String> {
        files.sort_by(|(a, fa), (b, fb)| {
            (Platform::of(fa).order(), a).cmp(&(Platform::of(fb).order(), b))
        });
        let mut out = Results {
            quick: machine.quick,
            machine,
            ..Results::default()
        };
        for (name, file) in files {
            if file.quick != out.quick {
                return Err(format!(
                    "{name}: quick = {} but machine.json says quick = {} (mixed runs?)",
                    file.quick, out.quick
                ));
            }
            let platform = Platform::of(&file);
            for r in &file.records {
                if let Some(prev) = out.rows.iter().find(|p| {
                    p.platform == platform
                        && p.record.dataset == r.dataset
                        && p.record.variant == r.variant
                        && p.record.library == r.library
                }) {
                    return Err(format!(
                        "{name}: {} {} {:?} on {} is also reported by {}",
                        r.library,
                        r.dataset,
                        r.variant,
                        platform.label(),
                        prev.file
                    ));
                }
            }
            out.files.push(FileInfo {
                file: name.clone(),
                language: file.language.clone(),
                runtime: file.runtime.clone(),
                platform: platform.key(),
                records: file.records.len(),
                scaling: file.scaling.len(),
            });
            out.rows.extend(file.records.into_iter().map(|record| Row {
                platform: platform.clone(),
                file: name.clone(),
                record,
            }));
            out.scaling
                .extend(file.scaling.into_iter().map(|point| ScaleRow {
                    platform: platform.clone(),
                    point,
                }));
        }
        Ok(out)
    }

    /// Reads `dir/machine.json` and every `dir/raw/*.json`.
    pub fn read_dir(dir: &Path) -> Result<Results, String> {
        let machine_path = dir.join("machine.json");
        let text = std::fs::read_to_string(&machine_path)
            .map_err(|e| format!("{}: {e} (bench/run.sh writes it)", machine_path.display()))?;
        let machine: Machine =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", machine_path.display()))?;
        let raw = dir.join("raw");
        let entries = std::fs::read_dir(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
        let mut names = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("{}: {e}", raw.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".json") && name != crate::compiler::FILE {
                names.push(name);
            }
        }
        names.sort();
        if names.is_empty() {
            return Err(format!("{}: no result files (*.json)", raw.display()));
        }
        let mut files = Vec::new();
        for name in names {
            let path = raw.join(&name);
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push((
                name.clone(),
                model::parse_raw(&format!("raw/{name}"), &text)?,
            ));
        }
        let quick = machine.quick;
        let mut results = Results::merge(machine, files)?;
        results.compiler = crate::compiler::read(dir, quick)?;
        Ok(results)
    }

    /// Platforms that reported anything, in report order.
    pub fn platforms(&self) -> Vec<Platform> {
        let mut out: Vec<Platform> = Vec::new();
        let all = self
            .rows
            .iter()
            .map(|r| &r.platform)
            .chain(self.scaling.iter().map(|s| &s.platform));
        for p in all {
            if !out.contains(p) {
                out.push(p.clone());
            }
        }
        out.sort_by_key(Platform::order);
        out
    }

    /// The record of `library` on a dataset view and platform, if measured.
    pub fn find(
        &self,
        platform: &Platform,
        dataset: &str,
        variant: &str,
        library: &str,
    ) -> Option<&Record> {
        self.rows
            .iter()
            .find(|r| {
                &r.platform == platform
                    && r.record.dataset == dataset
                    && r.record.variant == variant
                    && r.record.library == library
            })
            .map(|r| &r.record)
    }

    /// Dataset views (dataset, variant) that have records, in report order: the game
    /// datasets one message at a time, then their batch views, then pod blocks by size.
    pub fn views(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for r in &self.rows {
            let v = (r.record.dataset.clone(), r.record.variant.clone());
            if !out.contains(&v) {
                out.push(v);
            }
        }
        out.sort_by_key(|(d, v)| view_order(d, v));
        out
    }
}

/// Sort key of a dataset view.
fn view_order(dataset: &str, variant: &str) -> (usize, usize, u64) {
    if let Some(i) = model::GAME_DATASETS.iter().position(|d| *d == dataset) {
        (usize::from(variant == "batch"), i, 0)
    } else {
        let i = model::index_or_end(model::POD_DATASETS, dataset);
        (2, i, model::block_bytes(variant).unwrap_or(u64::MAX))
    }
}

/// The merged `results.json`.
#[derive(Debug, Serialize)]
pub struct Merged<'a> {
    /// Same numbering as the raw files.
    pub format: u64,
    /// What wrote it.
    pub generated_by: &'static str,
    /// Whether the run was in quick mode (numbers not meaningful).
    pub quick: bool,
    /// The machine and toolchains.
    pub machine: &'a Machine,
    /// Platform keys that reported anything (`rust`, `go`, `ts-node`, ...).
    pub platforms: Vec<String>,
    /// The raw files merged.
    pub files: &'a [FileInfo],
    /// Every record, with `language`, `runtime` (platform runtime) and `file` added.
    pub records: &'a [Row],
    /// Every packet64 scaling point, with its platform.
    pub scaling: &'a [ScaleRow],
    /// The goals as evaluated.
    pub goals: &'a [crate::goals::Goal],
    /// Compiler speed, if measured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compiler: Option<&'a crate::compiler::Run>,
}
