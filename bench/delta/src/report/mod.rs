//! The delta lab's report: reads every raw file of one run (`DIR/raw/*.json`,
//! [`crate::raw`]) and `DIR/machine.json`, judges issue 14's goals, and writes
//! `results.json` (the merged raw files and the goals), `summary.md` and `report.html`
//! through the lab report's document model (`bitwire-report`: the same Markdown and
//! self-contained HTML writers, inline SVG charts, no script).
//!
//! Every figure comes from a raw file; every ratio is to a figure of the same run. The raw
//! files must describe the same scenario files (their FNV-1a 64 hashes), the same number
//! of ticks and the same mode.

pub mod codes;
pub mod doc;
pub mod goals;
pub mod timings;

use crate::raw::{RawFile, Series, Timing, CODECS};
use crate::stats::{summarize, Summary};
use bitwire_report::goals::{Goal, Status};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Where the lead's goal explanations live (`## <goal id>` then the text).
pub const NOTES: &str = "bench/delta/goals-notes.md";

/// The raw files of one run.
#[derive(Debug, Clone)]
pub struct Results {
    /// Quick mode.
    pub quick: bool,
    /// Ticks per scenario.
    pub ticks: usize,
    /// `(file name, contents)`, sorted by name.
    pub files: Vec<(String, RawFile)>,
    /// `machine.json` (empty if there is none).
    pub machine: BTreeMap<String, serde_json::Value>,
}

impl Results {
    /// Merges raw files, checking that they belong to one run.
    pub fn new(
        mut files: Vec<(String, RawFile)>,
        machine: BTreeMap<String, serde_json::Value>,
    ) -> Result<Results, String> {
        files.sort_by(|a, b| a.0.cmp(&b.0));
        let (first_name, first) = files.first().ok_or("no raw files")?;
        let mut seen = BTreeMap::new();
        for (name, f) in &files {
            f.check().map_err(|e| format!("{name}: {e}"))?;
            if f.quick != first.quick || f.ticks != first.ticks || f.scenarios != first.scenarios {
                return Err(format!(
                    "{name} and {first_name} measured different runs (mode, ticks or scenario files differ)"
                ));
            }
            for s in &f.series {
                if let Some(other) = seen.insert((s.scenario.clone(), s.codec.clone()), name) {
                    return Err(format!("{} {}: in {other} and {name}", s.scenario, s.codec));
                }
            }
        }
        if let Some(q) = machine.get("quick").and_then(serde_json::Value::as_bool) {
            if q != first.quick {
                return Err("machine.json and the raw files disagree on quick mode".into());
            }
        }
        Ok(Results {
            quick: first.quick,
            ticks: first.ticks,
            machine,
            files,
        })
    }

    /// Reads `dir/raw/*.json` and `dir/machine.json` (if present).
    pub fn read_dir(dir: &Path) -> Result<Results, String> {
        let raw = dir.join("raw");
        let entries = std::fs::read_dir(&raw).map_err(|e| format!("{}: {e}", raw.display()))?;
        let mut files = Vec::new();
        for entry in entries {
            let path = entry.map_err(|e| e.to_string())?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let file: RawFile =
                serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            files.push((name, file));
        }
        let machine_path = dir.join("machine.json");
        let machine = match std::fs::read_to_string(&machine_path) {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|e| format!("{}: {e}", machine_path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
            Err(e) => return Err(format!("{}: {e}", machine_path.display())),
        };
        Results::new(files, machine)
    }

    /// The series of `codec` on `scenario`, with the file that measured it.
    pub fn series(&self, scenario: &str, codec: &str) -> Option<(&RawFile, &Series)> {
        self.files.iter().find_map(|(_, f)| {
            f.series
                .iter()
                .find(|s| s.scenario == scenario && s.codec == codec)
                .map(|s| (f, s))
        })
    }

    /// Every series of `scenario`, in [`CODECS`] order.
    pub fn scenario_series(&self, scenario: &str) -> Vec<(&RawFile, &Series)> {
        CODECS
            .iter()
            .filter_map(|c| self.series(scenario, c))
            .collect()
    }

    /// The summary of a series over the ticks after the first (tick 0 is the join, where
    /// every encoding sends the whole state).
    pub fn summary(&self, scenario: &str, codec: &str) -> Option<Summary> {
        self.series(scenario, codec)
            .and_then(|(_, s)| summarize(s.bytes.get(1..).unwrap_or_default()))
    }

    /// Every timing, in file order.
    pub fn timings(&self) -> Vec<(&RawFile, &Timing)> {
        self.files
            .iter()
            .flat_map(|(_, f)| f.timings.iter().map(move |t| (f, t)))
            .collect()
    }

    /// The format measurement (from the first file that has one).
    pub fn codes(&self) -> &[crate::codes::CodesRow] {
        self.files
            .iter()
            .map(|(_, f)| f.codes.as_slice())
            .find(|c| !c.is_empty())
            .unwrap_or_default()
    }
}

/// `results.json`: the merged raw files and the goals.
#[derive(Serialize)]
struct Merged<'a> {
    format: &'static str,
    generated_by: &'static str,
    quick: bool,
    ticks: usize,
    machine: &'a BTreeMap<String, serde_json::Value>,
    files: BTreeMap<&'a str, &'a RawFile>,
    goals: &'a [Goal],
}

/// What [`write`] produced.
#[derive(Debug)]
pub struct Written {
    /// The goals as judged.
    pub goals: Vec<Goal>,
    /// One line: goals met, series found.
    pub verdict: String,
    /// Whether every series the goals need was measured.
    pub complete: bool,
    /// What is missing, if anything.
    pub missing: Vec<String>,
    /// `summary.md`.
    pub markdown: String,
    /// `report.html`.
    pub html: String,
    /// `results.json`.
    pub json: String,
}

/// Builds the outputs from merged results and the goal notes, without I/O.
pub fn render(results: &Results, notes: &BTreeMap<String, String>) -> Result<Written, String> {
    let goals = goals::evaluate(results, notes);
    let merged = Merged {
        format: "bitwire-delta-results/1",
        generated_by: "deltabench report",
        quick: results.quick,
        ticks: results.ticks,
        machine: &results.machine,
        files: results.files.iter().map(|(n, f)| (n.as_str(), f)).collect(),
        goals: &goals,
    };
    let json = serde_json::to_string(&merged).map_err(|e| e.to_string())? + "\n";
    let document = doc::build(results, goals.clone());
    let missing = goals::missing(results);
    let met = goals.iter().filter(|g| g.status == Status::Met).count();
    let series: usize = results.files.iter().map(|(_, f)| f.series.len()).sum();
    Ok(Written {
        verdict: format!(
            "{series} series from {} raw files; goals met {met}/{}{}",
            results.files.len(),
            goals.len(),
            if missing.is_empty() {
                String::new()
            } else {
                format!("; missing: {}", missing.join("; "))
            }
        ),
        complete: missing.is_empty(),
        missing,
        markdown: bitwire_report::markdown::render(&document),
        html: bitwire_report::html::render(&document),
        json,
        goals,
    })
}

/// Reads `dir` and writes `results.json`, `summary.md` and `report.html` into it. The goal
/// notes are read from [`NOTES`] relative to the working directory, if it exists.
pub fn write(dir: &Path) -> Result<Written, String> {
    let results = Results::read_dir(dir)?;
    let notes = std::fs::read_to_string(NOTES)
        .map(|t| bitwire_report::goals::parse_notes(&t))
        .unwrap_or_default();
    let written = render(&results, &notes)?;
    for (name, text) in [
        ("results.json", &written.json),
        ("summary.md", &written.markdown),
        ("report.html", &written.html),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(written)
}
