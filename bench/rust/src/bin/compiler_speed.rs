//! Compiler speed: parse + check (front end to IR) and code generation per language, for
//! the bundled example schema and for a generated stress schema of about 2,000 lines.
//!
//!     cargo run --release -p bitwire-bench --bin compiler_speed [-- --quick]
//!
//! Anchor from the brief (a FlatBuffers compiler, small schema): 0.55 µs to parse and
//! 7.29 µs to generate — printed beside our numbers for orientation; a different
//! compiler on a different machine, so no ratio is claimed.

use std::hint::black_box;
use std::time::Instant;

use bitwire_compiler::codegen::{
    generate_go, generate_rust, generate_ts, GoOptions, RustOptions, TsOptions,
};
use bitwire_compiler::ir::Schema;

/// A schema of roughly `lines` lines using every construct: enums, unions, nested
/// structs, bounded and quantized values, optionals, arrays, lists, strings, varints.
fn stress_schema(lines: usize) -> String {
    let mut s = String::from("// Generated stress schema for the compiler speed benchmark.\n\nconst MAX_ITEMS: u32 = 32;\n\n");
    let mut i = 0;
    while s.lines().count() < lines {
        s.push_str(&format!(
            "/// Kind {i}.\nenum Kind{i}: u3 {{\n    A,\n    B,\n    C = 5,\n}}\n\n\
             /// Point {i}.\nstruct Point{i} {{\n    x: f32 in -512.0..=512.0 step 0.125,\n    y: f32 in -512.0..=512.0 bits 14,\n    z: i12,\n}}\n\n\
             /// Item {i}.\nstruct Item{i} {{\n    id: u16 in 0..=4095,\n    kind: Kind{i},\n    at: Point{i},\n    tags: [u4; 3],\n    \
             note: optional<string<max 24>>,\n    hp: varu32,\n    delta: vari16,\n    alive: bool,\n}}\n\n\
             /// Change {i}.\nunion Change{i} {{\n    Moved(Point{i}),\n    Spawned(Item{i}),\n    Gone(u16),\n    Reset,\n}}\n\n\
             /// Update {i}.\nmessage Update{i} = {i} {{\n    tick: varu32,\n    items: list<Item{i}, max MAX_ITEMS>,\n    \
             changes: list<Change{i}>,\n    blob: bytes<max 64>,\n}}\n\n"
        ));
        i += 1;
    }
    s
}

/// Median microseconds of `f` over `rounds` timed runs.
fn median_us(rounds: usize, mut f: impl FnMut()) -> f64 {
    f();
    let mut t: Vec<f64> = (0..rounds)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    t.sort_by(f64::total_cmp);
    t[t.len() / 2]
}

fn report(name: &str, source: &str, rounds: usize) {
    let schema: Schema = bitwire_compiler::compile_source("bench.bw", source)
        .unwrap_or_else(|d| panic!("{}", d.render()));
    let parse = median_us(rounds, || {
        black_box(bitwire_compiler::compile_source("bench.bw", black_box(source)).is_ok());
    });
    let rust = median_us(rounds, || {
        let opts = RustOptions {
            json: false,
            bincode: false,
            source_name: "bench.bw".into(),
            ..Default::default()
        };
        black_box(generate_rust(black_box(&schema), &opts).len());
    });
    let go = median_us(rounds, || {
        let opts = GoOptions {
            json: false,
            bincode: false,
            source_name: "bench.bw".into(),
            package: "bench".into(),
        };
        black_box(generate_go(black_box(&schema), &opts).len());
    });
    let ts = median_us(rounds, || {
        let opts = TsOptions {
            json: false,
            bincode: false,
            source_name: "bench.bw".into(),
            ..TsOptions::default()
        };
        black_box(generate_ts(black_box(&schema), &opts).len());
    });
    println!(
        "{name:<28} {:>6} lines {:>4} types  parse+check {parse:>10.1} µs  gen rust {rust:>10.1} µs  go {go:>10.1} µs  ts {ts:>10.1} µs",
        source.lines().count(),
        schema.types.len(),
    );
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 3 } else { 51 };
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let example =
        std::fs::read_to_string(format!("{root}/examples/game.bw")).expect("examples/game.bw");
    println!(
        "compiler speed, median of {rounds} runs{}",
        if quick { " (quick)" } else { "" }
    );
    report("examples/game.bw", &example, rounds);
    report("stress (generated)", &stress_schema(2_000), rounds);
    println!(
        "anchor (brief): a FlatBuffers compiler, small schema: parse 0.55 µs, generate 7.29 µs"
    );
}
