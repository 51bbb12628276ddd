//! Every generated schema compiles: `BITWIRE_SCHEMAGEN_SEEDS` schemas (default
//! 3000) of seed 42 and a few other seeds, through `bitwire_compiler::compile_source`;
//! together they cover every construct of the schema language; and generation is
//! deterministic.

use std::collections::BTreeMap;

use bitwire_schemagen::coverage::{features, FEATURES};
use bitwire_schemagen::{generate, render::render};

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn every_generated_schema_compiles() {
    let count = env_u64("BITWIRE_SCHEMAGEN_SEEDS", 3000);
    let mut failures = Vec::new();
    for seed in [42, 7, 1_000_003] {
        for index in 0..count / 3 {
            let text = render(&generate(seed, index));
            if let Err(d) = bitwire_compiler::compile_source("s.bw", &text) {
                failures.push(format!(
                    "seed {seed}, schema {index}:\n{text}\n{}",
                    d.render()
                ));
            }
        }
    }
    let n = failures.len();
    for f in failures.iter().take(3) {
        eprintln!("{f}");
    }
    assert_eq!(n, 0, "{n} generated schemas do not compile");
}

#[test]
fn generated_schemas_cover_every_construct() {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for index in 0..400 {
        let model = generate(42, index);
        let ir = bitwire_compiler::compile_source("s.bw", &render(&model)).expect("compiles");
        for f in features(&model, &ir) {
            *seen.entry(f).or_default() += 1;
        }
    }
    let missing: Vec<&&str> = FEATURES
        .iter()
        .filter(|f| !seen.contains_key(**f))
        .collect();
    assert!(
        missing.is_empty(),
        "400 schemas of seed 42 never use {missing:?}"
    );
}

#[test]
fn generation_is_deterministic() {
    for index in [0, 1, 17] {
        assert_eq!(render(&generate(42, index)), render(&generate(42, index)));
    }
    assert_ne!(render(&generate(42, 0)), render(&generate(43, 0)));
}
