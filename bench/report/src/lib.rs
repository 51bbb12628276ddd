//! The benchmark lab's report writer: reads the raw result files of one run
//! (`raw/*.json`, format 1 of `bench/README.md`) and `machine.json`, judges the issue's
//! goals, and writes `results.json` (merged), `summary.md` and `report.html`.
//!
//! Every figure in the report is taken from the raw files; every ratio is to a figure of the
//! same run and the same language/runtime.

pub mod compiler;
pub mod doc;
pub mod format;
pub mod goals;
pub mod html;
pub mod load;
pub mod markdown;
pub mod model;
pub mod net;
pub mod pod_goals;
pub mod series;
pub mod size_reference;
pub mod svg;

use std::collections::BTreeMap;
use std::path::Path;

/// What [`write_report`] produced.
#[derive(Debug)]
pub struct Written {
    /// The merged results.
    pub results: load::Results,
    /// The goals as judged.
    pub goals: Vec<goals::Goal>,
    /// `summary.md`.
    pub markdown: String,
    /// `report.html`.
    pub html: String,
    /// `results.json`.
    pub json: String,
}

/// Builds the three outputs from merged results and the lead's goal notes, without I/O.
pub fn render(
    results: load::Results,
    notes: &BTreeMap<String, String>,
    notes_path: &str,
) -> Result<Written, String> {
    let goals = goals::evaluate(&results, notes);
    let platforms = results
        .platforms()
        .iter()
        .map(model::Platform::key)
        .collect();
    let merged = load::Merged {
        format: model::FORMAT,
        generated_by: "bitwire-report",
        quick: results.quick,
        machine: &results.machine,
        platforms,
        files: &results.files,
        records: &results.rows,
        scaling: &results.scaling,
        goals: &goals,
        compiler: results.compiler.as_ref(),
    };
    let json = serde_json::to_string_pretty(&merged).map_err(|e| e.to_string())? + "\n";
    let document = doc::build(&results, goals.clone(), notes_path);
    Ok(Written {
        markdown: markdown::render(&document),
        html: html::render(&document),
        json,
        results,
        goals,
    })
}

/// Reads `dir` (`raw/*.json`, `machine.json`) and writes `results.json`, `summary.md` and
/// `report.html` into it. `notes` is the goal-notes file (missing is fine unless `required`).
/// The raw-size goal compares with [`size_reference::DEFAULT_RUN`].
pub fn write_report(dir: &Path, notes: &Path, required: bool) -> Result<Written, String> {
    let reference = size_reference::SizeReference::read(
        &size_reference::default_path(),
        size_reference::DEFAULT_RUN,
    );
    write_report_with(dir, notes, required, reference)
}

/// [`write_report`] with the raw-size goal's reference figures given.
pub fn write_report_with(
    dir: &Path,
    notes: &Path,
    required: bool,
    reference: size_reference::SizeReference,
) -> Result<Written, String> {
    let mut results = load::Results::read_dir(dir)?;
    results.size_reference = reference;
    let notes_map = match std::fs::read_to_string(notes) {
        Ok(text) => goals::parse_notes(&text),
        Err(e) if required => return Err(format!("{}: {e}", notes.display())),
        Err(_) => BTreeMap::new(),
    };
    for id in goals::unknown_note_ids(&notes_map) {
        eprintln!("warning: {}: `## {id}` names no goal", notes.display());
    }
    let label = if required {
        notes.display().to_string()
    } else {
        "bench/report/goals-notes.md".into()
    };
    let written = render(results, &notes_map, &label)?;
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
