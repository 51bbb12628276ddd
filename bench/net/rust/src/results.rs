//! `results.json` (bench/net/README.md, "Results"): the machine, the settings, the
//! servers and one record per cell, in the shape the report reads.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use crate::stats::Latency;

/// The value of `schema`.
pub const SCHEMA: &str = "bitwire-netbench/1";

/// The whole file.
#[derive(Debug, Clone, Serialize)]
pub struct Results {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// Whether this was a smaller matrix than the full one (`--quick`, `--tiny`).
    pub quick: bool,
    /// When the run started, UTC, RFC 3339.
    pub started: String,
    /// Wall time of the run so far.
    pub seconds: f64,
    /// Where it ran.
    pub machine: Machine,
    /// The matrix.
    pub settings: Settings,
    /// The servers run, in order.
    pub servers: Vec<Server>,
    /// One record per cell, in the order run.
    pub cells: Vec<CellRecord>,
}

/// The machine and the toolchains.
#[derive(Debug, Clone, Serialize)]
pub struct Machine {
    /// CPU model from /proc/cpuinfo.
    pub cpu: String,
    /// Online cores.
    pub cores: usize,
    /// Kernel release.
    pub kernel: String,
    /// Distribution (/etc/os-release).
    pub os: String,
    /// Which process ran on which core.
    pub pinning: String,
    /// Version of each runtime used (`rustc`, `go`, `node`, `bun`, `deno`).
    pub runtimes: BTreeMap<String, String>,
}

/// The matrix's parameters.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    /// Warm-up packets per connection.
    pub warmup: u32,
    /// Measured packets per connection.
    pub packets: u32,
    /// Packets in flight per connection in the pipeline mode.
    pub window: u32,
    /// Packet sizes (bytes of the frame's Data).
    pub sizes: Vec<usize>,
    /// Connection counts.
    pub connections: Vec<usize>,
    /// `pingpong`, `pipeline`.
    pub modes: Vec<&'static str>,
    /// Packets each server answered, untimed, before its first cell (JIT warm-up).
    pub prime: u32,
}

/// A server of the run.
#[derive(Debug, Clone, Serialize)]
pub struct Server {
    /// Its id.
    pub id: &'static str,
    /// Its runtime.
    pub runtime: &'static str,
    /// `bitwire`, `raw` or `mcproto`.
    pub kind: &'static str,
    /// The raw echo of the same runtime.
    pub baseline: &'static str,
    /// A human name.
    pub label: &'static str,
    /// How it was started (without `--addr`).
    pub command: String,
    /// Its `served P packets, E errors` line, once it stopped.
    pub served: Option<String>,
    /// What went wrong starting or stopping it (it did not start, exited badly, served
    /// a count other than the packets sent, counted errors), or `null`.
    pub error: Option<String>,
}

/// One cell: a server, a mode, a connection count and a size.
#[derive(Debug, Clone, Serialize)]
pub struct CellRecord {
    /// The server's id.
    pub server: &'static str,
    /// `pingpong` or `pipeline`.
    pub mode: &'static str,
    /// Concurrent connections.
    pub connections: usize,
    /// Bytes of the frame's Data.
    pub size: usize,
    /// Bytes of the whole Ping frame.
    pub frame_bytes: usize,
    /// Measured round trips (all connections).
    pub packets: u64,
    /// Wall time of the measured phase.
    pub seconds: f64,
    /// `packets / seconds` (0 when the cell failed).
    pub pps: f64,
    /// The round trips' distribution (`null` when the cell failed).
    pub latency_us: Option<Latency>,
    /// The server's CPU time per measured packet, µs (`null`: not measured).
    pub server_cpu_us_per_packet: Option<f64>,
    /// The driver thread's CPU time per measured packet, µs.
    pub driver_cpu_us_per_packet: Option<f64>,
    /// Bytes the driver wrote in the measured phase.
    pub bytes_sent: u64,
    /// Bytes the driver read in the measured phase.
    pub bytes_received: u64,
    /// 0, or 1 when the cell failed.
    pub errors: u32,
    /// What went wrong, or `null`.
    pub error: Option<String>,
}

/// `t` as RFC 3339 UTC to the second (`2026-11-26T18:00:00Z`).
pub fn rfc3339(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil(days as i64);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The date `days` after 1970-01-01 (Howard Hinnant's days-to-civil algorithm).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_795_716_000);
        assert_eq!(rfc3339(t), "2026-11-26T18:00:00Z");
        let leap = UNIX_EPOCH + Duration::from_secs(951_782_400 + 86_399);
        assert_eq!(rfc3339(leap), "2000-02-29T23:59:59Z");
    }
}
