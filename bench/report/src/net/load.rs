//! `results.json` of the network benchmark (`bench/net/README.md`, schema
//! `bitwire-netbench/1`): the types, the checks every file passes before it is reported, and
//! the look-ups the report makes.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The only schema this report reads.
pub const SCHEMA: &str = "bitwire-netbench/1";

/// Server kinds of the contract.
pub const KINDS: &[&str] = &["bitwire", "raw", "mcproto"];

/// Modes of the contract, in report order.
pub const MODES: &[&str] = &["pingpong", "pipeline"];

/// Why a results file cannot be reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read or written.
    Io {
        /// The file.
        path: String,
        /// What the system said.
        message: String,
    },
    /// Not JSON of the contract's shape (a missing or unknown field, a wrong type).
    Json {
        /// The file.
        path: String,
        /// What the parser said (with line and column).
        message: String,
    },
    /// JSON of the right shape whose content breaks the contract (another schema, a cell
    /// of an unknown server, a cell reported twice).
    Invalid {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io { path, message } => write!(f, "{path}: {message}"),
            NetError::Json { path, message } => {
                write!(f, "{path}: not a netbench results file: {message}")
            }
            NetError::Invalid { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl std::error::Error for NetError {}

/// Everything one run of `netbench` measured.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetResults {
    /// Always [`SCHEMA`].
    pub schema: String,
    /// A `--quick` run (figures not meaningful).
    pub quick: bool,
    /// When the run started (RFC 3339).
    #[serde(default)]
    pub started: String,
    /// How long the run took, in seconds.
    #[serde(default)]
    pub seconds: Option<f64>,
    /// The machine.
    pub machine: Machine,
    /// The matrix and its parameters.
    pub settings: Settings,
    /// The servers, in report order.
    pub servers: Vec<Server>,
    /// One record per measured cell.
    pub cells: Vec<Cell>,
}

/// The machine the run measured on.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// CPU model.
    #[serde(default)]
    pub cpu: String,
    /// Online cores.
    #[serde(default)]
    pub cores: u32,
    /// Kernel version.
    #[serde(default)]
    pub kernel: String,
    /// Operating system.
    #[serde(default)]
    pub os: String,
    /// Where the server and the driver ran (`server: core 0, driver: core 1`).
    #[serde(default)]
    pub pinning: String,
    /// Runtime versions by name (`rustc`, `go`, `node`, `bun`, `deno`).
    #[serde(default)]
    pub runtimes: BTreeMap<String, String>,
}

/// The matrix of the run.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// Warm-up packets per connection (excluded).
    pub warmup: u64,
    /// Measured packets per connection.
    pub packets: u64,
    /// Packets in flight per connection in `pipeline` mode.
    pub window: u64,
    /// Packet sizes (bytes of the frame's Data).
    pub sizes: Vec<u64>,
    /// Connection counts.
    pub connections: Vec<u64>,
    /// Modes (see [`MODES`]).
    pub modes: Vec<String>,
    /// Packets each server answered, untimed, before its first cell (JIT warm-up).
    #[serde(default)]
    pub prime: u64,
}

/// A server of the run.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Server {
    /// Its id (`rust-mt`).
    pub id: String,
    /// Its runtime (`rust`, `go`, `node`, `bun`, `deno`).
    pub runtime: String,
    /// `bitwire`, `raw` or `mcproto`.
    pub kind: String,
    /// The raw echo of the same runtime (framing overhead = pps / its pps).
    #[serde(default)]
    pub baseline: Option<String>,
    /// Human name.
    #[serde(default)]
    pub label: String,
    /// How it was started.
    #[serde(default)]
    pub command: String,
    /// Its last line (`served P packets, E errors`), if it started and stopped.
    #[serde(default)]
    pub served: Option<String>,
    /// What went wrong starting or stopping it, or in the check of its `served` line.
    #[serde(default)]
    pub error: Option<String>,
}

impl Server {
    /// A raw echo (a cost floor, not a contestant).
    pub fn is_raw(&self) -> bool {
        self.kind == "raw"
    }
}

/// Latency of a cell's packets, in µs.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Latency {
    /// Mean.
    #[serde(default)]
    pub mean: Option<f64>,
    /// Median.
    #[serde(default)]
    pub p50: Option<f64>,
    /// 90th percentile.
    #[serde(default)]
    pub p90: Option<f64>,
    /// 99th percentile.
    #[serde(default)]
    pub p99: Option<f64>,
    /// 99.9th percentile.
    #[serde(default)]
    pub p999: Option<f64>,
    /// Slowest.
    #[serde(default)]
    pub max: Option<f64>,
    /// `[fraction, µs]`, fraction 0.01 … 1.0.
    #[serde(default)]
    pub cdf: Vec<(f64, f64)>,
}

/// One measured cell: a server, a mode, a connection count and a size.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// Server id.
    pub server: String,
    /// `pingpong` or `pipeline`.
    pub mode: String,
    /// Concurrent connections.
    pub connections: u64,
    /// Packet size (the frame's Data).
    pub size: u64,
    /// Bytes of one request frame.
    #[serde(default)]
    pub frame_bytes: Option<u64>,
    /// Measured packets (all connections).
    #[serde(default)]
    pub packets: Option<u64>,
    /// Measured seconds.
    #[serde(default)]
    pub seconds: Option<f64>,
    /// Packets per second.
    #[serde(default)]
    pub pps: Option<f64>,
    /// Round-trip times.
    #[serde(default)]
    pub latency_us: Option<Latency>,
    /// Server CPU time (user + system) per packet, µs.
    #[serde(default)]
    pub server_cpu_us_per_packet: Option<f64>,
    /// Driver CPU time per packet, µs.
    #[serde(default)]
    pub driver_cpu_us_per_packet: Option<f64>,
    /// Bytes the driver sent.
    #[serde(default)]
    pub bytes_sent: Option<u64>,
    /// Bytes the driver received.
    #[serde(default)]
    pub bytes_received: Option<u64>,
    /// Errors (a measured cell needs 0).
    pub errors: u64,
    /// What went wrong, for a failed cell.
    #[serde(default)]
    pub error: Option<String>,
}

impl Cell {
    /// Whether the cell failed (its figures are not reported).
    pub fn failed(&self) -> bool {
        self.errors > 0 || self.error.as_deref().is_some_and(|e| !e.trim().is_empty())
    }

    /// What went wrong, for the report.
    pub fn error_text(&self) -> String {
        let what = self.error.as_deref().map(str::trim).unwrap_or("");
        match (self.errors, what.is_empty()) {
            (0, _) => what.to_string(),
            (n, true) => format!("{n} errors"),
            (n, false) => format!("{what} ({n} errors)"),
        }
    }

    /// The p99 latency, if reported.
    pub fn p99(&self) -> Option<f64> {
        self.latency_us.as_ref().and_then(|l| l.p99)
    }
}

/// Where a cell sits in the matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Key<'a> {
    /// Mode.
    pub mode: &'a str,
    /// Connections.
    pub connections: u64,
    /// Size.
    pub size: u64,
}

impl fmt::Display for Key<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.connections == 1 { "" } else { "s" };
        write!(
            f,
            "{}, {} connection{s}, {} B",
            self.mode, self.connections, self.size
        )
    }
}

/// What a look-up found for a server in a cell of the matrix.
#[derive(Debug, Clone, Copy)]
pub enum Found<'a> {
    /// Measured, no errors.
    Ok(&'a Cell),
    /// Measured and failed.
    Failed(&'a Cell),
    /// Not in the results.
    Missing,
}

impl<'a> Found<'a> {
    /// The cell, if it was measured without errors.
    pub fn ok(self) -> Option<&'a Cell> {
        match self {
            Found::Ok(c) => Some(c),
            _ => None,
        }
    }
}

impl NetResults {
    /// Parses and checks `text` (the content of `path`).
    pub fn parse(path: &str, text: &str) -> Result<NetResults, NetError> {
        let schema: Option<String> = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .and_then(|v| v.get("schema").and_then(|s| s.as_str()).map(String::from));
        if let Some(s) = schema.filter(|s| s != SCHEMA) {
            return Err(invalid(
                path,
                format!("schema {s:?}, this report reads {SCHEMA:?}"),
            ));
        }
        let results: NetResults = serde_json::from_str(text).map_err(|e| NetError::Json {
            path: path.into(),
            message: e.to_string(),
        })?;
        results.check().map_err(|m| invalid(path, m))?;
        Ok(results)
    }

    /// Reads and checks `path`.
    pub fn read(path: &std::path::Path) -> Result<NetResults, NetError> {
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| NetError::Io {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        NetResults::parse(&shown, &text)
    }

    /// The contract's rules beyond the JSON shape.
    fn check(&self) -> Result<(), String> {
        if self.schema != SCHEMA {
            return Err(format!(
                "schema {:?}, this report reads {SCHEMA:?}",
                self.schema
            ));
        }
        let mut ids = BTreeSet::new();
        for s in &self.servers {
            if !ids.insert(s.id.as_str()) {
                return Err(format!("server {:?} is listed twice", s.id));
            }
            if !KINDS.contains(&s.kind.as_str()) {
                return Err(format!("server {:?}: unknown kind {:?}", s.id, s.kind));
            }
        }
        for s in &self.servers {
            if let Some(b) = &s.baseline {
                match self.server(b) {
                    Some(base) if base.is_raw() => {}
                    Some(_) => {
                        return Err(format!(
                            "server {:?}: baseline {b:?} is not a raw echo",
                            s.id
                        ))
                    }
                    None => {
                        return Err(format!("server {:?}: baseline {b:?} is not a server", s.id))
                    }
                }
            }
        }
        for m in &self.settings.modes {
            if !MODES.contains(&m.as_str()) {
                return Err(format!("settings: unknown mode {m:?}"));
            }
        }
        let mut seen = BTreeSet::new();
        for c in &self.cells {
            let at = format!("cell {} {}", c.server, self.key(c));
            if self.server(&c.server).is_none() {
                return Err(format!("{at}: no such server"));
            }
            if !MODES.contains(&c.mode.as_str()) {
                return Err(format!("{at}: unknown mode"));
            }
            if c.connections == 0 || c.size == 0 {
                return Err(format!("{at}: connections and size must be positive"));
            }
            if !seen.insert((c.server.as_str(), self.key(c))) {
                return Err(format!("{at}: reported twice"));
            }
            check_figures(c).map_err(|m| format!("{at}: {m}"))?;
        }
        Ok(())
    }

    /// The server with `id`.
    pub fn server(&self, id: &str) -> Option<&Server> {
        self.servers.iter().find(|s| s.id == id)
    }

    /// A cell's place in the matrix.
    pub fn key<'a>(&self, c: &'a Cell) -> Key<'a> {
        Key {
            mode: &c.mode,
            connections: c.connections,
            size: c.size,
        }
    }

    /// The cell of `server` at `key`.
    pub fn find(&self, server: &str, key: Key) -> Found<'_> {
        match self
            .cells
            .iter()
            .find(|c| c.server == server && self.key(c) == key)
        {
            Some(c) if c.failed() => Found::Failed(c),
            Some(c) => Found::Ok(c),
            None => Found::Missing,
        }
    }

    /// Packets per second of `server` at `key`, if measured without errors.
    pub fn pps(&self, server: &str, key: Key) -> Option<f64> {
        self.find(server, key).ok().and_then(|c| c.pps)
    }

    /// Modes in report order: the settings' modes, then any other a cell has.
    pub fn modes(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        let all = self
            .settings
            .modes
            .iter()
            .chain(self.cells.iter().map(|c| &c.mode));
        for m in all {
            if !out.contains(&m.as_str()) {
                out.push(m);
            }
        }
        out.sort_by_key(|m| MODES.iter().position(|x| x == m));
        out
    }

    /// Connection counts, ascending: the settings' and any other a cell has.
    pub fn connections(&self) -> Vec<u64> {
        sorted(
            self.settings
                .connections
                .iter()
                .copied()
                .chain(self.cells.iter().map(|c| c.connections)),
        )
    }

    /// Sizes, ascending: the settings' and any other a cell has.
    pub fn sizes(&self) -> Vec<u64> {
        sorted(
            self.settings
                .sizes
                .iter()
                .copied()
                .chain(self.cells.iter().map(|c| c.size)),
        )
    }

    /// Every key of the matrix (modes × connections × sizes).
    pub fn matrix(&self) -> Vec<Key<'_>> {
        let mut out = Vec::new();
        for mode in self.modes() {
            for connections in self.connections() {
                for size in self.sizes() {
                    out.push(Key {
                        mode,
                        connections,
                        size,
                    });
                }
            }
        }
        out
    }

    /// The size the single-size views use: 64 B if measured, else the nearest (the smaller
    /// on a tie).
    pub fn reference_size(&self) -> Option<u64> {
        self.sizes()
            .into_iter()
            .min_by_key(|s| (s.abs_diff(64), *s))
    }

    /// Servers that frame (bitwire and mcproto), in report order.
    pub fn framed(&self) -> Vec<&Server> {
        self.servers.iter().filter(|s| !s.is_raw()).collect()
    }

    /// The colour index of a server: framed servers in order; a raw echo takes the colour
    /// of the first server whose baseline it is.
    pub fn color(&self, id: &str) -> usize {
        let framed = self.framed();
        let owner = match self.server(id) {
            Some(s) if s.is_raw() => framed
                .iter()
                .find(|f| f.baseline.as_deref() == Some(id))
                .map(|f| f.id.as_str()),
            _ => Some(id),
        };
        owner
            .and_then(|o| framed.iter().position(|f| f.id == o))
            .unwrap_or(framed.len() + self.servers.iter().position(|s| s.id == id).unwrap_or(0))
    }

    /// Cells that failed, in matrix order.
    pub fn failed(&self) -> Vec<&Cell> {
        let mut out: Vec<&Cell> = self.cells.iter().filter(|c| c.failed()).collect();
        out.sort_by_key(|c| (self.key(c), self.server_order(&c.server)));
        out
    }

    /// (server, key) of the matrix that no cell reports.
    pub fn missing(&self) -> Vec<(&Server, Key<'_>)> {
        let mut out = Vec::new();
        for key in self.matrix() {
            for s in &self.servers {
                if matches!(self.find(&s.id, key), Found::Missing) {
                    out.push((s, key));
                }
            }
        }
        out
    }

    fn server_order(&self, id: &str) -> usize {
        self.servers
            .iter()
            .position(|s| s.id == id)
            .unwrap_or(usize::MAX)
    }
}

fn invalid(path: &str, message: String) -> NetError {
    NetError::Invalid {
        path: path.into(),
        message,
    }
}

fn sorted(values: impl Iterator<Item = u64>) -> Vec<u64> {
    let set: BTreeSet<u64> = values.collect();
    set.into_iter().collect()
}

/// A measured cell's figures must be possible: no negative rates or times, fractions of a
/// CDF in (0, 1].
fn check_figures(c: &Cell) -> Result<(), String> {
    let mut figures = vec![
        ("pps", c.pps),
        ("seconds", c.seconds),
        ("server_cpu_us_per_packet", c.server_cpu_us_per_packet),
        ("driver_cpu_us_per_packet", c.driver_cpu_us_per_packet),
    ];
    if let Some(l) = &c.latency_us {
        figures.extend([
            ("latency mean", l.mean),
            ("p50", l.p50),
            ("p90", l.p90),
            ("p99", l.p99),
            ("p999", l.p999),
            ("max", l.max),
        ]);
        for (fraction, us) in &l.cdf {
            if !(*fraction > 0.0 && *fraction <= 1.0) || *us < 0.0 {
                return Err(format!(
                    "CDF point [{fraction}, {us}] is outside (0, 1] × [0, ∞)"
                ));
            }
        }
    }
    for (name, v) in figures {
        if let Some(v) = v {
            if v < 0.0 {
                return Err(format!("{name} is negative ({v})"));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(sizes: &[u64]) -> NetResults {
        let text = serde_json::json!({
            "schema": SCHEMA, "quick": true, "machine": {},
            "settings": { "warmup": 1, "packets": 1, "window": 1, "sizes": sizes,
                          "connections": [1], "modes": ["pipeline", "pingpong"] },
            "servers": [
                { "id": "a-raw", "runtime": "a", "kind": "raw" },
                { "id": "a", "runtime": "a", "kind": "bitwire", "baseline": "a-raw" },
                { "id": "mc", "runtime": "a", "kind": "mcproto", "baseline": "a-raw" },
            ],
            "cells": [],
        });
        NetResults::parse("t.json", &text.to_string()).unwrap()
    }

    #[test]
    fn reference_size_is_64_or_the_nearest() {
        assert_eq!(results(&[8, 64, 1024]).reference_size(), Some(64));
        assert_eq!(results(&[8, 100]).reference_size(), Some(100));
        assert_eq!(results(&[32, 96]).reference_size(), Some(32));
        assert_eq!(results(&[]).reference_size(), None);
    }

    #[test]
    fn order_and_colours() {
        let r = results(&[8]);
        assert_eq!(r.modes(), ["pingpong", "pipeline"]);
        // Framed servers in order; a raw echo takes its first user's colour.
        assert_eq!((r.color("a"), r.color("mc"), r.color("a-raw")), (0, 1, 0));
        assert_eq!(r.matrix().len(), 2);
        assert_eq!(r.missing().len(), 6);
    }
}
