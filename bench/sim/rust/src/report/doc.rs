//! The report as one renderer-neutral document (`bitwire_report::doc::Doc`): the machine
//! and settings, the goals, the tables and the charts. `report.md` and `report.html` are
//! printed from it by `bitwire-report`.

use bitwire_report::doc::{Block, Cell, Doc, Notes, Table};
use bitwire_report::format::num;
use bitwire_report::goals::Goal;
use bitwire_report::svg::{Chart, Line, Lines};

use super::figures::{tick_us, Figures, Source};
use super::goals::{breaking, find};
use super::model::SimResults;
use super::tables::{self, figure, us_pct, Pick, Value};

/// Builds the report from the results and the judged goals.
pub fn build(r: &SimResults, goals: Vec<Goal>) -> Doc {
    let mut notes = Notes::default();
    let mut body = Vec::new();
    sources(r, &mut body);
    figure_tables(r, &mut notes, &mut body);
    overruns(r, &mut body);
    charts(r, &mut body);
    details(r, &mut notes, &mut body);
    let date = r.started.get(..10).unwrap_or("");
    let mode = match r.mode.as_str() {
        "full" => String::new(),
        m => format!(" ({m} run)"),
    };
    Doc {
        title: format!("bitwire game-server simulator, {date}{mode}"),
        source: "Written by `sim` (bench/sim/README.md) from `results.json` next to this file; \
                 `report.html` has the same tables with charts."
            .into(),
        intro: intro(r),
        goals,
        notes_path: "notes.md".into(),
        body,
        footnotes: notes.0,
        footnotes_title: "Notes".into(),
    }
}

/// `9 min 05 s`, or `42 s`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    if s < 60 {
        format!("{s} s")
    } else {
        format!("{} min {:02} s", s / 60, s % 60)
    }
}

fn intro(r: &SimResults) -> Vec<Block> {
    let m = &r.machine;
    let s = &r.settings;
    let runtimes: Vec<String> = m.runtimes.iter().map(|(k, v)| format!("{k} {v}")).collect();
    let mut out = vec![
        Block::Para(format!(
            "Machine: {} ({} cores), {}, Linux {}; {}. Pinning: {}.",
            m.cpu,
            m.cores,
            m.os,
            m.kernel,
            runtimes.join(", "),
            m.pinning
        )),
        Block::Para(format!(
            "Each cell is one codec at one client count: a fresh simserver (tokio \
             current-thread runtime, pinned to core {}) ticking at 60 Hz, and its clients \
             in another process pinned to core {}, over 127.0.0.1 TCP. The window is {} s \
             of ticks, {} s after the last client connected. Bytes are whole frames \
             (Length, PacketID, Data). The run took {}.",
            s.server_cpu,
            s.client_cpu,
            num(s.seconds),
            num(s.warmup),
            duration(r.seconds)
        )),
    ];
    if r.mode != "full" {
        out.push(Block::Warning(format!(
            "A {} run ({} s windows): a check of the pipeline, not the figures to quote.",
            r.mode,
            num(s.seconds)
        )));
    }
    for n in &r.notes {
        out.push(Block::Para(format!("Note: {n}")));
    }
    out
}

fn sources(r: &SimResults, body: &mut Vec<Block>) {
    let source = if r.settings.prometheus {
        Source::Prometheus
    } else {
        Source::Summary
    };
    let how = match source {
        Source::Prometheus => {
            "a Prometheus server that scraped every cell's /metrics each second, through its \
             query API (simprom query): increases over the window; p99 interpolated within \
             the histogram's buckets (ten per decade), so coarser than the summary's exact p99 (the \
             table at the end compares both)"
        }
        Source::Summary => {
            "the server's own summary of the window (simserver --summary): every tick timed"
        }
    };
    body.push(Block::Heading(2, "Where the figures come from".into()));
    body.push(Block::Para(format!(
        "Server-side figures (bytes per client per tick, sync and tick time, overruns, \
         server CPU) come from {}: {how}. Round-trip times come from the client processes \
         (every sample: input sent → the first snapshot that reflects it). Every cell's last \
         scrape of /metrics was checked against the server's and the clients' own counts \
         with simprom check (Prometheus's expfmt parser).",
        source.label()
    )));
}

fn figure_tables(r: &SimResults, notes: &mut Notes, body: &mut Vec<Block>) {
    let tick = num(tick_us() / 1e3);
    let sections: [(String, &str, Pick, bool); 7] = [
        (
            "Snapshot bytes per client per tick (server → client)".into(),
            "The snapshot frame each client gets each tick, mean over the window.",
            |f| f.bytes_out.map(|v| (v, figure(v))),
            true,
        ),
        (
            "Input bytes per client per tick (client → server)".into(),
            "The input frame each client sends each tick.",
            |f| f.bytes_in.map(|v| (v, figure(v))),
            true,
        ),
        (
            format!("Sync system per tick, mean: µs (% of the {tick} ms tick)"),
            "Build, serialize, frame and queue every client's snapshot (the sync span).",
            |f| us_pct(f.sync_mean_us, f.sync_mean_pct()),
            true,
        ),
        (
            format!("Sync system per tick, p99: µs (% of the {tick} ms tick)"),
            "",
            |f| us_pct(f.sync_p99_us, f.sync_p99_pct()),
            true,
        ),
        (
            "Round-trip time, p50 / p99 (ms)".into(),
            "Input sent → the first snapshot whose input_seq includes it, at the client.",
            |f| match (f.rtt_p50_ms, f.rtt_p99_ms) {
                (Some(a), Some(b)) => Some((b, format!("{} / {}", num(a), num(b)))),
                _ => None,
            },
            true,
        ),
        (
            "Tick overruns in the window".into(),
            "Ticks that ended after the next tick's scheduled start (and ticks skipped).",
            |f| {
                let o = f.overruns?;
                let skipped = f.skipped.filter(|s| *s > 0);
                let text = match (f.ticks, skipped) {
                    (Some(t), Some(s)) => format!("{} of {} (+{s} skipped)", figure(o), figure(t)),
                    (Some(t), None) => format!("{} of {}", figure(o), figure(t)),
                    _ => figure(o),
                };
                Some((o, text))
            },
            true,
        ),
        (
            "Server CPU (% of its one core)".into(),
            "User + system time of the server process over the window.",
            |f| f.cpu_percent.map(|v| (v, num(v))),
            true,
        ),
    ];
    body.push(Block::Heading(2, "Per codec and client count".into()));
    for (title, about, pick, lower) in sections {
        body.push(Block::Heading(3, title));
        if !about.is_empty() {
            body.push(Block::Para(about.into()));
        }
        body.push(Block::Table(tables::matrix(r, pick, lower, notes)));
    }
}

fn overruns(r: &SimResults, body: &mut Vec<Block>) {
    body.push(Block::Heading(2, "Where overruns begin".into()));
    for codec in &r.settings.codecs {
        let b = breaking(r, codec);
        let failures = b.failures();
        let text = match (&b.first, b.clean.last()) {
            (None, None) => format!("{codec}: no cell measured{failures}."),
            (None, Some(max)) => format!(
                "{codec}: 0 overruns at every client count measured (up to {max}){failures}."
            ),
            (Some((n, f)), _) => format!(
                "{codec}: overruns begin at {n} clients ({} in the window): {}{failures}.",
                figure(f.overruns.unwrap_or(0.0)),
                super::goals::why_overruns(*n, f)
            ),
        };
        body.push(Block::Para(text));
    }
}

fn chart(r: &SimResults, title: &str, y_label: &str, pick: Value) -> Block {
    let series = r
        .settings
        .codecs
        .iter()
        .enumerate()
        .map(|(i, codec)| Line {
            name: codec.clone(),
            color: i,
            dashed: false,
            markers: true,
            points: r
                .settings
                .clients
                .iter()
                .filter_map(|&n| {
                    let fig = Figures::of(find(r, codec, n)?, r.settings.prometheus);
                    Some((n as f64, pick(&fig)?))
                })
                .collect(),
        })
        .collect();
    let mut ticks: Vec<f64> = r.settings.clients.iter().map(|&n| n as f64).collect();
    ticks.sort_by(f64::total_cmp);
    Block::Chart(Chart::Lines(Lines {
        title: title.into(),
        x_label: "clients".into(),
        y_label: y_label.into(),
        x_ticks: ticks,
        series,
    }))
}

fn charts(r: &SimResults, body: &mut Vec<Block>) {
    body.push(Block::Heading(2, "Charts".into()));
    let charts: [(&str, &str, Value); 6] = [
        (
            "Sync system per tick vs clients, mean",
            "µs per tick",
            |f| f.sync_mean_us,
        ),
        (
            "Sync system per tick vs clients, p99",
            "µs per tick",
            |f| f.sync_p99_us,
        ),
        (
            "Snapshot bytes per client per tick vs clients",
            "bytes",
            |f| f.bytes_out,
        ),
        ("Round-trip time vs clients, p50", "ms", |f| f.rtt_p50_ms),
        ("Round-trip time vs clients, p99", "ms", |f| f.rtt_p99_ms),
        ("Server CPU vs clients", "% of one core", |f| f.cpu_percent),
    ];
    for (title, y_label, pick) in charts {
        body.push(chart(r, title, y_label, pick));
    }
}

fn details(r: &SimResults, notes: &mut Notes, body: &mut Vec<Block>) {
    body.push(Block::Heading(2, "Every cell".into()));
    body.push(Block::Table(tables::every_cell(r, notes)));
    if let Some(t) = tables::summary_vs_prometheus(r) {
        body.push(Block::Heading(
            3,
            "The server's summary against Prometheus".into(),
        ));
        body.push(Block::Para(
            "The same window measured twice: by the server itself and by Prometheus from \
             its scrapes."
                .into(),
        ));
        body.push(Block::Table(t));
    }
    if let Some(t) = tables::mixed(r) {
        body.push(Block::Heading(2, "Mixed runtimes".into()));
        body.push(Block::Para(
            "Clients of several runtimes on one server: one row per client process.".into(),
        ));
        body.push(t);
    }
    let rows: Vec<Vec<Cell>> = r
        .cells
        .iter()
        .filter_map(|c| {
            let m = c.metrics_check.as_ref()?;
            Some(vec![
                Cell::text(c.id.as_str()),
                Cell::text(m.file.as_str()),
                Cell {
                    text: m.verdict.clone(),
                    error: !m.ok,
                    ..Cell::default()
                },
            ])
        })
        .collect();
    if !rows.is_empty() {
        body.push(Block::Heading(3, "Metrics checks (simprom check)".into()));
        body.push(Block::Table(Table {
            headers: vec!["cell".into(), "scrape".into(), "verdict".into()],
            rows,
            label_columns: 3,
        }));
    }
}
