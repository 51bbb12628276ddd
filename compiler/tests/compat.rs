//! `bitwire compat`: every `testdata/compat/CASE/` holds `old.bw`, `new.bw`, the
//! expected report and exit status (`expected.txt`, `BLESS=1` rewrites it) and
//! `probes.json`: values encoded with one version and decoded with the other by the
//! reference codec, with the predicted outcome (`ok`, `mismatch` — decodes to a
//! different value — or a wire error kind). The test checks that the prediction
//! holds and that it agrees with the report's classification.

use std::fs;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec::{self, CodecError};
use bitwire_compiler::compat::{self, Class, CODES};
use bitwire_compiler::ir::Schema;
use bitwire_compiler::{compile_with_loader, FsLoader};
use serde_json::Value as Json;

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/compat")
}

fn cases() -> Vec<String> {
    let mut out: Vec<String> = fs::read_dir(corpus_dir())
        .expect("corpus directory exists")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    out.sort();
    out
}

/// What happened to one probe: `ok`, `mismatch` or the wire error kind.
fn outcome(from: &Schema, to: &Schema, probe: &Json) -> String {
    let ty_from = probe["type"].as_str().expect("probe type");
    let ty_to = probe
        .get("decode_as")
        .and_then(Json::as_str)
        .unwrap_or(ty_from);
    let from_id = from
        .type_by_name(ty_from)
        .expect("type in the encoding schema");
    let to_id = to.type_by_name(ty_to).expect("type in the decoding schema");
    let bytes = codec::encode_json(from, from_id, &probe["value"])
        .unwrap_or_else(|e| panic!("probe {probe} does not encode: {e}"));
    match codec::decode_to_json(to, to_id, &bytes) {
        Ok(json) => {
            let want = probe.get("expect_json").unwrap_or(&probe["value"]);
            if &json == want {
                "ok".to_string()
            } else {
                "mismatch".to_string()
            }
        }
        Err(CodecError::Wire { kind, .. }) => kind.name().to_string(),
        Err(e) => panic!("unexpected error {e}"),
    }
}

#[test]
fn cases_match_expected_report_and_codec() {
    let bless = std::env::var_os("BLESS").is_some();
    let loader = FsLoader::new(corpus_dir());
    let cases = cases();
    assert!(cases.len() >= 12, "{} cases", cases.len());
    let mut failures = Vec::new();
    for case in &cases {
        let (old_root, new_root) = (format!("{case}/old.bw"), format!("{case}/new.bw"));
        let report = compat::compare_with_loaders(&old_root, &loader, &new_root, &loader)
            .unwrap_or_else(|d| panic!("{case}: {}", d.render()));
        let exit = i32::from(report.is_breaking());
        let actual = format!("{}exit: {exit}\n", report.render());
        let expected_path = corpus_dir().join(case).join("expected.txt");
        if bless {
            fs::write(&expected_path, &actual).expect("write expectation");
        } else if fs::read_to_string(&expected_path).unwrap_or_default() != actual {
            failures.push(format!("--- {case}: actual\n{actual}"));
        }

        let old = compile_with_loader(&old_root, &loader).expect("old compiles");
        let new = compile_with_loader(&new_root, &loader).expect("new compiles");
        let text = fs::read_to_string(corpus_dir().join(case).join("probes.json"))
            .unwrap_or_else(|_| panic!("{case}: probes.json"));
        let spec: Json = serde_json::from_str(&text).expect("probes.json is JSON");
        let probes = spec["probes"].as_array().expect("probes");
        assert!(!probes.is_empty(), "{case}: no probes");
        let mut any_failure = false;
        for p in probes {
            let from_old = p["from"] == "old";
            let got = if from_old {
                outcome(&old, &new, p)
            } else {
                outcome(&new, &old, p)
            };
            let want = p["expect"].as_str().expect("expect");
            assert_eq!(got, want, "{case}: probe {p}");
            any_failure |= got != "ok";
            // The classification's claim, checked on the codec:
            let worst = report.changes.iter().map(|c| c.class).max();
            match worst {
                None | Some(Class::Compatible) => {
                    assert_eq!(got, "ok", "{case}: compatible, yet probe {p} fails")
                }
                Some(Class::ForwardRisky) if from_old => {
                    assert_eq!(got, "ok", "{case}: old data must decode under new: {p}")
                }
                Some(Class::ForwardRisky) => assert!(
                    ["ok", "InvalidEnum", "OutOfRange", "InvalidLength"].contains(&want),
                    "{case}: forward-risky may only reject new values: {p}"
                ),
                Some(Class::Breaking) => {}
            }
        }
        if report.is_breaking() && spec.get("wire_identical").is_none() {
            assert!(any_failure, "{case}: breaking, but every probe succeeds");
        }
    }
    assert!(
        failures.is_empty(),
        "{} case(s) differ (BLESS=1 rewrites):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_code_is_exercised_and_documented() {
    let loader = FsLoader::new(corpus_dir());
    let mut seen = Vec::new();
    for case in cases() {
        let r = compat::compare_with_loaders(
            &format!("{case}/old.bw"),
            &loader,
            &format!("{case}/new.bw"),
            &loader,
        )
        .expect("compiles");
        seen.extend(r.codes());
    }
    let docs = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/tooling.md"))
        .expect("docs/tooling.md");
    for (code, class, _) in CODES {
        assert!(
            docs.contains(&format!("`{code}`")),
            "{code} is not in docs/tooling.md"
        );
        let _ = class;
    }
    for code in [
        "C0101", "C0102", "C0103", "C0104", "C0201", "C0202", "C0203", "C0204", "C0301", "C0302",
        "C0303", "C0304", "C0305", "C0306", "C0307", "C0308", "C0309", "C0310", "C0311", "C0313",
    ] {
        assert!(
            seen.contains(&code),
            "{code} is not exercised by testdata/compat"
        );
    }
}
