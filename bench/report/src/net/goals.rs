//! Issue 13's goals, judged on the figures of one run (never written by hand): each goal is
//! a list of checks (one per server, or per server and mode), each met, NOT met or not
//! measured. The thresholds are the issue's, from the seed's published figures.

use super::load::{Found, Key, NetResults, Server};
use crate::format::thousands;
use crate::goals::{Check, Goal, Status};

/// The seed's single-connection rate (packets/s), the low end of "about 5.6–6k".
pub const SEED_ONE_CONNECTION_PPS: f64 = 5_600.0;

/// How many times the seed's single-connection rate every runtime must reach.
pub const ONE_CONNECTION_FACTOR: f64 = 5.0;

/// The seed's best figure: about 87k packets/s at 8 B over 32 connections.
pub const SEED_BEST_PPS: f64 = 87_000.0;

/// The connection count of the seed's best figure.
pub const SEED_BEST_CONNECTIONS: u64 = 32;

/// The largest share of throughput bitwire's framing may cost against the raw echo.
pub const MAX_FRAMING_COST: f64 = 0.05;

/// Runtimes whose servers must beat [`SEED_BEST_PPS`].
pub const NATIVE_RUNTIMES: &[&str] = &["rust", "go"];

/// Ids and titles of every goal, in report order.
pub const GOALS: &[(&str, &str)] = &[
    (
        "net-framing-cost",
        "bitwire framing costs at most 5% of throughput against the raw echo of the same runtime, at every size",
    ),
    (
        "net-one-connection",
        "every runtime's single-connection ping-pong beats the seed's ~5.6k packets/s by 5x (28,000 packets/s)",
    ),
    (
        "net-32-connections",
        "the Rust and Go servers at 32 connections beat the seed's best (~87k packets/s, 8 B)",
    ),
    ("net-p99", "p99 latency reported for every cell"),
];

/// Evaluates every goal. `why` is set on every goal that is not met: it points to the
/// profile section (`has_profiles`: whether the lead's notes exist).
pub fn evaluate(r: &NetResults, has_profiles: bool) -> Vec<Goal> {
    GOALS
        .iter()
        .map(|&(id, title)| {
            let checks = match id {
                "net-framing-cost" => framing_checks(r),
                "net-one-connection" => one_connection_checks(r),
                "net-32-connections" => best_checks(r),
                _ => p99_checks(r),
            };
            let status = Status::combine(&checks.iter().map(|c| c.status).collect::<Vec<_>>());
            let why = (status != Status::Met).then(|| {
                if has_profiles {
                    "see “Why (profiles)” at the end of this report.".to_string()
                } else {
                    "no profile yet: see “Why (profiles)” at the end of this report (the lead's notes, notes.md next to results.json)."
                        .to_string()
                }
            });
            Goal {
                id,
                title,
                status,
                checks,
                why,
            }
        })
        .collect()
}

/// The bitwire servers (the product; raw echoes and mcproto are baselines).
fn bitwire_servers(r: &NetResults) -> Vec<&Server> {
    r.servers.iter().filter(|s| s.kind == "bitwire").collect()
}

/// The framing cost of `ratio` (bitwire pps / raw pps): the share of throughput lost.
pub fn framing_cost(ratio: f64) -> f64 {
    1.0 - ratio
}

/// A percentage with two decimals (`5.04%`, `-2.10%`): one would print a cost of 5.04% as
/// the limit itself.
pub fn percent(share: f64) -> String {
    format!("{:.2}%", share * 100.0)
}

/// Goal (a): per bitwire server, every cell where it and its baseline were measured.
fn framing_checks(r: &NetResults) -> Vec<Check> {
    let mut out = Vec::new();
    for s in bitwire_servers(r) {
        let Some(base) = s.baseline.as_deref() else {
            out.push(not_measured(&s.id, "no raw baseline named"));
            continue;
        };
        let (mut held, mut over) = (0usize, Vec::<(Key, f64)>::new());
        let (mut failures, mut unmeasured) = (0usize, 0usize);
        let mut worst: Option<(f64, Key)> = None;
        for key in r.matrix() {
            let Some(ratio) = overhead_ratio(r, &s.id, base, key) else {
                let failed = [r.find(&s.id, key), r.find(base, key)]
                    .iter()
                    .any(|f| matches!(f, Found::Failed(_)));
                if failed {
                    failures += 1;
                } else {
                    unmeasured += 1;
                }
                continue;
            };
            let cost = framing_cost(ratio);
            if worst.is_none_or(|(w, _)| cost > w) {
                worst = Some((cost, key));
            }
            if cost <= MAX_FRAMING_COST + 1e-12 {
                held += 1;
            } else {
                over.push((key, cost));
            }
        }
        let measured = held + over.len();
        let Some((worst_cost, worst_key)) = worst else {
            out.push(not_measured(
                &s.id,
                &format!("{} and {base} not both measured in any cell", s.id),
            ));
            continue;
        };
        let mut detail = format!(
            "against {base}: held in {held} of {measured} cells; worst cost {} ({worst_key})",
            percent(worst_cost)
        );
        if !over.is_empty() {
            detail.push_str(&format!("; over 5% at {}", by_mode_and_connections(&over)));
        }
        if failures > 0 {
            detail.push_str(&format!(
                "; {failures} cells failed (this server or {base})"
            ));
        }
        if unmeasured > 0 {
            detail.push_str(&format!("; {unmeasured} cells not measured"));
        }
        out.push(Check {
            what: s.id.clone(),
            detail,
            ratio: Some(1.0 - worst_cost),
            status: if !over.is_empty() {
                Status::NotMet
            } else if unmeasured + failures > 0 {
                Status::MetWhereMeasured
            } else {
                Status::Met
            },
        });
    }
    out
}

/// `pingpong, 1 connection: 8 B 8.72%, 64 B 7.41%; pipeline, 4 connections: 8 B 6.00%`
/// (cells in matrix order).
fn by_mode_and_connections(cells: &[(Key, f64)]) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (key, cost) in cells {
        let s = if key.connections == 1 { "" } else { "s" };
        let group = format!("{}, {} connection{s}", key.mode, key.connections);
        let item = format!("{} B {}", key.size, percent(*cost));
        match groups.last_mut() {
            Some((g, items)) if *g == group => items.push(item),
            _ => groups.push((group, vec![item])),
        }
    }
    groups
        .iter()
        .map(|(g, items)| format!("{g}: {}", items.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// `server`'s pps over `base`'s at `key`, when both were measured without errors.
pub fn overhead_ratio(r: &NetResults, server: &str, base: &str, key: Key) -> Option<f64> {
    match (r.pps(server, key), r.pps(base, key)) {
        (Some(v), Some(b)) if b > 0.0 => Some(v / b),
        _ => None,
    }
}

/// Goal (b): per bitwire server, ping-pong on one connection at every size.
fn one_connection_checks(r: &NetResults) -> Vec<Check> {
    let limit = SEED_ONE_CONNECTION_PPS * ONE_CONNECTION_FACTOR;
    let keys: Vec<Key> = r
        .matrix()
        .into_iter()
        .filter(|k| k.mode == "pingpong" && k.connections == 1)
        .collect();
    bitwire_servers(r)
        .into_iter()
        .map(|s| {
            let bar = Bar {
                limit,
                seed: SEED_ONE_CONNECTION_PPS,
                seed_label: "the seed's 5.6k",
            };
            threshold_check(r, s, &s.id, &keys, &bar)
        })
        .collect()
}

/// Goal (c): per Rust or Go bitwire server and mode, 32 connections at every size.
fn best_checks(r: &NetResults) -> Vec<Check> {
    let mut out = Vec::new();
    for s in bitwire_servers(r)
        .into_iter()
        .filter(|s| NATIVE_RUNTIMES.contains(&s.runtime.as_str()))
    {
        for mode in r.modes() {
            let keys: Vec<Key> = r
                .matrix()
                .into_iter()
                .filter(|k| k.mode == mode && k.connections == SEED_BEST_CONNECTIONS)
                .collect();
            let what = format!("{}, {mode}, {SEED_BEST_CONNECTIONS} connections", s.id);
            let bar = Bar {
                limit: SEED_BEST_PPS,
                seed: SEED_BEST_PPS,
                seed_label: "the seed's 87k",
            };
            out.push(threshold_check(r, s, &what, &keys, &bar));
        }
    }
    out
}

/// A rate to beat and the seed's figure it comes from.
struct Bar {
    /// Packets/s to beat.
    limit: f64,
    /// The seed's figure (the detail gives the rate as a multiple of it).
    seed: f64,
    /// How the detail names the seed's figure.
    seed_label: &'static str,
}

/// Whether `s` beats `bar.limit` packets/s at every key; the detail names the sizes above
/// and below it.
fn threshold_check(r: &NetResults, s: &Server, what: &str, keys: &[Key], bar: &Bar) -> Check {
    let limit = bar.limit;
    let (mut above, mut below) = (Vec::new(), Vec::new());
    let (mut failed, mut unmeasured) = (Vec::new(), Vec::new());
    let mut lowest: Option<(f64, u64)> = None;
    for key in keys {
        let found = r.find(&s.id, *key);
        match found.ok().and_then(|c| c.pps) {
            Some(pps) => {
                if lowest.is_none_or(|(l, _)| pps < l) {
                    lowest = Some((pps, key.size));
                }
                let at = format!("{} B ({})", key.size, thousands(pps.round() as i64));
                if pps > limit {
                    above.push(at);
                } else {
                    below.push(at);
                }
            }
            None if matches!(found, Found::Failed(_)) => failed.push(format!("{} B", key.size)),
            None => unmeasured.push(format!("{} B", key.size)),
        }
    }
    let Some((low, low_size)) = lowest else {
        return not_measured(what, "not measured");
    };
    let mut detail = format!(
        "lowest {} packets/s at {low_size} B = {:.2}x {}; above {} at {}",
        thousands(low.round() as i64),
        low / bar.seed,
        bar.seed_label,
        thousands(limit as i64),
        if above.is_empty() {
            "no size".into()
        } else {
            above.join(", ")
        }
    );
    if !below.is_empty() {
        detail.push_str(&format!("; not above at {}", below.join(", ")));
    }
    if !failed.is_empty() {
        detail.push_str(&format!("; failed at {}", failed.join(", ")));
    }
    if !unmeasured.is_empty() {
        detail.push_str(&format!("; not measured at {}", unmeasured.join(", ")));
    }
    Check {
        what: what.to_string(),
        detail,
        ratio: Some(low / limit),
        status: if !below.is_empty() {
            Status::NotMet
        } else if !unmeasured.is_empty() || !failed.is_empty() {
            Status::MetWhereMeasured
        } else {
            Status::Met
        },
    }
}

/// Goal (d): per server, every cell of the matrix has a p99 (a failed or missing cell has
/// none).
fn p99_checks(r: &NetResults) -> Vec<Check> {
    let matrix = r.matrix();
    r.servers
        .iter()
        .map(|s| {
            let mut lacking = Vec::new();
            for key in &matrix {
                let why = match r.find(&s.id, *key) {
                    Found::Ok(c) if c.p99().is_some() => continue,
                    Found::Ok(_) => "no p99",
                    Found::Failed(_) => "failed",
                    Found::Missing => "missing",
                };
                lacking.push(format!("{key} ({why})"));
            }
            let have = matrix.len() - lacking.len();
            let mut detail = format!("{have} of {} cells have a p99", matrix.len());
            if !lacking.is_empty() {
                detail.push_str(&format!("; none at {}", lacking.join("; ")));
            }
            Check {
                what: s.id.clone(),
                detail,
                ratio: None,
                status: if matrix.is_empty() {
                    Status::NotMeasured
                } else if lacking.is_empty() {
                    Status::Met
                } else {
                    Status::NotMet
                },
            }
        })
        .collect()
}

fn not_measured(what: &str, detail: &str) -> Check {
    Check {
        what: what.to_string(),
        detail: detail.to_string(),
        ratio: None,
        status: Status::NotMeasured,
    }
}
