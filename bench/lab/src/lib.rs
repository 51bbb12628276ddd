//! The benchmark lab (issue 5): fixed-seed datasets shared by every language, the corpus
//! files they are written to, and the peer libraries bitwire is compared against.
//!
//! See `bench/lab/STATUS.md` for what is done and what remains.

pub mod corpus;
pub mod datasets;
pub mod handwritten;
pub mod lab;
pub mod peers;
pub mod pod;
pub mod sizes;
