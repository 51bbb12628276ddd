//! Compiler speed (issue 17): `raw/compiler.json`, written by `compiler_speed`
//! (bench/rust/src/bin/compiler_speed.rs, the lab's `compiler` step), its section of the
//! report (a table per schema, the per-type scaling table and chart), and the goal
//! `compiler-speed-one-table`: on the one-table schema, parse + check at most
//! [`PARSE_LIMIT_US`] and each backend's generation at most [`GENERATE_LIMIT_US`].
//!
//! The file has its own shape (not result format 1's records): the loader skips it among
//! the raw files and [`read`] reads it.

use crate::doc::{Block, Cell, Table};
use crate::format::{num, ratio, thousands};
use crate::goals::{Check, Status};
use crate::svg::{Chart, Line, Lines};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Its name inside `raw/`.
pub const FILE: &str = "compiler.json";

/// The goal's id (the key of the notes file).
pub const GOAL_ID: &str = "compiler-speed-one-table";

/// The goal as the issue states it.
pub const GOAL_TITLE: &str = "compiler: on the one-table schema, parse + check at most 0.55 µs and generate at most 7.3 µs per language (the published FlatBuffers-compiler figures)";

/// The anchor's parse time, µs.
pub const PARSE_LIMIT_US: f64 = 0.55;

/// The anchor's generation time (7.29 µs, rounded as the issue states it), µs.
pub const GENERATE_LIMIT_US: f64 = 7.3;

/// Phases of every schema, in table order: lexing and parsing alone, the whole front end
/// (parse, check, layout: the IR), and one generator per language.
pub const PHASES: &[(&str, &str)] = &[
    ("parse", "parse"),
    ("parse_check", "parse + check"),
    ("rust", "generate Rust"),
    ("go", "generate Go"),
    ("ts", "generate TS"),
];

/// `raw/compiler.json`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// Always 1.
    pub format: u64,
    /// Always `compiler`.
    pub kind: String,
    /// The compiler measured (`bitwire 0.1.0`).
    pub compiler: String,
    /// Whether the program ran in quick mode.
    pub quick: bool,
    /// Timed rounds per phase.
    pub rounds: u64,
    /// One entry per schema.
    pub schemas: Vec<SchemaRun>,
}

/// The timings of one schema.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaRun {
    /// `one-table`, `game`, `generated-400`, ...
    pub schema: String,
    /// `one-table` (the goal's schema), `example` or `scaling`.
    pub kind: String,
    /// Where the schema comes from.
    pub source: String,
    /// Lines of schema text.
    pub lines: u64,
    /// Bytes of schema text.
    pub bytes: u64,
    /// Named types in the IR.
    pub types: u64,
    /// One entry per phase (see [`PHASES`]).
    pub phases: Vec<Phase>,
}

/// One phase's timing.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// A key of [`PHASES`].
    pub phase: String,
    /// Median µs per call over the rounds.
    pub median_us: f64,
    /// Fastest round's µs per call.
    pub min_us: f64,
    /// Calls per timed batch.
    pub batch: u64,
    /// Bytes of generated code (generators only).
    #[serde(default)]
    pub output_bytes: Option<u64>,
}

impl SchemaRun {
    /// The median µs of `phase`, if measured.
    pub fn us(&self, phase: &str) -> Option<f64> {
        self.phases
            .iter()
            .find(|p| p.phase == phase)
            .map(|p| p.median_us)
    }
}

/// Parses and checks the text of `raw/compiler.json` (`name` is used in errors).
pub fn parse(name: &str, text: &str) -> Result<Run, String> {
    let run: Run = serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))?;
    if run.format != 1 || run.kind != "compiler" {
        return Err(format!(
            "{name}: expected \"format\": 1 and \"kind\": \"compiler\" (bench/README.md)"
        ));
    }
    for s in &run.schemas {
        for p in &s.phases {
            if !PHASES.iter().any(|(k, _)| *k == p.phase) {
                return Err(format!("{name}: {}: unknown phase {:?}", s.schema, p.phase));
            }
            if !(p.median_us.is_finite() && p.median_us > 0.0 && p.min_us.is_finite()) {
                return Err(format!(
                    "{name}: {} {}: times must be positive numbers",
                    s.schema, p.phase
                ));
            }
        }
    }
    Ok(run)
}

/// Reads `dir/raw/compiler.json` if the run wrote one; `quick` is the run's mode.
pub fn read(dir: &Path, quick: bool) -> Result<Option<Run>, String> {
    let path = dir.join("raw").join(FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let run = parse(&format!("raw/{FILE}"), &text)?;
    if run.quick != quick {
        return Err(format!(
            "raw/{FILE}: quick = {} but machine.json says quick = {quick} (mixed runs?)",
            run.quick
        ));
    }
    Ok(Some(run))
}

/// The goal's checks: parse + check and each generator on the one-table schema.
pub fn checks(run: Option<&Run>) -> Vec<Check> {
    let one = run.and_then(|r| r.schemas.iter().find(|s| s.kind == "one-table"));
    let Some(one) = one else {
        return vec![Check {
            what: "one-table schema".into(),
            detail: "compiler speed not measured (raw/compiler.json)".into(),
            ratio: None,
            status: Status::NotMeasured,
        }];
    };
    PHASES
        .iter()
        .filter(|(k, _)| *k != "parse")
        .map(|&(key, label)| {
            let limit = if key == "parse_check" {
                PARSE_LIMIT_US
            } else {
                GENERATE_LIMIT_US
            };
            let what = format!("{}, {label}", one.schema);
            match one.us(key) {
                Some(us) => {
                    let r = us / limit;
                    Check {
                        what,
                        detail: format!("{} µs (limit {} µs): {}", num(us), num(limit), ratio(r)),
                        ratio: Some(r),
                        status: if r <= 1.0 + 1e-9 {
                            Status::Met
                        } else {
                            Status::NotMet
                        },
                    }
                }
                None => Check {
                    what,
                    detail: "not measured".into(),
                    ratio: None,
                    status: Status::NotMeasured,
                },
            }
        })
        .collect()
}

fn cell(v: Option<f64>) -> Cell {
    Cell::text(v.map(num).unwrap_or_else(|| "–".into()))
}

/// The "Compiler speed" section, if the run measured it.
pub fn section(run: Option<&Run>, out: &mut Vec<Block>) {
    let Some(run) = run else { return };
    out.push(Block::Heading(2, "Compiler speed".into()));
    out.push(Block::Para(format!(
        "{}: median µs per call over {} rounds, in memory (no file I/O), each backend with the \
         options of a plain \"bitwire gen\" for its language. \"parse\" is lexing and parsing \
         to a syntax tree; \"parse + check\" is the whole front end to the checked IR (the \
         figure the goal compares with the anchor's parse). Anchor: a FlatBuffers compiler's \
         published figures for a one-table schema, parse 0.55 µs and generate 7.29 µs, on \
         another machine.",
        run.compiler, run.rounds,
    )));
    out.push(Block::Table(times_table(run)));
    let scaling: Vec<&SchemaRun> = run
        .schemas
        .iter()
        .filter(|s| s.kind == "scaling" && s.types > 0)
        .collect();
    if scaling.len() >= 2 {
        out.push(Block::Heading(3, "Compiler speed: scaling".into()));
        out.push(Block::Para(
            "µs per named type of generated schemas of growing size: linear scaling keeps \
             each column flat. The last row is the largest schema's µs per type over the \
             smallest's."
                .into(),
        ));
        out.push(Block::Table(scaling_table(&scaling)));
        out.push(Block::Chart(Chart::Lines(scaling_chart(&scaling))));
    }
}

/// Every schema's phases in µs, and the generated code's size.
fn times_table(run: &Run) -> Table {
    let mut headers = vec![
        "schema".into(),
        "source".into(),
        "lines".into(),
        "types".into(),
    ];
    headers.extend(PHASES.iter().map(|(_, l)| format!("{l}, µs")));
    headers.push("output Rust / Go / TS, KB".into());
    let mut table = Table {
        headers,
        label_columns: 2,
        ..Table::default()
    };
    for s in &run.schemas {
        let mut row = vec![
            Cell::text(s.schema.as_str()),
            Cell::text(s.source.as_str()),
            Cell::text(thousands(s.lines as i64)),
            Cell::text(thousands(s.types as i64)),
        ];
        row.extend(PHASES.iter().map(|(k, _)| cell(s.us(k))));
        let kb: Vec<String> = ["rust", "go", "ts"]
            .iter()
            .map(|k| {
                s.phases
                    .iter()
                    .find(|p| p.phase == *k)
                    .and_then(|p| p.output_bytes)
                    .map_or("–".into(), |b| num(b as f64 / 1e3))
            })
            .collect();
        row.push(Cell::text(kb.join(" / ")));
        table.rows.push(row);
    }
    table
}

/// µs per type of the scaling schemas, and the largest over the smallest.
fn scaling_table(scaling: &[&SchemaRun]) -> Table {
    let mut headers = vec!["types".into()];
    headers.extend(PHASES.iter().map(|(_, l)| format!("{l}, µs/type")));
    let mut table = Table {
        headers,
        label_columns: 1,
        ..Table::default()
    };
    let per_type = |s: &SchemaRun, k: &str| s.us(k).map(|us| us / s.types as f64);
    for s in scaling {
        let mut row = vec![Cell::text(thousands(s.types as i64))];
        row.extend(PHASES.iter().map(|(k, _)| cell(per_type(s, k))));
        table.rows.push(row);
    }
    let (first, last) = (scaling[0], scaling[scaling.len() - 1]);
    let mut row = vec![Cell::text(format!(
        "{} over {} types",
        thousands(last.types as i64),
        thousands(first.types as i64)
    ))];
    row.extend(PHASES.iter().map(|(k, _)| {
        Cell::text(match (per_type(last, k), per_type(first, k)) {
            (Some(a), Some(b)) if b > 0.0 => ratio(a / b),
            _ => "–".into(),
        })
    }));
    table.rows.push(row);
    table
}

fn scaling_chart(scaling: &[&SchemaRun]) -> Lines {
    Lines {
        title: "Compiler: µs per type by schema size (flat = linear)".into(),
        x_label: "named types in the schema".into(),
        y_label: "µs per type".into(),
        x_ticks: scaling.iter().map(|s| s.types as f64).collect(),
        series: PHASES
            .iter()
            .enumerate()
            .map(|(i, (k, label))| Line {
                name: (*label).into(),
                color: i,
                dashed: i < 2,
                markers: true,
                points: scaling
                    .iter()
                    .filter_map(|s| s.us(k).map(|us| (s.types as f64, us / s.types as f64)))
                    .collect(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(one_table_us: [f64; 5]) -> Run {
        let phases = |us: [f64; 5]| {
            PHASES
                .iter()
                .zip(us)
                .map(|((k, _), us)| Phase {
                    phase: (*k).into(),
                    median_us: us,
                    min_us: us,
                    batch: 1,
                    output_bytes: None,
                })
                .collect()
        };
        let schema = |name: &str, kind: &str, types: u64, us: [f64; 5]| SchemaRun {
            schema: name.into(),
            kind: kind.into(),
            source: "test".into(),
            lines: 10,
            bytes: 100,
            types,
            phases: phases(us),
        };
        Run {
            format: 1,
            kind: "compiler".into(),
            compiler: "bitwire test".into(),
            quick: false,
            rounds: 3,
            schemas: vec![
                schema("one-table", "one-table", 1, one_table_us),
                schema("generated-50", "scaling", 50, [50.0; 5]),
                schema("generated-100", "scaling", 100, [110.0; 5]),
            ],
        }
    }

    #[test]
    fn goal_judges_parse_check_and_each_generator() {
        let r = run([0.2, 0.5, 7.3, 8.0, 1.0]);
        let c = checks(Some(&r));
        let status: Vec<Status> = c.iter().map(|c| c.status).collect();
        assert_eq!(
            status,
            [Status::Met, Status::Met, Status::NotMet, Status::Met]
        );
        assert_eq!(c[0].what, "one-table, parse + check");
        assert!(c[2].detail.contains("8.00 µs (limit 7.30 µs): 1.10x"));
        assert_eq!(checks(None)[0].status, Status::NotMeasured);
    }

    #[test]
    fn section_has_times_scaling_ratio_and_chart() {
        let mut out = Vec::new();
        section(Some(&run([1.0; 5])), &mut out);
        let scaling = out.iter().find_map(|b| match b {
            Block::Table(t) if t.headers[0] == "types" => Some(t),
            _ => None,
        });
        let last = scaling.unwrap().rows.last().unwrap();
        assert_eq!(last[0].text, "100 over 50 types");
        assert_eq!(last[1].text, "1.10x");
        assert!(out.iter().any(|b| matches!(b, Block::Chart(_))));
        let mut none = Vec::new();
        section(None, &mut none);
        assert!(none.is_empty());
    }

    #[test]
    fn rejects_unknown_phase_and_kind() {
        let good = run([1.0; 5]);
        assert!(parse("c.json", &serde_json::to_string(&good).unwrap()).is_ok());
        let mut r = good.clone();
        r.schemas[0].phases[0].phase = "link".into();
        let err = parse("c.json", &serde_json::to_string(&r).unwrap()).unwrap_err();
        assert!(err.contains("unknown phase"), "{err}");
        let wrong = Run {
            kind: "records".into(),
            ..good
        };
        assert!(parse("c.json", &serde_json::to_string(&wrong).unwrap()).is_err());
    }
}
