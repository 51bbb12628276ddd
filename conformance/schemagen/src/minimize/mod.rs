//! The minimizer: shrinks a failing schema — dropping types, fields and variants,
//! simplifying type expressions, inlining constants, renaming — while the failure
//! persists, then shrinks the input (or value) the same way, and finally runs the
//! small reproduction through every decoder to show each one's outcome.
//!
//! Each round writes every candidate as its own suite and builds them together, so a
//! round costs one build per language. A candidate still fails when the same runner
//! reports the same check with the same [`signature`] (the compiler's error code, or
//! the kind of outcome) on the target type.

pub mod inputs;
pub mod reduce;

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use bitwire_compiler::codec::random::Rng;
use bitwire_compiler::codec::{self, Value as CodecValue};
use bitwire_compiler::ir::Type;
use bitwire_conformance::corpus::{input_line, write_type, Counts, Options, Suite};
use bitwire_conformance::values::value_schema;
use serde_json::{json, Value};

use crate::driver::results::{Results, JS_RUNTIMES};
use crate::driver::{gen_check, lang, Ctx};
use crate::render::render;
use reduce::{reductions, Candidate};

/// What to minimize: one failure group of a run.
#[derive(Debug, Clone)]
pub struct Target {
    pub seed: u64,
    /// The schema's index in the run (suite `sNNN`).
    pub index: u64,
    /// The failing type (`*` for a whole-suite failure: gen, build, lint).
    pub ty: String,
    pub runner: String,
    pub check: String,
    /// What a candidate's failure must look like ([`signature`]).
    pub signature: String,
    /// The failing corpus line, when the failure came from the corpus.
    pub line: Option<Value>,
}

/// A small reproduction.
#[derive(Debug)]
pub struct Minimized {
    pub schema: String,
    pub ty: String,
    pub line: Option<Value>,
    /// Each decoder's outcome on `line` (or each language's build result).
    pub outcomes: Vec<(String, String)>,
}

/// A failure's signature: the compiler's error code (`E0614`, `TS2322`), or the
/// first words of a tool's message, or for corpus checks the check and the kind of
/// outcome the runner got (`decode:Truncated`, `encode:bytes`).
pub fn signature(check: &str, detail: &str, got: &Value) -> String {
    if let Some(kind) = got.pointer("/error/kind").and_then(Value::as_str) {
        return format!("{check}:{kind}");
    }
    if let Some(k) = got.as_object().and_then(|o| o.keys().next()) {
        return format!("{check}:{k}");
    }
    for (open, prefix, close) in [("error[", "", ']'), ("error TS", "TS", ':')] {
        if let Some(at) = detail.find(open) {
            let code: String = detail[at + open.len()..]
                .chars()
                .take_while(|c| *c != close)
                .collect();
            return format!("{check}:{prefix}{code}");
        }
    }
    let last = detail
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let msg = [".rs:", ".go:", ".ts("]
        .iter()
        .filter_map(|m| last.rfind(m).map(|i| &last[i + m.len()..]))
        .next()
        .unwrap_or(last)
        .trim_start_matches(|c: char| c.is_ascii_digit() || ":,) ".contains(c));
    let msg = msg
        .trim_start_matches("error: ")
        .trim_start_matches("warning: ");
    let msg: String = msg
        .split(": ")
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_ascii_digit())
        .collect();
    format!("{check}:{msg}")
}

/// The language a runner belongs to.
pub fn lang_of(runner: &str) -> &str {
    if JS_RUNTIMES.contains(&runner) || runner == "ts" {
        "ts"
    } else {
        runner
    }
}

/// Corpus checks (as opposed to steps and the reference's own values).
fn is_corpus_check(check: &str) -> bool {
    bitwire_conformance::outcome::CHECKS.contains(&check)
}

/// A minimization in progress.
pub struct Session {
    pub target: Target,
    pub bitwire: PathBuf,
    pub work: PathBuf,
    round: usize,
    started: Instant,
}

impl Session {
    /// A session working in `work`.
    pub fn new(target: Target, bitwire: PathBuf, work: PathBuf) -> Session {
        let _ = std::fs::remove_dir_all(&work);
        Session {
            target,
            bitwire,
            work,
            round: 0,
            started: Instant::now(),
        }
    }

    /// Runs `langs` over `suites` (name, text) with a corpus of `lines`; returns the
    /// results and the corpus as written (line `n` is `corpus[n - 1]`).
    fn run(
        &mut self,
        suites: &[(String, String)],
        lines: &[Value],
        langs: &[&str],
    ) -> (Results, Vec<String>) {
        self.round += 1;
        let out = self.work.join(format!("round-{:03}", self.round));
        let suites_dir = out.join("suites");
        std::fs::create_dir_all(&suites_dir).expect("create a round directory");
        std::fs::create_dir_all(out.join("logs")).expect("create a log directory");
        for (name, text) in suites {
            std::fs::write(suites_dir.join(format!("{name}.bw")), text).expect("write a candidate");
        }
        let mut corpus = vec![json!({ "seed": self.target.seed }).to_string()];
        corpus.extend(lines.iter().map(Value::to_string));
        let corpus_path = out.join("corpus.jsonl");
        std::fs::write(&corpus_path, corpus.join("\n") + "\n").expect("write a corpus");
        let ctx = Ctx {
            out: out.clone(),
            logs: out.join("logs"),
            bitwire: self.bitwire.clone(),
            lint: self.target.check == "lint",
            started: self.started,
        };
        let mut r = Results::default();
        for l in langs {
            let dir = gen_check(&ctx, &mut r, &suites_dir, l);
            if self.target.check == "gen" {
                continue;
            }
            match *l {
                "rust" => lang::rust(&ctx, &mut r, &dir, &corpus_path),
                "go" => lang::go(&ctx, &mut r, &dir, &corpus_path),
                _ => {
                    let wanted: Vec<String> =
                        if langs.len() == 1 && JS_RUNTIMES.contains(&self.target.runner.as_str()) {
                            vec![self.target.runner.clone()]
                        } else if langs.len() == 1 {
                            vec!["node".into()]
                        } else {
                            JS_RUNTIMES.iter().map(|s| s.to_string()).collect()
                        };
                    lang::ts(
                        &ctx,
                        &mut r,
                        &dir,
                        &corpus_path,
                        &lang::js_runtimes(&wanted),
                    );
                }
            }
        }
        (r, corpus)
    }

    /// The corpus lines that exercise `target` in candidate suite `name`.
    fn candidate_lines(&self, name: &str, text: &str, target: &str) -> Vec<Value> {
        if target == "*" {
            return Vec::new();
        }
        let Ok(schema) = bitwire_compiler::compile_source(&format!("{name}.bw"), text) else {
            return Vec::new();
        };
        let Some(id) = schema.type_by_name(target) else {
            return Vec::new();
        };
        let suite = Suite {
            name: name.into(),
            path: PathBuf::new(),
            schema,
        };
        let adversarial = self
            .target
            .line
            .as_ref()
            .is_some_and(|l| l.get("adversarial").is_some());
        let opts = Options {
            seed: self.target.seed,
            cases: 6,
            adversarial: if adversarial { 2048 } else { 0 },
        };
        let mut buf = Vec::new();
        let mut counts = Counts::default();
        let draw = value_schema(&suite.schema);
        let _ = write_type(
            &mut buf,
            &mut Rng(self.target.seed.max(1)),
            &suite,
            &draw,
            id,
            opts,
            &mut counts,
        );
        let mut lines: Vec<Value> = String::from_utf8_lossy(&buf)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        if let Some(input) = self
            .target
            .line
            .as_ref()
            .and_then(|l| l.get("input"))
            .and_then(Value::as_str)
        {
            lines.push(input_line(
                name,
                &suite.schema,
                id,
                &bitwire_conformance::check::hex(input),
            ));
        }
        if let (true, Some((_, _, what, value))) =
            (self.target.check == "random", counts.rejected.first())
        {
            lines.push(json!({ "rejected": what, "value": value }));
        }
        lines
    }

    /// Which candidates still fail like the target, each with its failing line.
    fn hits(&mut self, cands: &[Candidate]) -> Vec<(usize, Option<Value>)> {
        let names: Vec<String> = (0..cands.len()).map(|k| format!("c{k:03}")).collect();
        let texts: Vec<String> = cands.iter().map(|c| render(&c.schema)).collect();
        let mut lines = Vec::new();
        let mut rejected = Vec::new();
        for (k, c) in cands.iter().enumerate() {
            let ls = self.candidate_lines(&names[k], &texts[k], &c.target);
            if let Some(l) = ls.iter().find(|l| l.get("rejected").is_some()) {
                rejected.push((k, Some(l.clone())));
            }
            lines.extend(ls.into_iter().filter(|l| l.get("rejected").is_none()));
        }
        if self.target.check == "random" {
            return rejected;
        }
        let suites: Vec<(String, String)> = names.iter().cloned().zip(texts).collect();
        let l = lang_of(&self.target.runner).to_string();
        let (r, corpus) = self.run(&suites, &lines, &[&l]);
        let mut out = Vec::new();
        for (key, f) in &r.failures {
            let Some(k) = names.iter().position(|n| *n == key.suite) else {
                continue;
            };
            let same_place = key.check == self.target.check
                && (key.runner == self.target.runner || key.runner == lang_of(&self.target.runner))
                && (key.ty == "*" || key.ty == cands[k].target);
            if same_place && signature(&key.check, &f.detail, &f.got) == self.target.signature {
                let line = f
                    .line
                    .and_then(|n| corpus.get(n - 1))
                    .and_then(|t| serde_json::from_str(t).ok());
                out.push((k, line));
            }
        }
        out
    }

    /// Shrinks the schema; returns the smallest candidate that still fails, and its
    /// failing corpus line.
    pub fn shrink_schema(&mut self, start: Candidate) -> Option<(Candidate, Option<Value>)> {
        let first = self.hits(std::slice::from_ref(&start));
        let (_, mut line) = first.into_iter().next()?;
        let mut cur = start;
        let mut seen = std::collections::HashSet::new();
        loop {
            let size = render(&cur.schema).len();
            let mut cands: Vec<Candidate> = reductions(&cur)
                .into_iter()
                .filter(|c| {
                    let text = render(&c.schema);
                    text.len() < size
                        && seen.insert(text.clone())
                        && bitwire_compiler::compile_source("c.bw", &text).is_ok()
                })
                .collect();
            cands.sort_by_key(|c| render(&c.schema).len());
            let mut better = None;
            for batch in cands.chunks(24) {
                let hits = self.hits(batch);
                if let Some((k, l)) = hits
                    .into_iter()
                    .min_by_key(|(k, _)| render(&batch[*k].schema).len())
                {
                    better = Some((batch[k].clone(), l));
                    break;
                }
            }
            let Some((c, l)) = better else {
                return Some((cur, line));
            };
            println!(
                "[minimize {:6.1}s] round {}: {} bytes of schema",
                self.started.elapsed().as_secs_f64(),
                self.round,
                render(&c.schema).len()
            );
            cur = c;
            line = l.or(line);
        }
    }

    /// Shrinks the failing corpus line of schema `text` (suite `min`, type `ty`).
    pub fn shrink_line(&mut self, text: &str, ty: &str, mut line: Value) -> Value {
        let Ok(schema) = bitwire_compiler::compile_source("min.bw", text) else {
            return line;
        };
        let Some(id) = schema.type_by_name(ty) else {
            return line;
        };
        let named = Type::Named {
            id,
            name: ty.into(),
        };
        for _ in 0..12 {
            let cands: Vec<Value> = if let Some(input) = line.get("input").and_then(Value::as_str) {
                inputs::smaller_bytes(&bitwire_conformance::check::hex(input))
                    .iter()
                    .map(|b| input_line("min", &schema, id, b))
                    .collect()
            } else if let Some(v) = line
                .get("value")
                .and_then(|v| codec::value_from_json(&schema, id, v).ok())
            {
                inputs::smaller_values(&schema, &named, &v)
                    .iter()
                    .filter_map(|x: &CodecValue| {
                        let bytes = codec::encode(&schema, id, x).ok()?;
                        Some(json!({ "suite": "min", "type": ty, "value": codec::value_to_json(&schema, id, x), "bytes": codec::to_hex(&bytes) }))
                    })
                    .collect()
            } else {
                return line;
            };
            if cands.is_empty() {
                return line;
            }
            let l = lang_of(&self.target.runner).to_string();
            let (r, _) = self.run(&[("min".into(), text.into())], &cands, &[&l]);
            let failing = cands.iter().enumerate().filter(|(k, _)| {
                r.by_line.get(&(k + 2)).is_some_and(|ps| {
                    ps.iter().any(|(runner, p)| {
                        *runner == self.target.runner
                            && p.check == self.target.check
                            && signature(&p.check, &p.detail, &p.got) == self.target.signature
                    })
                })
            });
            match failing.min_by_key(|(_, l)| l.to_string().len()) {
                Some((_, l)) if l.to_string().len() < line.to_string().len() => line = l.clone(),
                _ => return line,
            }
        }
        line
    }

    /// Runs the reproduction through every language; each runner's outcome.
    pub fn outcomes(&mut self, text: &str, line: Option<&Value>) -> Vec<(String, String)> {
        let lines: Vec<Value> = line.cloned().into_iter().collect();
        let (r, _) = self.run(
            &[("min".into(), text.into())],
            &lines,
            &["rust", "go", "ts"],
        );
        let mut out = Vec::new();
        if let Some(l) = line {
            let reference = l
                .get("outcome")
                .or_else(|| l.get("bytes"))
                .cloned()
                .unwrap_or(Value::Null);
            out.push(("reference".to_string(), reference.to_string()));
        }
        for (key, f) in &r.failures {
            if key.ty == "*" {
                out.push((
                    format!("{} ({})", key.runner, key.check),
                    f.detail.lines().next().unwrap_or("").to_string(),
                ));
            }
        }
        for runner in r.summaries.keys() {
            let built = !r
                .excluded
                .get(lang_of(runner))
                .is_some_and(|x| x.contains("min"));
            let got = r
                .by_line
                .get(&2)
                .and_then(|ps| ps.iter().find(|(x, _)| x == runner));
            let text = match (built, got) {
                (false, _) => "(not built)".to_string(),
                (true, Some((_, p))) => p.got.to_string(),
                (true, None) => "agrees with the reference".to_string(),
            };
            out.push((runner.clone(), text));
        }
        out
    }
}

impl Minimized {
    /// The reproduction as Markdown: the schema, the type, the input or value, and
    /// each decoder's outcome.
    pub fn markdown(&self, id: &str) -> String {
        let mut md = format!(
            "### Minimized: `{id}`\n\n```bw\n{}```\n\n- type: `{}`\n",
            self.schema, self.ty
        );
        if let Some(l) = &self.line {
            if let Some(i) = l.get("input") {
                md += &format!("- input (hex): `{}`\n", i.as_str().unwrap_or_default());
            }
            if let Some(v) = l.get("value") {
                md += &format!("- value: `{v}`\n");
            }
            if let Some(a) = l.get("adversarial") {
                md += &format!("- adversarial: {a}\n");
            }
        }
        for (runner, outcome) in &self.outcomes {
            md += &format!("  - {runner}: `{outcome}`\n");
        }
        md
    }
}

/// A [`Target`] from the record of a failure group (`failures.jsonl` of a run).
pub fn target_of(record: &Value, corpus: &[String]) -> Option<Target> {
    let s = |k: &str| record.get(k).and_then(Value::as_str).map(String::from);
    let suite = s("suite")?;
    let index = suite.strip_prefix('s')?.parse().ok()?;
    let (check, detail) = (s("check")?, s("detail").unwrap_or_default());
    let got = record.get("got").cloned().unwrap_or(Value::Null);
    let line = record
        .get("line")
        .and_then(Value::as_u64)
        .and_then(|n| corpus.get(n as usize - 1))
        .and_then(|t| serde_json::from_str(t).ok());
    Some(Target {
        seed: record.get("seed").and_then(Value::as_u64)?,
        index,
        ty: s("type")?,
        runner: s("runner")?,
        signature: signature(&check, &detail, &got),
        check,
        line,
    })
}

/// Minimizes `target` in `work`: schema, then input, then every decoder's outcome.
pub fn minimize(target: Target, bitwire: PathBuf, work: PathBuf) -> Option<Minimized> {
    let start = Candidate {
        schema: crate::generate(target.seed, target.index),
        target: target.ty.clone(),
    };
    let mut s = Session::new(target, bitwire, work);
    let (c, line) = s.shrink_schema(start)?;
    let text = render(&c.schema);
    // From here on the schema is the suite `min`.
    let line = line.map(|mut l| {
        l["suite"] = json!("min");
        l["type"] = json!(c.target);
        l
    });
    let line = match line {
        Some(l) if is_corpus_check(&s.target.check) => Some(s.shrink_line(&text, &c.target, l)),
        other => other,
    };
    let outcomes = match line.as_ref().and_then(|l| l.get("rejected")) {
        // The reference's own inconsistency: nothing for the other decoders to say.
        Some(what) => vec![("reference".to_string(), what.to_string())],
        None => s.outcomes(&text, line.as_ref()),
    };
    let _ = std::io::stdout().flush();
    Some(Minimized {
        schema: text,
        ty: c.target,
        line,
        outcomes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_keep_the_error_code_or_the_outcome_kind() {
        let null = Value::Null;
        let rust = "out/s000.rs:95:29: error[E0614]: type `i64` cannot be dereferenced";
        assert_eq!(signature("build", rust, &null), "build:E0614");
        let ts =
            "gen/s001.ts(641,5): error TS2322: Type 'number' is not assignable to type 'bigint'.";
        assert_eq!(signature("build", ts, &null), "build:TS2322");
        let go = "generated/s002/s002.go:1564:28: 9223372036854775808 (untyped int constant) overflows int";
        assert_eq!(
            signature("build", go, &null),
            "build:(untyped int constant) overflows int"
        );
        let clippy =
            "out/s007.rs:1320:1: error: large size difference between variants: the entire enum";
        assert_eq!(
            signature("lint", clippy, &null),
            "lint:large size difference between variants"
        );
        let got = serde_json::json!({"error": {"kind": "Truncated", "bit": 0, "path": "a"}});
        assert_eq!(signature("decode", "", &got), "decode:Truncated");
        assert_eq!(
            signature("encode", "", &serde_json::json!({"bytes": "00"})),
            "encode:bytes"
        );
    }
}
