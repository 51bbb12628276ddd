//! Rust code generated from `examples/game.bw` (`bitwire gen --lang rust --encoding bincode`:
//! the packed codec and the bincode one), committed so
//! that users can read it; CI fails if it differs from what the compiler produces today.

#[path = "generated/game.rs"]
pub mod game;

/// Sample messages used by the demo and the benchmarks.
pub mod samples;
