//! The benchmark lab (issue 5): fixed-seed datasets shared by every language, the corpus
//! files they are written to, and the peer libraries bitwire is compared against.
//!
//! See `bench/README.md` for the lab as a whole and `docs/adr/0008-benchmark-lab.md` for its design.

/// The compiler that built the lab (`rustc 1.95.0`, recorded by `build.rs`): the
/// `runtime` of the Rust raw result files.
pub const RUNTIME: &str = env!("BITWIRE_LAB_RUSTC");

pub mod cli;
pub mod corpus;
pub mod datasets;
pub mod handwritten;
pub mod lab;
pub mod peers;
pub mod pod;
pub mod profiles;
pub mod sizes;
