//! The report's tables: one per figure with a row per codec and a column per client
//! count (the migration report's three — bytes, sync time, RTT — plus overruns and CPU),
//! every figure of every cell, and the mixed-runtime cells.

use bitwire_report::doc::{mark_best, Block, Cell, Notes, Table};
use bitwire_report::format::{num, thousands};

use super::figures::Figures;
use super::model::{CellRecord, SimResults};

/// A figure of a cell.
pub type Value = fn(&Figures) -> Option<f64>;

/// A figure of a cell for a table: the value compared (best marked) and its text.
pub type Pick = fn(&Figures) -> Option<(f64, String)>;

/// The cell of `codec` at `clients`, not mixed, whether it passed or not.
pub fn cell<'a>(r: &'a SimResults, codec: &str, clients: usize) -> Option<&'a CellRecord> {
    r.cells
        .iter()
        .find(|c| !c.mixed && c.codec == codec && c.clients == clients)
}

/// A table of one figure: a row per codec, a column per client count; the best of each
/// column in bold (`lower_is_better`), a failed cell shown as such with its error in a
/// footnote.
pub fn matrix(r: &SimResults, pick: Pick, lower_is_better: bool, notes: &mut Notes) -> Table {
    let mut headers = vec!["codec".to_string()];
    headers.extend(r.settings.clients.iter().map(|n| format!("{n} clients")));
    let mut rows: Vec<Vec<Cell>> = r
        .settings
        .codecs
        .iter()
        .map(|c| vec![Cell::text(c.as_str())])
        .collect();
    for &n in &r.settings.clients {
        let mut values = Vec::new();
        for (row, codec) in rows.iter_mut().zip(&r.settings.codecs) {
            let (value, c) = match cell(r, codec, n) {
                None => (None, Cell::text("not run")),
                Some(rec) if !rec.ok() => (
                    None,
                    Cell {
                        text: "failed".into(),
                        error: true,
                        notes: notes.add(&rec.error.as_ref().map(|e| format!("{}: {e}", rec.id))),
                        ..Cell::default()
                    },
                ),
                Some(rec) => match pick(&Figures::of(rec, r.settings.prometheus)) {
                    Some((v, text)) => (Some(v), Cell::text(text)),
                    None => (None, Cell::text("–")),
                },
            };
            values.push(value);
            row.push(c);
        }
        // A column of equal values has no best.
        let present: Vec<f64> = values.iter().flatten().copied().collect();
        let marks = if present.windows(2).all(|w| w[0] == w[1]) {
            vec![false; values.len()]
        } else {
            mark_best(&values, lower_is_better)
        };
        for (row, best) in rows.iter_mut().zip(marks) {
            if let Some(last) = row.last_mut() {
                last.best = best;
            }
        }
    }
    Table {
        headers,
        rows,
        label_columns: 1,
    }
}

/// "12.3 (0.07 %)": microseconds and their share of the tick.
pub fn us_pct(us: Option<f64>, pct: Option<f64>) -> Option<(f64, String)> {
    let (us, pct) = (us?, pct?);
    Some((us, format!("{} ({} %)", num(us), num(pct))))
}

/// A figure: whole numbers (counts, exact bytes) with thousands separators, others with
/// three significant digits or more.
pub fn figure(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        thousands(v as i64)
    } else {
        num(v)
    }
}

fn opt(v: Option<f64>) -> String {
    v.map_or("–".into(), figure)
}

fn count(v: Option<u64>) -> String {
    v.map_or("–".into(), |n| thousands(n as i64))
}

/// Every figure of every cell, in the order run.
pub fn every_cell(r: &SimResults, notes: &mut Notes) -> Table {
    let headers = [
        "cell",
        "result",
        "ticks",
        "entities / view",
        "tick mean µs",
        "sync mean µs",
        "sync p99 µs",
        "out B",
        "in B",
        "overruns",
        "skipped",
        "clients dropped",
        "CPU %",
        "RTT p50 ms",
        "RTT p99 ms",
        "metrics check",
        "cell s",
    ];
    let rows = r
        .cells
        .iter()
        .map(|c| {
            let f = Figures::of(c, r.settings.prometheus);
            let result = Cell {
                text: if c.ok() { "ok".into() } else { "failed".into() },
                error: !c.ok(),
                notes: notes.add(&c.error.as_ref().map(|e| format!("{}: {e}", c.id))),
                ..Cell::default()
            };
            let check = c.metrics_check.as_ref().map_or("–".to_string(), |m| {
                if m.ok {
                    "ok".into()
                } else {
                    "FAILED".into()
                }
            });
            vec![
                Cell::text(c.id.as_str()),
                result,
                Cell::text(opt(f.ticks)),
                Cell::text(opt(f.entities)),
                Cell::text(opt(f.tick_mean_us)),
                Cell::text(opt(f.sync_mean_us)),
                Cell::text(opt(f.sync_p99_us)),
                Cell::text(opt(f.bytes_out)),
                Cell::text(opt(f.bytes_in)),
                Cell::text(opt(f.overruns)),
                Cell::text(count(f.skipped)),
                Cell::text(count(f.dropped)),
                Cell::text(opt(f.cpu_percent)),
                Cell::text(opt(f.rtt_p50_ms)),
                Cell::text(opt(f.rtt_p99_ms)),
                Cell::text(check),
                Cell::text(num(c.seconds)),
            ]
        })
        .collect();
    Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows,
        label_columns: 2,
    }
}

/// The server's summary against Prometheus, cell by cell (with `--prometheus`).
pub fn summary_vs_prometheus(r: &SimResults) -> Option<Table> {
    let cells: Vec<&CellRecord> = r.cells.iter().filter(|c| c.prometheus.is_some()).collect();
    if cells.is_empty() {
        return None;
    }
    let pairs: [(&str, Value); 6] = [
        ("sync mean µs", |f| f.sync_mean_us),
        ("sync p99 µs", |f| f.sync_p99_us),
        ("tick mean µs", |f| f.tick_mean_us),
        ("out B", |f| f.bytes_out),
        ("overruns", |f| f.overruns),
        ("CPU %", |f| f.cpu_percent),
    ];
    let mut headers = vec!["cell".to_string()];
    headers.extend(
        pairs
            .iter()
            .map(|(h, _)| format!("{h}: summary / Prometheus")),
    );
    let rows = cells
        .iter()
        .map(|c| {
            let (s, p) = (Figures::of(c, false), Figures::of(c, true));
            let mut row = vec![Cell::text(c.id.as_str())];
            row.extend(
                pairs
                    .iter()
                    .map(|(_, f)| Cell::text(format!("{} / {}", opt(f(&s)), opt(f(&p))))),
            );
            row
        })
        .collect();
    Some(Table {
        headers,
        rows,
        label_columns: 1,
    })
}

/// The mixed-runtime cells: one row per client process.
pub fn mixed(r: &SimResults) -> Option<Block> {
    let cells: Vec<&CellRecord> = r.cells.iter().filter(|c| c.mixed).collect();
    if cells.is_empty() {
        return None;
    }
    let headers = [
        "cell",
        "runtime",
        "clients",
        "connected",
        "snapshots",
        "B per snapshot",
        "RTT p50 ms",
        "RTT p99 ms",
        "invalid",
        "decode errors",
    ];
    let mut rows = Vec::new();
    for c in cells {
        for share in &c.shares {
            let res = c.client_results.iter().find(|x| x.runtime == share.runtime);
            let rtt = |p: fn(&bitwire_netbench::stats::Latency) -> f64| {
                res.and_then(|x| x.rtt_us.as_ref()).map(|l| p(l) / 1e3)
            };
            rows.push(vec![
                Cell::text(c.id.as_str()),
                Cell::text(share.runtime.as_str()),
                Cell::text(share.clients.to_string()),
                Cell::text(res.map_or("no results".into(), |x| x.connected.to_string())),
                Cell::text(count(res.map(|x| x.snapshots))),
                Cell::text(opt(res.and_then(|x| {
                    (x.snapshots > 0).then(|| x.bytes_in as f64 / x.snapshots as f64)
                }))),
                Cell::text(opt(rtt(|l| l.p50))),
                Cell::text(opt(rtt(|l| l.p99))),
                Cell::text(count(res.map(|x| x.invalid))),
                Cell::text(count(res.map(|x| x.decode_errors))),
            ]);
        }
    }
    Some(Block::Table(Table {
        headers: headers.iter().map(|h| h.to_string()).collect(),
        rows,
        label_columns: 2,
    }))
}
