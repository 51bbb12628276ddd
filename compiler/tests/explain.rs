//! `bitwire explain` against golden dumps in `testdata/explain/` (`BLESS=1` rewrites
//! them), and `bitwire verify` against every shared vector with bytes.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Runs `bitwire <cmd> --schema <suite>.bw --type <ty> --hex` with `hex` on stdin.
fn run(cmd: &str, suite: &str, ty: &str, hex: &str) -> Output {
    let schema = root().join("testdata/vectors").join(format!("{suite}.bw"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitwire"))
        .args([cmd, "--type", ty, "--hex", "--schema"])
        .arg(schema)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bitwire");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(hex.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait for bitwire")
}

/// Every case of a suite's JSON file.
fn cases(suite: &str) -> Vec<serde_json::Value> {
    let path = root()
        .join("testdata/vectors")
        .join(format!("{suite}.json"));
    let text = std::fs::read_to_string(&path).expect("read vectors");
    let json: serde_json::Value = serde_json::from_str(&text).expect("parse vectors");
    json["cases"].as_array().expect("cases").clone()
}

fn case(suite: &str, id: &str) -> serde_json::Value {
    cases(suite)
        .into_iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no case {id}"))
}

/// The explain goldens: file name, suite, case id.
const GOLDENS: &[(&str, &str, &str)] = &[
    ("nibble_flags", "nibble", "nibble.bool_u4_u2_u9.a"),
    ("stress_snapshot", "stress", "stress.snapshot.one_player"),
    ("stress_event_union", "stress", "stress.event.damage_spell"),
    (
        "union_nested",
        "enums_unions",
        "enums_unions.frame.draw_tinted",
    ),
    ("truncated", "nibble", "nibble.truncated.1"),
    (
        "truncated_nested",
        "composite",
        "composite.outer.tail_truncated",
    ),
    (
        "invalid_enum",
        "enums_unions",
        "enums_unions.enums.undeclared_sparse",
    ),
    (
        "invalid_enum_deep",
        "stress",
        "stress.snapshot.undeclared_item_kind",
    ),
    (
        "trailing_data",
        "stress",
        "stress.player.trailing_after_absent_avatar",
    ),
];

#[test]
fn explain_matches_goldens() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for (name, suite, id) in GOLDENS {
        let c = case(suite, id);
        let ty = c["type"].as_str().expect("type");
        let hex = c["bytes"].as_str().expect("bytes");
        let out = run("explain", suite, ty, hex);
        let text = String::from_utf8(out.stdout).expect("UTF-8 output");
        let valid = c["result"] == "valid";
        assert_eq!(
            out.status.code(),
            Some(if valid { 0 } else { 1 }),
            "{id}: exit code; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if let Some(err) = c.get("error") {
            let line = format!(
                "error: {} at bit {}",
                err["kind"].as_str().expect("kind"),
                err["bit"]
            );
            let last = text.lines().last().unwrap_or("");
            assert!(last.starts_with(&line), "{id}: last line `{last}`");
        }
        let golden = root().join("testdata/explain").join(format!("{name}.txt"));
        let header = format!("# bitwire explain: {id} ({suite}.bw, type {ty}, bytes {hex})\n");
        let full = format!("{header}{text}");
        if bless {
            std::fs::write(&golden, &full).expect("write golden");
        } else {
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            if want != full {
                failures.push(format!("{name}: output differs from {}", golden.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(run with BLESS=1 to rewrite)",
        failures.join("\n")
    );
}

#[test]
fn verify_matches_every_vector() {
    let dir = root().join("testdata/vectors");
    let mut suites: Vec<String> = std::fs::read_dir(&dir)
        .expect("list vectors")
        .filter_map(|e| {
            let p = e.expect("entry").path();
            (p.extension()? == "json").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    suites.sort();
    let mut checked = 0;
    for suite in &suites {
        for c in cases(suite) {
            let (Some(hex), Some(ty)) = (c["bytes"].as_str(), c["type"].as_str()) else {
                continue;
            };
            let id = c["id"].as_str().expect("id");
            let out = run("verify", suite, ty, hex);
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            match c["result"].as_str() {
                Some("valid") => {
                    assert_eq!(out.status.code(), Some(0), "{id}: {stderr}");
                    assert_eq!(stdout, format!("ok: {} bytes\n", hex.len() / 2), "{id}");
                }
                Some("invalid") if c.get("value").is_none() => {
                    let e = &c["error"];
                    let mut want = format!(
                        "error: verify failed: {} at bit {}",
                        e["kind"].as_str().expect("kind"),
                        e["bit"]
                    );
                    let path = e["path"].as_str().expect("path");
                    if !path.is_empty() {
                        want.push_str(&format!(" in `{path}`"));
                    }
                    assert_eq!(out.status.code(), Some(1), "{id}");
                    assert_eq!(stderr.trim_end(), want, "{id}");
                    assert!(stdout.is_empty(), "{id}");
                }
                // `encodes` cases decode to a different value; verify only checks bytes.
                _ => continue,
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} vectors checked");
}
