//! The report's figures of one cell, in the report's units, each with the source it was
//! taken from: the server's summary (its own measurement of the window), Prometheus (the
//! same counters and histograms, scraped every second and queried over the window) or
//! the client processes (round-trip times are measured where the inputs are sent).

use super::model::CellRecord;
use crate::rules;

/// The 60 Hz tick, microseconds.
pub fn tick_us() -> f64 {
    rules::tick_seconds() * 1e6
}

/// Where a cell's server-side figures come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `simserver --summary`: every tick timed, exact percentiles.
    Summary,
    /// Prometheus's query API: increases over the window, p99 interpolated within the
    /// histogram's buckets (ten per decade).
    Prometheus,
}

impl Source {
    /// How the report names it.
    pub fn label(self) -> &'static str {
        match self {
            Source::Summary => "the server's summary",
            Source::Prometheus => "Prometheus",
        }
    }
}

/// One cell's figures (`None`: not measured).
#[derive(Debug, Clone, PartialEq)]
pub struct Figures {
    /// Snapshot frame bytes per client per tick (server → client).
    pub bytes_out: Option<f64>,
    /// Input frame bytes per client per tick (client → server).
    pub bytes_in: Option<f64>,
    /// Sync system per tick, mean, µs.
    pub sync_mean_us: Option<f64>,
    /// Sync system per tick, p99, µs.
    pub sync_p99_us: Option<f64>,
    /// A tick's work, mean, µs.
    pub tick_mean_us: Option<f64>,
    /// Ticks of the window.
    pub ticks: Option<f64>,
    /// Overrun ticks of the window.
    pub overruns: Option<f64>,
    /// Ticks skipped (summary only).
    pub skipped: Option<u64>,
    /// Server CPU, % of one core.
    pub cpu_percent: Option<f64>,
    /// Mean entities per snapshot (summary only).
    pub entities: Option<f64>,
    /// Clients the server dropped for a full send queue (summary only): clients that
    /// fell behind.
    pub dropped: Option<u64>,
    /// Round-trip time p50 and p99, ms, when one client process measured the cell.
    pub rtt_p50_ms: Option<f64>,
    /// See `rtt_p50_ms`.
    pub rtt_p99_ms: Option<f64>,
    /// Where the server-side figures come from.
    pub source: Source,
}

fn ratio(num: u64, den: u64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

impl Figures {
    /// The figures of `cell`: server-side ones from Prometheus when `prefer_prometheus`
    /// and the cell has them, else from the server's summary.
    pub fn of(cell: &CellRecord, prefer_prometheus: bool) -> Figures {
        let w = cell.server.as_ref().map(|s| &s.window);
        let (rtt_p50_ms, rtt_p99_ms) = match cell.client_results.as_slice() {
            [one] => (
                one.rtt_us.as_ref().map(|l| l.p50 / 1e3),
                one.rtt_us.as_ref().map(|l| l.p99 / 1e3),
            ),
            _ => (None, None),
        };
        let summary = Figures {
            bytes_out: w.and_then(|w| ratio(w.bytes_out, w.snapshots)),
            bytes_in: w.and_then(|w| ratio(w.bytes_in, w.inputs)),
            sync_mean_us: w.and_then(|w| w.sync_us.as_ref()).map(|l| l.mean),
            sync_p99_us: w.and_then(|w| w.sync_us.as_ref()).map(|l| l.p99),
            tick_mean_us: w.and_then(|w| w.tick_us.as_ref()).map(|l| l.mean),
            ticks: w.map(|w| w.ticks as f64),
            overruns: w.map(|w| w.overruns as f64),
            skipped: w.map(|w| w.skipped),
            cpu_percent: w.map(|w| w.cpu_percent),
            entities: w.map(|w| w.views_entities_mean),
            dropped: cell.server.as_ref().map(|s| s.totals.dropped_clients),
            rtt_p50_ms,
            rtt_p99_ms,
            source: Source::Summary,
        };
        match (&cell.prometheus, prefer_prometheus) {
            (Some(p), true) => Figures {
                bytes_out: p.get("bytes_out_per_snapshot"),
                bytes_in: p.get("bytes_in_per_input"),
                sync_mean_us: p.get("sync_mean_us"),
                sync_p99_us: p.get("sync_p99_us"),
                tick_mean_us: p.get("tick_mean_us"),
                // Tick and overrun counts stay the server's exact ones: increase()
                // extrapolates a counter to the window's edges (4.44 overruns), and a
                // saturated server answers some scrapes late (22 overruns read as 0).
                cpu_percent: p.get("cpu_percent"),
                source: Source::Prometheus,
                ..summary
            },
            _ => summary,
        }
    }

    /// The mean sync time as a percentage of the tick.
    pub fn sync_mean_pct(&self) -> Option<f64> {
        self.sync_mean_us.map(|us| us / tick_us() * 100.0)
    }

    /// The p99 sync time as a percentage of the tick.
    pub fn sync_p99_pct(&self) -> Option<f64> {
        self.sync_p99_us.map(|us| us / tick_us() * 100.0)
    }
}
