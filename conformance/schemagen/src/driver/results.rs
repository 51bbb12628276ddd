//! What a run found: disagreements grouped by where they happen (suite, type,
//! runner, check), each with a count and the first corpus line that shows it, and
//! the known-failures list they are checked against.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bitwire_conformance::outcome::Problem;
use serde_json::Value;

/// Where a disagreement happens. `ty` is `*` for a whole suite (a build failure),
/// `suite` is `*` for a whole runner (a crash outside any suite).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub suite: String,
    pub ty: String,
    /// `rust`, `go`, `node`, `bun`, `deno`, or `reference` (the reference codec
    /// failing on its own random values).
    pub runner: String,
    /// A check of [`bitwire_conformance::outcome::CHECKS`], or a step: `gen` (the
    /// code generator failed), `build` (the generated code does not compile),
    /// `lint` (gofmt, go vet or clippy complain), `crash`, `random`.
    pub check: String,
}

impl Key {
    /// The id used in known-failures files: `SEED/SUITE.TYPE:RUNNER:CHECK`, or
    /// `SEED/SUITE:RUNNER:CHECK` for a whole suite.
    pub fn id(&self, seed: u64) -> String {
        if self.ty == "*" {
            format!("{seed}/{}:{}:{}", self.suite, self.runner, self.check)
        } else {
            format!(
                "{seed}/{}.{}:{}:{}",
                self.suite, self.ty, self.runner, self.check
            )
        }
    }
}

/// One group of disagreements.
#[derive(Debug, Clone)]
pub struct Failure {
    pub count: usize,
    /// The first corpus line (1-based) that shows it, if it comes from the corpus.
    pub line: Option<usize>,
    /// What the runner got there, or the tool's message.
    pub got: Value,
    pub detail: String,
}

/// Everything a run found.
#[derive(Debug, Default)]
pub struct Results {
    pub failures: BTreeMap<Key, Failure>,
    /// Per corpus line, every runner's problem on it (for the report's examples).
    pub by_line: BTreeMap<usize, Vec<(String, Problem)>>,
    /// Per runner: `(passed, failed)` from its summary, without the lines of suites
    /// its language did not build.
    pub summaries: BTreeMap<String, (usize, usize)>,
    /// Suites each language did not build (so its runners skip them).
    pub excluded: BTreeMap<String, BTreeSet<String>>,
    /// `(runner, suite, type, input bytes, allocated bytes)` per adversarial input.
    pub measures: Vec<(String, String, String, u64, u64)>,
}

impl Results {
    /// Records one disagreement.
    pub fn add(&mut self, key: Key, line: Option<usize>, got: Value, detail: impl Into<String>) {
        let f = self.failures.entry(key).or_insert_with(|| Failure {
            count: 0,
            line,
            got,
            detail: detail.into(),
        });
        f.count += 1;
    }

    /// Records a whole suite failing a step in `lang` (and excludes it there).
    pub fn suite_failed(&mut self, suite: &str, lang: &str, check: &str, detail: &str) {
        let key = Key {
            suite: suite.into(),
            ty: "*".into(),
            runner: lang.into(),
            check: check.into(),
        };
        self.add(key, None, Value::Null, detail);
    }

    /// Reads the outcome file a runner wrote; `false` when it has no summary (the
    /// runner crashed or was killed before the end). `lang` is the runner's language
    /// (its excluded suites' `missing` lines are expected).
    pub fn read_outcomes(&mut self, runner: &str, lang: &str, path: &Path) -> bool {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let excluded = self.excluded.get(lang).cloned().unwrap_or_default();
        let (mut complete, mut skipped) = (false, 0);
        for record in text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        {
            if let Some(s) = record.get("summary") {
                let n = |k: &str| s.get(k).and_then(Value::as_u64).unwrap_or(0) as usize;
                self.summaries
                    .insert(runner.into(), (n("passed"), n("failed")));
                complete = true;
                continue;
            }
            let suite = record["suite"].as_str().unwrap_or("*").to_string();
            let ty = record["type"].as_str().unwrap_or("*").to_string();
            if let Some(m) = record.get("measure") {
                let n = |k: &str| m.get(k).and_then(Value::as_u64).unwrap_or(0);
                self.measures
                    .push((runner.into(), suite, ty, n("input_bytes"), n("alloc_bytes")));
                continue;
            }
            let Some((line, p)) = Problem::from_record(&record) else {
                continue;
            };
            if p.check == "missing" && excluded.contains(&suite) {
                skipped += 1;
                continue;
            }
            let key = Key {
                suite,
                ty,
                runner: runner.into(),
                check: p.check.clone(),
            };
            self.add(key, Some(line), p.got.clone(), p.detail.clone());
            self.by_line
                .entry(line)
                .or_default()
                .push((runner.into(), p));
        }
        // Lines of suites the language did not build are not counted as failed.
        if let Some((_, failed)) = self.summaries.get_mut(runner) {
            *failed = failed.saturating_sub(skipped);
        }
        complete
    }
}

/// A known-failures list: ids (see [`Key::id`]) with a reason each. A `ts` runner
/// stands for every JavaScript runtime.
#[derive(Debug, Default)]
pub struct Known {
    pub entries: BTreeMap<String, String>,
}

/// Checks that are steps of a language (`rust`, `go`, `ts`), not of a runtime.
pub const STEPS: &[&str] = &["gen", "build", "lint"];

/// The JavaScript runtimes a `ts` entry stands for.
pub const JS_RUNTIMES: &[&str] = &["node", "bun", "deno"];

impl Known {
    /// Parses `ID  # reason` lines; `#` lines are comments.
    pub fn parse(text: &str) -> Known {
        let mut entries = BTreeMap::new();
        for line in text.lines() {
            let (id, reason) = line.split_once('#').unwrap_or((line, ""));
            let id = id.trim();
            if !id.is_empty() {
                entries.insert(id.to_string(), reason.trim().to_string());
            }
        }
        Known { entries }
    }

    /// The listed id covering `key`, if any (`ts` entries cover the JS runtimes).
    pub fn covering(&self, key: &Key, seed: u64) -> Option<String> {
        let id = key.id(seed);
        if self.entries.contains_key(&id) {
            return Some(id);
        }
        if JS_RUNTIMES.contains(&key.runner.as_str()) {
            let ts = Key {
                runner: "ts".into(),
                ..key.clone()
            }
            .id(seed);
            return self.entries.contains_key(&ts).then_some(ts);
        }
        None
    }
}

/// The verdict on a run: failures not on the list, and listed failures that did
/// not happen (for the suites and runners this run covered).
#[derive(Debug, Default)]
pub struct Verdict {
    pub new: Vec<Key>,
    pub known: Vec<(Key, String)>,
    pub stale: Vec<String>,
}

impl Verdict {
    /// Compares `results` with `known`. `suites` and `runners` (languages and
    /// runtimes) are what the run covered: entries for other seeds, suites or
    /// runners are not judged.
    pub fn judge(
        results: &Results,
        known: &Known,
        seed: u64,
        suites: &[String],
        runners: &[String],
    ) -> Verdict {
        let mut v = Verdict::default();
        let mut hit: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for key in results.failures.keys() {
            match known.covering(key, seed) {
                Some(id) => {
                    hit.entry(id.clone())
                        .or_default()
                        .insert(key.runner.clone());
                    v.known.push((key.clone(), known.entries[&id].clone()));
                }
                None => v.new.push(key.clone()),
            }
        }
        for id in known.entries.keys() {
            let Some((s, rest)) = id.split_once('/') else {
                continue;
            };
            let mut parts = rest.rsplitn(3, ':');
            let (Some(check), Some(runner), Some(place)) =
                (parts.next(), parts.next(), parts.next())
            else {
                continue;
            };
            let suite = place.split('.').next().unwrap_or(place);
            if s != seed.to_string() || !suites.iter().any(|x| x == suite) {
                continue;
            }
            let ran = |r: &str| runners.iter().any(|x| x == r);
            let expected: Vec<&str> = if runner == "ts" && !STEPS.contains(&check) {
                JS_RUNTIMES.iter().copied().filter(|r| ran(r)).collect()
            } else if ran(runner) {
                vec![runner]
            } else {
                Vec::new()
            };
            let seen = hit.get(id).cloned().unwrap_or_default();
            if expected.iter().any(|r| !seen.contains(*r)) {
                v.stale.push(id.clone());
            }
        }
        v
    }

    /// Whether the run passes: no new failures and no stale entries.
    pub fn ok(&self) -> bool {
        self.new.is_empty() && self.stale.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(suite: &str, ty: &str, runner: &str, check: &str) -> Key {
        Key {
            suite: suite.into(),
            ty: ty.into(),
            runner: runner.into(),
            check: check.into(),
        }
    }

    fn results(keys: &[Key]) -> Results {
        let mut r = Results::default();
        for k in keys {
            r.add(k.clone(), Some(2), json!(null), "x");
        }
        r
    }

    fn runners() -> Vec<String> {
        ["reference", "rust", "go", "ts", "node", "bun", "deno"]
            .map(String::from)
            .to_vec()
    }

    #[test]
    fn ids_name_seed_suite_type_runner_and_check() {
        assert_eq!(
            key("s001", "Foo", "go", "decode").id(42),
            "42/s001.Foo:go:decode"
        );
        assert_eq!(key("s001", "*", "rust", "build").id(7), "7/s001:rust:build");
    }

    #[test]
    fn unlisted_failures_are_new_and_listed_ones_are_known() {
        let known = Known::parse("42/s001.Foo:go:decode  # a reason\n# a comment\n");
        let r = results(&[
            key("s001", "Foo", "go", "decode"),
            key("s002", "*", "rust", "build"),
        ]);
        let v = Verdict::judge(&r, &known, 42, &["s001".into(), "s002".into()], &runners());
        assert_eq!(v.known.len(), 1);
        assert_eq!(v.known[0].1, "a reason");
        assert_eq!(v.new, vec![key("s002", "*", "rust", "build")]);
        assert!(v.stale.is_empty());
        assert!(!v.ok());
    }

    #[test]
    fn a_listed_failure_that_passes_fails_the_run() {
        let known = Known::parse("42/s001.Foo:go:decode # fixed since\n42/s009.Bar:go:decode # beyond the run\n7/s001.Foo:go:decode # another seed\n");
        let v = Verdict::judge(&results(&[]), &known, 42, &["s001".into()], &runners());
        assert_eq!(v.stale, vec!["42/s001.Foo:go:decode".to_string()]);
        assert!(!v.ok());
    }

    #[test]
    fn a_ts_entry_must_fail_on_every_runtime_that_ran() {
        let known =
            Known::parse("42/s001.Foo:ts:decode # all JS runtimes\n42/s002:ts:build # a step\n");
        let all = results(&[
            key("s001", "Foo", "node", "decode"),
            key("s001", "Foo", "bun", "decode"),
            key("s001", "Foo", "deno", "decode"),
            key("s002", "*", "ts", "build"),
        ]);
        let suites = ["s001".to_string(), "s002".to_string()];
        assert!(Verdict::judge(&all, &known, 42, &suites, &runners()).ok());
        let node_only = results(&[
            key("s001", "Foo", "node", "decode"),
            key("s002", "*", "ts", "build"),
        ]);
        let v = Verdict::judge(&node_only, &known, 42, &suites, &runners());
        assert_eq!(v.stale, vec!["42/s001.Foo:ts:decode".to_string()]);
        let without_bun: Vec<String> = runners()
            .into_iter()
            .filter(|r| r != "bun" && r != "deno")
            .collect();
        assert!(Verdict::judge(&node_only, &known, 42, &suites, &without_bun).ok());
    }

    #[test]
    fn missing_lines_of_suites_a_language_did_not_build_are_not_failures() {
        let dir = std::env::temp_dir().join(format!("schemagen-results-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("go.outcomes.jsonl");
        let records = [
            json!({"line": 2, "suite": "s001", "type": "A", "check": "missing", "got": null, "problem": "no generated type"}),
            json!({"line": 3, "suite": "s002", "type": "B", "check": "decode", "got": {"value": 1}, "problem": "x"}),
            json!({"summary": {"runner": "go", "passed": 5, "failed": 2}}),
        ];
        std::fs::write(&path, records.map(|r| r.to_string()).join("\n")).unwrap();
        let mut r = Results::default();
        r.excluded
            .entry("go".into())
            .or_default()
            .insert("s001".into());
        assert!(r.read_outcomes("go", "go", &path));
        assert_eq!(r.summaries["go"], (5, 1));
        assert_eq!(
            r.failures.keys().cloned().collect::<Vec<_>>(),
            vec![key("s002", "B", "go", "decode")]
        );
        std::fs::write(&path, "").unwrap();
        assert!(
            !r.read_outcomes("go", "go", &path),
            "no summary: the runner crashed"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
