//! The network benchmark's report (issue 13): reads `results.json` as `netbench` writes it
//! (`bench/net/README.md`), judges the goals on it and writes `summary.md` and
//! `report.html` from one [`Doc`](crate::doc::Doc), like the lab's report.
//!
//! Every figure in the report is taken from `results.json`; every ratio is to a figure of
//! the same run and cell. The lead's profile notes (`notes.md` next to `results.json`, if
//! any) are included as written under "Why (profiles)".

pub mod doc;
pub mod goals;
pub mod latency;
pub mod load;
pub mod throughput;

use crate::goals::Goal;
use load::{NetError, NetResults};
use std::path::Path;

/// What [`render`] produced.
#[derive(Debug)]
pub struct NetWritten {
    /// The results read.
    pub results: NetResults,
    /// The goals as judged.
    pub goals: Vec<Goal>,
    /// `summary.md`.
    pub markdown: String,
    /// `report.html`.
    pub html: String,
}

/// Builds both outputs from the results and the lead's profile notes, without I/O.
pub fn render(results: NetResults, profiles: Option<&str>) -> NetWritten {
    let has_profiles = profiles.is_some_and(|p| !p.trim().is_empty());
    let goals = goals::evaluate(&results, has_profiles);
    let document = doc::build(&results, goals.clone(), profiles);
    NetWritten {
        markdown: crate::markdown::render(&document),
        html: crate::html::render(&document),
        results,
        goals,
    }
}

/// Reads `dir/results.json` (and `dir/notes.md` if it exists) and writes `dir/summary.md`
/// and `dir/report.html`. Nothing is written when the results cannot be read.
pub fn write_report(dir: &Path) -> Result<NetWritten, NetError> {
    let results = NetResults::read(&dir.join("results.json"))?;
    let notes_path = dir.join("notes.md");
    let profiles = match std::fs::read_to_string(&notes_path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(NetError::Io {
                path: notes_path.display().to_string(),
                message: e.to_string(),
            })
        }
    };
    let written = render(results, profiles.as_deref());
    for (name, text) in [
        ("summary.md", &written.markdown),
        ("report.html", &written.html),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| NetError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
    }
    Ok(written)
}
