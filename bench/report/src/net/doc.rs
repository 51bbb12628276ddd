//! The network report as a [`Doc`]: the machine and settings, the seed's figures, then the
//! sections of `throughput.rs` and `latency.rs`, the failed and missing cells, and the lead's
//! profile notes. Every figure comes from `results.json`.

use super::load::{Found, NetResults};
use super::{latency, throughput};
use crate::doc::{Block, Cell, Doc, Notes, Table};
use crate::format::thousands;
use crate::goals::Goal;

/// The seed's published figures, quoted as it gave them.
pub const SEED: &str =
    "The report we reproduce (Minecraft-style VarInt-framed TCP on loopback, Deno \
     against Bun, sizes 8–1024 B, 5,000 packets per connection) found about 5.6–6k packets/s on \
     one connection, 17–22k on 4 and 71–73k on 32 (its best: about 87k packets/s at 8 B over 32 \
     connections), an average latency of 0.15–0.72 ms with spikes to 12 ms, and concluded that \
     \"the real bottleneck is TCP I/O, not encoding\".";

/// The seed's figure for `connections`, as it gave it.
pub fn seed_figure(connections: u64) -> String {
    match connections {
        1 => "The seed measured about 5.6–6k packets/s on one connection.".into(),
        4 => "The seed measured about 17–22k packets/s on 4 connections.".into(),
        32 => "The seed measured about 71–73k packets/s on 32 connections (its best: about 87k at 8 B).".into(),
        n => format!("The seed did not measure {n} connections."),
    }
}

/// Builds the report. `profiles` is the lead's `notes.md`, if there is one.
pub fn build(r: &NetResults, goals: Vec<Goal>, profiles: Option<&str>) -> Doc {
    let mut notes = Notes::default();
    let mut body = Vec::new();
    throughput::seed_tables(r, &mut notes, &mut body);
    throughput::scaling(r, &mut notes, &mut body);
    throughput::overhead(r, &mut notes, &mut body);
    latency::latency(r, &mut notes, &mut body);
    latency::cpu(r, &mut notes, &mut body);
    latency::wire(r, &mut body);
    problems(r, &mut body);
    body.push(Block::Heading(2, "Why (profiles)".into()));
    match profiles.map(str::trim).filter(|p| !p.is_empty()) {
        Some(text) => body.push(Block::Verbatim(text.to_string())),
        None => body.push(Block::Para(
            "No profile notes yet (the lead writes them to notes.md next to results.json; \
             they appear here as written)."
                .into(),
        )),
    }
    let date = r.started.get(..10).unwrap_or("");
    Doc {
        title: format!(
            "bitwire network benchmark{}{}",
            if date.is_empty() {
                String::new()
            } else {
                format!(", {date}")
            },
            if r.quick { " (quick mode)" } else { "" }
        ),
        source: "Written by `netreport` (bench/report) from `results.json` next to this file; \
                 `report.html` has the same tables with charts."
            .into(),
        intro: intro(r),
        goals,
        notes_path: "notes.md".into(),
        body,
        footnotes: notes.0,
        footnotes_title: "Errors of failed cells".into(),
    }
}

/// The quick-mode warning, the machine, settings and servers, the seed, how to read.
fn intro(r: &NetResults) -> Vec<Block> {
    let mut out = Vec::new();
    if r.quick {
        out.push(Block::Warning(
            "Quick mode: a small matrix and few packets. The figures show that everything runs; \
             they are not meaningful measurements."
                .into(),
        ));
    }
    out.push(Block::Heading(2, "Machine and settings".into()));
    out.push(Block::Table(machine_table(r)));
    out.push(Block::Para(cores_text(r.machine.cores, &r.machine.pinning)));
    out.push(Block::Heading(3, "Servers".into()));
    out.push(Block::Table(servers_table(r)));
    out.push(Block::Heading(3, "The seed".into()));
    out.push(Block::Para(SEED.into()));
    out.push(Block::Para(
        "How to read: packets/s are replies received per second over the measured phase, all \
         connections together, warm-up excluded. In each row of a throughput table the fastest \
         framed server (bitwire's and mcproto) is marked in bold; the raw echoes (…-raw) are the \
         cost floor and take no part. Framing overhead is a server's packets/s over its raw echo's \
         in the same cell. A dash means the cell was not measured; \"error\" means it failed (see \
         Errors): a failed cell never shows a number."
            .into(),
    ));
    out
}

/// `k: v` rows for what the run recorded.
fn machine_table(r: &NetResults) -> Table {
    let m = &r.machine;
    let s = &r.settings;
    let mut t = Table {
        headers: vec!["".into(), "recorded".into()],
        label_columns: 2,
        ..Table::default()
    };
    let list = |v: &[u64]| {
        v.iter()
            .map(|x| thousands(*x as i64))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut rows: Vec<(String, String)> = vec![
        ("started".into(), r.started.clone()),
        (
            "run time".into(),
            r.seconds.map(duration).unwrap_or_default(),
        ),
        ("CPU".into(), m.cpu.clone()),
        (
            "cores".into(),
            if m.cores > 0 {
                m.cores.to_string()
            } else {
                String::new()
            },
        ),
        ("pinning".into(), m.pinning.clone()),
        ("kernel".into(), m.kernel.clone()),
        ("OS".into(), m.os.clone()),
    ];
    rows.extend(m.runtimes.iter().map(|(k, v)| (k.clone(), v.clone())));
    rows.extend([
        (
            "priming: packets each server answered before its first cell (4 pipelined connections, every size; not measured)".into(),
            thousands(s.prime as i64),
        ),
        (
            "warm-up packets per connection".into(),
            thousands(s.warmup as i64),
        ),
        (
            "measured packets per connection".into(),
            thousands(s.packets as i64),
        ),
        ("pipeline window".into(), thousands(s.window as i64)),
        ("sizes (bytes)".into(), list(&s.sizes)),
        ("connections".into(), list(&s.connections)),
        ("modes".into(), s.modes.join(", ")),
    ]);
    for (k, v) in rows.into_iter().filter(|(_, v)| !v.is_empty()) {
        t.rows.push(vec![Cell::text(k), Cell::text(v)]);
    }
    t
}

/// `1234.5` seconds as `20 min 34.5 s`.
pub fn duration(seconds: f64) -> String {
    let minutes = (seconds / 60.0).floor();
    let rest = seconds - minutes * 60.0;
    match minutes as u64 {
        0 => format!("{rest:.1} s"),
        m => format!("{m} min {rest:.1} s"),
    }
}

/// What the core count means for the figures.
pub fn cores_text(cores: u32, pinning: &str) -> String {
    let recorded = if pinning.is_empty() {
        "no pinning was recorded".to_string()
    } else {
        format!("recorded pinning: {pinning}")
    };
    match cores {
        0 => format!("The core count was not recorded; {recorded}."),
        1 => format!(
            "One core: the server and the driver share it, so every figure includes the \
             driver's own work and the two compete for the core; {recorded}."
        ),
        n => format!(
            "{n} cores: the server is pinned to one core and the driver to another, so they \
             never compete, but each has exactly one core ({recorded}). A multi-thread runtime \
             (tokio multi-thread, Go's scheduler, the JavaScript runtimes' helper threads) runs \
             all its threads on the server's one core: multi-thread and current-thread shapes \
             differ by their scheduling cost, not by parallelism, and every figure is what one \
             core serves. The driver's one core bounds how fast packets are offered: the CPU \
             section shows how busy each side's core was."
        ),
    }
}

fn servers_table(r: &NetResults) -> Table {
    let mut t = Table {
        headers: ["server", "what", "runtime", "kind", "baseline", "command"]
            .map(String::from)
            .to_vec(),
        label_columns: 6,
        ..Table::default()
    };
    for s in &r.servers {
        t.rows.push(
            [
                s.id.as_str(),
                s.label.as_str(),
                s.runtime.as_str(),
                s.kind.as_str(),
                s.baseline.as_deref().unwrap_or(""),
                s.command.as_str(),
            ]
            .map(Cell::text)
            .to_vec(),
        );
    }
    t
}

/// A table cell for a server at a key: the value formatted, a dash when not measured,
/// "error" (with the error as a footnote) when the cell failed.
pub fn value_cell(
    found: Found,
    value: impl Fn(&super::load::Cell) -> Option<f64>,
    format: impl Fn(f64) -> String,
    notes: &mut Notes,
) -> (Cell, Option<f64>) {
    match found {
        Found::Ok(c) => match value(c) {
            Some(v) => (Cell::text(format(v)), Some(v)),
            None => (Cell::text("–"), None),
        },
        Found::Failed(c) => (error_cell(c, notes), None),
        Found::Missing => (Cell::text("–"), None),
    }
}

/// The cell of a failed measurement.
pub fn error_cell(c: &super::load::Cell, notes: &mut Notes) -> Cell {
    Cell {
        text: "error".into(),
        notes: notes.add(&Some(c.error_text())),
        error: true,
        ..Cell::default()
    }
}

/// The failed cells and the cells of the matrix that are not in the results.
fn problems(r: &NetResults, out: &mut Vec<Block>) {
    out.push(Block::Heading(2, "Errors".into()));
    for s in r.servers.iter().filter(|s| s.error.is_some()) {
        out.push(Block::Para(format!(
            "Server `{}`: {} (its last line: {}).",
            s.id,
            s.error.as_deref().unwrap_or_default(),
            s.served.as_deref().unwrap_or("none")
        )));
    }
    let failed = r.failed();
    let missing = r.missing();
    if failed.is_empty() && missing.is_empty() {
        out.push(Block::Para(format!(
            "Every cell of the matrix ({} servers × {} cells) was measured with 0 errors.",
            r.servers.len(),
            r.matrix().len()
        )));
        return;
    }
    if failed.is_empty() {
        out.push(Block::Para("No measured cell had errors.".into()));
    } else {
        out.push(Block::Para(format!(
            "{} cells failed; their figures are not reported anywhere in this report.",
            failed.len()
        )));
        let mut t = Table {
            headers: [
                "server",
                "mode",
                "connections",
                "size (B)",
                "errors",
                "what happened",
            ]
            .map(String::from)
            .to_vec(),
            label_columns: 2,
            ..Table::default()
        };
        for c in failed {
            t.rows.push(vec![
                Cell::text(&c.server),
                Cell::text(&c.mode),
                Cell::text(c.connections.to_string()),
                Cell::text(c.size.to_string()),
                Cell::text(c.errors.to_string()),
                Cell {
                    text: c.error_text(),
                    error: true,
                    ..Cell::default()
                },
            ]);
        }
        out.push(Block::Table(t));
    }
    if !missing.is_empty() {
        out.push(Block::Para(format!(
            "{} cells of the matrix are not in results.json:",
            missing.len()
        )));
        let mut t = Table {
            headers: ["server", "which", "cells"].map(String::from).to_vec(),
            label_columns: 2,
            ..Table::default()
        };
        for s in &r.servers {
            let keys: Vec<String> = missing
                .iter()
                .filter(|(m, _)| m.id == s.id)
                .map(|(_, k)| k.to_string())
                .collect();
            if keys.is_empty() {
                continue;
            }
            let shown = keys.len().min(12);
            let mut which = keys[..shown].join("; ");
            if keys.len() > shown {
                which.push_str(&format!("; and {} more", keys.len() - shown));
            }
            t.rows.push(vec![
                Cell::text(&s.id),
                Cell::text(which),
                Cell::text(keys.len().to_string()),
            ]);
        }
        out.push(Block::Table(t));
    }
}
