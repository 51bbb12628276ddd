//! The report's large plain-data cases, too big for a JSON vector file: `Vec<u64>` and
//! `Vec<u8>` of 100 to 1,000,000 elements (as the schema's `U64s` / `U8s` structs of
//! `bincode_plain.bw`, which serialize exactly as the bare Vec does). bincode 1.3.3 and
//! wincode 0.6 write the same bytes, and both read them back; wincode needs its
//! preallocation limit raised above 4 MiB, which `wincode_default_limit_*` pins down.

use bitwire_bincode_peers::suites::plain::{u64s, u8s, U64s, U8s};
use wincode::config::Configuration;
use wincode::error::{ReadError, WriteError};

const SIZES: [usize; 5] = [100, 1_000, 10_000, 100_000, 1_000_000];

/// wincode with its preallocation limit raised to 64 MiB (1,000,000 u64 are 8 MB).
const RAISED: wincode::config::Configuration<true, { 64 << 20 }> =
    Configuration::default().with_preallocation_size_limit::<{ 64 << 20 }>();

/// wincode's default limit (`wincode::config::DEFAULT_PREALLOCATION_SIZE_LIMIT`).
const LIMIT: usize = 4 << 20;

fn strict() -> impl bincode::Options {
    use bincode::Options;
    bincode::DefaultOptions::new().with_fixint_encoding()
}

#[test]
fn u64_lists_are_byte_identical_up_to_a_million() {
    use bincode::Options;
    for n in SIZES {
        let value = U64s { v: u64s(n) };
        let b = bincode::serialize(&value).unwrap();
        assert_eq!(b.len(), 8 + 8 * n);
        assert_eq!(
            b,
            bincode::serialize(&value.v).unwrap(),
            "n = {n}: struct = Vec"
        );
        let w = wincode::config::serialize(&value, RAISED).unwrap();
        assert!(b == w, "n = {n}: bincode and wincode bytes differ");
        let back: U64s = strict().deserialize(&b).unwrap();
        assert_eq!(back.v, value.v, "n = {n}: bincode reads");
        let back: U64s = wincode::config::deserialize_exact(&b, RAISED).unwrap();
        assert_eq!(back.v, value.v, "n = {n}: wincode reads");
    }
}

#[test]
fn u8_lists_are_byte_identical_up_to_a_million() {
    use bincode::Options;
    for n in SIZES {
        let value = U8s { v: u8s(n) };
        let b = bincode::serialize(&value).unwrap();
        assert_eq!(b.len(), 8 + n);
        let w = wincode::config::serialize(&value, RAISED).unwrap();
        assert!(b == w, "n = {n}: bincode and wincode bytes differ");
        let back: U8s = strict().deserialize(&b).unwrap();
        assert_eq!(back.v, value.v, "n = {n}: bincode reads");
        let back: U8s = wincode::config::deserialize_exact(&b, RAISED).unwrap();
        assert_eq!(back.v, value.v, "n = {n}: wincode reads");
    }
}

fn refused_write(e: WriteError) -> (usize, usize) {
    match e {
        WriteError::PreallocationSizeLimit { needed, limit } => (needed, limit),
        other => panic!("not the preallocation limit: {other:?}"),
    }
}

fn refused_read(e: ReadError) -> (usize, usize) {
    match e {
        ReadError::PreallocationSizeLimit { needed, limit } => (needed, limit),
        other => panic!("not the preallocation limit: {other:?}"),
    }
}

/// wincode's default configuration refuses a Vec<u64> of more than 4 MiB of elements
/// (524,288) both ways: 524,289 elements, and so 1,000,000, fail to serialize and
/// bincode's bytes for them fail to deserialize. bincode has no such limit.
#[test]
fn wincode_default_limit_refuses_u64_lists_above_4_mib() {
    let at_limit = U64s { v: u64s(LIMIT / 8) };
    let b = bincode::serialize(&at_limit).unwrap();
    assert!(
        wincode::serialize(&at_limit).unwrap() == b,
        "524,288 u64: the same bytes"
    );
    let back: U64s = wincode::deserialize_exact(&b).unwrap();
    assert_eq!(back.v.len(), LIMIT / 8);

    for n in [LIMIT / 8 + 1, 1_000_000] {
        let over = U64s { v: u64s(n) };
        let err = wincode::serialize(&over).expect_err("serialize refuses");
        assert_eq!(refused_write(err), (8 * n, LIMIT), "n = {n}");
        let b = bincode::serialize(&over).unwrap();
        let err = wincode::deserialize_exact::<U64s>(&b).expect_err("deserialize refuses");
        assert_eq!(refused_read(err), (8 * n, LIMIT), "n = {n}");
    }
}

/// The same for bytes: 4 MiB of u8 pass, 4 MiB + 1 do not. A Vec<u8> of 1,000,000
/// (under 1 MiB) passes with the default limit.
#[test]
fn wincode_default_limit_refuses_u8_lists_above_4_mib() {
    let million = U8s { v: u8s(1_000_000) };
    assert!(wincode::serialize(&million).unwrap() == bincode::serialize(&million).unwrap());
    let at_limit = U8s { v: u8s(LIMIT) };
    let b = bincode::serialize(&at_limit).unwrap();
    assert!(wincode::serialize(&at_limit).unwrap() == b);
    assert_eq!(
        wincode::deserialize_exact::<U8s>(&b).unwrap().v.len(),
        LIMIT
    );

    let over = U8s { v: u8s(LIMIT + 1) };
    let err = wincode::serialize(&over).expect_err("serialize refuses");
    assert_eq!(refused_write(err), (LIMIT + 1, LIMIT));
    let b = bincode::serialize(&over).unwrap();
    let err = wincode::deserialize_exact::<U8s>(&b).expect_err("deserialize refuses");
    assert_eq!(refused_read(err), (LIMIT + 1, LIMIT));
}
