//! `bitwire fmt`: the corpus `testdata/fmt/<case>.bw` → `<case>.formatted.bw`
//! (`BLESS=1` rewrites the expected files), idempotence over every schema in the
//! repository, and the same tokens (up to an added trailing comma). That the IR
//! does not change either is `fmt_meaning.rs`.

use std::path::{Path, PathBuf};

use bitwire_compiler::diag::FileId;
use bitwire_compiler::fmt::format_source;
use bitwire_compiler::syntax::lex;
use bitwire_compiler::syntax::token::TokenKind;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn bw_files(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.ends_with(".bw") && !name.ends_with(".formatted.bw")
        })
        .collect();
    files.sort();
    files
}

/// Every schema the formatter is run on: the corpus and the repository's own.
fn all_schemas() -> Vec<PathBuf> {
    let mut files = bw_files("testdata/fmt");
    files.extend(bw_files("testdata/vectors"));
    files.extend(bw_files("testdata/codegen"));
    files.push(root().join("examples/game.bw"));
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn format(path: &Path, src: &str) -> String {
    format_source(&path.display().to_string(), src)
        .unwrap_or_else(|d| panic!("{} does not format:\n{}", path.display(), d.render()))
}

#[test]
fn corpus_matches_expected() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for case in bw_files("testdata/fmt") {
        let got = format(&case, &read(&case));
        let expected_path = case.with_extension("formatted.bw");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != expected {
            failures.push(format!(
                "{}: output differs from {} (BLESS=1 to update)\n--- got:\n{got}",
                case.display(),
                expected_path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn formatting_is_idempotent() {
    for path in all_schemas() {
        let once = format(&path, &read(&path));
        let twice = format(&path, &once);
        assert_eq!(once, twice, "{}: formatting twice differs", path.display());
        assert!(
            once.ends_with('\n') && !once.ends_with("\n\n"),
            "{}",
            path.display()
        );
    }
}

#[test]
fn repository_schemas_are_formatted() {
    for path in bw_files("testdata/vectors")
        .into_iter()
        .chain(bw_files("testdata/codegen"))
        .chain([root().join("examples/game.bw")])
    {
        let src = read(&path);
        assert_eq!(
            format(&path, &src),
            src,
            "{} is not formatted: run `bitwire fmt`",
            path.display()
        );
    }
}

/// Token kinds with doc comments, a trailing comma before `}` dropped.
fn tokens(src: &str) -> Vec<TokenKind> {
    let (tokens, _) = lex(FileId(0), src);
    let kinds: Vec<TokenKind> = tokens.into_iter().map(|t| t.kind).collect();
    let mut out = Vec::new();
    for (i, kind) in kinds.iter().enumerate() {
        let before_brace = kinds.get(i + 1) == Some(&TokenKind::RBrace);
        if !(*kind == TokenKind::Comma && before_brace) {
            out.push(kind.clone());
        }
    }
    out
}

#[test]
fn formatting_keeps_the_tokens() {
    for path in all_schemas() {
        let src = read(&path);
        let formatted = format(&path, &src);
        assert_eq!(tokens(&src), tokens(&formatted), "{}", path.display());
    }
}

#[test]
fn syntax_errors_are_refused() {
    for src in [
        "struct A { x: u8 y: u8 }",
        "const X: u8 = ;",
        "struct B { /// dangling\n}",
        "/* block */",
    ] {
        let err = format_source("bad.bw", src).expect_err(src);
        assert!(err.has_errors(), "{src}");
        assert!(!err.render().is_empty());
    }
}

#[test]
fn cli_check_lists_changed_files_and_fixes_them() {
    let dir = std::env::temp_dir().join(format!("bitwire-fmt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let messy = dir.join("messy.bw");
    let tidy = dir.join("tidy.bw");
    std::fs::write(&messy, "struct A{x:u8}").unwrap();
    std::fs::write(&tidy, "struct A {\n    x: u8,\n}\n").unwrap();
    let bin = env!("CARGO_BIN_EXE_bitwire");
    let check = std::process::Command::new(bin)
        .args(["fmt", "--check"])
        .args([&messy, &tidy])
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        format!("{}\n", messy.display())
    );
    let fix = std::process::Command::new(bin)
        .arg("fmt")
        .args([&messy, &tidy])
        .output()
        .unwrap();
    assert!(fix.status.success() && fix.stdout.is_empty());
    assert_eq!(read(&messy), read(&tidy));
    std::fs::write(&messy, "struct A { x: }").unwrap();
    let bad = std::process::Command::new(bin)
        .args(["fmt"])
        .arg(&messy)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("E01"));
    assert_eq!(read(&messy), "struct A { x: }");
    std::fs::remove_dir_all(&dir).ok();
}
