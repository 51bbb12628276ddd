//! The compiler-speed section and goal on the fixture run plus a hand-made
//! `raw/compiler.json` (invented test data): the file is read beside the format-1 files,
//! merged into results.json, judged, and shown in summary.md and report.html.

use bitwire_report::goals::Status;
use std::path::{Path, PathBuf};

mod common;

const COMPILER_JSON: &str = r#"{
  "format": 1,
  "kind": "compiler",
  "compiler": "bitwire 0.0.0",
  "quick": false,
  "rounds": 3,
  "schemas": [
    {"schema": "one-table", "kind": "one-table", "source": "testdata/codegen/packet64.bw",
     "lines": 13, "bytes": 317, "types": 1, "phases": [
      {"phase": "parse", "median_us": 0.4, "min_us": 0.4, "batch": 1000, "output_bytes": null},
      {"phase": "parse_check", "median_us": 0.5, "min_us": 0.5, "batch": 1000, "output_bytes": null},
      {"phase": "rust", "median_us": 7.0, "min_us": 7.0, "batch": 100, "output_bytes": 8000},
      {"phase": "go", "median_us": 70.0, "min_us": 60.0, "batch": 10, "output_bytes": 9000},
      {"phase": "ts", "median_us": 7.3, "min_us": 7.0, "batch": 100, "output_bytes": 9500}]},
    {"schema": "generated-50", "kind": "scaling", "source": "generated", "lines": 400,
     "bytes": 9000, "types": 50, "phases": [
      {"phase": "parse_check", "median_us": 100.0, "min_us": 90.0, "batch": 10, "output_bytes": null}]},
    {"schema": "generated-100", "kind": "scaling", "source": "generated", "lines": 800,
     "bytes": 18000, "types": 100, "phases": [
      {"phase": "parse_check", "median_us": 240.0, "min_us": 200.0, "batch": 5, "output_bytes": null}]}
  ]
}
"#;

fn run_dir(name: &str, compiler_json: &str) -> PathBuf {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/run");
    let dir = std::env::temp_dir().join(format!(
        "bitwire-report-compiler-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("raw")).unwrap();
    std::fs::copy(fixtures.join("machine.json"), dir.join("machine.json")).unwrap();
    for entry in std::fs::read_dir(fixtures.join("raw")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join("raw").join(entry.file_name())).unwrap();
    }
    std::fs::write(dir.join("raw/compiler.json"), compiler_json).unwrap();
    dir
}

#[test]
fn compiler_section_goal_and_merged_json() {
    let dir = run_dir("ok", COMPILER_JSON);
    let w = bitwire_report::write_report(&dir, Path::new("/nonexistent"), false).unwrap();
    let goal = w
        .goals
        .iter()
        .find(|g| g.id == "compiler-speed-one-table")
        .unwrap();
    let status: Vec<Status> = goal.checks.iter().map(|c| c.status).collect();
    // parse + check 0.5 ≤ 0.55; Rust 7.0 and TS 7.3 ≤ 7.3; Go 70 is not.
    assert_eq!(
        status,
        [Status::Met, Status::Met, Status::NotMet, Status::Met]
    );
    assert_eq!(goal.status, Status::NotMet);
    assert!(w.markdown.contains("## Compiler speed"));
    assert!(w.markdown.contains("100 over 50 types"));
    // 2.40 µs/type over 2.00: not linear, and the ratio says so.
    assert!(w.markdown.contains("1.20x"));
    common::balanced(&w.html).unwrap();
    assert!(w.html.contains("µs per type by schema size"));
    let merged: serde_json::Value = serde_json::from_str(&w.json).unwrap();
    assert_eq!(merged["compiler"]["schemas"].as_array().unwrap().len(), 3);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn no_compiler_file_is_not_measured_and_a_quick_one_is_refused() {
    let dir = run_dir("none", COMPILER_JSON);
    std::fs::remove_file(dir.join("raw/compiler.json")).unwrap();
    let w = bitwire_report::write_report(&dir, Path::new("/nonexistent"), false).unwrap();
    let goal = w
        .goals
        .iter()
        .find(|g| g.id == "compiler-speed-one-table")
        .unwrap();
    assert_eq!(goal.status, Status::NotMeasured);
    assert!(!w.markdown.contains("## Compiler speed"));
    std::fs::remove_dir_all(dir).unwrap();

    let dir = run_dir(
        "quick",
        &COMPILER_JSON.replace("\"quick\": false", "\"quick\": true"),
    );
    let err = bitwire_report::write_report(&dir, Path::new("/nonexistent"), false).unwrap_err();
    assert!(err.contains("mixed runs"), "{err}");
    std::fs::remove_dir_all(dir).unwrap();
}
