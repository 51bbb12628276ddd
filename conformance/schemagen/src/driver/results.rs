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
