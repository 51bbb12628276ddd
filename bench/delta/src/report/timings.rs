//! The report's times: per scenario, one table of every runtime's full and delta codecs
//! (rows grouped by runtime, each with its ratio to the full snapshot's time in the same
//! runtime and run), then what exactly each program timed.

use super::Results;
use crate::raw::{short_label, RawFile, Timing, CODECS, SCENARIOS};
use bitwire_report::doc::{Block, Cell, Table};
use bitwire_report::format::{num, ratio};

/// Raw files in the order their runtimes are shown; others follow by name.
const ORDER: &[&str] = &[
    "rust.json",
    "go.json",
    "ts-node.json",
    "ts-bun.json",
    "ts-deno.json",
];

/// The raw files with times, in [`ORDER`].
fn timed(r: &Results) -> Vec<(&str, &RawFile)> {
    let mut files: Vec<(&str, &RawFile)> = r
        .files
        .iter()
        .filter(|(_, f)| !f.timings.is_empty())
        .map(|(n, f)| (n.as_str(), f))
        .collect();
    files.sort_by_key(|(n, _)| (ORDER.iter().position(|o| o == n).unwrap_or(ORDER.len()), *n));
    files
}

fn scenario_title(id: &str) -> &'static str {
    match id {
        "world" => "Moving world",
        "cubes" => "Cube scene",
        _ => "?",
    }
}

/// The section: a heading, how to read it, a table per scenario and the notes.
pub fn blocks(r: &Results) -> Vec<Block> {
    let mut out = vec![Block::Heading(2, "Encode and decode time per tick".into())];
    let files = timed(r);
    if files.is_empty() {
        out.push(Block::Para("No times measured.".into()));
        return out;
    }
    out.push(Block::Para(
        "Each program decodes the same bytes (the full encodings of the ticks and their \
         deltas as the reference codec writes them) and checks that its generated code writes \
         them byte for byte before it times anything. A figure is the median over the timed \
         passes of the ns per tick of one pass over every tick of the scenario (the values \
         decoded and the encodings made before the clock starts; ticks 1 to the end for \
         deltas). \u{d7} full: the time over the full snapshot's in the same runtime and run. \
         Times are reported, never asserted."
            .into(),
    ));
    for id in SCENARIOS {
        let t = table(&files, id);
        if !t.rows.is_empty() {
            out.push(Block::Heading(3, scenario_title(id).into()));
            out.push(Block::Table(t));
        }
    }
    out.push(Block::Details(
        "What each program timed".into(),
        vec![Block::Table(notes_table(&files))],
    ));
    out
}

fn find<'a>(f: &'a RawFile, scenario: &str, codec: &str) -> Option<&'a Timing> {
    f.timings
        .iter()
        .find(|t| t.scenario == scenario && t.codec == codec)
}

fn table(files: &[(&str, &RawFile)], scenario: &str) -> Table {
    let mut t = Table {
        headers: [
            "runtime",
            "codec",
            "encode ns/tick",
            "\u{d7} full",
            "decode ns/tick",
            "\u{d7} full",
            "passes",
        ]
        .map(String::from)
        .to_vec(),
        label_columns: 2,
        ..Table::default()
    };
    for (_, f) in files {
        let full = find(f, scenario, "bitwire");
        for codec in CODECS {
            let Some(x) = find(f, scenario, codec) else {
                continue;
            };
            let vs = |v: f64, base: Option<f64>| {
                Cell::text(base.map_or_else(|| "–".into(), |b| ratio(v / b)))
            };
            t.rows.push(vec![
                Cell::text(f.runtime.clone()),
                Cell::text(short_label(codec)),
                Cell::text(num(x.encode_ns)),
                vs(x.encode_ns, full.map(|b| b.encode_ns)),
                Cell::text(num(x.decode_ns)),
                vs(x.decode_ns, full.map(|b| b.decode_ns)),
                Cell::text(x.rounds.to_string()),
            ]);
        }
    }
    t
}

/// One row per program, codec and distinct note: what was timed (the raw files' notes,
/// usually the same for both scenarios).
fn notes_table(files: &[(&str, &RawFile)]) -> Table {
    let mut t = Table {
        headers: ["runtime", "program", "codec", "what"]
            .map(String::from)
            .to_vec(),
        label_columns: 4,
        ..Table::default()
    };
    for (_, f) in files {
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for x in &f.timings {
            if seen.contains(&(x.codec.as_str(), x.note.as_str())) {
                continue;
            }
            seen.push((&x.codec, &x.note));
            t.rows.push(vec![
                Cell::text(f.runtime.clone()),
                Cell::text(f.program.clone()),
                Cell::text(short_label(&x.codec)),
                Cell::text(x.note.clone()),
            ]);
        }
    }
    t
}
