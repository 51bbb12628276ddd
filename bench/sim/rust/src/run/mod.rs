//! The orchestrator (`sim`, bench/sim/README.md): runs every cell — each codec at each
//! client count, plus the mixed-runtime cells with `--mixed` — one after the other with
//! the server pinned to core 0 and the clients on core 1, optionally under a real
//! Prometheus server, takes the live view's screenshot, and writes `results.json`,
//! `report.md` and `report.html` into the output directory.

pub mod cell;
pub mod http;
pub mod live;
pub mod options;
pub mod proc;
pub mod programs;
pub mod prom;

use std::time::{Instant, SystemTime};

use cell::{CellSpec, Ctx};
use options::Options;
use programs::Programs;
use prom::Prometheus;

use crate::codec::CodecKind;
use crate::report::figures::Figures;
use crate::report::model::{CellRecord, Live, Machine, Settings, SimResults, SCHEMA};

/// The server's core (it has it to itself on a 2-core machine).
pub const SERVER_CPU: usize = 0;
/// The clients' core (with Prometheus and the TypeScript clients).
pub const CLIENT_CPU: usize = 1;

/// The largest client count of a mixed cell. Every client process shares core 1, and at
/// 1000 (250 per runtime) the JavaScript ones fall behind: in the 2026-11-27 run Node's
/// 250 clients sent 1,886 inputs in a 10 s window (a Rust process sends about 150,000),
/// still reading snapshots when the server's close grace ran out, so the cell's counts
/// could not agree. That measures the load generator's core, not the server.
pub const MIXED_MAX_CLIENTS: usize = 250;

/// The TypeScript runtimes of a mixed cell, after Rust.
const TS_RUNTIMES: [&str; 3] = ["node", "bun", "deno"];

/// The cells of a run, in order: for each client count every codec, then (with
/// `--mixed`, up to [`MIXED_MAX_CLIENTS`]) the mixed cells of bitwire and bitwire-delta;
/// `runtimes` are the mixed cells' runtimes available.
pub fn plan(o: &Options, runtimes: &[&str]) -> Vec<CellSpec> {
    let mut cells = Vec::new();
    for &n in &o.clients {
        for &codec in &o.codecs {
            cells.push(CellSpec::rust(codec, n));
        }
        if o.mixed && n <= MIXED_MAX_CLIENTS {
            for codec in [CodecKind::Bitwire, CodecKind::BitwireDelta] {
                if o.codecs.contains(&codec) {
                    cells.push(CellSpec::mixed(codec, n, runtimes));
                }
            }
        }
    }
    cells
}

/// `mm:ss`.
fn mmss(seconds: f64) -> String {
    let s = seconds.round() as u64;
    format!("{:02}:{:02}", s / 60, s % 60)
}

/// The progress line's outcome of a cell.
fn outcome(c: &CellRecord, prometheus: bool) -> String {
    if let Some(e) = &c.error {
        return format!("FAILED: {e}");
    }
    let f = Figures::of(c, prometheus);
    let opt = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.1}"));
    let dropped = match f.dropped {
        Some(d) if d > 0 => format!(", {d} clients dropped (send queue full)"),
        _ => String::new(),
    };
    format!(
        "ok: sync mean {} µs, {} B per snapshot, {} overruns, RTT p99 {} ms, CPU {} %{dropped}, metrics checked",
        opt(f.sync_mean_us),
        opt(f.bytes_out),
        f.overruns.map_or("–".into(), crate::report::tables::figure),
        f.rtt_p99_ms.map_or("–".into(), |v| format!("{v:.2}")),
        opt(f.cpu_percent)
    )
}

/// The machine, with the versions of the runtimes the run used.
fn machine(o: &Options, p: &Programs, runtimes: &[&str]) -> Result<Machine, String> {
    let mut asked = vec!["rust"];
    if o.prometheus {
        asked.push("go");
    }
    asked.extend(runtimes.iter().filter(|r| **r != "rust"));
    let pinning = format!(
        "simserver on core {SERVER_CPU} (one tokio current-thread runtime); clients on core {CLIENT_CPU}{}",
        if o.prometheus || o.mixed {
            " (with the TypeScript clients and Prometheus, under taskset)"
        } else {
            ""
        }
    );
    let m = bitwire_netbench::machine::describe(&o.root, &p.runtimes, &asked, &pinning);
    serde_json::to_value(m)
        .and_then(serde_json::from_value)
        .map_err(|e| e.to_string())
}

/// The runtimes of the mixed cells: Rust and each TypeScript runtime that can run, with
/// a note for each that cannot.
fn mixed_runtimes(o: &Options, programs: &Programs) -> (Vec<&'static str>, Vec<String>) {
    let mut runtimes = vec!["rust"];
    let mut notes = Vec::new();
    if o.mixed {
        for r in TS_RUNTIMES {
            match programs.ts_client(r) {
                Ok(_) => runtimes.push(r),
                Err(e) => {
                    let note = format!("mixed cells without {r}: {e}");
                    eprintln!("sim: {note}");
                    notes.push(note);
                }
            }
        }
    }
    (runtimes, notes)
}

/// The progress line before a cell: `[3/25 00:42] bitwire-delta, 100 clients: 10 s window ...`.
fn announce(spec: &CellSpec, i: usize, cells: usize, clock: &Instant, seconds: f64) -> String {
    let who = if spec.mixed {
        let rs: Vec<String> = spec
            .shares
            .iter()
            .map(|s| format!("{} {}", s.clients, s.runtime))
            .collect();
        format!("{} clients ({})", spec.clients, rs.join(", "))
    } else {
        format!("{} clients", spec.clients)
    };
    format!(
        "[{}/{cells} {}] {}, {who}: {seconds} s window ...",
        i + 1,
        mmss(clock.elapsed().as_secs_f64()),
        spec.codec
    )
}

/// Runs every cell and writes the results and the report; returns whether every cell
/// passed.
pub fn run(o: &Options) -> Result<bool, String> {
    let started = SystemTime::now();
    let clock = Instant::now();
    std::fs::create_dir_all(&o.out).map_err(|e| format!("{}: {e}", o.out.display()))?;
    let programs = Programs::from_env(&o.root);
    let (runtimes, notes) = mixed_runtimes(o, &programs);
    let tmp = o.out.join("tmp");
    let mut prometheus = if o.prometheus {
        let p = Prometheus::start(
            &programs.prometheus,
            &programs.simprom,
            &tmp.join("prometheus"),
            CLIENT_CPU,
        )?;
        eprintln!(
            "sim: Prometheus at {} (scrapes every cell each second)",
            p.url
        );
        Some(p)
    } else {
        None
    };
    let mut results = SimResults {
        schema: SCHEMA.into(),
        mode: o.mode.clone(),
        started: bitwire_netbench::results::rfc3339(started),
        seconds: 0.0,
        machine: machine(o, &programs, &runtimes)?,
        settings: Settings {
            codecs: o.codecs.iter().map(|c| c.name().to_string()).collect(),
            clients: o.clients.clone(),
            seconds: o.seconds,
            warmup: o.warmup,
            server_cpu: SERVER_CPU,
            client_cpu: CLIENT_CPU,
            prometheus: o.prometheus,
            mixed: o.mixed,
        },
        cells: Vec::new(),
        live: Live::Missing("not taken in a smoke run".into()),
        notes,
    };
    let ctx = Ctx {
        opts: o,
        programs: &programs,
        prometheus: prometheus.as_ref(),
    };
    let cells = plan(o, &runtimes);
    for (i, spec) in cells.iter().enumerate() {
        eprintln!("{}", announce(spec, i, cells.len(), &clock, o.seconds));
        let record = cell::run_cell(&ctx, spec);
        eprintln!(
            "    {} ({} s)",
            outcome(&record, o.prometheus),
            record.seconds
        );
        results.cells.push(record);
        results.seconds = clock.elapsed().as_secs_f64().round();
        crate::report::write(&o.out, &results).map_err(|e| e.to_string())?;
    }
    if o.mode != "smoke" {
        eprintln!(
            "[{}] live view: screenshot ...",
            mmss(clock.elapsed().as_secs_f64())
        );
        results.live = live::screenshot(&ctx);
    }
    if let Some(p) = prometheus.as_mut() {
        if let Err(e) = p.stop() {
            eprintln!("sim: {e}");
        }
    }
    drop(prometheus);
    let _ = std::fs::remove_dir_all(&tmp);
    results.seconds = clock.elapsed().as_secs_f64().round();
    crate::report::write(&o.out, &results).map_err(|e| e.to_string())?;
    Ok(results.cells.iter().all(CellRecord::ok))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_full_run_with_mixed_cells_stops_them_at_250_clients() {
        let args = ["--mixed"].map(String::from);
        let o = Options::parse(args).unwrap();
        let cells = plan(&o, &["rust", "node", "bun", "deno"]);
        let mixed: Vec<usize> = cells
            .iter()
            .filter(|c| c.mixed)
            .map(|c| c.clients)
            .collect();
        assert_eq!(mixed, [10, 10, 50, 50, 100, 100, 250, 250]);
        assert_eq!(cells.len(), 6 * 5 + mixed.len());
        assert!(cells.iter().any(|c| c.clients == 2000 && !c.mixed));
    }
}
