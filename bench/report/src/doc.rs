//! The report as a renderer-neutral document: the machine, the goals, and per dataset view
//! the size table, the speed tables per platform, the packet64 scaling tables, and charts.
//! `markdown.rs` and `html.rs` print it; every figure in it comes from the raw files.

use crate::format::{num, ratio, thousands};
use crate::goals::Goal;
use crate::load::Results;
use crate::model::{self, Platform, Record};
use crate::svg::{Bars, Chart, Line, Lines};

/// A table cell.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cell {
    /// The text (not escaped).
    pub text: String,
    /// Best in its column (the winner).
    pub best: bool,
    /// Footnote numbers (1-based) attached to the cell.
    pub notes: Vec<usize>,
    /// A failed measurement: the text says so (never a number) and it is shown as an error.
    pub error: bool,
}

impl Cell {
    /// A plain cell.
    pub fn text(s: impl Into<String>) -> Cell {
        Cell {
            text: s.into(),
            ..Cell::default()
        }
    }
}

/// A table; the first `label_columns` columns are text, the rest numbers.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// Column headings.
    pub headers: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<Cell>>,
    /// How many leading columns are labels (left-aligned).
    pub label_columns: usize,
}

/// A piece of the report.
#[derive(Debug, Clone)]
pub enum Block {
    /// A heading of level 2..=4.
    Heading(u8, String),
    /// A paragraph of plain text.
    Para(String),
    /// A paragraph the reader must not miss (quick mode).
    Warning(String),
    /// A table.
    Table(Table),
    /// A chart (HTML only).
    Chart(Chart),
    /// Blocks folded away in HTML (`<details>`, with the summary line), a titled part of
    /// the Markdown.
    Details(String, Vec<Block>),
    /// Text written as it is: raw in the Markdown (the lead's own Markdown), preformatted in
    /// the HTML (escaped).
    Verbatim(String),
}

/// The whole report.
#[derive(Debug, Clone)]
pub struct Doc {
    /// Page title.
    pub title: String,
    /// The Markdown's first line: what wrote it, from what.
    pub source: String,
    /// Machine, toolchains and how to read the report.
    pub intro: Vec<Block>,
    /// The goals, judged.
    pub goals: Vec<Goal>,
    /// Where the goals' explanations come from (shown when one is missing).
    pub notes_path: String,
    /// Per dataset view: tables and charts.
    pub body: Vec<Block>,
    /// Footnote texts; cell `notes` index into this (1-based).
    pub footnotes: Vec<String>,
    /// The heading of the footnotes.
    pub footnotes_title: String,
}

/// Marks the best of each value: the smallest (or largest) present one, ties included.
/// Nothing is marked when fewer than two values are present (no contest).
pub fn mark_best(values: &[Option<f64>], lower_is_better: bool) -> Vec<bool> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    if present.len() < 2 {
        return vec![false; values.len()];
    }
    let best = if lower_is_better {
        present.iter().copied().fold(f64::INFINITY, f64::min)
    } else {
        present.iter().copied().fold(f64::NEG_INFINITY, f64::max)
    };
    values.iter().map(|v| *v == Some(best)).collect()
}

/// The speed baseline of a dataset view on a platform: for a pod block `memcpy` if it was
/// measured there; else `handwritten` if it was, else `bitwire`.
pub fn speed_baseline<'a>(
    results: &'a Results,
    platform: &Platform,
    dataset: &str,
    variant: &str,
) -> Option<&'a Record> {
    let memcpy = if model::POD_DATASETS.contains(&dataset) {
        results.find(platform, dataset, variant, "memcpy")
    } else {
        None
    };
    memcpy
        .or_else(|| results.find(platform, dataset, variant, "handwritten"))
        .or_else(|| results.find(platform, dataset, variant, "bitwire"))
}

/// `value / base`, if both exist.
pub fn ratio_to(value: Option<f64>, base: Option<f64>) -> Option<f64> {
    match (value, base) {
        (Some(v), Some(b)) if b > 0.0 => Some(v / b),
        _ => None,
    }
}

fn opt(v: Option<f64>, f: fn(f64) -> String) -> String {
    v.map(f).unwrap_or_else(|| "–".into())
}

/// Numbered footnotes, deduplicated by text.
#[derive(Debug, Default)]
pub struct Notes(pub Vec<String>);

impl Notes {
    /// The footnote numbers (1-based) of `note` (none if it is empty), adding it if new.
    pub fn add(&mut self, note: &Option<String>) -> Vec<usize> {
        match note.as_deref().map(str::trim) {
            Some(n) if !n.is_empty() => {
                let i = match self.0.iter().position(|x| x == n) {
                    Some(i) => i,
                    None => {
                        self.0.push(n.to_string());
                        self.0.len() - 1
                    }
                };
                vec![i + 1]
            }
            _ => vec![],
        }
    }
}

/// Fills a column's `best` flags from its values.
fn mark_column(rows: &mut [Vec<Cell>], col: usize, values: &[Option<f64>], lower_is_better: bool) {
    for (row, best) in rows.iter_mut().zip(mark_best(values, lower_is_better)) {
        row[col].best = best;
    }
}

/// What a dataset is, where the report says so under its heading.
pub fn dataset_note(dataset: &str) -> Option<&'static str> {
    (dataset == "profiles").then_some(
        "The string-heavy dataset (issue 17): pages of 8–32 player profiles, each with six short \
         strings (two of them optional), up to four short badges, an enum and a few numbers; \
         most of its bytes are short strings. It has no hand-written baseline, so speed ratios \
         are to bitwire.",
    )
}

/// Human title of a dataset view.
pub fn view_title(dataset: &str, variant: &str) -> String {
    match variant {
        "" if dataset == "profiles" => "profiles (string-heavy)".to_string(),
        "" => dataset.to_string(),
        "batch" => format!("{dataset}, batch (the whole dataset as one value)"),
        block => format!("{dataset}, {block} block"),
    }
}

/// Builds the report from merged results and evaluated goals.
pub fn build(results: &Results, goals: Vec<Goal>, notes_path: &str) -> Doc {
    let m = &results.machine;
    let intro = intro(results);
    let mut notes = Notes::default();
    let mut body = Vec::new();
    for (dataset, variant) in results.views() {
        body.push(Block::Heading(2, view_title(&dataset, &variant)));
        if let Some(note) = dataset_note(&dataset).filter(|_| variant.is_empty()) {
            body.push(Block::Para(note.into()));
        }
        size_section(results, &dataset, &variant, &mut notes, &mut body);
        for p in results.platforms() {
            speed_section(results, &p, &dataset, &variant, &mut notes, &mut body);
        }
        if dataset == "packet64" && variant.is_empty() {
            scaling_section(results, &mut body);
        }
    }
    if results.views().iter().all(|(d, _)| d != "packet64") && !results.scaling.is_empty() {
        body.push(Block::Heading(2, "packet64".into()));
        scaling_section(results, &mut body);
    }
    crate::compiler::section(results.compiler.as_ref(), &mut body);
    let title = format!(
        "bitwire benchmark lab{}{}",
        if m.date.is_empty() {
            String::new()
        } else {
            format!(", {}", m.date)
        },
        if results.quick { " (quick mode)" } else { "" }
    );
    Doc {
        title,
        source: "Written by `bitwire-report` from the raw result files next to this file; \
                 `report.html` has the same tables with charts."
            .into(),
        intro,
        goals,
        notes_path: notes_path.into(),
        body,
        footnotes: notes.0,
        footnotes_title: "Notes from the benchmark programs".into(),
    }
}

/// The report's opening: the quick-mode warning, the machine and toolchains, and how to
/// read the tables.
fn intro(results: &Results) -> Vec<Block> {
    let mut intro = Vec::new();
    if results.quick {
        intro.push(Block::Warning(
            "Quick mode: tiny datasets and few rounds. The figures show that everything runs; \
             they are not meaningful measurements."
                .into(),
        ));
    }
    intro.push(Block::Heading(2, "Machine and toolchains".into()));
    intro.push(Block::Table(machine_table(results)));
    intro.push(Block::Para(
        "How to read: every ratio is to a figure measured in this run on the same language and \
         runtime — sizes to bitwire, speed to handwritten where it exists for that dataset, else \
         to bitwire (pod blocks: to memcpy, a plain copy of the block's bytes, where it was \
         measured). The best value of each column is marked in bold (none when fewer than two \
         libraries have a value). MB/s is the library's own encoded bytes (10^6) per second; it \
         has no winner, because a larger encoding looks faster at the same ns. Pod blocks show \
         GiB/s instead: the block's values (2^30 bytes) per second, the same amount for every \
         library. A dash means the program did not measure that figure."
            .into(),
    ));
    intro
}

/// What `machine.json` recorded, and which raw files the results come from.
fn machine_table(results: &Results) -> Table {
    let m = &results.machine;
    let mut machine = Table {
        headers: vec!["".into(), "recorded".into()],
        label_columns: 2,
        ..Table::default()
    };
    let mut kv = |k: &str, v: String| {
        if !v.is_empty() {
            machine.rows.push(vec![Cell::text(k), Cell::text(v)]);
        }
    };
    kv("date", m.date.clone());
    kv("started", m.started.clone());
    kv(
        "git commit",
        if m.git_dirty {
            format!("{} (with uncommitted changes)", m.git_commit)
        } else {
            m.git_commit.clone()
        },
    );
    kv("CPU", m.cpu.clone());
    kv(
        "cores",
        if m.cores > 0 {
            m.cores.to_string()
        } else {
            String::new()
        },
    );
    kv(
        "memory",
        if m.memory_kib > 0 {
            format!("{:.1} GiB", m.memory_kib as f64 / (1024.0 * 1024.0))
        } else {
            String::new()
        },
    );
    kv("kernel", m.kernel.clone());
    kv("OS", m.os.clone());
    for (tool, version) in &m.toolchains {
        kv(tool, version.clone());
    }
    for f in &results.files {
        kv(
            &format!("raw/{}", f.file),
            format!(
                "{} ({} records, {} scaling points)",
                f.runtime, f.records, f.scaling
            ),
        );
    }
    machine
}

/// One row of the size table: a library's sizes, shared by the platforms that measured the
/// same bytes.
struct SizeRow<'a> {
    record: &'a Record,
    platforms: Vec<Platform>,
}

fn size_section(
    results: &Results,
    dataset: &str,
    variant: &str,
    notes: &mut Notes,
    out: &mut Vec<Block>,
) {
    let rows = size_rows(results, dataset, variant);
    if rows.is_empty() {
        return;
    }
    let per = if model::POD_DATASETS.contains(&dataset) {
        "B/block"
    } else {
        "B/msg"
    };
    let mut table = Table {
        headers: vec![
            "library".into(),
            "measured in".into(),
            format!("raw {per}"),
            "raw × bitwire".into(),
            format!("zstd-3 {per}"),
            "zstd × bitwire".into(),
            format!("lz4 {per}"),
            "lz4 × bitwire".into(),
        ],
        label_columns: 2,
        ..Table::default()
    };
    let mut cols: [Vec<Option<f64>>; 3] = Default::default();
    let mut chart = Bars {
        title: format!("{}: encoded size", view_title(dataset, variant)),
        unit: format!(
            "bytes per {}",
            if per == "B/block" { "block" } else { "message" }
        ),
        groups: vec![],
        series: vec!["raw".into(), "zstd-3".into(), "lz4".into()],
        values: vec![],
    };
    for row in &rows {
        let r = row.record;
        let sizes = [Some(r.raw_per_msg()), r.zstd_per_msg(), r.lz4_per_msg()];
        let bases = size_bases(results, row, dataset, variant);
        let shared = rows
            .iter()
            .filter(|x| x.record.library == r.library)
            .count()
            > 1;
        let where_ = row
            .platforms
            .iter()
            .map(Platform::label)
            .collect::<Vec<_>>()
            .join(", ");
        let mut cells = vec![
            Cell {
                text: r.library.clone(),
                notes: notes.add(&r.note),
                ..Cell::default()
            },
            Cell::text(where_.clone()),
        ];
        for i in 0..3 {
            cols[i].push(sizes[i]);
            cells.push(Cell::text(opt(sizes[i], num)));
            cells.push(Cell::text(opt(ratio_to(sizes[i], bases[i]), ratio)));
        }
        table.rows.push(cells);
        let keys = row
            .platforms
            .iter()
            .map(Platform::key)
            .collect::<Vec<_>>()
            .join(", ");
        chart.groups.push(if shared {
            format!("{} ({keys})", r.library)
        } else {
            r.library.clone()
        });
        chart.values.push(sizes.to_vec());
    }
    for (i, values) in cols.iter().enumerate() {
        mark_column(&mut table.rows, 2 + 2 * i, values, true);
    }
    out.push(Block::Heading(3, "Size".into()));
    out.push(Block::Table(table));
    out.push(Block::Chart(Chart::Bars(chart)));
}

/// The size table's rows of a dataset view: one per library and set of sizes, with the
/// platforms that measured them, in library order.
fn size_rows<'a>(results: &'a Results, dataset: &str, variant: &str) -> Vec<SizeRow<'a>> {
    let mut rows: Vec<SizeRow> = Vec::new();
    let mut found: Vec<_> = results
        .rows
        .iter()
        .filter(|r| r.record.dataset == dataset && r.record.variant == variant)
        .collect();
    found.sort_by_key(|r| {
        (
            model::index_or_end(model::LIBRARIES, &r.record.library),
            r.platform.order(),
        )
    });
    for r in found {
        let same = |x: &SizeRow| {
            x.record.library == r.record.library
                && x.record.bytes == r.record.bytes
                && x.record.messages == r.record.messages
                && x.record.zstd_bytes == r.record.zstd_bytes
                && x.record.lz4_bytes == r.record.lz4_bytes
        };
        match rows.iter_mut().find(|x| same(x)) {
            Some(x) => x.platforms.push(r.platform.clone()),
            None => rows.push(SizeRow {
                record: &r.record,
                platforms: vec![r.platform.clone()],
            }),
        }
    }
    rows
}

/// The reference of each size column (raw, zstd-3, lz4) of a row: bitwire on the same
/// platform, else on the first that measured that column (bitwire's bytes are the same in
/// every language).
fn size_bases(results: &Results, row: &SizeRow, dataset: &str, variant: &str) -> Vec<Option<f64>> {
    (0..3)
        .map(|i| {
            let col = |b: &Record| [Some(b.raw_per_msg()), b.zstd_per_msg(), b.lz4_per_msg()][i];
            let same = row
                .platforms
                .iter()
                .find_map(|p| results.find(p, dataset, variant, "bitwire").and_then(col));
            same.or_else(|| {
                results
                    .platforms()
                    .iter()
                    .find_map(|p| results.find(p, dataset, variant, "bitwire").and_then(col))
            })
        })
        .collect()
}

fn speed_section(
    results: &Results,
    platform: &Platform,
    dataset: &str,
    variant: &str,
    notes: &mut Notes,
    out: &mut Vec<Block>,
) {
    let records = speed_records(results, platform, dataset, variant);
    if !records.iter().any(|r| timed(r)) {
        return;
    }
    let pod = model::POD_DATASETS.contains(&dataset);
    let base = speed_baseline(results, platform, dataset, variant);
    let base_name = base.map(|b| b.library.as_str()).unwrap_or("bitwire");
    let per = if pod { "block" } else { "msg" };
    let mut table = speed_table(per, base_name, pod);
    let mut cols: [Vec<Option<f64>>; 6] = Default::default();
    let mut chart = Bars {
        title: format!("{}: {}", view_title(dataset, variant), platform.label()),
        unit: if pod {
            "GiB/s of the block's values (higher is better)".into()
        } else {
            "ns per message (lower is better)".into()
        },
        groups: vec![],
        series: if pod {
            vec!["encode GiB/s".into(), "decode GiB/s".into()]
        } else {
            vec!["encode".into(), "decode".into()]
        },
        values: vec![],
    };
    // Per second: GiB/s of the block for pod, MB/s of the library's own bytes otherwise.
    let per_s = if pod {
        Record::gib_per_s
    } else {
        Record::mb_per_s
    };
    for r in records.iter().filter(|r| timed(r)) {
        let values = [
            r.encode_ns,
            r.decode_ns,
            per_s(r, r.encode_ns),
            per_s(r, r.decode_ns),
            r.encode_allocs,
            r.decode_allocs,
        ];
        let mut cells = vec![Cell {
            text: r.library.clone(),
            notes: notes.add(&r.note),
            ..Cell::default()
        }];
        for (i, v) in values.iter().enumerate() {
            cols[i].push(*v);
            cells.push(Cell::text(opt(*v, num)));
        }
        cells.push(Cell::text(opt(
            ratio_to(r.encode_ns, base.and_then(|b| b.encode_ns)),
            ratio,
        )));
        cells.push(Cell::text(opt(
            ratio_to(r.decode_ns, base.and_then(|b| b.decode_ns)),
            ratio,
        )));
        table.rows.push(cells);
        chart.groups.push(r.library.clone());
        chart.values.push(if pod {
            vec![values[2], values[3]]
        } else {
            vec![values[0], values[1]]
        });
    }
    // MB/s (columns 2 and 3) counts each library's own bytes, so a larger encoding looks
    // faster at the same ns: it gets no winner. A pod block's GiB/s counts the same bytes
    // for everyone: the highest wins.
    for (i, values) in cols.iter().enumerate() {
        if i != 2 && i != 3 {
            mark_column(&mut table.rows, 1 + i, values, true);
        } else if pod {
            mark_column(&mut table.rows, 1 + i, values, false);
        }
    }
    out.push(Block::Heading(3, format!("Speed: {}", platform.label())));
    out.push(Block::Para(format!(
        "Median per {}; ratios to {base_name} measured in the same run on {}.",
        if pod { "block" } else { "message" },
        platform.label()
    )));
    out.push(Block::Table(table));
    out.push(Block::Chart(Chart::Bars(chart)));
}

/// The records of a dataset view on one platform, in library order.
fn speed_records<'a>(
    results: &'a Results,
    platform: &Platform,
    dataset: &str,
    variant: &str,
) -> Vec<&'a Record> {
    let mut records: Vec<&Record> = results
        .rows
        .iter()
        .filter(|r| {
            &r.platform == platform && r.record.dataset == dataset && r.record.variant == variant
        })
        .map(|r| &r.record)
        .collect();
    records.sort_by_key(|r| model::index_or_end(model::LIBRARIES, &r.library));
    records
}

/// Whether a record has any speed or allocation figure.
fn timed(r: &Record) -> bool {
    r.encode_ns.is_some()
        || r.decode_ns.is_some()
        || r.encode_allocs.is_some()
        || r.decode_allocs.is_some()
}

/// The speed table's columns, per message or per block (`per`; GiB/s for a `pod` block,
/// MB/s otherwise), with ratios to `base_name`; no rows yet.
fn speed_table(per: &str, base_name: &str, pod: bool) -> Table {
    let unit = format!("ns/{per}");
    let rate = if pod { "GiB/s" } else { "MB/s" };
    Table {
        headers: vec![
            "library".into(),
            format!("encode {unit}"),
            format!("decode {unit}"),
            format!("encode {rate}"),
            format!("decode {rate}"),
            format!("encode allocs/{per}"),
            format!("decode allocs/{per}"),
            format!("encode × {base_name}"),
            format!("decode × {base_name}"),
        ],
        label_columns: 1,
        ..Table::default()
    }
}

fn scaling_section(results: &Results, out: &mut Vec<Block>) {
    for platform in results.platforms() {
        let points: Vec<_> = results
            .scaling
            .iter()
            .filter(|s| s.platform == platform)
            .map(|s| &s.point)
            .collect();
        if points.is_empty() {
            continue;
        }
        let mut sizes: Vec<u64> = points.iter().map(|p| p.packets).collect();
        sizes.sort_unstable();
        sizes.dedup();
        let mut libs: Vec<&str> = points.iter().map(|p| p.library.as_str()).collect();
        libs.sort_by_key(|l| model::index_or_end(model::LIBRARIES, l));
        libs.dedup();
        out.push(Block::Heading(
            3,
            format!("Packets per second: {}", platform.label()),
        ));
        let mut chart = Lines {
            title: format!("packet64 throughput: {}", platform.label()),
            x_label: "packets in the dataset".into(),
            y_label: "M packets/s".into(),
            x_ticks: vec![],
            series: vec![],
        };
        for op in ["encode", "decode"] {
            let mut headers = vec![format!("{op}, M packets/s")];
            headers.extend(sizes.iter().map(|n| thousands(*n as i64)));
            let mut table = Table {
                headers,
                label_columns: 1,
                ..Table::default()
            };
            let mut cols: Vec<Vec<Option<f64>>> = vec![Vec::new(); sizes.len()];
            for lib in &libs {
                let mut cells = vec![Cell::text(*lib)];
                let mut line = Line {
                    name: format!("{lib} {op}"),
                    color: model::index_or_end(model::LIBRARIES, lib),
                    dashed: op == "decode",
                    markers: true,
                    points: vec![],
                };
                for (i, n) in sizes.iter().enumerate() {
                    let pps = points
                        .iter()
                        .find(|p| p.library == *lib && p.packets == *n)
                        .and_then(|p| {
                            if op == "encode" {
                                p.encode_pps
                            } else {
                                p.decode_pps
                            }
                        })
                        .map(|v| v / 1e6);
                    cols[i].push(pps);
                    cells.push(Cell::text(opt(pps, num)));
                    if let Some(v) = pps {
                        line.points.push((*n as f64, v));
                    }
                }
                table.rows.push(cells);
                if !line.points.is_empty() {
                    chart.series.push(line);
                }
            }
            for (i, values) in cols.iter().enumerate() {
                mark_column(&mut table.rows, 1 + i, values, false);
            }
            out.push(Block::Table(table));
        }
        out.push(Block::Chart(Chart::Lines(chart)));
    }
}
