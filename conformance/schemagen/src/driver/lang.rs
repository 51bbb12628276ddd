//! The three languages' steps over a directory of suites: generate code with the
//! compiler, build it (excluding, one round at a time, the suites whose code does
//! not compile, so one bad schema does not hide the others), lint it, and run the
//! language's corpus runner, which writes an outcome file
//! (`bitwire_conformance::outcome`). The runners are the existing ones, pointed at
//! the suites by `$BITWIRE_SUITES_DIR`: `conformance/schemagen/rust` (the build
//! script of the vector suites), `conformance/go` (`internal/gen`, `diff_test.go`) and
//! `conformance/ts` (`scripts/generate.mjs`, `src/corpus.ts`).

use std::path::{Path, PathBuf};

use super::exec::{find_bin, repo_root, target_dir, Output, Step};
use super::results::Results;
use super::Ctx;

/// Suites named (as `{prefix}{suite}{suffix}`) in a tool's output, each with the
/// first line that names it.
pub fn mentioned(
    text: &str,
    suites: &[String],
    prefix: &str,
    suffix: &str,
) -> Vec<(String, String)> {
    suites
        .iter()
        .filter_map(|s| {
            let needle = format!("{prefix}{s}{suffix}");
            let mut lines = text.lines().filter(|l| l.contains(&needle));
            let first = lines.clone().next()?;
            let line = lines.find(|l| l.contains("error")).unwrap_or(first);
            Some((s.clone(), shorten(line, &needle)))
        })
        .collect()
}

/// Suites named in an error line of a compiler's output (a warning does not fail a
/// build, so a suite named only in warnings is not the one that broke it; Go's
/// compiler prints errors without the word, so Go passes every line).
fn failing(
    text: &str,
    suites: &[String],
    (prefix, suffix): (&str, &str),
    lang: &str,
) -> Vec<(String, String)> {
    mentioned(text, suites, prefix, suffix)
        .into_iter()
        .filter(|(_, line)| lang == "go" || line.contains("error"))
        .collect()
}

/// The message of a diagnostic line, from the file name on (no absolute paths).
fn shorten(line: &str, needle: &str) -> String {
    let at = line.find(needle).unwrap_or(0);
    let msg = &line[at..];
    let msg = msg.strip_prefix('/').unwrap_or(msg);
    msg.chars().take(300).collect()
}

/// The suites (file stems) in `dir`.
pub fn suites_in(dir: &Path) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .filter_map(|e| {
                    e.path()
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Builds with `build` until it succeeds: after each failure, the suites its output
/// names (as `{prefix}{suite}{suffix}`) fail `check` in `lang` and leave `dir`.
/// Returns false when a failure names no suite (the whole language is then out).
fn build_until_clean(
    ctx: &Ctx,
    r: &mut Results,
    lang: &str,
    dir: &Path,
    (prefix, suffix): (&str, &str),
    mut build: impl FnMut(usize) -> Output,
) -> bool {
    for round in 1..=8 {
        let suites = suites_in(dir);
        let out = build(round);
        ctx.progress(
            &format!(
                "{lang}: build round {round}, {} suites: {}",
                suites.len(),
                if out.ok { "ok" } else { "errors" }
            ),
            out.seconds,
        );
        if out.ok {
            return true;
        }
        let text = format!("{}\n{}", out.stdout, out.stderr);
        let named = failing(&text, &suites, (prefix, suffix), lang);
        if named.is_empty() {
            r.suite_failed("*", lang, "build", &out.tail(30));
            return false;
        }
        for (suite, msg) in named {
            r.suite_failed(&suite, lang, "build", &msg);
            r.excluded
                .entry(lang.into())
                .or_default()
                .insert(suite.clone());
            let _ = std::fs::remove_file(dir.join(format!("{suite}.bw")));
        }
    }
    false
}

/// Rust: `cargo build -p bitwire-schemagen-rust` over the suites, optionally clippy
/// on the generated code, then the runner.
pub fn rust(ctx: &Ctx, r: &mut Results, dir: &Path, corpus: &Path) {
    let root = repo_root();
    let dir_s = dir.display().to_string();
    let cargo = |sub: &str| {
        let mut args = vec![
            sub,
            "-q",
            "-p",
            "bitwire-schemagen-rust",
            "--message-format",
            "short",
        ];
        if sub == "clippy" {
            args.extend(["--", "-D", "warnings"]);
        }
        Step::new("cargo", &args, &root).env("BITWIRE_SUITES_DIR", dir_s.clone())
    };
    let built = build_until_clean(ctx, r, "rust", dir, ("/out/", ".rs:"), |round| {
        cargo("build").run(&ctx.logs, &format!("rust-build-{round}"))
    });
    if !built {
        return;
    }
    if ctx.lint {
        let out = cargo("clippy").run(&ctx.logs, "rust-clippy");
        ctx.progress(
            "rust: clippy -D warnings on the generated code",
            out.seconds,
        );
        for (suite, msg) in mentioned(
            &format!("{}{}", out.stdout, out.stderr),
            &suites_in(dir),
            "/out/",
            ".rs:",
        ) {
            r.suite_failed(&suite, "rust", "lint", &msg);
        }
    }
    let bin = target_dir().join("debug/schemagen-rust");
    let outcomes = ctx.out.join("rust.outcomes.jsonl");
    let step = Step::new(
        &bin.display().to_string(),
        &[
            &corpus.display().to_string(),
            &outcomes.display().to_string(),
        ],
        &root,
    );
    let out = step.run(&ctx.logs, "rust-run");
    ctx.progress("rust: corpus", out.seconds);
    if !r.read_outcomes("rust", "rust", &outcomes) {
        r.suite_failed("*", "rust", "crash", &out.tail(20));
    }
}

/// Go: `internal/gen`, `go build`, gofmt and `go vet` on the generated packages,
/// then `TestDifferentialCorpus`.
pub fn go(ctx: &Ctx, r: &mut Results, dir: &Path, corpus: &Path) {
    let here = repo_root().join("conformance/go");
    let dir_s = dir.display().to_string();
    let bw = ctx.bitwire.display().to_string();
    let built = build_until_clean(ctx, r, "go", dir, ("generated/", "/"), |round| {
        let gen = Step::new("go", &["run", "./internal/gen"], &here)
            .env("BITWIRE_SUITES_DIR", dir_s.clone())
            .env("BITWIRE", bw.clone())
            .run(&ctx.logs, &format!("go-gen-{round}"));
        if !gen.ok {
            // `bitwire gen …/sNNN.bw` or `…/sNNN.bw: no Go type for …`: name the file
            // as the build errors do.
            let text = format!("{}{}", gen.stdout, gen.stderr).replace(".bw", "/");
            return Output {
                stdout: text.replace(&format!("{dir_s}/"), "generated/"),
                ..gen
            };
        }
        Step::new("go", &["build", "./generated/..."], &here)
            .run(&ctx.logs, &format!("go-build-{round}"))
    });
    if !built {
        return;
    }
    let suites = suites_in(dir);
    let fmt = Step::new("gofmt", &["-l", "generated"], &here).run(&ctx.logs, "go-fmt");
    for (suite, _) in mentioned(&fmt.stdout, &suites, "generated/", "/") {
        r.suite_failed(&suite, "go", "lint", "gofmt -l: not gofmt-formatted");
    }
    let vet = Step::new("go", &["vet", "./generated/..."], &here).run(&ctx.logs, "go-vet");
    ctx.progress("go: gofmt -l, go vet", fmt.seconds + vet.seconds);
    for (suite, msg) in mentioned(&vet.stderr, &suites, "generated/", "/") {
        r.suite_failed(&suite, "go", "lint", &format!("go vet: {msg}"));
    }
    let outcomes = ctx.out.join("go.outcomes.jsonl");
    let out = Step::new(
        "go",
        &["test", "-count=1", "-run", "^TestDifferentialCorpus$", "."],
        &here,
    )
    .env("BITWIRE_DIFF_CORPUS", corpus.display().to_string())
    .env("BITWIRE_DIFF_OUTCOMES", outcomes.display().to_string())
    .run(&ctx.logs, "go-run");
    ctx.progress("go: corpus", out.seconds);
    if !r.read_outcomes("go", "go", &outcomes) {
        r.suite_failed("*", "go", "crash", &out.tail(20));
    }
}

/// The JavaScript runtimes installed for `conformance/ts`: Node, and Bun and Deno
/// from npm when their platform packages are there.
pub fn js_runtimes(wanted: &[String]) -> Vec<(String, PathBuf, Vec<&'static str>)> {
    let nm = repo_root().join("conformance/ts/node_modules");
    let mut out = Vec::new();
    for rt in wanted {
        let (candidates, args): (Vec<PathBuf>, Vec<&'static str>) = match rt.as_str() {
            "node" => (vec![PathBuf::from("node")], vec![]),
            "bun" => (
                vec![nm.join(".bin/bun"), nm.join("@oven/bun-linux-x64/bin/bun")],
                vec![],
            ),
            "deno" => (
                vec![nm.join(".bin/deno"), nm.join("@deno/linux-x64-glibc/deno")],
                vec!["run", "--allow-read", "--allow-env", "--allow-write"],
            ),
            _ => continue,
        };
        if let Some(bin) = find_bin(&candidates) {
            out.push((rt.clone(), bin, args));
        }
    }
    out
}

/// TypeScript: `scripts/generate.mjs`, `tsc --strict`, then `src/main.js` (the
/// corpus only) on each runtime.
pub fn ts(
    ctx: &Ctx,
    r: &mut Results,
    dir: &Path,
    corpus: &Path,
    runtimes: &[(String, PathBuf, Vec<&'static str>)],
) {
    let here = repo_root().join("conformance/ts");
    let dir_s = dir.display().to_string();
    let bw = ctx.bitwire.display().to_string();
    let built = build_until_clean(ctx, r, "ts", dir, ("gen/", ".ts("), |round| {
        let gen = Step::new("node", &["scripts/generate.mjs"], &here)
            .env("BITWIRE_SUITES_DIR", dir_s.clone())
            .env("BITWIRE", bw.clone())
            .run(&ctx.logs, &format!("ts-gen-{round}"));
        if !gen.ok {
            return gen;
        }
        Step::new("node_modules/.bin/tsc", &["-p", "tsconfig.json"], &here)
            .run(&ctx.logs, "ts-build")
    });
    if !built {
        return;
    }
    for (name, bin, args) in runtimes {
        let outcomes = ctx.out.join(format!("{name}.outcomes.jsonl"));
        let mut all: Vec<&str> = args.clone();
        all.push("build/src/main.js");
        let out = Step::new(&bin.display().to_string(), &all, &here)
            .env("BITWIRE_SUITES_DIR", dir_s.clone())
            .env("BITWIRE_DIFF_CORPUS", corpus.display().to_string())
            .env("BITWIRE_DIFF_OUTCOMES", outcomes.display().to_string())
            .env("BITWIRE_PROP_CASES", "0")
            .run(&ctx.logs, &format!("ts-run-{name}"));
        ctx.progress(&format!("{name}: corpus"), out.seconds);
        if !r.read_outcomes(name, "ts", &outcomes) {
            r.suite_failed("*", name, "crash", &out.tail(20));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_suite_is_named_by_its_error_not_its_warning() {
        let text = "/t/out/s001.rs:1:2: warning: unused\n/t/out/s002.rs:3:4: warning: unused\n/t/out/s001.rs:5:6: error[E0614]: oops\n";
        let suites = ["s001".to_string(), "s002".to_string(), "s003".to_string()];
        let m = mentioned(text, &suites, "/out/", ".rs:");
        assert_eq!(
            m,
            vec![
                ("s001".into(), "out/s001.rs:5:6: error[E0614]: oops".into()),
                ("s002".into(), "out/s002.rs:3:4: warning: unused".into())
            ]
        );
        let f = failing(text, &suites, ("/out/", ".rs:"), "rust");
        assert_eq!(f.len(), 1, "a warning does not fail a build");
        assert_eq!(
            failing(text, &suites, ("/out/", ".rs:"), "go").len(),
            2,
            "Go errors do not say error"
        );
    }
}
