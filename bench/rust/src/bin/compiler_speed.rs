//! Compiler speed: parse + check (front end to IR) and code generation per language, on a
//! one-table schema, on the bundled example schema, and on generated schemas of 50 to 800
//! types (linear scaling). The lab's `compiler` step (bench/run.sh) writes `raw/compiler.json`.
//!
//!     cargo run --release -p bitwire-bench --bin compiler_speed [-- --quick] [--out FILE]
//!
//! For a profiler, `--profile SCHEMA PHASE SECONDS` runs one phase (`parse`, `parse_check`,
//! `rust`, `go`, `ts`) of one schema (`one-table`, `game`, `generated-400`, ...) in a loop
//! for SECONDS, or `N` calls if written `Nx` (for instruction counts under valgrind, which
//! a shared machine's load does not change):
//!
//!     perf record -g target/release/compiler_speed --profile one-table rust 10
//!     valgrind --tool=callgrind target/release/compiler_speed --profile one-table rust 100x
//!
//! The one-table schema is `testdata/codegen/packet64.bw`: one message of eight scalar
//! fields, the size of the one-table schema of the published FlatBuffers-compiler figures
//! the issue names (parse 0.55 µs, generate 7.29 µs). Every backend runs with the options
//! `bitwire gen` uses by default for its language (no JSON, packed encoding only).
//!
//! Each timing is the median over rounds of one batch of calls (the batch sized so that it
//! takes about a millisecond, so sub-microsecond figures are resolved); the phases of one
//! schema are interleaved within every round, so drift on a shared machine hits them alike.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

use serde_json::json;

use bitwire_compiler::codegen::{
    generate_go, generate_rust, generate_ts, GoOptions, RustOptions, TsOptions,
};
use bitwire_compiler::diag::FileId;
use bitwire_compiler::ir::Schema;

/// Type counts of the generated scaling schemas (each a multiple of 5, the types of one block).
const SCALING_TYPES: &[usize] = &[50, 100, 200, 400, 800];
const SCALING_TYPES_QUICK: &[usize] = &[50, 100];

/// A schema of `types` named types (a multiple of 5), every construct used: enums, unions,
/// nested structs, bounded and quantized values, optionals, arrays, lists, strings, varints.
fn scaling_schema(types: usize) -> String {
    let mut s = String::from(
        "// Generated schema for the compiler speed benchmark.\n\nconst MAX_ITEMS: u32 = 32;\n\n",
    );
    for i in 0..types / 5 {
        write!(
            s,
            "/// Kind {i}.\nenum Kind{i}: u3 {{\n    A,\n    B,\n    C = 5,\n}}\n\n\
             /// Point {i}.\nstruct Point{i} {{\n    x: f32 in -512.0..=512.0 step 0.125,\n    y: f32 in -512.0..=512.0 bits 14,\n    z: i12,\n}}\n\n\
             /// Item {i}.\nstruct Item{i} {{\n    id: u16 in 0..=4095,\n    kind: Kind{i},\n    at: Point{i},\n    tags: [u4; 3],\n    \
             note: optional<string<max 24>>,\n    hp: varu32,\n    delta: vari16,\n    alive: bool,\n}}\n\n\
             /// Change {i}.\nunion Change{i} {{\n    Moved(Point{i}),\n    Spawned(Item{i}),\n    Gone(u16),\n    Reset,\n}}\n\n\
             /// Update {i}.\nmessage Update{i} = {i} {{\n    tick: varu32,\n    items: list<Item{i}, max MAX_ITEMS>,\n    \
             changes: list<Change{i}>,\n    blob: bytes<max 64>,\n}}\n\n"
        )
        .expect("write to a String");
    }
    s
}

/// What `bitwire gen --lang <lang> -o DIR bench.bw` passes.
fn rust_opts() -> RustOptions {
    RustOptions {
        json: false,
        bincode: false,
        source_name: "bench.bw".into(),
        module_file: true,
    }
}
fn go_opts() -> GoOptions {
    GoOptions {
        json: false,
        bincode: false,
        source_name: "bench.bw".into(),
        package: "bench".into(),
    }
}
fn ts_opts() -> TsOptions {
    TsOptions {
        source_name: "bench.bw".into(),
        ..TsOptions::default()
    }
}

/// The phases timed, in output order.
const PHASES: &[&str] = &["parse", "parse_check", "rust", "go", "ts"];

/// One schema's source and compiled form.
struct Case {
    name: String,
    kind: &'static str,
    source_path: String,
    source: String,
    schema: Schema,
}

impl Case {
    fn new(name: &str, kind: &'static str, source_path: &str, source: String) -> Case {
        let schema = bitwire_compiler::compile_source("bench.bw", &source)
            .unwrap_or_else(|d| panic!("{name}: {}", d.render()));
        Case {
            name: name.into(),
            kind,
            source_path: source_path.into(),
            source,
            schema,
        }
    }

    /// Runs phase `i` once; returns a size so the work cannot be optimized away.
    fn run(&self, phase: &str) -> usize {
        let src = black_box(self.source.as_str());
        match phase {
            "parse" => bitwire_compiler::syntax::parse(FileId(0), src).1.len(),
            "parse_check" => usize::from(bitwire_compiler::compile_source("bench.bw", src).is_ok()),
            "rust" => generate_rust(black_box(&self.schema), &rust_opts()).len(),
            "go" => generate_go(black_box(&self.schema), &go_opts()).len(),
            "ts" => generate_ts(black_box(&self.schema), &ts_opts()).len(),
            _ => unreachable!("phase {phase}"),
        }
    }
}

/// One phase's timing: per-call µs of each round (a round is one batch of `batch` calls).
struct Timing {
    batch: usize,
    per_call_us: Vec<f64>,
}

impl Timing {
    fn median(&self) -> f64 {
        let mut t = self.per_call_us.clone();
        t.sort_by(f64::total_cmp);
        t[t.len() / 2]
    }
    fn min(&self) -> f64 {
        self.per_call_us
            .iter()
            .copied()
            .fold(f64::INFINITY, f64::min)
    }
}

/// Calls per batch so that one batch takes about `target_us`.
fn calibrate(case: &Case, phase: &str, target_us: f64) -> usize {
    let mut n = 1usize;
    loop {
        let start = Instant::now();
        for _ in 0..n {
            black_box(case.run(phase));
        }
        let us = start.elapsed().as_secs_f64() * 1e6;
        if us >= target_us || n >= 1 << 20 {
            let per = us / n as f64;
            return ((target_us / per).ceil() as usize).clamp(1, 1 << 20);
        }
        n *= 4;
    }
}

/// Times every phase of `case` over `rounds` interleaved rounds.
fn measure(case: &Case, rounds: usize, target_us: f64) -> Vec<Timing> {
    let mut timings: Vec<Timing> = PHASES
        .iter()
        .map(|p| Timing {
            batch: calibrate(case, p, target_us),
            per_call_us: Vec::with_capacity(rounds),
        })
        .collect();
    for _ in 0..rounds {
        for (phase, t) in PHASES.iter().zip(&mut timings) {
            let start = Instant::now();
            for _ in 0..t.batch {
                black_box(case.run(phase));
            }
            t.per_call_us
                .push(start.elapsed().as_secs_f64() * 1e6 / t.batch as f64);
        }
    }
    timings
}

/// One schema's entry of `raw/compiler.json` (bench/README.md, "Compiler speed").
fn json_entry(case: &Case, timings: &[Timing]) -> serde_json::Value {
    let phases: Vec<serde_json::Value> = PHASES
        .iter()
        .zip(timings)
        .map(|(phase, t)| {
            let output_bytes = matches!(*phase, "rust" | "go" | "ts").then(|| case.run(phase));
            json!({
                "phase": phase,
                "median_us": t.median(),
                "min_us": t.min(),
                "batch": t.batch,
                "output_bytes": output_bytes,
            })
        })
        .collect();
    json!({
        "schema": case.name,
        "kind": case.kind,
        "source": case.source_path,
        "lines": case.source.lines().count(),
        "bytes": case.source.len(),
        "types": case.schema.types.len(),
        "phases": phases,
    })
}

fn main() {
    let mut quick = false;
    let mut out = None;
    let mut profile = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => quick = true,
            "--out" => out = Some(args.next().expect("--out needs a file")),
            "--profile" => {
                let mut next = || args.next().expect("--profile SCHEMA PHASE SECONDS");
                profile = Some((next(), next(), next()));
            }
            other => {
                eprintln!(
                    "compiler_speed: unknown argument {other:?} (usage: [--quick] [--out FILE])"
                );
                std::process::exit(2);
            }
        }
    }
    let (rounds, target_us) = if quick { (3, 200.0) } else { (51, 2_000.0) };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let read = |p: &str| std::fs::read_to_string(format!("{root}/{p}")).expect(p);
    let mut cases = vec![
        Case::new(
            "one-table",
            "one-table",
            "testdata/codegen/packet64.bw",
            read("testdata/codegen/packet64.bw"),
        ),
        Case::new(
            "game",
            "example",
            "examples/game.bw",
            read("examples/game.bw"),
        ),
    ];
    let sizes = if quick && profile.is_none() {
        SCALING_TYPES_QUICK
    } else {
        SCALING_TYPES
    };
    for &n in sizes {
        cases.push(Case::new(
            &format!("generated-{n}"),
            "scaling",
            "generated by bench/rust/src/bin/compiler_speed.rs",
            scaling_schema(n),
        ));
    }
    if let Some((schema, phase, seconds)) = profile {
        let case = cases
            .iter()
            .find(|c| c.name == schema)
            .unwrap_or_else(|| panic!("no schema {schema:?}"));
        assert!(PHASES.contains(&phase.as_str()), "no phase {phase:?}");
        let start = Instant::now();
        let mut calls = 0u64;
        if let Some(n) = seconds.strip_suffix('x') {
            let n: u64 = n.parse().expect("Nx: a number of calls");
            while calls < n {
                black_box(case.run(&phase));
                calls += 1;
            }
        } else {
            let seconds: f64 = seconds.parse().expect("SECONDS is a number");
            while start.elapsed().as_secs_f64() < seconds {
                black_box(case.run(&phase));
                calls += 1;
            }
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / calls as f64;
        println!("{schema} {phase}: {calls} calls, {us:.2} µs per call");
        return;
    }
    println!(
        "compiler speed: median µs per call over {rounds} rounds{} (min in brackets)",
        if quick { " (quick)" } else { "" }
    );
    println!(
        "{:<16} {:>6} {:>5}  {:>16} {:>16} {:>16} {:>16} {:>16}",
        "schema", "lines", "types", "parse", "parse+check", "gen rust", "gen go", "gen ts"
    );
    let mut entries = Vec::new();
    for case in &cases {
        let timings = measure(case, rounds, target_us);
        let mut line = format!(
            "{:<16} {:>6} {:>5} ",
            case.name,
            case.source.lines().count(),
            case.schema.types.len()
        );
        for t in &timings {
            write!(line, " {:>8.2} [{:>5.2}]", t.median(), t.min()).expect("String");
        }
        println!("{line}");
        entries.push(json_entry(case, &timings));
    }
    println!("anchor (issue 17): a FlatBuffers compiler, one-table schema: parse 0.55 µs, generate 7.29 µs");
    if let Some(path) = out {
        let doc = json!({
            "format": 1,
            "kind": "compiler",
            "compiler": concat!("bitwire ", env!("CARGO_PKG_VERSION")),
            "quick": quick,
            "rounds": rounds,
            "schemas": entries,
        });
        let json = serde_json::to_string_pretty(&doc).expect("JSON serializes") + "\n";
        if let Some(dir) = std::path::Path::new(&path).parent() {
            std::fs::create_dir_all(dir).expect("create the output directory");
        }
        std::fs::write(&path, json).unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("wrote {path}");
    }
}
