//! `results.json` of a simulator run (what `sim` writes and the report reads): the
//! machine, the settings, and one record per cell with the server's summary, the client
//! processes' results, the metrics check and, with `--prometheus`, the figures read from
//! Prometheus. Every figure of the report is computed from this file.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::results::{ClientResults, ServerSummary};

/// The value of `schema`.
pub const SCHEMA: &str = "bitwire-sim/1";

/// The whole file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SimResults {
    /// [`SCHEMA`].
    pub schema: String,
    /// `full`, `quick`, `smoke` or `custom` (flags other than a preset's).
    pub mode: String,
    /// When the run started, UTC, RFC 3339.
    pub started: String,
    /// Wall time of the run.
    pub seconds: f64,
    /// Where it ran.
    pub machine: Machine,
    /// What was run.
    pub settings: Settings,
    /// One record per cell, in the order run.
    pub cells: Vec<CellRecord>,
    /// `live.png` when the live view's screenshot was saved next to this file, else why not.
    pub live: Live,
    /// What the run skipped or noticed (a missing runtime, ...), one line each.
    pub notes: Vec<String>,
}

/// The machine and the toolchains (`bitwire_netbench::machine::describe`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    /// CPU model.
    pub cpu: String,
    /// Online cores.
    pub cores: usize,
    /// Kernel release.
    pub kernel: String,
    /// Distribution.
    pub os: String,
    /// Which process ran on which core.
    pub pinning: String,
    /// Version of each runtime used.
    pub runtimes: BTreeMap<String, String>,
}

/// The run's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// Codecs, in the order run.
    pub codecs: Vec<String>,
    /// Client counts, in the order run.
    pub clients: Vec<usize>,
    /// The measured window of each cell (`simserver --seconds`).
    pub seconds: f64,
    /// Seconds between the last client's connect and the window (`simserver --warmup`).
    pub warmup: f64,
    /// The server's core.
    pub server_cpu: usize,
    /// The clients' core.
    pub client_cpu: usize,
    /// A Prometheus server scraped every cell and the server-side figures come from it.
    pub prometheus: bool,
    /// Cells with Rust, Node, Bun and Deno clients on one server were added.
    pub mixed: bool,
}

/// Whether the live view's screenshot exists.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Live {
    /// Saved as this file name, next to results.json.
    Saved(String),
    /// Not taken, and why.
    Missing(String),
}

/// One client process of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Share {
    /// `rust`, `node`, `bun` or `deno`.
    pub runtime: String,
    /// Its clients.
    pub clients: usize,
}

/// One cell: a codec at a client count (or a mixed-runtime cell).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CellRecord {
    /// `<codec>-<clients>`, `-mixed` appended for a mixed cell; names its files.
    pub id: String,
    /// The codec.
    pub codec: String,
    /// Clients of the cell (all processes).
    pub clients: usize,
    /// Clients of several runtimes on one server.
    pub mixed: bool,
    /// The client processes started.
    pub shares: Vec<Share>,
    /// Wall time of the cell, start to stop.
    pub seconds: f64,
    /// The server's summary, if it wrote one.
    pub server: Option<ServerSummary>,
    /// The client processes' results that could be read.
    pub client_results: Vec<ClientResults>,
    /// `simprom check` of the cell's last scrape.
    pub metrics_check: Option<MetricsCheck>,
    /// The server-side figures from Prometheus (`simprom query`), with `--prometheus`.
    pub prometheus: Option<PromFigures>,
    /// What went wrong, or `null`.
    pub error: Option<String>,
}

/// `simprom check` of a cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricsCheck {
    /// The scrape checked, relative to the output directory.
    pub file: String,
    /// Every comparison held.
    pub ok: bool,
    /// Its closing line (or error).
    pub verdict: String,
}

/// What `simprom query` prints: a cell's server-side figures from Prometheus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PromFigures {
    /// `prometheus`.
    pub source: String,
    /// The Prometheus server.
    pub url: String,
    /// The cell's label matchers.
    #[serde(rename = "match")]
    pub selector: String,
    /// The window's end, UNIX seconds.
    pub at: f64,
    /// The window's length.
    pub window_seconds: f64,
    /// Figure name → value (`null`: no observations).
    pub values: BTreeMap<String, Option<f64>>,
    /// Figure name → the PromQL that computed it.
    pub queries: BTreeMap<String, String>,
}

impl PromFigures {
    /// The figure `name`, if Prometheus had one.
    pub fn get(&self, name: &str) -> Option<f64> {
        self.values.get(name).copied().flatten()
    }
}

impl CellRecord {
    /// Whether the cell ran and every check passed.
    pub fn ok(&self) -> bool {
        self.error.is_none()
    }
}
