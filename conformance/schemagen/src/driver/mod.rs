//! The differential driver: for a seed and a count, generate that many schemas,
//! write the reference codec's corpus for all of them, build the generated code of
//! each language over them, run every decoder on the corpus, and report every
//! disagreement, checked against a known-failures list.
//!
//! Layout of a run directory (`--out`, default `target/schemagen/seed-<S>`):
//! `suites/*.bw` (the schemas), `corpus.jsonl`, `<lang>/suites/` (the suites that
//! language builds), `<runner>.outcomes.jsonl`, `logs/`, and `report.md`.

pub mod exec;
pub mod lang;
pub mod report;
pub mod results;

use std::path::{Path, PathBuf};
use std::time::Instant;

use bitwire_conformance::corpus::{write_corpus, Options, Suite};

use crate::render::render;
use exec::Step;
use results::{Key, Results};

/// What to run.
#[derive(Debug, Clone)]
pub struct Config {
    pub seed: u64,
    pub schemas: u64,
    /// Random values per type (each with its mutations).
    pub cases: u64,
    /// Target size of adversarial inputs in bytes (0: none).
    pub adversarial: usize,
    pub out: PathBuf,
    /// Languages to run: `rust`, `go`, `ts`.
    pub langs: Vec<String>,
    /// JavaScript runtimes for `ts`: `node`, `bun`, `deno`.
    pub runtimes: Vec<String>,
    /// Run clippy on the generated Rust (gofmt and go vet always run).
    pub lint: bool,
    /// The `bitwire` CLI.
    pub bitwire: PathBuf,
    /// Existing schemas to run instead of generated ones (`--suites DIR`; each
    /// file stem must be an identifier).
    pub suites: Option<PathBuf>,
}

/// Shared by the steps of a run.
pub struct Ctx {
    pub out: PathBuf,
    pub logs: PathBuf,
    pub bitwire: PathBuf,
    pub lint: bool,
    pub started: Instant,
}

impl Ctx {
    /// Prints a progress line with the step's and the run's elapsed time.
    pub fn progress(&self, what: &str, seconds: f64) {
        println!(
            "[schemagen {:6.1}s] {what} ({seconds:.1}s)",
            self.started.elapsed().as_secs_f64()
        );
    }
}

/// Everything a run produced.
pub struct Run {
    pub config: Config,
    pub results: Results,
    /// Suite names, in order.
    pub suites: Vec<String>,
    /// Languages and runtimes that ran.
    pub runners: Vec<String>,
    pub seconds: f64,
}

/// Writes schema `index` of `seed` to `dir/sNNN.bw`; returns the suite name.
pub fn write_schema(dir: &Path, seed: u64, index: u64) -> String {
    let name = format!("s{index:03}");
    let text = render(&crate::generate(seed, index));
    std::fs::write(dir.join(format!("{name}.bw")), text).expect("write a schema");
    name
}

/// What a crashed generator said: the panic message (the line after `panicked
/// at`), a stack overflow, or the end of its output.
fn crash_message(o: &exec::Output) -> String {
    let lines: Vec<&str> = o.stderr.lines().collect();
    if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        let at = lines[i].split("panicked at ").nth(1).unwrap_or("");
        return format!("panicked at {at} {}", lines.get(i + 1).unwrap_or(&""));
    }
    if o.stderr.contains("overflowed its stack") {
        return "stack overflow".into();
    }
    o.tail(3)
}

/// Runs `bitwire gen` for every suite of `dir` in `lang`, into a scratch directory:
/// suites the generator fails on (a panic, a stack overflow) fail `gen` and are left
/// out of `lang`'s suites directory, which is returned.
pub fn gen_check(ctx: &Ctx, r: &mut Results, suites: &Path, lang: &str) -> PathBuf {
    let dir = ctx.out.join(lang).join("suites");
    let scratch = ctx.out.join(lang).join("gen-check");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a suites directory");
    let bw = ctx.bitwire.display().to_string();
    let started = Instant::now();
    for suite in lang::suites_in(suites) {
        let schema = suites.join(format!("{suite}.bw"));
        let out = scratch.join(&suite);
        let (schema_s, out_s) = (schema.display().to_string(), out.display().to_string());
        let mut args = vec!["gen", "--lang", lang, "--json", "--out", &out_s];
        if lang == "go" {
            args.extend(["--package", &suite]);
        }
        args.push(&schema_s);
        let o = Step::new(&bw, &args, &ctx.out).run(&ctx.logs, &format!("gen-{lang}-{suite}"));
        if o.ok {
            std::fs::copy(&schema, dir.join(format!("{suite}.bw"))).expect("copy a schema");
        } else {
            r.suite_failed(&suite, lang, "gen", &crash_message(&o));
            r.excluded.entry(lang.into()).or_default().insert(suite);
        }
    }
    ctx.progress(
        &format!("{lang}: bitwire gen per suite"),
        started.elapsed().as_secs_f64(),
    );
    dir
}

/// Writes the run's schemas into `dir` (generated, or copied from `config.suites`)
/// and compiles them; a schema that does not compile fails `compile`.
fn write_suites(ctx: &Ctx, config: &Config, dir: &Path, r: &mut Results) -> Vec<Suite> {
    let names: Vec<String> = match &config.suites {
        Some(from) => {
            let paths = bitwire_conformance::corpus::schemas_in(from).expect("read --suites");
            for p in &paths {
                std::fs::copy(p, dir.join(p.file_name().expect("a file"))).expect("copy a schema");
            }
            lang::suites_in(dir)
        }
        None => (0..config.schemas)
            .map(|i| write_schema(dir, config.seed, i))
            .collect(),
    };
    let mut loaded = Vec::new();
    for (i, name) in names.iter().enumerate() {
        match Suite::load(&dir.join(format!("{name}.bw"))) {
            Ok(s) => loaded.push(s),
            Err(d) => r.suite_failed(name, "schemagen", "compile", &d),
        }
        let elapsed = ctx.started.elapsed().as_secs_f64();
        println!(
            "[schemagen {elapsed:6.1}s] schema {}/{} written: {name}",
            i + 1,
            names.len()
        );
    }
    loaded
}

/// Runs the whole pipeline.
pub fn run(config: Config) -> Run {
    let ctx = Ctx {
        out: config.out.clone(),
        logs: config.out.join("logs"),
        bitwire: config.bitwire.clone(),
        lint: config.lint,
        started: Instant::now(),
    };
    let _ = std::fs::remove_dir_all(&ctx.out);
    let suites_dir = ctx.out.join("suites");
    std::fs::create_dir_all(&suites_dir).expect("create the run directory");
    std::fs::create_dir_all(&ctx.logs).expect("create the log directory");
    let mut r = Results::default();

    let loaded = write_suites(&ctx, &config, &suites_dir, &mut r);
    let corpus = ctx.out.join("corpus.jsonl");
    let opts = Options {
        seed: config.seed,
        cases: config.cases,
        adversarial: config.adversarial,
    };
    let started = Instant::now();
    let mut file =
        std::io::BufWriter::new(std::fs::File::create(&corpus).expect("create the corpus"));
    let counts = write_corpus(&mut file, &loaded, opts).expect("write the corpus");
    drop(file);
    for (suite, ty, what, value) in &counts.rejected {
        let key = Key {
            suite: suite.clone(),
            ty: ty.clone(),
            runner: "reference".into(),
            check: "random".into(),
        };
        r.add(
            key,
            None,
            serde_json::json!({ "value": value }),
            what.clone(),
        );
    }
    ctx.progress(
        &format!(
            "corpus: {} values, {} hostile and {} adversarial inputs",
            counts.values, counts.inputs, counts.adversarial
        ),
        started.elapsed().as_secs_f64(),
    );

    let mut runners = vec!["reference".to_string(), "schemagen".to_string()];
    for lang in &config.langs {
        let dir = gen_check(&ctx, &mut r, &suites_dir, lang);
        runners.push(lang.clone());
        match lang.as_str() {
            "rust" => lang::rust(&ctx, &mut r, &dir, &corpus),
            "go" => lang::go(&ctx, &mut r, &dir, &corpus),
            "ts" => {
                let rts = lang::js_runtimes(&config.runtimes);
                runners.extend(rts.iter().map(|(n, _, _)| n.clone()));
                lang::ts(&ctx, &mut r, &dir, &corpus, &rts);
            }
            other => eprintln!("schemagen: unknown language {other}"),
        }
    }
    let suites = loaded.iter().map(|s| s.name.clone()).collect();
    Run {
        seconds: ctx.started.elapsed().as_secs_f64(),
        config,
        results: r,
        suites,
        runners,
    }
}
