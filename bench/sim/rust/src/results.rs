//! What the programs write: the server's summary (`simserver --summary`) and a client
//! process's results (`simclient --results`, and the TypeScript clients' in the same
//! shape). The orchestrator reads both; bench/sim/README.md describes every field.

use bitwire_netbench::stats::Latency;
use serde::{Deserialize, Serialize};

/// The server's summary of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ServerSummary {
    /// The codec's flag name.
    pub codec: String,
    /// The client count the window waited for.
    pub clients: usize,
    /// The measured window.
    pub window: Window,
    /// Counters since the server started.
    pub totals: Totals,
    /// The server round-tripped a sample snapshot and input through its codec before
    /// it started.
    pub roundtrip_checked: bool,
}

/// The measured window of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Its length, seconds (measured, not the requested length).
    pub seconds: f64,
    /// Ticks run.
    pub ticks: u64,
    /// Ticks that ended after the next tick's scheduled start.
    pub overruns: u64,
    /// Ticks skipped because the server was a whole period late.
    pub skipped: u64,
    /// The sync system per tick, microseconds (`None` without ticks).
    pub sync_us: Option<Latency>,
    /// A tick's work (inputs, simulate, sync), microseconds.
    pub tick_us: Option<Latency>,
    /// The server process's CPU time (user + system), seconds.
    pub cpu_seconds: f64,
    /// `cpu_seconds` as a percentage of one core over the window.
    pub cpu_percent: f64,
    /// Snapshot frames queued and their bytes (whole frames).
    pub snapshots: u64,
    /// See `snapshots`.
    pub bytes_out: u64,
    /// Input frames read and their bytes.
    pub inputs: u64,
    /// See `inputs`.
    pub bytes_in: u64,
    /// Mean entities per snapshot.
    pub views_entities_mean: f64,
}

/// The server's counters since it started (what `/metrics` shows at the end).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Ticks run.
    pub ticks: u64,
    /// Overrun ticks.
    pub overruns: u64,
    /// Snapshot frames queued.
    pub snapshots: u64,
    /// Their bytes.
    pub bytes_out: u64,
    /// Input frames read.
    pub inputs: u64,
    /// Their bytes.
    pub bytes_in: u64,
    /// Inputs that carried `rtt_us`.
    pub rtt_reports: u64,
    /// Connections closed for a bad frame or message.
    pub decode_errors: u64,
    /// Clients disconnected for a full queue.
    pub dropped_clients: u64,
    /// Game connections accepted.
    pub joined: u64,
}

/// A client process's results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClientResults {
    /// `rust`, `node`, `bun` or `deno`.
    pub runtime: String,
    /// The codec's flag name.
    pub codec: String,
    /// Clients started.
    pub clients: usize,
    /// Clients that connected.
    pub connected: usize,
    /// Input frames sent and their bytes (whole frames), all clients.
    pub inputs_sent: u64,
    /// See `inputs_sent`.
    pub bytes_out: u64,
    /// Snapshot frames received and their bytes.
    pub snapshots: u64,
    /// See `snapshots`.
    pub bytes_in: u64,
    /// Snapshots the codec dropped as late.
    pub dropped: u64,
    /// Inputs that carried `rtt_us`.
    pub rtt_reports: u64,
    /// The sum of the `rtt_us` they carried.
    pub rtt_report_sum_us: u64,
    /// Every RTT sample, microseconds (`None` without samples).
    pub rtt_us: Option<Latency>,
    /// Snapshots that failed validation.
    pub invalid: u64,
    /// Frames that did not decode.
    pub decode_errors: u64,
    /// The first few errors and validation failures.
    pub errors: Vec<String>,
    /// From the first connect to the last close.
    pub seconds: f64,
}
