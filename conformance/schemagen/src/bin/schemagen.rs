//! The schemagen command (see conformance/schemagen/README.md):
//!
//!     schemagen print [--seed S] [--index I]       one schema's text
//!     schemagen write DIR [--seed S] [--schemas N]  N schemas as DIR/sNNN.bw
//!     schemagen run [options]                       the differential run
//!     schemagen minimize ID [--run DIR]             shrink one failure of a run
//!     schemagen coverage [--seed S] [--schemas N]   how many schemas use each construct
//!
//! `run` options (each also from the environment): `--seed S`
//! (`BITWIRE_SCHEMA_SEED`, 42), `--schemas N` (`BITWIRE_SCHEMAS`, 8), `--cases N`
//! (`BITWIRE_SCHEMA_CASES`, 10 values per type), `--adversarial BYTES`
//! (`BITWIRE_SCHEMA_ADVERSARIAL`, 2048; 0 for none), `--langs rust,go,ts`
//! (`BITWIRE_SCHEMA_LANGS`), `--runtimes node,bun,deno` (`BITWIRE_SCHEMA_RUNTIMES`),
//! `--out DIR` (`target/schemagen/seed-S`), `--known FILE`
//! (`conformance/schemagen/known-failures.txt`), `--no-lint` (no clippy on the
//! generated Rust), `--suites DIR` (run the `*.bw` files of `DIR` instead of
//! generated schemas: a reproduction, say), `--write-known FILE` (write the failures found as a
//! known-failures list), `--minimize` (minimize every new failure afterwards).
//! Exits 1 on a failure that is not listed, or a listed one that no longer happens.
//!
//! `minimize ID` takes a failure id of a run's report (`42/s022.impl:go:decode`) and
//! the run directory (`--run`, default `target/schemagen/seed-S`), and prints a
//! small reproduction with every decoder's outcome (also written to
//! `DIR/minimize/<id>/repro.md`).

use std::path::PathBuf;

use bitwire_schemagen::driver::exec::{repo_root, target_dir};
use bitwire_schemagen::driver::report::{known_lines, report};
use bitwire_schemagen::driver::results::Known;
use bitwire_schemagen::driver::{run, write_schema, Config};
use bitwire_schemagen::minimize::{minimize, target_of};
use serde_json::Value;

/// The value of `--name`, else of `$env`.
fn opt(args: &[String], name: &str, env: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
        .or_else(|| std::env::var(env).ok().filter(|v| !v.is_empty()))
}

fn num(args: &[String], name: &str, env: &str, default: u64) -> u64 {
    opt(args, name, env).map_or(default, |v| {
        v.parse().unwrap_or_else(|_| {
            eprintln!("schemagen: {name} takes a number, not {v}");
            std::process::exit(2)
        })
    })
}

fn list(args: &[String], name: &str, env: &str, default: &str) -> Vec<String> {
    opt(args, name, env)
        .unwrap_or_else(|| default.into())
        .split(',')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

fn config(args: &[String]) -> Config {
    let seed = num(args, "--seed", "BITWIRE_SCHEMA_SEED", 42);
    let bitwire = std::env::var_os("BITWIRE")
        .map(PathBuf::from)
        .unwrap_or_else(|| target_dir().join("debug/bitwire"));
    if !bitwire.exists() {
        eprintln!(
            "schemagen: {} not found: cargo build -p bitwire-compiler, or set BITWIRE",
            bitwire.display()
        );
        std::process::exit(2);
    }
    Config {
        seed,
        schemas: num(args, "--schemas", "BITWIRE_SCHEMAS", 8),
        cases: num(args, "--cases", "BITWIRE_SCHEMA_CASES", 10),
        adversarial: num(args, "--adversarial", "BITWIRE_SCHEMA_ADVERSARIAL", 2048) as usize,
        // Absolute: the steps run tools in other directories.
        out: opt(args, "--out", "BITWIRE_SCHEMA_OUT")
            .map(|o| std::path::absolute(o).expect("the current directory"))
            .unwrap_or_else(|| repo_root().join(format!("target/schemagen/seed-{seed}"))),
        langs: list(args, "--langs", "BITWIRE_SCHEMA_LANGS", "rust,go,ts"),
        runtimes: list(
            args,
            "--runtimes",
            "BITWIRE_SCHEMA_RUNTIMES",
            "node,bun,deno",
        ),
        lint: !args.iter().any(|a| a == "--no-lint"),
        bitwire: bitwire.canonicalize().unwrap_or(bitwire),
        suites: opt(args, "--suites", "BITWIRE_SCHEMA_SUITES")
            .map(|d| std::path::absolute(d).expect("the current directory")),
    }
}

/// Minimizes failure `id` of the run in `dir`; prints and returns the reproduction.
fn minimize_one(dir: &std::path::Path, id: &str, bitwire: PathBuf) -> bool {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_default();
    let corpus: Vec<String> = read("corpus.jsonl").lines().map(String::from).collect();
    let record = read("failures.jsonl")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|r| r["id"] == id);
    let Some(target) = record.as_ref().and_then(|r| target_of(r, &corpus)) else {
        eprintln!(
            "schemagen: no failure {id} in {}/failures.jsonl",
            dir.display()
        );
        return false;
    };
    let work = dir.join("minimize").join(id.replace(['/', ':', '.'], "_"));
    println!(
        "schemagen: minimizing {id} (signature {}) in {}",
        target.signature,
        work.display()
    );
    match minimize(target, bitwire, work.clone()) {
        Some(m) => {
            let md = m.markdown(id);
            println!("\n{md}");
            std::fs::create_dir_all(&work).expect("create the minimize directory");
            std::fs::write(work.join("repro.md"), md).expect("write repro.md");
            true
        }
        None => {
            println!("schemagen: {id} does not reproduce on its own");
            false
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("print") => {
            let seed = num(&args, "--seed", "BITWIRE_SCHEMA_SEED", 42);
            let index = num(&args, "--index", "BITWIRE_SCHEMA_INDEX", 0);
            print!(
                "{}",
                bitwire_schemagen::render::render(&bitwire_schemagen::generate(seed, index))
            );
        }
        Some("write") => {
            let dir = PathBuf::from(args.get(1).expect("usage: schemagen write DIR"));
            std::fs::create_dir_all(&dir).expect("create DIR");
            let seed = num(&args, "--seed", "BITWIRE_SCHEMA_SEED", 42);
            for index in 0..num(&args, "--schemas", "BITWIRE_SCHEMAS", 8) {
                write_schema(&dir, seed, index);
            }
        }
        Some("run") => {
            let cfg = config(&args);
            let known_path = opt(&args, "--known", "BITWIRE_SCHEMA_KNOWN")
                .map(PathBuf::from)
                .unwrap_or_else(|| repo_root().join("conformance/schemagen/known-failures.txt"));
            let known = Known::parse(&std::fs::read_to_string(&known_path).unwrap_or_default());
            println!(
                "schemagen: seed {}, {} schemas → {}",
                cfg.seed,
                cfg.schemas,
                cfg.out.display()
            );
            let done = run(cfg);
            let verdict = report(&done, &known);
            if let Some(path) = opt(&args, "--write-known", "BITWIRE_SCHEMA_WRITE_KNOWN") {
                std::fs::write(&path, known_lines(&done, &known))
                    .expect("write the known failures");
                println!("  known-failures list written to {path}");
            }
            std::process::exit(i32::from(!verdict.ok()));
        }
        Some("coverage") => {
            let seed = num(&args, "--seed", "BITWIRE_SCHEMA_SEED", 42);
            let n = num(&args, "--schemas", "BITWIRE_SCHEMAS", 400);
            let mut seen = std::collections::BTreeMap::new();
            for index in 0..n {
                let model = bitwire_schemagen::generate(seed, index);
                let text = bitwire_schemagen::render::render(&model);
                let ir = bitwire_compiler::compile_source("s.bw", &text)
                    .expect("generated schemas compile");
                for f in bitwire_schemagen::coverage::features(&model, &ir) {
                    *seen.entry(f).or_insert(0u64) += 1;
                }
            }
            println!("| construct | schemas of {n} (seed {seed}) |\n|---|---|");
            for f in bitwire_schemagen::coverage::FEATURES {
                println!("| {f} | {} |", seen.get(f).copied().unwrap_or(0));
            }
        }
        Some("minimize") => {
            let id = args.get(1).cloned().unwrap_or_default();
            let seed: u64 = id
                .split('/')
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or(42);
            let dir = opt(&args, "--run", "BITWIRE_SCHEMA_RUN")
                .map(PathBuf::from)
                .unwrap_or_else(|| repo_root().join(format!("target/schemagen/seed-{seed}")));
            let ok = minimize_one(&dir, &id, config(&args).bitwire);
            std::process::exit(i32::from(!ok));
        }
        _ => {
            eprintln!("usage: schemagen print|write|run … (see conformance/schemagen/README.md)");
            std::process::exit(2);
        }
    }
}
