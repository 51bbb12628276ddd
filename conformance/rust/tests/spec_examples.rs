//! The example table of `docs/spec.md` §10 is checked against the vector files, so the
//! spec cannot drift from the tests: every row's bytes must be the bytes of a `valid`
//! case in `testdata/vectors/nibble.json` whose values match the row.

use std::path::Path;

use serde_json::Value;

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// The rows of the §10 table: (values column, bytes as lowercase hex).
fn spec_rows() -> Vec<(String, String)> {
    let spec = std::fs::read_to_string(root().join("docs/spec.md")).expect("docs/spec.md");
    let after = spec.split("## 10. Examples").nth(1).expect("spec has §10");
    // Up to the next section.
    let section = after.split("\n## ").next().unwrap_or(after);
    section
        .lines()
        .filter(|l| l.starts_with("| `") && l.matches('|').count() == 4)
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (cells[2].replace('`', ""), cells[3].replace(['`', ' '], ""))
        })
        .collect()
}

/// A value column like `true, 0x0102030405060708` as numbers and booleans.
fn parse_values(text: &str) -> Vec<Value> {
    text.split(',')
        .map(|v| {
            let v = v.trim();
            match v {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                _ if v.starts_with("0x") => i128::from_str_radix(&v[2..], 16)
                    .map(|n| Value::String(n.to_string()))
                    .unwrap(),
                _ => Value::String(v.parse::<i128>().expect("integer").to_string()),
            }
        })
        .collect()
}

/// A case's field values in order, integers as decimal strings (as the table's are).
fn case_values(case: &Value) -> Vec<Value> {
    case["value"]
        .as_object()
        .expect("struct value")
        .values()
        .map(|v| match v {
            Value::Number(n) => Value::String(n.to_string()),
            other => other.clone(),
        })
        .collect()
}

#[test]
fn spec_examples_are_vectors() {
    let text =
        std::fs::read_to_string(root().join("testdata/vectors/nibble.json")).expect("nibble.json");
    let suite: Value = serde_json::from_str(&text).expect("valid JSON");
    let cases = suite["cases"].as_array().expect("cases");
    let rows = spec_rows();
    assert_eq!(rows.len(), 5, "the five nibble/bitproto examples");
    for (values, bytes) in rows {
        let want = parse_values(&values);
        let found = cases.iter().any(|c| {
            c["result"] == "valid" && c["bytes"] == bytes.as_str() && case_values(c) == want
        });
        assert!(
            found,
            "spec §10 row `{values}` → `{bytes}` has no matching valid vector in nibble.json"
        );
    }
}
