//! Shared pieces of the benchmark programs: the fixed-seed `packet64` dataset, the
//! hand-written baseline codec, and a small timing harness.

pub mod dataset;
pub mod handwritten;
pub mod harness;
