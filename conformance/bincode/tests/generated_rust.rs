//! bitwire's generated Rust against bincode 1.3.3 for the report's large plain-data
//! cases: `Vec<u64>`, `Vec<u8>` (list and bytes) of 100 to 1,000,000 elements — the same
//! bytes as `bincode::serialize` of the serde mirror, encoding into a reused buffer, and
//! decoding (fresh, into a reused value, verify) under the default limits, which let
//! 8 MB through where wincode's default configuration refuses 4 MiB + 1 (tests/large.rs).
//!
//! Runs with `cargo test -p bitwire-bincode-peers` (the `generated-rust` feature is on by
//! default; build.rs generates the code with `bitwire_build::Config::bincode(true)`).
#![cfg(feature = "generated-rust")]

bitwire::include_schema!(mod bincode_plain);

use bitwire::{Bincode, Limits};
use bitwire_bincode_peers::suites::plain::{u64s, u8s, U64s, U8s};

const SIZES: [usize; 5] = [100, 1_000, 10_000, 100_000, 1_000_000];

/// Encodes `value` into `out` (cleared, reused) and checks the bytes and the reuse.
fn encodes<T: Bincode>(value: &T, out: &mut Vec<u8>, want: &[u8], n: usize) {
    out.clear();
    let written = value.encode_bincode(out).expect("encodes");
    assert_eq!(written, want.len(), "n = {n}: bytes written");
    assert!(
        out[..] == want[..],
        "n = {n}: bitwire's bytes differ from bincode's"
    );
    let capacity = out.capacity();
    out.clear();
    value.encode_bincode(out).expect("encodes again");
    assert_eq!(out.capacity(), capacity, "n = {n}: the reused buffer grew");
    assert!(out[..] == want[..], "n = {n}: the second encoding differs");
}

/// Decodes `bytes` fresh, into `reused`, and verifies them; each must give `value`.
fn decodes<T: Bincode + PartialEq + std::fmt::Debug>(
    value: &T,
    reused: &mut T,
    bytes: &[u8],
    n: usize,
) {
    let fresh = T::decode_bincode(bytes).expect("decodes");
    assert!(fresh == *value, "n = {n}: decoded another value");
    reused
        .decode_bincode_into(bytes, &Limits::DEFAULT)
        .expect("decodes into");
    assert!(*reused == *value, "n = {n}: decoded into another value");
    T::verify_bincode(bytes).expect("verifies");
}

#[test]
fn u64_lists_match_bincode_up_to_a_million() {
    let mut out = Vec::new();
    let mut reused = bincode_plain::U64s { v: Vec::new() };
    for n in SIZES {
        let v = u64s(n);
        let want = bincode::serialize(&U64s { v: v.clone() }).unwrap();
        let value = bincode_plain::U64s { v };
        encodes(&value, &mut out, &want, n);
        decodes(&value, &mut reused, &want, n);
    }
}

#[test]
fn u8_lists_and_bytes_match_bincode_up_to_a_million() {
    let mut out = Vec::new();
    let mut list = bincode_plain::U8s { v: Vec::new() };
    let mut raw = bincode_plain::Raw { v: Vec::new() };
    for n in SIZES {
        let v = u8s(n);
        let want = bincode::serialize(&U8s { v: v.clone() }).unwrap();
        let value = bincode_plain::U8s { v: v.clone() };
        encodes(&value, &mut out, &want, n);
        decodes(&value, &mut list, &want, n);
        let value = bincode_plain::Raw { v };
        encodes(&value, &mut out, &want, n);
        decodes(&value, &mut raw, &want, n);
    }
}
