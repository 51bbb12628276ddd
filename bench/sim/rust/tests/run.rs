//! `sim` end to end: the real simserver and simclient of this package, simprom built from
//! bench/sim/go, two cells of three clients — results, scrapes, metrics checks and the
//! report written — and a cell whose server does not start failing with the reason.
//!
//! The test needs the `simserver` and `simclient` binaries of this package and Go; it
//! says so and passes without them (the orchestrator's branch alone has neither server
//! nor client).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use bitwire_sim::report::{self, model::Live};

/// The package's binaries, if they are built with it.
fn programs() -> Option<(&'static str, &'static str, &'static str)> {
    Some((
        option_env!("CARGO_BIN_EXE_sim")?,
        option_env!("CARGO_BIN_EXE_simserver")?,
        option_env!("CARGO_BIN_EXE_simclient")?,
    ))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..")
}

/// simprom, built once from bench/sim/go into the test's temporary directory.
fn simprom() -> Option<PathBuf> {
    static BUILT: OnceLock<Option<PathBuf>> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("simprom");
            let status = Command::new("go")
                .args(["build", "-o"])
                .arg(&out)
                .arg("./simprom")
                .current_dir(root().join("bench/sim/go"))
                .status();
            match status {
                Ok(s) if s.success() => Some(out),
                Ok(s) => panic!("go build simprom: {s}"),
                Err(e) => {
                    eprintln!("skipped: no Go ({e})");
                    None
                }
            }
        })
        .clone()
}

fn sim(server: &str, client: &str, simprom: &Path, out: &Path, args: &[&str]) -> (bool, String) {
    let (exe, ..) = programs().unwrap();
    let _ = std::fs::remove_dir_all(out);
    let output = Command::new(exe)
        .args([
            "--smoke",
            "--clients",
            "3",
            "--seconds",
            "1",
            "--warmup",
            "0",
            "--root",
        ])
        .arg(root())
        .arg("--out")
        .arg(out)
        .args(args)
        .env("SIM_SERVER", server)
        .env("SIM_CLIENT", client)
        .env("SIMPROM", simprom)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), text)
}

#[test]
fn two_cells_end_to_end() {
    let Some((_, server, client)) = programs() else {
        eprintln!("skipped: simserver and simclient are not built with this package");
        return;
    };
    let Some(simprom) = simprom() else { return };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim-run");
    let (ok, log) = sim(
        server,
        client,
        &simprom,
        &out,
        &["--codec", "bitwire,bitwire-delta"],
    );
    assert!(ok, "sim failed:\n{log}");
    assert!(log.contains("[1/2 ") && log.contains("[2/2 "), "{log}");
    let r = report::read(&out).unwrap();
    assert_eq!(r.mode, "smoke");
    assert_eq!(r.cells.len(), 2);
    for c in &r.cells {
        assert!(c.ok(), "{}: {:?}", c.id, c.error);
        let check = c.metrics_check.as_ref().unwrap();
        assert!(
            check.ok && check.verdict.starts_with("simprom check: ok"),
            "{check:?}"
        );
        assert!(
            !check.verdict.contains(&out.display().to_string()),
            "{}",
            check.verdict
        );
        let server = c.server.as_ref().unwrap();
        assert_eq!(server.totals.joined, 3);
        assert_eq!(c.client_results[0].connected, 3);
        assert!(out.join(&check.file).is_file());
    }
    assert_eq!(r.live, Live::Missing("not taken in a smoke run".into()));
    let last = std::fs::read_to_string(out.join("metrics.prom")).unwrap();
    let delta = std::fs::read_to_string(out.join("metrics/bitwire-delta-3.prom")).unwrap();
    assert_eq!(last, delta, "metrics.prom is the run's last scrape");
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("| bitwire-delta |"), "{md}");
    assert!(!out.join("tmp").exists());
}

#[test]
fn a_server_that_does_not_start_fails_its_cell() {
    let Some((_, _, client)) = programs() else {
        eprintln!("skipped: simserver and simclient are not built with this package");
        return;
    };
    let Some(simprom) = simprom() else { return };
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("sim-run-fail");
    // `true` exits at once without a `listening` line.
    let (ok, log) = sim("true", client, &simprom, &out, &["--codec", "bitwire"]);
    assert!(!ok, "{log}");
    let r = report::read(&out).unwrap();
    let e = r.cells[0].error.as_deref().unwrap();
    assert!(
        e.contains("simserver: ended its output before a listening line"),
        "{e}"
    );
    assert!(log.contains("FAILED"), "{log}");
    assert!(std::fs::read_to_string(out.join("report.md"))
        .unwrap()
        .contains("failed"));
}
