//! Issue 14's lab goals, judged on the figures of one run. Sizes are mean bytes per tick
//! over every tick but the first (tick 0 is the join: the whole state everywhere).
//!
//! - `delta-vs-full`: on the moving world, bitwire's delta at most 0.25× the full bitwire
//!   snapshot, at baseline age 6 (as deployed: the newest acknowledged snapshot, about
//!   100 ms old) and at age 1;
//! - `delta-vs-colyseus`: at most 0.5× `@colyseus/schema`'s patches on the same changes,
//!   i.e. bitwire's delta against the previous tick (age 1, what a Colyseus patch is
//!   relative to), on both scenarios; Colyseus with integer fields (its smallest patches);
//! - `cubes-256kbit`: the cube scene's delta under Fiedler's 256 kbit/s at 60 Hz, at age 6
//!   and at age 1.

use super::Results;
use bitwire_report::format::{num, ratio};
use bitwire_report::goals::{Check, Goal, Status};
use std::collections::BTreeMap;

/// Ids and titles of the goals, in report order.
pub const GOALS: &[(&str, &str)] = &[
    (
        "delta-vs-full",
        "moving world: bitwire delta at most 0.25x the full bitwire snapshot",
    ),
    (
        "delta-vs-colyseus",
        "bitwire delta at most 0.5x @colyseus/schema on the same changes",
    ),
    (
        "cubes-256kbit",
        "cube scene: bitwire delta under Fiedler's 256 kbit/s at 60 Hz",
    ),
];

/// Series the goals are judged on: `(scenario, codec)`.
const NEEDED: &[(&str, &str)] = &[
    ("world", "bitwire"),
    ("world", "bitwire-delta-1"),
    ("world", "bitwire-delta-6"),
    ("world", "colyseus"),
    ("cubes", "bitwire-delta-1"),
    ("cubes", "bitwire-delta-6"),
    ("cubes", "colyseus"),
];

/// The series the goals need that no raw file has, as `scenario codec`.
pub fn missing(r: &Results) -> Vec<String> {
    NEEDED
        .iter()
        .filter(|(s, c)| r.series(s, c).is_none())
        .map(|(s, c)| format!("{s} {c}"))
        .collect()
}

fn scenario_name(id: &str) -> &'static str {
    if id == "world" {
        "moving world"
    } else {
        "cube scene"
    }
}

/// `codec / reference` of mean bytes per tick on `scenario`, met at or below `limit`.
fn ratio_check(
    r: &Results,
    what: &str,
    scenario: &str,
    codec: &str,
    reference: &str,
    limit: f64,
) -> Check {
    let what = format!("{}, {what}", scenario_name(scenario));
    match (r.summary(scenario, codec), r.summary(scenario, reference)) {
        (Some(v), Some(b)) if b.mean > 0.0 => {
            let x = v.mean / b.mean;
            Check {
                what,
                detail: format!(
                    "{codec} {} B/tick, {reference} {} B/tick: {} (limit {})",
                    num(v.mean),
                    num(b.mean),
                    ratio(x),
                    ratio(limit)
                ),
                ratio: Some(x),
                status: if x <= limit {
                    Status::Met
                } else {
                    Status::NotMet
                },
            }
        }
        (v, _) => not_measured(what, if v.is_none() { codec } else { reference }),
    }
}

/// Mean kbit/s at 60 Hz of `codec` on `scenario`, met below `limit`.
fn rate_check(r: &Results, what: &str, scenario: &str, codec: &str, limit: f64) -> Check {
    let what = format!("{}, {what}", scenario_name(scenario));
    match r.summary(scenario, codec) {
        Some(v) => Check {
            what,
            detail: format!(
                "{codec} {} kbit/s at 60 Hz (mean {} B/tick, p95 {} B): {} of the limit {limit} kbit/s",
                num(v.kbit_s),
                num(v.mean),
                num(v.p95 as f64),
                ratio(v.kbit_s / limit)
            ),
            ratio: Some(v.kbit_s / limit),
            status: if v.kbit_s < limit {
                Status::Met
            } else {
                Status::NotMet
            },
        },
        None => not_measured(what, codec),
    }
}

fn not_measured(what: String, series: &str) -> Check {
    let why = if series.starts_with("bitwire-delta") {
        " (the bitwire delta codec is not wired into the lab yet)"
    } else {
        ""
    };
    Check {
        what,
        detail: format!("no {series} series in this run{why}"),
        ratio: None,
        status: Status::NotMeasured,
    }
}

/// Judges every goal; `notes` maps goal ids to the lead's explanation.
pub fn evaluate(r: &Results, notes: &BTreeMap<String, String>) -> Vec<Goal> {
    GOALS
        .iter()
        .map(|&(id, title)| {
            let checks = match id {
                "delta-vs-full" => vec![
                    ratio_check(
                        r,
                        "baseline 6 ticks old",
                        "world",
                        "bitwire-delta-6",
                        "bitwire",
                        0.25,
                    ),
                    ratio_check(
                        r,
                        "baseline 1 tick old",
                        "world",
                        "bitwire-delta-1",
                        "bitwire",
                        0.25,
                    ),
                ],
                "delta-vs-colyseus" => ["world", "cubes"]
                    .iter()
                    .map(|s| {
                        ratio_check(
                            r,
                            "previous tick (both), Colyseus integer fields",
                            s,
                            "bitwire-delta-1",
                            "colyseus",
                            0.5,
                        )
                    })
                    .collect(),
                _ => vec![
                    rate_check(r, "baseline 6 ticks old", "cubes", "bitwire-delta-6", 256.0),
                    rate_check(r, "baseline 1 tick old", "cubes", "bitwire-delta-1", 256.0),
                ],
            };
            let status = Status::combine(&checks.iter().map(|c| c.status).collect::<Vec<_>>());
            Goal {
                id,
                title,
                checks,
                status,
                why: notes.get(id).cloned(),
            }
        })
        .collect()
}
