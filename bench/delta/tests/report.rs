//! The Rust measurement and the report: every peer round-trips every tick (checked inside
//! `measure::run`), bitwire's sizes are the schema's arithmetic, and the report judges the
//! goals on the figures it is given, refuses raw files of different runs, and writes
//! Markdown and self-contained HTML with a chart per scenario.

use bitwire_delta_lab::measure;
use bitwire_delta_lab::raw::{RawFile, Series, Timing, FORMAT};
use bitwire_delta_lab::report::{self, Results};
use bitwire_delta_lab::scenario::Scenarios;
use bitwire_report::goals::Status;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The quick scenarios measured in Rust (one timed pass), once for every test here.
fn rust() -> &'static RawFile {
    static R: OnceLock<RawFile> = OnceLock::new();
    R.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("bitwire-delta-report-{}", std::process::id()));
        Scenarios::generate(true).write(&dir).unwrap();
        let (s, manifest) = Scenarios::read(&dir).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        measure::run(&s, &manifest, 1).unwrap()
    })
}

fn series<'a>(f: &'a RawFile, scenario: &str, codec: &str) -> &'a Series {
    f.series
        .iter()
        .find(|s| s.scenario == scenario && s.codec == codec)
        .unwrap()
}

#[test]
fn bitwire_sizes_are_the_schemas_arithmetic() {
    let r = rust();
    r.check().unwrap();
    assert_eq!(
        r.series.len(),
        16,
        "six peers and two delta ages on two scenarios"
    );
    // tick (32) + length (10) + 901 cubes of 90 bits, padded to a byte.
    let cubes = series(r, "cubes", "bitwire");
    assert!(cubes
        .bytes
        .iter()
        .all(|b| *b == (32 + 10 + 901 * 90u64).div_ceil(8)));
    // The world's size follows its entity count: 32 + 9 + 103 bits each.
    let world = series(r, "world", "bitwire");
    let s = Scenarios::generate(true);
    for (b, t) in world.bytes.iter().zip(&s.world) {
        assert_eq!(*b, (32 + 9 + 103 * t.entities.len() as u64).div_ceil(8));
    }
    assert_eq!(r.codes.len(), 4, "two scenarios at two baseline ages");
    assert_eq!(
        r.timings.len(),
        6,
        "full, delta at two ages, on two scenarios"
    );
}

/// A raw file of the same run as [`rust`] with one series per `(scenario, codec)`, each
/// tick after the first `bytes` long (tick 0: 10,000).
fn synthetic(codecs: &[(&str, &str, u64)]) -> RawFile {
    let r = rust();
    RawFile {
        format: FORMAT.into(),
        program: "test".into(),
        runtime: "test".into(),
        quick: r.quick,
        ticks: r.ticks,
        scenarios: r.scenarios.clone(),
        series: codecs
            .iter()
            .map(|(scenario, codec, bytes)| Series {
                scenario: scenario.to_string(),
                codec: codec.to_string(),
                label: codec.to_string(),
                counted: "synthetic".into(),
                bytes: std::iter::once(10_000)
                    .chain(std::iter::repeat_n(*bytes, r.ticks - 1))
                    .collect(),
            })
            .collect(),
        timings: Vec::new(),
        codes: Vec::new(),
    }
}

/// [`rust`] and `extra`; without the delta series of `rust` when `extra` has its own.
fn results(extra: Vec<RawFile>) -> Result<Results, String> {
    let mut own = rust().clone();
    own.series.retain(|s| !s.codec.starts_with("bitwire-delta"));
    let mut files = vec![("rust.json".to_string(), own)];
    files.extend(
        extra
            .into_iter()
            .enumerate()
            .map(|(i, f)| (format!("x{i}.json"), f)),
    );
    Results::new(files, BTreeMap::new())
}

#[test]
fn goals_are_judged_on_the_runs_figures() {
    let full = rust()
        .series
        .iter()
        .find(|s| s.scenario == "world" && s.codec == "bitwire")
        .map(|s| s.bytes[1..].iter().sum::<u64>() as f64 / (s.bytes.len() - 1) as f64)
        .unwrap();
    // Delta at age 6 is a fifth of the full snapshot (met), at age 1 a third (not met).
    let d6 = (full / 5.0) as u64;
    let d1 = (full / 3.0) as u64;
    let colyseus = synthetic(&[("world", "colyseus", d1 * 2), ("cubes", "colyseus", 1000)]);
    // Cubes: 500 B/tick is 240 kbit/s (met), 600 B is 288 kbit/s (not met); 600 > 0.5 × 1000.
    let delta = synthetic(&[
        ("world", "bitwire-delta-1", d1),
        ("world", "bitwire-delta-6", d6),
        ("cubes", "bitwire-delta-1", 600),
        ("cubes", "bitwire-delta-6", 500),
    ]);
    let r = results(vec![colyseus, delta]).unwrap();
    let w = report::render(&r, &BTreeMap::new()).unwrap();
    let status: Vec<(&str, Vec<Status>)> = w
        .goals
        .iter()
        .map(|g| (g.id, g.checks.iter().map(|c| c.status).collect()))
        .collect();
    assert_eq!(
        status,
        [
            ("delta-vs-full", vec![Status::Met, Status::NotMet]),
            ("delta-vs-colyseus", vec![Status::Met, Status::NotMet]),
            ("cubes-256kbit", vec![Status::Met, Status::NotMet]),
        ]
    );
    assert!(w.goals.iter().all(|g| g.status == Status::NotMet));
    assert!(w.complete && w.missing.is_empty());
    assert!(w.markdown.contains("**NOT met**"));
    assert!(w.markdown.contains("0.20x (limit 0.25x)"), "{}", w.markdown);
}

#[test]
fn without_the_delta_series_the_goals_are_not_measured() {
    let r = results(vec![synthetic(&[
        ("world", "colyseus", 500),
        ("cubes", "colyseus", 90),
    ])])
    .unwrap();
    let w = report::render(&r, &BTreeMap::new()).unwrap();
    assert!(w.goals.iter().all(|g| g.status == Status::NotMeasured));
    assert!(!w.complete);
    assert_eq!(w.missing.len(), 4, "{:?}", w.missing);
    assert!(w.markdown.contains("not wired into the lab yet"));
}

#[test]
fn the_html_is_self_contained_with_a_chart_per_scenario() {
    let r = Results::new(vec![("rust.json".into(), rust().clone())], BTreeMap::new()).unwrap();
    let w = report::render(&r, &BTreeMap::new()).unwrap();
    // Without Colyseus, its comparison is the one goal not measured.
    let measured: Vec<bool> = w
        .goals
        .iter()
        .map(|g| g.status != Status::NotMeasured)
        .collect();
    assert_eq!(measured, [true, false, true]);
    // Per scenario: bytes per tick, kbit/s bars.
    assert_eq!(w.html.matches("<svg class=\"chart\"").count(), 4);
    assert!(!w.html.contains("<script") && !w.html.contains("http"));
    assert!(w.html.contains("Quick mode"));
    assert!(w.markdown.contains("Mean bits per changed scalar"));
    let merged: serde_json::Value = serde_json::from_str(&w.json).unwrap();
    assert_eq!(merged["goals"].as_array().unwrap().len(), 3);
}

#[test]
fn raw_files_of_different_runs_are_refused() {
    let mut other = synthetic(&[("world", "colyseus", 500)]);
    other
        .scenarios
        .insert("world".into(), "0000000000000000".into());
    assert!(results(vec![other]).unwrap_err().contains("different runs"));

    let twice = synthetic(&[("world", "bitwire", 500)]);
    assert!(results(vec![twice])
        .unwrap_err()
        .contains("in rust.json and x0.json"));

    let mut unknown = synthetic(&[("world", "colyseus", 500)]);
    unknown.series[0].codec = "protobuf".into();
    assert!(results(vec![unknown])
        .unwrap_err()
        .contains("unknown codec"));

    let mut short = synthetic(&[("world", "colyseus", 500)]);
    short.series[0].bytes.pop();
    assert!(results(vec![short]).unwrap_err().contains("values for"));
}

#[test]
fn times_are_grouped_by_runtime_with_their_ratio_to_the_full_snapshot() {
    let timing = |scenario: &str, codec: &str, encode_ns: f64, decode_ns: f64| Timing {
        scenario: scenario.into(),
        codec: codec.into(),
        encode_ns,
        decode_ns,
        rounds: 3,
        note: format!("{codec} note"),
    };
    let mut go = synthetic(&[]);
    go.runtime = "go1.99".into();
    go.timings = vec![
        timing("world", "bitwire", 1000.0, 2000.0),
        timing("world", "bitwire-delta-1", 2500.0, 500.0),
        timing("cubes", "bitwire-delta-6", 7000.0, 9000.0),
    ];
    let mut node = go.clone();
    node.runtime = "node v99".into();
    // go.json sorts before rust.json by name; the report shows Rust first.
    let files = vec![
        ("go.json".to_string(), go),
        ("rust.json".to_string(), rust().clone()),
        ("ts-node.json".to_string(), node),
    ];
    let r = Results::new(files, BTreeMap::new()).unwrap();
    let md = report::render(&r, &BTreeMap::new()).unwrap().markdown;
    let times = &md[md.find("## Encode and decode time per tick").unwrap()..];
    let world =
        &times[times.find("### Moving world").unwrap()..times.find("### Cube scene").unwrap()];
    let rows: Vec<&str> = world.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), 1 + 3 + 2 + 2, "{world}");
    assert!(rows[1].starts_with("| rustc "), "{world}");
    assert!(rows[4..6].iter().all(|r| r.starts_with("| go1.99 |")));
    assert!(rows[6..8].iter().all(|r| r.starts_with("| node v99 |")));
    assert_eq!(
        rows[5],
        "| go1.99 | bitwire delta (age 1) | 2,500 | 2.50x | 500.0 | 0.25x | 3 |"
    );
    // Without a full figure in the same runtime there is no ratio.
    assert!(times.contains("| go1.99 | bitwire delta (age 6) | 7,000 | – | 9,000 | – | 3 |"));
    assert!(times.contains("| go1.99 | test | bitwire delta (age 1) | bitwire-delta-1 note |"));
}
