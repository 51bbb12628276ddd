//! The report of a run: a summary on stdout, `report.md` in the run directory with
//! every disagreement (schema file, type, input, each decoder's outcome), and the
//! verdict against the known-failures list.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

use super::results::{Failure, Key, Known, Verdict};
use super::Run;

/// At most this many characters of a JSON value in the report.
const CLIP: usize = 400;

fn clip(s: &str) -> String {
    if s.chars().count() <= CLIP {
        return s.to_string();
    }
    let head: String = s.chars().take(CLIP).collect();
    format!("{head}… ({} chars)", s.chars().count())
}

/// What each runner made of corpus line `line`.
fn outcomes_on(run: &Run, key: &Key, line: usize, corpus_line: &Value) -> Vec<(String, String)> {
    let mut out = vec![("reference".to_string(), reference_of(corpus_line))];
    let on_line: BTreeMap<&str, &Value> = run
        .results
        .by_line
        .get(&line)
        .map(|ps| ps.iter().map(|(r, p)| (r.as_str(), &p.got)).collect())
        .unwrap_or_default();
    for runner in &run.runners {
        if ["reference", "schemagen", "ts"].contains(&runner.as_str()) {
            continue;
        }
        let lang = if ["node", "bun", "deno"].contains(&runner.as_str()) {
            "ts"
        } else {
            runner.as_str()
        };
        let text = match on_line.get(runner.as_str()) {
            Some(got) => clip(&got.to_string()),
            None if run
                .results
                .excluded
                .get(lang)
                .is_some_and(|s| s.contains(&key.suite)) =>
            {
                "(not built)".into()
            }
            None if !run.results.summaries.contains_key(runner) => "(did not run)".into(),
            None => "agrees with the reference".into(),
        };
        out.push((runner.clone(), text));
    }
    out
}

/// The reference's side of a corpus line: its bytes, or its decode outcome.
fn reference_of(l: &Value) -> String {
    if let Some(b) = l.get("bytes") {
        return clip(&format!("bytes {}", b.as_str().unwrap_or_default()));
    }
    clip(&l.get("outcome").map(Value::to_string).unwrap_or_default())
}

fn failure_section(
    out: &mut String,
    run: &Run,
    corpus: &[String],
    key: &Key,
    f: &Failure,
    status: &str,
) {
    let seed = run.config.seed;
    writeln!(out, "### `{}` — {status}\n", key.id(seed)).unwrap();
    writeln!(
        out,
        "- schema: `{}`",
        run.config
            .out
            .join("suites")
            .join(format!("{}.bw", key.suite))
            .display()
    )
    .unwrap();
    writeln!(
        out,
        "- type: `{}`, runner: {}, check: {}, {} line(s)",
        key.ty, key.runner, key.check, f.count
    )
    .unwrap();
    writeln!(out, "- detail: {}", clip(&f.detail)).unwrap();
    let Some(line) = f.line else {
        if !f.got.is_null() {
            writeln!(out, "- got: `{}`", clip(&f.got.to_string())).unwrap();
        }
        out.push('\n');
        return;
    };
    let Some(l) = corpus
        .get(line - 1)
        .and_then(|t| serde_json::from_str::<Value>(t).ok())
    else {
        return;
    };
    match (l.get("input"), l.get("value")) {
        (Some(i), _) => writeln!(
            out,
            "- corpus line {line}: input `{}`",
            clip(i.as_str().unwrap_or_default())
        )
        .unwrap(),
        (_, Some(v)) => writeln!(
            out,
            "- corpus line {line}: value `{}`",
            clip(&v.to_string())
        )
        .unwrap(),
        _ => {}
    }
    if let Some(a) = l.get("adversarial") {
        writeln!(out, "- adversarial input: {a}").unwrap();
    }
    for (runner, text) in outcomes_on(run, key, line, &l) {
        writeln!(out, "  - {runner}: `{text}`").unwrap();
    }
    out.push('\n');
}

/// Writes `report.md` and prints the summary; returns the verdict.
pub fn report(run: &Run, known: &Known) -> Verdict {
    let r = &run.results;
    let verdict = Verdict::judge(r, known, run.config.seed, &run.suites, &run.runners);
    let corpus: Vec<String> = std::fs::read_to_string(run.config.out.join("corpus.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect();
    let mut md = String::new();
    let c = &run.config;
    writeln!(
        md,
        "# schemagen run: seed {}, {} schemas, {} cases per type\n",
        c.seed, c.schemas, c.cases
    )
    .unwrap();
    writeln!(md, "Rerun: `BITWIRE_SCHEMA_SEED={} BITWIRE_SCHEMAS={} BITWIRE_SCHEMA_CASES={} bash conformance/schemagen/run.sh`\n", c.seed, c.schemas, c.cases).unwrap();
    writeln!(
        md,
        "| runner | corpus lines passed | failed |\n|---|---|---|"
    )
    .unwrap();
    for (runner, (p, f)) in &r.summaries {
        writeln!(md, "| {runner} | {p} | {f} |").unwrap();
    }
    writeln!(
        md,
        "\n{} disagreement groups: {} new, {} known; {} stale known-failures entries.\n",
        r.failures.len(),
        verdict.new.len(),
        verdict.known.len(),
        verdict.stale.len()
    )
    .unwrap();
    for id in &verdict.stale {
        writeln!(md, "- stale (listed, but passes): `{id}`").unwrap();
    }
    md.push('\n');
    for (key, f) in &r.failures {
        let status = match known.covering(key, c.seed) {
            Some(id) => format!("known: {}", known.entries[&id]),
            None => "**NEW**".to_string(),
        };
        failure_section(&mut md, run, &corpus, key, f, &status);
    }
    write_measures(&mut md, run);
    std::fs::write(run.config.out.join("report.md"), &md).expect("write report.md");
    save_failures(run);
    print_summary(run, &verdict);
    verdict
}

/// The allocation per input byte of adversarial inputs, per runner (informative).
fn write_measures(md: &mut String, run: &Run) {
    let mut worst: BTreeMap<&str, (f64, String)> = BTreeMap::new();
    for (runner, suite, ty, input, alloc) in &run.results.measures {
        let ratio = *alloc as f64 / (*input as f64).max(1.0);
        let e = worst.entry(runner.as_str()).or_insert((0.0, String::new()));
        if ratio >= e.0 {
            *e = (ratio, format!("{suite}.{ty}, {input} input bytes"));
        }
    }
    if worst.is_empty() {
        return;
    }
    writeln!(
        md,
        "## Adversarial inputs: worst allocation per input byte\n"
    )
    .unwrap();
    for (runner, (ratio, at)) in worst {
        writeln!(md, "- {runner}: {ratio:.1} ({at})").unwrap();
    }
}

fn print_summary(run: &Run, v: &Verdict) {
    let r = &run.results;
    println!(
        "\nschemagen: seed {}, {} schemas, {:.1}s",
        run.config.seed, run.config.schemas, run.seconds
    );
    for (runner, (p, f)) in &r.summaries {
        println!("  {runner}: {p} corpus lines agree, {f} disagree");
    }
    println!(
        "  {} disagreement groups ({} known, {} new), {} stale known-failures entries",
        r.failures.len(),
        v.known.len(),
        v.new.len(),
        v.stale.len()
    );
    for key in &v.new {
        let f = &r.failures[key];
        println!(
            "  NEW {}: {}",
            key.id(run.config.seed),
            clip(&f.detail).chars().take(160).collect::<String>()
        );
    }
    for id in &v.stale {
        println!("  STALE {id}: listed in the known failures but passes; remove it");
    }
    println!("  report: {}", run.config.out.join("report.md").display());
}

/// Writes `failures.jsonl` in the run directory: one record per failure group, what
/// `schemagen minimize ID` starts from.
pub fn save_failures(run: &Run) {
    let mut out = String::new();
    for (key, f) in &run.results.failures {
        let record = serde_json::json!({
            "id": key.id(run.config.seed), "seed": run.config.seed,
            "suite": key.suite, "type": key.ty, "runner": key.runner, "check": key.check,
            "count": f.count, "line": f.line, "got": f.got, "detail": f.detail,
        });
        writeln!(out, "{record}").unwrap();
    }
    std::fs::write(run.config.out.join("failures.jsonl"), out).expect("write failures.jsonl");
}

/// The known-failures lines for every failure of `run` (for `--write-known`). A
/// failure keeps its listed reason; a new one takes the reason of a listed failure
/// with the same runner, check and signature (the same bug in another schema), else
/// its first line of detail.
pub fn known_lines(run: &Run, known: &Known) -> String {
    let seed = run.config.seed;
    let sig = |k: &Key, f: &Failure| {
        (
            k.runner.clone(),
            crate::minimize::signature(&k.check, &f.detail, &f.got),
        )
    };
    let mut by_sig = BTreeMap::new();
    for (key, f) in &run.results.failures {
        if let Some(id) = known.covering(key, seed) {
            by_sig.insert(sig(key, f), known.entries[&id].clone());
        }
    }
    let mut out = String::new();
    for (key, f) in &run.results.failures {
        let reason = known
            .covering(key, seed)
            .map(|id| known.entries[&id].clone())
            .or_else(|| by_sig.get(&sig(key, f)).cloned())
            .unwrap_or_else(|| {
                f.detail
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(100)
                    .collect()
            });
        writeln!(out, "{}  # {reason}", key.id(seed)).unwrap();
    }
    out
}
