//! The delta lab's report as a `bitwire-report` document: the machine, the goals, per
//! scenario a table of bytes per tick and kbit/s for every codec with its ratios, the bytes
//! of every tick as a chart, then the times and the format measurement.

use super::codes as codes_tables;
use super::Results;
use crate::cubes::ROLL_START;
use crate::raw::{short_label, RawFile, Series, CODECS};
use crate::stats::{kbit_s, summarize};
use bitwire_report::doc::{mark_best, Block, Cell, Doc, Notes, Table};
use bitwire_report::format::{num, ratio};
use bitwire_report::goals::Goal;
use bitwire_report::series::{Series as Chart, SeriesLine};
use bitwire_report::svg::{Bars, Chart as AnyChart};

fn color(codec: &str) -> usize {
    CODECS.iter().position(|c| *c == codec).unwrap_or(0)
}

/// Builds the report from the results and the judged goals.
pub fn build(r: &Results, goals: Vec<Goal>) -> Doc {
    let mut notes = Notes::default();
    let mut body = Vec::new();
    for (id, title) in [
        ("world", "Moving world"),
        ("cubes", "Cube scene (after Fiedler)"),
    ] {
        body.push(Block::Heading(2, title.into()));
        scenario(r, id, &mut notes, &mut body);
    }
    body.extend(super::timings::blocks(r));
    codes(r, &mut body);
    let date = r
        .machine
        .get("date")
        .and_then(|v| v.as_str())
        .map(|d| format!(", {d}"))
        .unwrap_or_default();
    Doc {
        title: format!(
            "bitwire delta lab{date}{}",
            if r.quick { " (quick mode)" } else { "" }
        ),
        source:
            "Written by `deltabench report` from the raw files in `raw/`; `report.html` has the \
                 same tables with charts."
                .into(),
        intro: intro(r),
        goals,
        notes_path: super::NOTES.into(),
        body,
        footnotes: notes.0,
        footnotes_title: "What each series counts".into(),
    }
}

fn intro(r: &Results) -> Vec<Block> {
    let mut out = Vec::new();
    if r.quick {
        out.push(Block::Warning(format!(
            "Quick mode: {} ticks per scenario and few timing rounds. The figures show that \
             everything runs; they are not the measurement.",
            r.ticks
        )));
    }
    out.push(Block::Heading(2, "Machine and programs".into()));
    let mut t = Table {
        headers: vec!["".into(), "recorded".into()],
        label_columns: 2,
        ..Table::default()
    };
    for (k, v) in &r.machine {
        let text = match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        t.rows.push(vec![Cell::text(k.clone()), Cell::text(text)]);
    }
    for (name, f) in &r.files {
        t.rows.push(vec![
            Cell::text(format!("raw/{name}")),
            Cell::text(format!("{} ({})", f.program, f.runtime)),
        ]);
    }
    out.push(Block::Table(t));
    out.push(Block::Para(format!(
        "What is measured: {} ticks (60 Hz) of each scenario, generated once from a fixed seed \
         (bench/delta/README.md) and encoded by every program. Bytes are payload only: the \
         encoded message, patch or delta, without framing, sequence numbers or transport \
         headers (footnotes say exactly what each series counts). Tick 0 is the join, where \
         every codec sends the whole state; means, percentiles (nearest rank) and kbit/s (mean \
         bytes × 8 × 60 / 1000) are over the ticks after it. bitwire's delta is measured \
         against the previous tick (age 1, what a Colyseus patch is relative to) and against \
         the tick 6 older (age 6: the newest acknowledged snapshot at about 100 ms round trip; \
         tick 0 for ticks 1–5). Ratios are to figures of this run.",
        r.ticks
    )));
    out
}

fn opt(v: Option<f64>, f: fn(f64) -> String) -> Cell {
    Cell::text(v.map(f).unwrap_or_else(|| "–".into()))
}

fn scenario(r: &Results, id: &str, notes: &mut Notes, out: &mut Vec<Block>) {
    let series = r.scenario_series(id);
    if series.is_empty() {
        out.push(Block::Para("No series measured.".into()));
        return;
    }
    if let Some(row) = r.codes().iter().find(|c| c.scenario == id && c.age == 1) {
        let ticks = row.ticks.max(1) as f64;
        out.push(Block::Para(format!(
            "Per tick on average: {} list elements, {} of them changed or removed since the \
             previous tick, {} scalars changed.",
            num(row.walk.elements as f64 / ticks),
            num(row.walk.events as f64 / ticks),
            num(row.scalars.changed as f64 / ticks)
        )));
    }
    out.push(Block::Table(summary_table(r, id, &series, notes)));
    out.push(Block::Chart(AnyChart::Series(Chart {
        title: format!("{id}: bytes per tick"),
        x_label: "tick".into(),
        y_label: "bytes".into(),
        lines: series
            .iter()
            .map(|(_, s)| SeriesLine {
                name: short_label(&s.codec).into(),
                color: color(&s.codec),
                dashed: s.codec.ends_with("-all"),
                values: s.bytes.iter().map(|b| *b as f64).collect(),
            })
            .collect(),
    })));
    out.push(Block::Chart(AnyChart::Bars(Bars {
        title: format!("{id}: kbit/s at 60 Hz (mean of ticks 1..)"),
        unit: "kbit/s".into(),
        groups: series
            .iter()
            .map(|(_, s)| short_label(&s.codec).into())
            .collect(),
        series: vec!["kbit/s".into()],
        values: series
            .iter()
            .map(|(_, s)| vec![r.summary(id, &s.codec).map(|x| x.kbit_s)])
            .collect(),
    })));
    if id == "cubes" && r.ticks > ROLL_START as usize {
        out.push(Block::Para(format!(
            "By phase: the cubes are dropped at tick 0 and have settled by tick {ROLL_START}, \
             when the player cube starts to roll through them."
        )));
        out.push(Block::Table(phase_table(&series)));
    }
}

fn summary_table(
    r: &Results,
    id: &str,
    series: &[(&RawFile, &Series)],
    notes: &mut Notes,
) -> Table {
    let mut t = Table {
        headers: [
            "codec",
            "tick 0 (join), B",
            "mean B/tick",
            "p50",
            "p95",
            "max",
            "kbit/s at 60 Hz",
            "× full bitwire",
            "× Colyseus patch",
        ]
        .map(String::from)
        .to_vec(),
        label_columns: 1,
        ..Table::default()
    };
    let full = r.summary(id, "bitwire").map(|s| s.mean);
    let colyseus = r.summary(id, "colyseus").map(|s| s.mean);
    let mut means = Vec::new();
    for (_, s) in series {
        let sum = r.summary(id, &s.codec);
        let mean = sum.map(|x| x.mean);
        means.push(mean);
        let per = |base: Option<f64>| match (mean, base) {
            (Some(v), Some(b)) if b > 0.0 => Some(v / b),
            _ => None,
        };
        t.rows.push(vec![
            Cell {
                notes: notes.add(&Some(format!("{}: {}", s.label, s.counted))),
                ..Cell::text(s.label.clone())
            },
            opt(s.bytes.first().map(|b| *b as f64), num),
            opt(mean, num),
            opt(sum.map(|x| x.p50 as f64), num),
            opt(sum.map(|x| x.p95 as f64), num),
            opt(sum.map(|x| x.max as f64), num),
            opt(sum.map(|x| x.kbit_s), num),
            opt(per(full), ratio),
            opt(per(colyseus), ratio),
        ]);
    }
    for (row, best) in t.rows.iter_mut().zip(mark_best(&means, true)) {
        row[2].best = best;
    }
    t
}

/// Mean bytes per tick and kbit/s of each codec in the cube scene's two phases.
fn phase_table(series: &[(&RawFile, &Series)]) -> Table {
    let cut = ROLL_START as usize;
    let mut t = Table {
        headers: [
            "codec",
            "ticks 1–89: mean B/tick",
            "kbit/s",
            "ticks 90–: mean B/tick",
            "kbit/s",
        ]
        .map(String::from)
        .to_vec(),
        label_columns: 1,
        ..Table::default()
    };
    t.headers[1] = format!("ticks 1–{}: mean B/tick", cut - 1);
    t.headers[3] = format!("ticks {cut}–: mean B/tick");
    for (_, s) in series {
        let a = summarize(s.bytes.get(1..cut).unwrap_or_default()).map(|x| x.mean);
        let b = summarize(s.bytes.get(cut..).unwrap_or_default()).map(|x| x.mean);
        t.rows.push(vec![
            Cell::text(s.label.clone()),
            opt(a, num),
            opt(a.map(kbit_s), num),
            opt(b, num),
            opt(b.map(kbit_s), num),
        ]);
    }
    t
}

fn codes(r: &Results, out: &mut Vec<Block>) {
    let rows = r.codes();
    out.push(Block::Heading(
        2,
        "The delta format's codes (docs/spec.md §12)".into(),
    ));
    if rows.is_empty() {
        out.push(Block::Para("Not measured in this run.".into()));
        return;
    }
    out.push(Block::Para(codes_tables::EXPLANATION.into()));
    out.push(Block::Heading(3, "Mean bits per changed scalar".into()));
    out.push(Block::Table(codes_tables::scalars_table(rows)));
    out.push(Block::Heading(
        3,
        "Mean bits per tick of the list walk".into(),
    ));
    out.push(Block::Table(codes_tables::walk_table(rows)));
    out.push(Block::Details(
        "Per field: mean bits per changed scalar".into(),
        vec![Block::Table(codes_tables::fields_table(rows))],
    ));
}
