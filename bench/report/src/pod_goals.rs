//! The goals of the bincode encoding (issue 16) on the pod blocks, judged per platform
//! (Rust and Go), element type and block size:
//!
//! - `pod-bincode-memcpy`: `bitwire-bincode-reuse` reaches at least [`MEMCPY_SHARE`] of
//!   `memcpy`'s GiB/s, encode and decode, measured in the same run.
//! - `pod-bincode-limit`: `bitwire-bincode` (decoding with the default `Limits`) has a
//!   record for every block the run measured (a library whose round trip fails is left
//!   out, bench/README.md), and for the largest block the schema allows.

use crate::format::num;
use crate::goals::{Check, Status};
use crate::load::Results;
use crate::model::{self, Platform};

/// The share of memcpy's GiB/s `bitwire-bincode-reuse` must reach.
pub const MEMCPY_SHARE: f64 = 0.9;

/// The largest block `bench/schemas/pod.bw` allows (`MAX_BLOCK`, and the lists' `max`).
pub const SCHEMA_MAX_BLOCK: u64 = 256 << 20;

/// The platforms these goals are about.
const PLATFORMS: &[&str] = &["rust", "go"];

/// Shown under the limit goal.
pub const LIMIT_REMARK: &str = "For comparison: wincode's default configuration refuses any \
     block over 4 MiB (its preallocation limit, on encode and on decode); the lab's wincode \
     records use it with that limit raised to 512 MiB (their note).";

/// The pod blocks measured on `platform` (any library): (dataset, variant), by dataset,
/// then block size.
fn blocks(results: &Results, platform: &Platform) -> Vec<(String, String)> {
    results
        .views()
        .into_iter()
        .filter(|(d, v)| {
            model::POD_DATASETS.contains(&d.as_str())
                && results.rows.iter().any(|r| {
                    &r.platform == platform && &r.record.dataset == d && &r.record.variant == v
                })
        })
        .collect()
}

/// A share as a percentage with one decimal (`89.6%`: a whole percent would show 89.6%
/// against the 90% limit as `90%`).
fn pct(r: f64) -> String {
    format!("{:.1}%", r * 100.0)
}

/// Checks of `pod-bincode-memcpy`.
pub fn memcpy_checks(results: &Results) -> Vec<Check> {
    let mut out = Vec::new();
    for key in PLATFORMS {
        let p = Platform::from_key(key);
        let views = blocks(results, &p);
        if views.is_empty() {
            out.push(not_measured(
                format!("pod, {}", p.label()),
                "no pod records",
            ));
            continue;
        }
        for (dataset, variant) in views {
            let rate = |lib: &str, encode: bool| {
                let r = results.find(&p, &dataset, &variant, lib)?;
                r.gib_per_s(if encode { r.encode_ns } else { r.decode_ns })
            };
            let what = format!("{dataset} {variant}, {}", p.label());
            if [true, false]
                .iter()
                .all(|&e| rate("bitwire-bincode-reuse", e).is_none() && rate("memcpy", e).is_none())
            {
                out.push(not_measured(
                    what,
                    "bitwire-bincode-reuse and memcpy not measured",
                ));
                continue;
            }
            for (op, encode) in [("encode", true), ("decode", false)] {
                let what = format!("{what}, {op}");
                out.push(
                    match (
                        rate("bitwire-bincode-reuse", encode),
                        rate("memcpy", encode),
                    ) {
                        (Some(bw), Some(m)) => {
                            let r = bw / m;
                            Check {
                                what,
                                detail: format!(
                                "bitwire-bincode-reuse {} GiB/s, memcpy {} GiB/s: {} (limit ≥ {:.0}%)",
                                num(bw),
                                num(m),
                                pct(r),
                                MEMCPY_SHARE * 100.0
                            ),
                                ratio: Some(r),
                                status: if r >= MEMCPY_SHARE * (1.0 - 1e-9) {
                                    Status::Met
                                } else {
                                    Status::NotMet
                                },
                            }
                        }
                        (bw, _) => not_measured(
                            what,
                            if bw.is_none() {
                                "bitwire-bincode-reuse not measured"
                            } else {
                                "memcpy not measured"
                            },
                        ),
                    },
                );
            }
        }
    }
    out
}

/// Checks of `pod-bincode-limit`.
pub fn limit_checks(results: &Results) -> Vec<Check> {
    let mut out = Vec::new();
    for key in PLATFORMS {
        let p = Platform::from_key(key);
        let views = blocks(results, &p);
        let has = |d: &str, v: &str| {
            results
                .find(&p, d, v, "bitwire-bincode")
                .is_some_and(|r| r.encode_ns.is_some() && r.decode_ns.is_some())
        };
        if !views.iter().any(|(d, v)| has(d, v)) {
            out.push(not_measured(
                format!("pod, {}", p.label()),
                "bitwire-bincode not measured",
            ));
            continue;
        }
        for &dataset in model::POD_DATASETS {
            let sizes: Vec<&str> = views
                .iter()
                .filter(|(d, _)| d == dataset)
                .map(|(_, v)| v.as_str())
                .collect();
            if sizes.is_empty() {
                continue;
            }
            let missing: Vec<&str> = sizes.iter().copied().filter(|v| !has(dataset, v)).collect();
            let what = format!("{dataset}, {}", p.label());
            out.push(if missing.is_empty() {
                Check {
                    what,
                    detail: format!(
                        "bitwire-bincode round-tripped every block of the run ({}) with the default Limits",
                        sizes.join(", ")
                    ),
                    ratio: None,
                    status: Status::Met,
                }
            } else {
                Check {
                    what,
                    detail: format!(
                        "no bitwire-bincode record for {} (left out: its round trip failed; the run's log says why)",
                        missing.join(", ")
                    ),
                    ratio: None,
                    status: Status::NotMet,
                }
            });
        }
        out.push(largest_block_check(results, &p));
    }
    out
}

/// Whether bitwire-bincode round-tripped a block as large as the schema allows.
fn largest_block_check(results: &Results, p: &Platform) -> Check {
    let largest = results
        .rows
        .iter()
        .filter(|r| {
            &r.platform == p
                && r.record.library == "bitwire-bincode"
                && model::POD_DATASETS.contains(&r.record.dataset.as_str())
        })
        .filter_map(|r| model::block_bytes(&r.record.variant).map(|b| (b, &r.record.variant)))
        .max_by_key(|(b, _)| *b);
    let what = format!("largest block, {}", p.label());
    let max = format!("{}MB", SCHEMA_MAX_BLOCK >> 20);
    match largest {
        Some((b, v)) if b >= SCHEMA_MAX_BLOCK => Check {
            what,
            detail: format!(
                "bitwire-bincode round-tripped {v}, the schema's largest block ({max})"
            ),
            ratio: None,
            status: Status::Met,
        },
        Some((_, v)) => not_measured(
            what,
            &format!(
                "largest block measured {v}; the schema allows {max} (a full run measures it)"
            ),
        ),
        None => not_measured(what, "bitwire-bincode not measured"),
    }
}

fn not_measured(what: String, detail: &str) -> Check {
    Check {
        what,
        detail: detail.into(),
        ratio: None,
        status: Status::NotMeasured,
    }
}
