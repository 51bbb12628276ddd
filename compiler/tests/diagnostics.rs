//! Golden tests for compiler diagnostics.
//!
//! Every `testdata/diagnostics/NAME.bw` is compiled and its rendered diagnostics
//! are compared with `NAME.stderr`; every directory `testdata/diagnostics/DIR/`
//! is a multi-file case whose root is `DIR/main.bw` and whose expectation is
//! `DIR/main.stderr`. Run with `BLESS=1` to rewrite the expectations after an
//! intended change (then review the diff).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use bitwire_compiler::diag::Code;
use bitwire_compiler::{compile_with_loader, FsLoader};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/diagnostics")
}

/// The case roots, relative to the corpus directory, sorted.
fn cases() -> Vec<String> {
    let mut out = Vec::new();
    for entry in fs::read_dir(corpus_dir()).expect("corpus directory exists") {
        let path = entry.expect("readable entry").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            out.push(format!("{name}/main.bw"));
        } else if name.ends_with(".bw") {
            out.push(name);
        }
    }
    out.sort();
    out
}

/// Compiles one case (file names in diagnostics are relative to the corpus dir).
fn render(root: &str) -> String {
    let loader = FsLoader::new(corpus_dir());
    match compile_with_loader(root, &loader) {
        Ok(_) => panic!("{root}: expected errors, but it compiled"),
        Err(diags) => diags.render(),
    }
}

#[test]
fn corpus_matches_expected_output() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 25, "the corpus has {} cases", cases.len());
    for root in &cases {
        let actual = render(root);
        let expected_path = corpus_dir().join(root.replace(".bw", ".stderr"));
        if bless {
            fs::write(&expected_path, &actual).expect("write expectation");
            continue;
        }
        let expected = fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "--- {root}: expected\n{expected}\n--- {root}: actual\n{actual}"
            ));
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
fn rendering_is_deterministic() {
    for root in cases() {
        assert_eq!(render(&root), render(&root), "{root}");
    }
}

/// Codes whose case would not fit a readable golden file, with the test that
/// covers them instead.
const TESTED_ELSEWHERE: &[(Code, &str)] = &[(Code::TooManyErrors, "too_many_errors_stop_reading")];

/// Every code the compiler can emit is exercised by the corpus and documented.
#[test]
fn every_code_is_covered_and_documented() {
    let mut seen: BTreeSet<&str> = TESTED_ELSEWHERE.iter().map(|(c, _)| c.as_str()).collect();
    for root in cases() {
        let expected = fs::read_to_string(corpus_dir().join(root.replace(".bw", ".stderr")))
            .unwrap_or_default();
        for code in Code::ALL {
            if expected.contains(&format!("[{}]", code.as_str())) {
                seen.insert(code.as_str());
            }
        }
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !seen.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes without a corpus case: {missing:?}"
    );

    let docs =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md"))
            .expect("docs/diagnostics.md exists");
    let undocumented: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| !docs.contains(&format!("| `{c}` |")))
        .collect();
    assert!(
        undocumented.is_empty(),
        "codes missing from docs/diagnostics.md: {undocumented:?}"
    );
}

/// The recovery case reports several syntax errors of one file in one run.
#[test]
fn syntax_errors_are_all_reported() {
    let out = render("syntax_recovery.bw");
    let count = out.matches("error[E01").count();
    assert!(count >= 6, "only {count} syntax errors reported:\n{out}");
}

/// A file with an error at every character: the lexer, and then the parser, stop
/// after 1,000 errors with `E0109` (a golden file of it would be 300 KB).
#[test]
fn too_many_errors_stop_reading() {
    use bitwire_compiler::compile_source;
    use bitwire_compiler::syntax::MAX_SYNTAX_ERRORS;
    let lexing = "# ".repeat(5000);
    let syntax = format!("struct S {{ {} }}", ",".repeat(5000));
    for (src, label) in [
        (lexing, "not read past here"),
        (syntax, "not parsed past here"),
    ] {
        let diags = compile_source("t.bw", &src).unwrap_err();
        assert_eq!(diags.error_count(), MAX_SYNTAX_ERRORS + 1);
        let last = diags.items.last().unwrap();
        assert_eq!(last.code, Code::TooManyErrors);
        let rendered = diags.render();
        assert!(rendered.contains("error[E0109]: too many errors in this file: stopped after 1000"));
        assert!(rendered.contains(label), "{label}");
        // A long line is shown as a window around the label.
        assert!(rendered.lines().all(|l| l.len() < 300));
    }
}
