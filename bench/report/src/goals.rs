//! The goals, judged on the figures of one run: each goal is a list of checks
//! (one per dataset, operation and platform), each met, NOT met or not measured.

use crate::format::{num, ratio};
use crate::load::Results;
use crate::model::{Platform, Record, GAME_DATASETS};
use crate::{pod_goals, size_reference};
use serde::Serialize;
use std::collections::BTreeMap;

/// The outcome of a check or a goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every check measured and met.
    Met,
    /// At least one measured check failed.
    NotMet,
    /// Every measured check met, but some were not measured.
    MetWhereMeasured,
    /// Nothing to judge on.
    NotMeasured,
}

impl Status {
    /// How the report prints it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Met => "met",
            Status::NotMet => "NOT met",
            Status::MetWhereMeasured => "met where measured, partly not measured",
            Status::NotMeasured => "not measured",
        }
    }

    /// The goal's status from its checks' statuses.
    pub fn combine(checks: &[Status]) -> Status {
        let measured = checks.iter().filter(|s| **s != Status::NotMeasured).count();
        if checks.contains(&Status::NotMet) {
            Status::NotMet
        } else if measured == 0 {
            Status::NotMeasured
        } else if measured < checks.len() {
            Status::MetWhereMeasured
        } else {
            Status::Met
        }
    }
}

/// One comparison a goal is judged on.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What is compared (`snapshot, Rust, encode`).
    pub what: String,
    /// The figures and the ratio, or what is missing.
    pub detail: String,
    /// The ratio judged (value / reference), if measured.
    pub ratio: Option<f64>,
    /// The outcome.
    pub status: Status,
}

/// A goal of the issue with its checks.
#[derive(Debug, Clone, Serialize)]
pub struct Goal {
    /// Stable id, the key of the notes file.
    pub id: &'static str,
    /// The goal as the issue states it.
    pub title: &'static str,
    /// The comparisons.
    pub checks: Vec<Check>,
    /// Combined outcome.
    pub status: Status,
    /// The lead's one-line explanation from the notes file, if any.
    pub why: Option<String>,
}

/// A fixed remark the report shows under a goal's checks, if the goal has one.
pub fn remark(id: &str) -> Option<&'static str> {
    (id == "pod-bincode-limit").then_some(pod_goals::LIMIT_REMARK)
}

/// Ids and titles of every goal, in report order.
pub const GOALS: &[(&str, &str)] = &[
    (
        "size-raw-bitcode",
        "snapshot and input: bitwire's raw size at most bitcode's",
    ),
    (
        "size-raw-flatbuffers",
        "snapshot and input: bitwire's raw size at most a third of FlatBuffers'",
    ),
    (
        "size-zstd-bitcode",
        "every dataset: bitwire's zstd size at most bitcode's",
    ),
    (
        "size-raw-reference",
        "every dataset: bitwire's raw size never worse than in the committed run of 2026-11-27",
    ),
    (
        "rust-speed-bitcode",
        "Rust: bitwire encode and decode at least as fast as bitcode on every dataset",
    ),
    (
        "rust-speed-wincode-packet64",
        "Rust: bitwire encode and decode at least as fast as wincode on packet64",
    ),
    (
        "rust-speed-handwritten",
        "Rust: bitwire encode and decode within 1.1x of hand-written on packet64 and input",
    ),
    (
        "go-speed-handwritten",
        "Go: bitwire encode and decode within 1.2x of hand-written on packet64 and input",
    ),
    (
        "go-allocs-packet64",
        "Go: 0 allocs/op on packet64 (encode and decode)",
    ),
    (
        "ts-speed-handwritten",
        "TypeScript: bitwire within 1.5x of hand-written on Node, Bun and Deno, on packet64 and input",
    ),
    (
        "pod-bincode-memcpy",
        "pod: bitwire-bincode with buffer reuse at least 90% of memcpy's GiB/s, encode and decode, at every block size, in Rust and Go",
    ),
    (
        "pod-bincode-limit",
        "pod: no size limit below the configured one: bitwire-bincode round-trips every block size with the default Limits, in Rust and Go",
    ),
    (crate::compiler::GOAL_ID, crate::compiler::GOAL_TITLE),
];

/// Datasets the raw-size goals against peers are about.
const SIZE_DATASETS: &[&str] = &["snapshot", "input"];

/// Datasets the hand-written speed goals are about (the "on packet64 and input"; the
/// other datasets' hand-written rows stay in the speed tables).
const HANDWRITTEN_DATASETS: &[&str] = &["packet64", "input"];

/// Evaluates every goal; `notes` maps goal ids to the lead's explanation.
pub fn evaluate(results: &Results, notes: &BTreeMap<String, String>) -> Vec<Goal> {
    GOALS
        .iter()
        .map(|&(id, title)| {
            let checks = match id {
                "size-raw-bitcode" => size_checks(
                    results,
                    SIZE_DATASETS,
                    "bitcode",
                    1.0,
                    Record::raw_per_msg_opt,
                    "raw",
                ),
                "size-raw-flatbuffers" => size_checks(
                    results,
                    SIZE_DATASETS,
                    "flatbuffers",
                    1.0 / 3.0,
                    Record::raw_per_msg_opt,
                    "raw",
                ),
                "size-zstd-bitcode" => size_checks(
                    results,
                    GAME_DATASETS,
                    "bitcode",
                    1.0,
                    Record::zstd_per_msg,
                    "zstd",
                ),
                "size-raw-reference" => size_reference::checks(results),
                "rust-speed-bitcode" => {
                    speed_checks(results, &rust(), GAME_DATASETS, "bitcode", 1.0)
                }
                "rust-speed-wincode-packet64" => {
                    speed_checks(results, &rust(), &["packet64"], "wincode", 1.0)
                }
                "rust-speed-handwritten" => {
                    speed_checks(results, &rust(), HANDWRITTEN_DATASETS, "handwritten", 1.1)
                }
                "go-speed-handwritten" => speed_checks(
                    results,
                    &[Platform::from_key("go")],
                    HANDWRITTEN_DATASETS,
                    "handwritten",
                    1.2,
                ),
                "go-allocs-packet64" => alloc_checks(results, &Platform::from_key("go")),
                "ts-speed-handwritten" => {
                    let ts: Vec<Platform> = ["ts-node", "ts-bun", "ts-deno"]
                        .iter()
                        .map(|k| Platform::from_key(k))
                        .collect();
                    speed_checks(results, &ts, HANDWRITTEN_DATASETS, "handwritten", 1.5)
                }
                "pod-bincode-memcpy" => pod_goals::memcpy_checks(results),
                "pod-bincode-limit" => pod_goals::limit_checks(results),
                crate::compiler::GOAL_ID => crate::compiler::checks(results.compiler.as_ref()),
                _ => unreachable!("goal {id} has no checks"),
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

fn rust() -> [Platform; 1] {
    [Platform::from_key("rust")]
}

impl Record {
    /// Raw bytes per message as an `Option`, to share a signature with the compressed sizes.
    fn raw_per_msg_opt(&self) -> Option<f64> {
        Some(self.raw_per_msg())
    }
}

/// Met if `value / reference <= limit`.
fn judge(value: f64, reference: f64, limit: f64) -> (f64, Status) {
    let r = value / reference;
    // A hair of tolerance so that an exact 1/3 or 1.1 limit is not lost to rounding.
    (
        r,
        if r <= limit * (1.0 + 1e-9) {
            Status::Met
        } else {
            Status::NotMet
        },
    )
}

/// Size checks on `datasets`: bitwire's size over the peer's, at most `limit`, on the first
/// platform (report order) that measured both.
fn size_checks(
    results: &Results,
    datasets: &[&str],
    peer: &str,
    limit: f64,
    size: fn(&Record) -> Option<f64>,
    kind: &str,
) -> Vec<Check> {
    let platforms = results.platforms();
    datasets
        .iter()
        .map(|&dataset| {
            let both = platforms.iter().find_map(|p| {
                let bw = results.find(p, dataset, "", "bitwire").and_then(size)?;
                let other = results.find(p, dataset, "", peer).and_then(size)?;
                Some((p, bw, other))
            });
            match both {
                Some((p, bw, other)) => {
                    let (r, status) = judge(bw, other, limit);
                    Check {
                        what: format!("{dataset} ({kind} size, measured in {})", p.label()),
                        detail: format!(
                            "bitwire {} B/msg, {peer} {} B/msg: {} (limit {})",
                            num(bw),
                            num(other),
                            ratio(r),
                            ratio(limit)
                        ),
                        ratio: Some(r),
                        status,
                    }
                }
                None => Check {
                    what: format!("{dataset} ({kind} size)"),
                    detail: missing(results, &platforms, dataset, &["bitwire", peer], size),
                    ratio: None,
                    status: Status::NotMeasured,
                },
            }
        })
        .collect()
}

/// Names what is missing for a comparison of `libraries` on `dataset`.
fn missing(
    results: &Results,
    platforms: &[Platform],
    dataset: &str,
    libraries: &[&str],
    size: fn(&Record) -> Option<f64>,
) -> String {
    let absent: Vec<&str> = libraries
        .iter()
        .copied()
        .filter(|lib| {
            !platforms
                .iter()
                .any(|p| results.find(p, dataset, "", lib).and_then(size).is_some())
        })
        .collect();
    if absent.is_empty() {
        format!(
            "{} not measured on the same platform",
            libraries.join(" and ")
        )
    } else {
        format!("{} not measured", absent.join(" and "))
    }
}

/// Speed checks: on each platform and each of `datasets`, bitwire's encode and decode ns over
/// the peer's, at most `limit`.
fn speed_checks(
    results: &Results,
    platforms: &[Platform],
    datasets: &[&str],
    peer: &str,
    limit: f64,
) -> Vec<Check> {
    let mut out = Vec::new();
    for p in platforms {
        for &dataset in datasets {
            let measured = |lib: &str| {
                results
                    .find(p, dataset, "", lib)
                    .is_some_and(|r| r.encode_ns.is_some() || r.decode_ns.is_some())
            };
            if !measured("bitwire") && !measured(peer) {
                // Nothing on this dataset and platform: one line rather than one per operation.
                out.push(Check {
                    what: format!("{dataset}, {}", p.label()),
                    detail: format!("bitwire and {peer} not measured"),
                    ratio: None,
                    status: Status::NotMeasured,
                });
                continue;
            }
            for op in ["encode", "decode"] {
                let ns = |lib: &str| {
                    results.find(p, dataset, "", lib).and_then(|r| {
                        if op == "encode" {
                            r.encode_ns
                        } else {
                            r.decode_ns
                        }
                    })
                };
                let what = format!("{dataset}, {}, {op}", p.label());
                out.push(match (ns("bitwire"), ns(peer)) {
                    (Some(bw), Some(other)) => {
                        let (r, status) = judge(bw, other, limit);
                        Check {
                            what,
                            detail: format!(
                                "bitwire {} ns, {peer} {} ns: {} (limit {})",
                                num(bw),
                                num(other),
                                ratio(r),
                                ratio(limit)
                            ),
                            ratio: Some(r),
                            status,
                        }
                    }
                    (bw, other) => {
                        let absent: Vec<&str> = [("bitwire", bw), (peer, other)]
                            .iter()
                            .filter(|(_, v)| v.is_none())
                            .map(|(l, _)| *l)
                            .collect();
                        Check {
                            what,
                            detail: format!("{} not measured", absent.join(" and ")),
                            ratio: None,
                            status: Status::NotMeasured,
                        }
                    }
                });
            }
        }
    }
    out
}

/// Go packet64: bitwire allocations per message are 0 when encoding and decoding.
fn alloc_checks(results: &Results, go: &Platform) -> Vec<Check> {
    let record = results.find(go, "packet64", "", "bitwire");
    ["encode", "decode"]
        .iter()
        .map(|op| {
            let allocs = record.and_then(|r| {
                if *op == "encode" {
                    r.encode_allocs
                } else {
                    r.decode_allocs
                }
            });
            let what = format!("packet64, {}, {op}", go.label());
            match allocs {
                Some(a) => Check {
                    what,
                    detail: format!("bitwire {} allocs/msg (limit 0)", num(a)),
                    ratio: None,
                    status: if a == 0.0 {
                        Status::Met
                    } else {
                        Status::NotMet
                    },
                },
                None => Check {
                    what,
                    detail: "bitwire allocations not measured".into(),
                    ratio: None,
                    status: Status::NotMeasured,
                },
            }
        })
        .collect()
}

/// Reads the lead's notes: `## goal-id` headings, each followed by the explanation (lines
/// joined with spaces; blank lines and `<!-- -->` comment lines are skipped).
pub fn parse_notes(text: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut in_comment = false;
    for line in text.lines() {
        let t = line.trim();
        if in_comment {
            in_comment = !t.contains("-->");
            continue;
        }
        if t.starts_with("<!--") {
            in_comment = !t.contains("-->");
            continue;
        }
        if let Some(id) = t.strip_prefix("## ") {
            current = Some(id.trim().to_string());
            continue;
        }
        if t.starts_with('#') {
            current = None;
            continue;
        }
        if let (Some(id), false) = (&current, t.is_empty()) {
            let entry = out.entry(id.clone()).or_default();
            if !entry.is_empty() {
                entry.push(' ');
            }
            entry.push_str(t);
        }
    }
    out
}

/// Note ids that name no goal (to warn about typos).
pub fn unknown_note_ids(notes: &BTreeMap<String, String>) -> Vec<String> {
    notes
        .keys()
        .filter(|k| !GOALS.iter().any(|(id, _)| id == k))
        .cloned()
        .collect()
}
