//! Issue 15's goals, judged on the figures of one run (never written by hand): each goal
//! is a list of checks, each met, NOT met or not measured, with the measured numbers.

use std::collections::BTreeMap;

use bitwire_report::format::{num, ratio};
use bitwire_report::goals::{Check, Goal, Status};

use super::figures::{tick_us, Figures};
use super::model::{CellRecord, SimResults};
use super::tables::figure;

/// The client count the sync-time goal is judged at (the migration report's largest).
pub const GOAL_CLIENTS: usize = 100;

/// The sync system's budget: this share of the tick.
pub const SYNC_BUDGET: f64 = 0.01;

/// Ids and titles of every goal, in report order.
pub const GOALS: &[(&str, &str)] = &[
    (
        "sim-sync",
        "at 100 clients on one core, bitwire's sync system (mean per tick) takes at most 1 % of the 16.67 ms tick and no more than bitcode's",
    ),
    (
        "sim-bytes",
        "bitwire's snapshot bytes per client per tick are at most bitcode's, and bitwire-delta's at most half of bitwire's, at every client count",
    ),
    (
        "sim-overruns",
        "0 tick overruns up to the largest client count the machine allows; where it breaks, at what count and why",
    ),
];

/// The cell of `codec` at `clients` (not a mixed one) that ran without error.
pub fn find<'a>(r: &'a SimResults, codec: &str, clients: usize) -> Option<&'a CellRecord> {
    r.cells
        .iter()
        .find(|c| !c.mixed && c.codec == codec && c.clients == clients && c.ok())
}

fn figures(r: &SimResults, codec: &str, clients: usize) -> Option<Figures> {
    find(r, codec, clients).map(|c| Figures::of(c, r.settings.prometheus))
}

fn check(what: String, detail: String, ratio: Option<f64>, met: Option<bool>) -> Check {
    let status = match met {
        Some(true) => Status::Met,
        Some(false) => Status::NotMet,
        None => Status::NotMeasured,
    };
    Check {
        what,
        detail,
        ratio,
        status,
    }
}

/// `a ≤ limit × b`, with both figures and their ratio; not measured without both.
fn at_most(
    what: String,
    a: (&str, Option<f64>),
    b: (&str, Option<f64>),
    limit: f64,
    unit: &str,
) -> Check {
    match (a.1, b.1) {
        (Some(x), Some(y)) if y > 0.0 => {
            let r = x / y;
            let detail = format!(
                "{} {} {unit}, {} {} {unit} ({})",
                a.0,
                num(x),
                b.0,
                num(y),
                ratio(r)
            );
            check(what, detail, Some(r), Some(r <= limit))
        }
        _ => {
            let missing: Vec<&str> = [a, b]
                .iter()
                .filter(|(_, v)| v.is_none())
                .map(|(n, _)| *n)
                .collect();
            check(
                what,
                format!("not measured: {}", missing.join(", ")),
                None,
                None,
            )
        }
    }
}

fn sync_checks(r: &SimResults) -> Vec<Check> {
    let n = GOAL_CLIENTS;
    let bw = figures(r, "bitwire", n).and_then(|f| f.sync_mean_us);
    let bc = figures(r, "bitcode", n).and_then(|f| f.sync_mean_us);
    let budget = tick_us() * SYNC_BUDGET;
    let first = match bw {
        Some(us) => check(
            format!(
                "bitwire, {n} clients, sync mean ≤ 1 % of the tick ({} µs)",
                num(budget)
            ),
            format!(
                "{} µs = {} % of the tick",
                num(us),
                num(us / tick_us() * 100.0)
            ),
            Some(us / budget),
            Some(us <= budget),
        ),
        None => check(
            format!("bitwire, {n} clients, sync mean ≤ 1 % of the tick"),
            format!("not measured (no bitwire cell at {n} clients)"),
            None,
            None,
        ),
    };
    let second = at_most(
        format!("bitwire ≤ bitcode, {n} clients, sync mean"),
        ("bitwire", bw),
        ("bitcode", bc),
        1.0,
        "µs",
    );
    vec![first, second]
}

fn bytes_checks(r: &SimResults) -> Vec<Check> {
    let mut checks = Vec::new();
    for &n in &r.settings.clients {
        let out = |codec: &str| figures(r, codec, n).and_then(|f| f.bytes_out);
        checks.push(at_most(
            format!("bitwire ≤ bitcode, {n} clients"),
            ("bitwire", out("bitwire")),
            ("bitcode", out("bitcode")),
            1.0,
            "B",
        ));
        checks.push(at_most(
            format!("bitwire-delta ≤ ½ bitwire, {n} clients"),
            ("bitwire-delta", out("bitwire-delta")),
            ("bitwire", out("bitwire")),
            0.5,
            "B",
        ));
    }
    checks
}

/// Where a codec's overruns begin: the cells in client order with their figures.
pub struct Breaking {
    /// Client counts measured with 0 overruns.
    pub clean: Vec<usize>,
    /// The first count with overruns and its figures.
    pub first: Option<(usize, Figures)>,
    /// Counts before it whose cell failed, with the error.
    pub failed: Vec<(usize, String)>,
}

impl Breaking {
    /// "; not measured at 1000 clients (the cell failed: ...)" for the failed cells.
    pub fn failures(&self) -> String {
        self.failed
            .iter()
            .map(|(n, e)| {
                let short: String = e.chars().take(200).collect();
                let more = if short.len() < e.len() { " …" } else { "" };
                format!("; not measured at {n} clients (the cell failed: {short}{more})")
            })
            .collect()
    }
}

/// The codec's cells in client-count order: which ran with 0 overruns, and the first with.
pub fn breaking(r: &SimResults, codec: &str) -> Breaking {
    let mut counts: Vec<usize> = r.settings.clients.clone();
    counts.sort_unstable();
    let mut b = Breaking {
        clean: Vec::new(),
        first: None,
        failed: Vec::new(),
    };
    for n in counts {
        if let Some(c) = crate::report::tables::cell(r, codec, n).filter(|c| !c.ok()) {
            b.failed.push((n, c.error.clone().unwrap_or_default()));
            continue;
        }
        let Some(f) = figures(r, codec, n) else {
            continue;
        };
        match f.overruns {
            Some(o) if o > 0.0 => {
                b.first = Some((n, f));
                break;
            }
            Some(_) => b.clean.push(n),
            None => {}
        }
    }
    b
}

/// Server CPU (% of its core) from which the core counts as saturated.
const SATURATED_CPU: f64 = 90.0;

/// Why the server overran at that count, from the figures (never from guesswork).
pub fn why_overruns(n: usize, f: &Figures) -> String {
    let period = tick_us();
    let tick = f.tick_mean_us.unwrap_or(0.0);
    let cpu = f.cpu_percent.unwrap_or(0.0);
    let share = format!(
        "the tick's work takes {} µs of each {} µs period on average ({} % of it), the server's core is {} % busy",
        num(tick),
        num(period),
        num(tick / period * 100.0),
        num(cpu)
    );
    let dropped = match f.dropped {
        Some(d) if d > 0 => format!(
            "; the clients' core could not keep up either: they read their snapshots late, and the server dropped {} of {n} clients whose send queue filled",
            figure(d as f64)
        ),
        _ => String::new(),
    };
    let why = if tick >= period {
        format!("at {n} clients {share}: the tick's own work (inputs, simulation, sync) is longer than the period")
    } else if cpu >= SATURATED_CPU {
        format!(
            "at {n} clients {share}: the core is saturated — the rest of its time goes to the socket I/O outside the tick (writing {} snapshots of {} B and reading as many inputs per tick)",
            n,
            f.bytes_out.map_or("?".into(), num)
        )
    } else {
        format!(
            "at {n} clients {share}: the core is not saturated, so the late ticks are scheduling delays (the clients' process and the rest of the machine share it)"
        )
    };
    why + &dropped
}

fn overrun_checks(r: &SimResults) -> (Vec<Check>, Vec<String>) {
    let mut checks = Vec::new();
    let mut whys = Vec::new();
    for codec in &r.settings.codecs {
        let b = breaking(r, codec);
        let clean = b
            .clean
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        let failures = b.failures();
        let c = match &b.first {
            None if b.clean.is_empty() => {
                check(codec.clone(), format!("not measured{failures}"), None, None)
            }
            None => {
                let mut c = check(
                    codec.clone(),
                    format!("0 overruns at {clean} clients{failures}"),
                    None,
                    Some(true),
                );
                if !b.failed.is_empty() {
                    c.status = Status::MetWhereMeasured;
                }
                c
            }
            Some((n, f)) => {
                whys.push(format!("{codec}: {}", why_overruns(*n, f)));
                // The goal asks for 0 overruns up to the largest count the machine
                // allows: overruns that begin where the core is saturated mark that
                // count, the ones on a core with time to spare do not.
                let saturated = f.tick_mean_us.unwrap_or(0.0) >= tick_us()
                    || f.cpu_percent.unwrap_or(0.0) >= SATURATED_CPU;
                let met = saturated && !b.clean.is_empty();
                let ticks = f
                    .ticks
                    .map_or(String::new(), |t| format!(" of {} ticks", figure(t)));
                let before = if clean.is_empty() {
                    String::new()
                } else {
                    format!("0 overruns at {clean} clients; ")
                };
                let limit = if saturated {
                    format!(
                        " (the core saturated: {} % busy)",
                        num(f.cpu_percent.unwrap_or(0.0))
                    )
                } else {
                    String::new()
                };
                check(
                    codec.clone(),
                    format!(
                        "{before}overruns from {n} clients: {}{ticks}{limit}{failures}",
                        figure(f.overruns.unwrap_or(0.0))
                    ),
                    None,
                    Some(met),
                )
            }
        };
        checks.push(c);
    }
    (checks, whys)
}

/// Evaluates every goal on `r`; `notes` are the lead's explanations by goal id
/// (`notes.md` next to results.json), added to the computed ones.
pub fn evaluate(r: &SimResults, notes: &BTreeMap<String, String>) -> Vec<Goal> {
    GOALS
        .iter()
        .map(|&(id, title)| {
            let (checks, why) = match id {
                "sim-sync" => {
                    let checks = sync_checks(r);
                    let none = checks.iter().all(|c| c.status == Status::NotMeasured);
                    let why = none.then(|| {
                        format!(
                            "this run has no {GOAL_CLIENTS}-client cells of bitwire and bitcode"
                        )
                    });
                    (checks, why)
                }
                "sim-bytes" => (bytes_checks(r), None),
                _ => {
                    let (checks, whys) = overrun_checks(r);
                    (checks, (!whys.is_empty()).then(|| whys.join("; ")))
                }
            };
            let status = Status::combine(&checks.iter().map(|c| c.status).collect::<Vec<_>>());
            let why = match (why, notes.get(id)) {
                (Some(w), Some(n)) => Some(format!("{w}. {n}")),
                (w, n) => w.or_else(|| n.cloned()),
            };
            Goal {
                id,
                title,
                checks,
                status,
                why,
            }
        })
        .collect()
}
