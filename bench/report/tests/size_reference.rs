//! The goal "raw size never worse than today's" on the fixture run (`tests/fixtures/run`,
//! invented test data) against reference figures given in the test: reading a merged
//! `results.json`, met / NOT met / new / not comparable, and a missing reference file.

use bitwire_report::goals::{Goal, Status};
use bitwire_report::size_reference::{self, Figure, SizeReference};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Copies the fixture run into a fresh directory (the report writes next to its inputs).
fn fixture_run(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bitwire-sizeref-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("raw")).unwrap();
    let src = fixtures().join("run");
    std::fs::copy(src.join("machine.json"), dir.join("machine.json")).unwrap();
    for entry in std::fs::read_dir(src.join("raw")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dir.join("raw").join(entry.file_name())).unwrap();
    }
    dir
}

fn goal(reference: SizeReference, name: &str) -> Goal {
    let dir = fixture_run(name);
    let w = bitwire_report::write_report_with(&dir, Path::new("/nonexistent"), false, reference)
        .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
    w.goals
        .into_iter()
        .find(|g| g.id == "size-raw-reference")
        .unwrap()
}

fn figure(dataset: &str, messages: u64, bytes: u64) -> Figure {
    Figure {
        dataset: dataset.into(),
        messages,
        bytes,
    }
}

#[test]
fn reads_bitwire_figures_of_a_merged_results_file() {
    let text = r#"{"format": 1, "records": [
        {"language": "go", "runtime": "", "dataset": "packet64", "variant": "", "library": "bitwire", "messages": 100, "bytes": 900},
        {"language": "rust", "runtime": "", "dataset": "packet64", "variant": "", "library": "bitwire", "messages": 100, "bytes": 790},
        {"language": "rust", "runtime": "", "dataset": "snapshot", "variant": "batch", "library": "bitwire", "messages": 10, "bytes": 1},
        {"language": "rust", "runtime": "", "dataset": "snapshot", "variant": "", "library": "bitcode", "messages": 10, "bytes": 2},
        {"language": "rust", "runtime": "", "dataset": "snapshot", "variant": "", "library": "bitwire", "messages": 10, "bytes": 5000},
        {"language": "rust", "runtime": "", "dataset": "pod_u64", "variant": "1MB", "library": "bitwire", "messages": 1, "bytes": 8}
    ]}"#;
    let figures = SizeReference::parse(text).unwrap();
    // Rust comes first in report order, whatever the file's order; batch, peers and pod
    // blocks are left out.
    assert_eq!(
        figures,
        [figure("packet64", 100, 790), figure("snapshot", 10, 5000)]
    );
    assert!(SizeReference::parse(r#"{"format": 2, "records": []}"#).is_err());
    assert!(SizeReference::parse("not json").is_err());
}

#[test]
fn judged_per_dataset_with_new_and_not_comparable() {
    let reference = SizeReference {
        label: "the reference".into(),
        // The fixture's bitwire: packet64 800 B / 100, snapshot 5000 B / 10, input 400 B / 50.
        figures: vec![
            figure("packet64", 100, 790),
            figure("snapshot", 10, 5000),
            figure("events", 7, 100),
        ],
        error: None,
    };
    let g = goal(reference, "judged");
    assert_eq!(g.status, Status::NotMet);
    let by = |d: &str| g.checks.iter().find(|c| c.what.starts_with(d)).unwrap();
    let p64 = by("packet64");
    assert_eq!(p64.status, Status::NotMet);
    assert_eq!(p64.what, "packet64 (raw size, measured in Rust)");
    assert!(
        p64.detail
            .contains("bitwire 8.00 B/msg, 7.90 B/msg in the reference"),
        "{}",
        p64.detail
    );
    assert_eq!(by("snapshot").status, Status::Met);
    let input = by("input");
    assert_eq!(input.status, Status::Met);
    assert!(input.detail.starts_with("new: "), "{}", input.detail);
    let events = by("events");
    assert_eq!(events.status, Status::NotMeasured);
    assert_eq!(events.detail, "bitwire not measured");
    assert_eq!(g.checks.len(), 5);

    // Another corpus size is not compared.
    let reference = SizeReference {
        label: "a full run".into(),
        figures: vec![figure("snapshot", 600, 300_000)],
        error: None,
    };
    let g = goal(reference, "other-corpus");
    let snap = g
        .checks
        .iter()
        .find(|c| c.what.starts_with("snapshot"))
        .unwrap();
    assert_eq!(snap.status, Status::NotMeasured);
    assert_eq!(
        snap.detail,
        "not comparable: 10 messages here, 600 in a full run"
    );
}

#[test]
fn a_missing_reference_is_not_measured() {
    let reference = SizeReference::read(Path::new("/nonexistent/results.json"), "nowhere");
    assert!(reference.error.is_some());
    let g = goal(reference, "missing");
    assert_eq!(g.status, Status::NotMeasured);
    assert!(g.checks[0].detail.starts_with("no reference figures"));
}

#[test]
fn the_committed_reference_has_every_older_dataset() {
    let reference =
        SizeReference::read(&size_reference::default_path(), size_reference::DEFAULT_RUN);
    assert_eq!(reference.error, None);
    let datasets: Vec<&str> = reference
        .figures
        .iter()
        .map(|f| f.dataset.as_str())
        .collect();
    assert_eq!(datasets, ["packet64", "snapshot", "input", "events"]);
}
