//! The decode budget (spec §11.5, §13.7) holds in the generated bincode codec, and
//! reused buffers are reused: measured with a counting allocator.
//!
//! - Lists whose bytes are few and whose memory is large (absent `optional<Big>`, unit
//!   variants of a large union, empty inner lists) are charged as in packed: decoding
//!   allocates at most the budget it was given, and the first length whose charge does
//!   not fit is `LimitExceeded`, whatever the budget — in `decode_bincode`,
//!   `verify_bincode` and `decode_bincode_into` alike.
//! - A hostile 1 KB input claiming a huge list allocates nothing.
//! - Bulk lists (`list<u64>`) decode under a fixed budget exactly when their charge fits.
//! - Encoding into a reused buffer, and decoding into a reused value, allocate nothing.

use bitwire::{Bincode, ErrorKind, Limits};
use bitwire_conformance::suites::extra::bulk::{Row, Table, Words};
use bitwire_conformance::suites::limits::{Absent, Nested, Rows, Units};
use bitwire_count_alloc::{peak_during, Counting};

#[global_allocator]
static ALLOC: Counting = Counting;

/// What an error may allocate on top (the boxed error and its path).
const ERROR_ALLOWANCE: usize = 4096;

/// A `u64` length prefix followed by `tail`.
fn with_len(len: u64, tail: &[u8]) -> Vec<u8> {
    [&len.to_le_bytes()[..], tail].concat()
}

/// Decodes `bytes` as `T` under `budget` bytes, with `decode_bincode_with`,
/// `verify_bincode_with` and `decode_bincode_into` (into a default value): checks the
/// allocation bound and that all three agree; returns the outcome's error kind.
fn decode_under<T: Bincode + Default>(bytes: &[u8], budget: u64) -> Result<(), ErrorKind> {
    let limits = Limits::fixed(budget);
    let (decoded, peak) = peak_during(|| T::decode_bincode_with(bytes, &limits).map(drop));
    let bound = budget as usize + ERROR_ALLOWANCE;
    assert!(
        peak <= bound,
        "{} input bytes under a budget of {budget} allocated {peak} bytes",
        bytes.len()
    );
    let mut into = T::default();
    let (into_result, into_peak) = peak_during(|| into.decode_bincode_into(bytes, &limits));
    assert!(
        into_peak <= bound,
        "decode_into allocated {into_peak} bytes"
    );
    assert_eq!(decoded, into_result, "decode_into and decode disagree");
    let verified = T::verify_bincode_with(bytes, &limits);
    assert_eq!(decoded, verified, "verify and decode disagree");
    decoded.map_err(|e| e.kind())
}

/// Over a range of lengths and budgets, `T`'s decoder of a list of `len` elements of
/// `elem` bytes each accepts exactly the inputs whose charge (`per` bytes per element
/// plus one allocation of 32) fits, and allocates at most the budget.
fn budget_holds<T: Bincode + Default>(elem: &[u8], per: u64) {
    for len in [0usize, 1, 10, 100, 1000, 10_000] {
        let bytes = with_len(len as u64, &elem.repeat(len));
        let charge = if len == 0 { 0 } else { len as u64 * per + 32 };
        let edges = [charge, charge.saturating_sub(1)];
        for budget in edges
            .into_iter()
            .chain([0, 1 << 10, 1 << 16, 1 << 20, 64 << 20])
        {
            let got = decode_under::<T>(&bytes, budget);
            let want = match charge <= budget {
                true => Ok(()),
                false => Err(ErrorKind::LimitExceeded),
            };
            assert_eq!(got, want, "{len} elements under {budget}");
        }
    }
}

/// A `Big` (limits.bw): 8 bytes inline, its 4,104-byte array out of line, plus one
/// allocation.
const BIG: u64 = 8 + 4104 + 32;

#[test]
fn absent_large_optionals_are_charged_their_memory() {
    // One byte each on the bincode wire; {bool, Big} in memory.
    budget_holds::<Absent>(&[0], 16 + BIG - 8);
}

#[test]
fn unit_variants_of_a_large_union_are_charged_the_union() {
    // A u32 index each.
    budget_holds::<Units>(&[0, 0, 0, 0], 16 + BIG - 8);
}

#[test]
fn nested_empty_lists_are_charged_their_header() {
    budget_holds::<Rows>(&0u64.to_le_bytes(), 24);
}

#[test]
fn charges_add_up_across_lists() {
    let inner = with_len(100, &[0; 100]);
    let bytes = with_len(2, &[inner.clone(), inner].concat());
    let outer = 2 * 24 + 32;
    let each = 100 * (16 + BIG - 8) + 32;
    assert_eq!(decode_under::<Nested>(&bytes, outer + 2 * each), Ok(()));
    assert_eq!(
        decode_under::<Nested>(&bytes, outer + 2 * each - 1),
        Err(ErrorKind::LimitExceeded)
    );
}

#[test]
fn a_hostile_kilobyte_allocates_nothing() {
    // 1 KB claiming 2^40 absent elements, 2^61 words, and u64::MAX words: the input
    // cannot hold them (Truncated), and nothing is allocated.
    for (claim, what) in [
        (1u64 << 40, "Absent"),
        (1 << 61, "Words"),
        (u64::MAX, "Words"),
    ] {
        let mut bytes = with_len(claim, &[]);
        bytes.resize(1024, 0);
        let (got, peak) = peak_during(|| match what {
            "Absent" => Absent::decode_bincode(&bytes).map(drop),
            _ => Words::decode_bincode(&bytes).map(drop),
        });
        assert_eq!(
            got.map_err(|e| e.kind()),
            Err(ErrorKind::Truncated),
            "{what}"
        );
        assert!(peak <= ERROR_ALLOWANCE, "{what}: allocated {peak} bytes");
    }
    // 8 KB of absent elements: 8,184 elements of 4,152 bytes would be 34 MB; the
    // default budget (1 MiB + 64 bytes per input byte) stops it before allocating.
    let bytes = with_len(8184, &[0; 8184]);
    let (got, peak) = peak_during(|| Absent::decode_bincode(&bytes).map(drop));
    assert_eq!(got.map_err(|e| e.kind()), Err(ErrorKind::LimitExceeded));
    assert!(peak <= ERROR_ALLOWANCE, "allocated {peak} bytes");
}

#[test]
fn bulk_lists_are_charged_their_bytes() {
    // 120 words: 960 bytes plus one allocation.
    let words: Vec<u8> = (0..120u64).flat_map(|w| w.to_le_bytes()).collect();
    let bytes = with_len(120, &words);
    assert_eq!(decode_under::<Words>(&bytes, 120 * 8 + 32), Ok(()));
    assert_eq!(
        decode_under::<Words>(&bytes, 120 * 8 + 31),
        Err(ErrorKind::LimitExceeded)
    );
    let w = Words::decode_bincode(&bytes).expect("decodes");
    assert_eq!((w.w.len(), w.w[119]), (120, 119));
}

#[test]
fn reused_buffers_and_values_allocate_nothing() {
    let table = Table {
        rows: (0..50)
            .map(|i| Row {
                id: i,
                cells: (0..64).map(|c| c as i16 - 32).collect(),
                name: format!("row {i}"),
            })
            .collect(),
    };
    let mut out = Vec::with_capacity(64 << 10);
    let (n, peak) = peak_during(|| table.encode_bincode(&mut out).expect("encodes"));
    assert_eq!(n, out.len());
    assert_eq!(
        peak, 0,
        "encoding into a buffer with room allocated {peak} bytes"
    );

    let mut into = Table::decode_bincode(&out).expect("decodes");
    into.rows[3].cells.clear();
    into.rows[7].name.clear();
    let (got, peak) = peak_during(|| into.decode_bincode_into(&out, &Limits::DEFAULT));
    got.expect("decodes into");
    assert_eq!(into, table);
    assert_eq!(
        peak, 0,
        "decoding into a value with room allocated {peak} bytes"
    );

    // Fewer rows, then more again: the kept rows are reused, new ones are exact.
    let fewer = Table {
        rows: table.rows[..10].to_vec(),
    };
    let bytes = fewer.encode_bincode_to_vec().expect("encodes");
    into.decode_bincode_into(&bytes, &Limits::DEFAULT)
        .expect("decodes into");
    assert_eq!(into, fewer);
    into.decode_bincode_into(&out, &Limits::DEFAULT)
        .expect("decodes into");
    assert_eq!(into, table);
}

#[test]
fn a_16_mib_array_decodes_in_bulk_on_a_small_stack() {
    use bitwire_conformance::suites::extra::huge::Huge;
    let bytes = vec![0x5Au8; 2_097_152 * 8];
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let huge = Huge::decode_bincode(&bytes).expect("decodes");
            assert!(huge.words.iter().all(|&w| w == 0x5A5A_5A5A_5A5A_5A5A));
            Huge::verify_bincode(&bytes).expect("verifies");
            assert_eq!(huge.encode_bincode_to_vec().expect("encodes"), bytes);
            let e = Huge::decode_bincode(&bytes[..bytes.len() - 1]).unwrap_err();
            assert_eq!(e.kind(), ErrorKind::Truncated);
            assert_eq!(e.path_string(), "words[2097151]");
        })
        .expect("spawns");
    handle.join().expect("no stack overflow");
}
