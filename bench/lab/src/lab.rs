//! Rust speed and size measurements of the lab: every library on every game dataset
//! read from the corpus, written as the raw result JSON of `bench/README.md`
//! (`cargo run --release -p bitwire-lab --bin lab -- [--quick] --corpus DIR --out FILE`).

pub mod alloc;
pub mod contender;
pub mod harness;
pub mod run;
pub mod scaling;
pub mod suite;

pub use run::{run, Options};
