//! The suites, one module per `testdata/vectors/bincode/<suite>.bw`.

mod composite;
mod enums_unions;
mod floats;
pub mod plain;
mod scalars;
mod sequences;

use crate::suite::Suite;

/// Every suite, built (each case checked against the crates as it is added).
pub fn all() -> Vec<Suite> {
    vec![
        scalars::suite(),
        floats::suite(),
        enums_unions::suite(),
        composite::suite(),
        sequences::suite(),
        plain::suite(),
    ]
}

/// An edit writing `v` at byte `at`.
pub(crate) fn put(at: usize, v: &[u8]) -> impl FnOnce(&mut Vec<u8>) + '_ {
    move |b: &mut Vec<u8>| b[at..at + v.len()].copy_from_slice(v)
}

/// An edit keeping the first `n` bytes.
pub(crate) fn cut(n: usize) -> impl FnOnce(&mut Vec<u8>) {
    move |b: &mut Vec<u8>| b.truncate(n)
}

/// An edit appending one byte.
pub(crate) fn extra(byte: u8) -> impl FnOnce(&mut Vec<u8>) {
    move |b: &mut Vec<u8>| b.push(byte)
}

/// Why the crates accept what bitwire's schema bounds reject.
pub(crate) const RANGE: &str =
    "the Rust type holds the value; the schema's range is bitwire's check (spec §13.6)";
/// Why the crates accept a length above the schema's `max`.
pub(crate) const MAX: &str = "a Vec or String has no max; the schema's is bitwire's check";
