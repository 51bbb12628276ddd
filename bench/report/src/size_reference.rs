//! The goal "raw size never worse than today's" (issue 17): bitwire's raw bytes per message
//! on each game dataset against the figures of a committed run, by default
//! [`DEFAULT_RUN`] (`bench/results/2026-11-27/results.json`, the last full run before the
//! issue's work), or the file given with `--size-reference`.
//!
//! Sizes are deterministic, so one figure per dataset suffices: the first platform in report
//! order that measured bitwire on the dataset, in the reference and in this run (every
//! language writes the same bytes). A figure is only compared with one of the same corpus
//! (the same message count): a quick run is not compared with a full one. A dataset the
//! reference did not measure is "new": its figure is shown, and the check is met (there is
//! nothing to be worse than; the next reference run pins it).

use crate::format::{num, thousands};
use crate::goals::{Check, Status};
use crate::load::Results;
use crate::model;
use std::path::{Path, PathBuf};

/// The committed run the sizes are compared with, relative to the repository root.
pub const DEFAULT_RUN: &str = "bench/results/2026-11-27";

/// The default reference file (`DEFAULT_RUN/results.json`, found from this crate's directory).
pub fn default_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(DEFAULT_RUN)
        .join("results.json")
}

/// bitwire's raw size on one dataset in the reference run.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// Dataset name.
    pub dataset: String,
    /// Messages in that run's corpus.
    pub messages: u64,
    /// Total bytes of their encodings.
    pub bytes: u64,
}

impl Figure {
    /// Raw bytes per message.
    pub fn per_msg(&self) -> f64 {
        self.bytes as f64 / self.messages as f64
    }
}

/// The reference run's bitwire sizes, or why there are none.
#[derive(Debug, Clone, Default)]
pub struct SizeReference {
    /// How the report names the run (`bench/results/2026-11-27`).
    pub label: String,
    /// One figure per game dataset the run measured.
    pub figures: Vec<Figure>,
    /// Why the file could not be read, if it could not.
    pub error: Option<String>,
}

impl SizeReference {
    /// Reads a merged `results.json` written by this report (format 1). A missing or
    /// unreadable file is not an error of the report: the goal says so instead.
    pub fn read(path: &Path, label: &str) -> SizeReference {
        let parsed = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: {e}", path.display()))
            .and_then(|text| Self::parse(&text).map_err(|e| format!("{}: {e}", path.display())));
        match parsed {
            Ok(figures) => SizeReference {
                label: label.into(),
                figures,
                error: None,
            },
            Err(e) => SizeReference {
                label: label.into(),
                figures: Vec::new(),
                error: Some(e),
            },
        }
    }

    /// bitwire's one-message-at-a-time figures of a merged `results.json`, first platform
    /// in report order per dataset.
    pub fn parse(text: &str) -> Result<Vec<Figure>, String> {
        let v: serde_json::Value =
            serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
        if v["format"].as_u64() != Some(model::FORMAT) {
            return Err(format!(
                "not a results.json of format {} (no \"format\": {})",
                model::FORMAT,
                model::FORMAT
            ));
        }
        let records = v["records"]
            .as_array()
            .ok_or("no \"records\" list".to_string())?;
        let mut best: Vec<((usize, usize), Figure)> = Vec::new();
        for r in records {
            let (Some(dataset), Some(messages), Some(bytes)) = (
                r["dataset"].as_str(),
                r["messages"].as_u64(),
                r["bytes"].as_u64(),
            ) else {
                continue;
            };
            if r["library"] != "bitwire"
                || !r["variant"].as_str().unwrap_or("").is_empty()
                || !model::GAME_DATASETS.contains(&dataset)
                || messages == 0
            {
                continue;
            }
            let platform = model::Platform {
                language: r["language"].as_str().unwrap_or("").into(),
                runtime: r["runtime"].as_str().unwrap_or("").into(),
            };
            let order = platform.order();
            let figure = Figure {
                dataset: dataset.into(),
                messages,
                bytes,
            };
            match best.iter_mut().find(|(_, f)| f.dataset == dataset) {
                Some(slot) if order < slot.0 => *slot = (order, figure),
                Some(_) => {}
                None => best.push((order, figure)),
            }
        }
        Ok(best.into_iter().map(|(_, f)| f).collect())
    }

    fn figure(&self, dataset: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.dataset == dataset)
    }
}

/// One check per game dataset: bitwire's raw B/msg in this run at most the reference's.
pub fn checks(results: &Results) -> Vec<Check> {
    let reference = &results.size_reference;
    let platforms = results.platforms();
    model::GAME_DATASETS
        .iter()
        .map(|&dataset| {
            let now = platforms
                .iter()
                .find_map(|p| Some((p, results.find(p, dataset, "", "bitwire")?)));
            let what = |p: Option<&model::Platform>| match p {
                Some(p) => format!("{dataset} (raw size, measured in {})", p.label()),
                None => format!("{dataset} (raw size)"),
            };
            let Some((p, record)) = now else {
                return not_measured(what(None), "bitwire not measured".into());
            };
            if let Some(e) = &reference.error {
                return not_measured(what(Some(p)), format!("no reference figures ({e})"));
            }
            let bw = record.raw_per_msg();
            let Some(old) = reference.figure(dataset) else {
                return Check {
                    what: what(Some(p)),
                    detail: format!(
                        "new: bitwire {} B/msg, no figure in {}",
                        num(bw),
                        reference.label
                    ),
                    ratio: None,
                    status: Status::Met,
                };
            };
            if old.messages != record.messages {
                return not_measured(
                    what(Some(p)),
                    format!(
                        "not comparable: {} messages here, {} in {}{}",
                        thousands(record.messages as i64),
                        thousands(old.messages as i64),
                        reference.label,
                        if results.quick { " (quick run)" } else { "" }
                    ),
                );
            }
            let r = bw / old.per_msg();
            Check {
                what: what(Some(p)),
                detail: format!(
                    "bitwire {} B/msg, {} B/msg in {}: {} (limit 1.00x)",
                    num(bw),
                    num(old.per_msg()),
                    reference.label,
                    crate::format::ratio(r)
                ),
                ratio: Some(r),
                // Bytes are whole numbers over the same message count: no tolerance.
                status: if record.bytes <= old.bytes {
                    Status::Met
                } else {
                    Status::NotMet
                },
            }
        })
        .collect()
}

fn not_measured(what: String, detail: String) -> Check {
    Check {
        what,
        detail,
        ratio: None,
        status: Status::NotMeasured,
    }
}
