//! The simulator's report (bench/sim/README.md, "The report"): from a run's
//! `results.json` ([`model`]) it judges issue 15's goals ([`goals`]) and writes
//! `report.md` and a self-contained `report.html` (tables, SVG charts of
//! `bitwire-report`, the live view's screenshot embedded) — the same document
//! ([`doc`]) printed twice.

pub mod doc;
pub mod figures;
pub mod goals;
pub mod model;
pub mod tables;

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use bitwire_report::format::html as esc;
use bitwire_report::goals::Goal;

use model::{Live, SimResults};

/// The largest `results.json` read (a full run's is well under a megabyte).
const MAX_RESULTS: u64 = 64 << 20;

/// The largest screenshot embedded.
const MAX_PNG: u64 = 16 << 20;

/// Why a report could not be read or written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReportError {
    /// A file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
    /// `results.json` is not a simulator run's results.
    Results {
        /// The file.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::Io { path, message } => write!(f, "{path}: {message}"),
            ReportError::Results { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for ReportError {}

fn io_error(path: &Path, e: impl fmt::Display) -> ReportError {
    ReportError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// What [`render`] produced.
#[derive(Debug)]
pub struct Written {
    /// The goals as judged.
    pub goals: Vec<Goal>,
    /// `report.md`.
    pub markdown: String,
    /// `report.html`.
    pub html: String,
}

/// Builds both documents from the results, the lead's goal notes and the live view's
/// screenshot (PNG bytes), without I/O.
pub fn render(
    r: &SimResults,
    notes: &BTreeMap<String, String>,
    live_png: Option<&[u8]>,
) -> Written {
    let goals = goals::evaluate(r, notes);
    let document = doc::build(r, goals.clone());
    let mut markdown = bitwire_report::markdown::render(&document);
    let mut html = bitwire_report::html::render(&document);
    let (md_live, html_live) = live_section(&r.live, live_png);
    markdown.push_str(&md_live);
    // The live view goes at the end of the page, inside <main>.
    if let Some(at) = html.rfind("</main>") {
        html.insert_str(at, &html_live);
    }
    Written {
        goals,
        markdown,
        html,
    }
}

/// The "Live view" section in Markdown (the PNG beside it) and in HTML (embedded).
fn live_section(live: &Live, png: Option<&[u8]>) -> (String, String) {
    const ABOUT: &str = "The server's live view (bench/sim/ts: the world drawn from the Live \
                         messages over WebSocket, with live charts of tick time, bytes and RTT), \
                         captured in headless Chromium during a separate, unmeasured run.";
    let heading = ("## Live view\n\n", "<h2>Live view</h2>\n");
    match (live, png) {
        (Live::Saved(file), Some(bytes)) if bytes.starts_with(b"\x89PNG\r\n\x1a\n") => (
            format!("{}{ABOUT}\n\n![the live view]({file})\n", heading.0),
            format!(
                "{}<p>{}</p>\n<img alt=\"the live view\" style=\"max-width:100%;border:1px solid #ccc\" src=\"data:image/png;base64,{}\">\n",
                heading.1,
                esc(ABOUT),
                base64(bytes)
            ),
        ),
        (Live::Saved(file), _) => {
            let why = format!("No screenshot: {file} is missing or not a PNG.");
            (format!("{}{why}\n", heading.0), format!("{}<p>{}</p>\n", heading.1, esc(&why)))
        }
        (Live::Missing(why), _) => {
            let why = format!("No screenshot: {why}.");
            (format!("{}{why}\n", heading.0), format!("{}<p>{}</p>\n", heading.1, esc(&why)))
        }
    }
}

/// Standard base64 with padding (RFC 4648 §4), for the embedded screenshot.
pub fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Reads a file of at most `max` bytes.
fn read_bounded(path: &Path, max: u64) -> Result<Vec<u8>, ReportError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| io_error(path, e))?;
    let mut data = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut data)
        .map_err(|e| io_error(path, e))?;
    if data.len() as u64 > max {
        return Err(io_error(path, format!("larger than {max} bytes")));
    }
    Ok(data)
}

/// Reads `dir/results.json`.
pub fn read(dir: &Path) -> Result<SimResults, ReportError> {
    let path = dir.join("results.json");
    let data = read_bounded(&path, MAX_RESULTS)?;
    let r: SimResults = serde_json::from_slice(&data).map_err(|e| ReportError::Results {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    if r.schema != model::SCHEMA {
        return Err(ReportError::Results {
            path: path.display().to_string(),
            message: format!("schema {:?}, want {:?}", r.schema, model::SCHEMA),
        });
    }
    Ok(r)
}

/// Writes `dir/results.json`, then `report.md` and `report.html` from it (with
/// `dir/notes.md` and the live view's screenshot when they exist).
pub fn write(dir: &Path, r: &SimResults) -> Result<Written, ReportError> {
    let json = serde_json::to_string_pretty(r).map_err(|e| io_error(dir, e))? + "\n";
    let path = dir.join("results.json");
    std::fs::write(&path, json).map_err(|e| io_error(&path, e))?;
    write_report(dir, r)
}

/// Writes `report.md` and `report.html` into `dir` from `r`.
pub fn write_report(dir: &Path, r: &SimResults) -> Result<Written, ReportError> {
    let notes_path = dir.join("notes.md");
    let notes = match std::fs::read_to_string(&notes_path) {
        Ok(text) => bitwire_report::goals::parse_notes(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => BTreeMap::new(),
        Err(e) => return Err(io_error(&notes_path, e)),
    };
    let png = match &r.live {
        Live::Saved(file) => read_bounded(&dir.join(file), MAX_PNG).ok(),
        Live::Missing(_) => None,
    };
    let written = render(r, &notes, png.as_deref());
    for (name, text) in [
        ("report.md", &written.markdown),
        ("report.html", &written.html),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| io_error(&path, e))?;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::base64;

    #[test]
    fn base64_of_rfc4648_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
        assert_eq!(base64(&[0xff, 0xfe, 0xfd]), "//79");
    }
}
