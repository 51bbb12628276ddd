//! The decode budget (spec §11) holds in generated Rust: on inputs whose wire is much
//! smaller than the memory decoding them takes — lists of absent `optional<Big>`, of
//! one-bit unit variants of a large union, of empty nested lists — the bytes a decoder
//! allocates stay under the budget it was given plus the value's fixed part, and the
//! first length whose charge does not fit is `LimitExceeded`, whatever the budget.
//! Measured with a counting allocator.

use bitwire::{decode_packed_with, verify_packed_with, ErrorKind, Limits, Packed};
use bitwire_compiler::codec;
use bitwire_conformance::suites::limits::{Absent, Nested, Rows, Units};
use bitwire_count_alloc::{peak_during, Counting};
use serde_json::{json, Value};

#[global_allocator]
static ALLOC: Counting = Counting;

/// What an error may allocate on top (the boxed error and its path).
const ERROR_ALLOWANCE: usize = 4096;

/// Encodes `value` of `ty` with the reference codec (which has no budget: encoders
/// write whatever they are given).
fn encode(ty: &str, value: &Value) -> Vec<u8> {
    let schema = bitwire_compiler::compile_file(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/vectors/limits.bw"
    )))
    .expect("limits.bw compiles");
    let id = schema.type_by_name(ty).expect("a type of limits.bw");
    codec::encode_json(&schema, id, value).expect("encodes")
}

/// Decodes `bytes` as `T` under `budget` bytes, checks the allocation bound and that
/// verify agrees; returns whether it decoded, or the error kind.
fn decode_under<T: Packed>(bytes: &[u8], budget: u64) -> Result<(), ErrorKind> {
    let limits = Limits::fixed(budget);
    let (decoded, peak) = peak_during(|| decode_packed_with::<T>(bytes, &limits).map(drop));
    let verified = verify_packed_with::<T>(bytes, &limits);
    assert_eq!(decoded, verified, "verify and decode disagree");
    let bound = budget as usize + ERROR_ALLOWANCE;
    assert!(
        peak <= bound,
        "{} input bytes under a budget of {budget} allocated {peak} bytes",
        bytes.len()
    );
    decoded.map_err(|e| e.kind())
}

/// Over a range of sizes and budgets, the decoder of `T` allocates at most its budget,
/// and accepts exactly the inputs whose charge (`per` bytes per element plus one
/// allocation of 32) fits.
fn budget_holds<T: Packed>(ty: &str, make: impl Fn(usize) -> Value, per: u64) {
    for len in [0usize, 1, 10, 100, 1000, 10_000, 50_000] {
        let bytes = encode(ty, &make(len));
        let charge = if len == 0 { 0 } else { len as u64 * per + 32 };
        // Exactly at the charge and one byte short of it, and some round budgets.
        let edges = [charge, charge.saturating_sub(1)];
        for budget in edges
            .into_iter()
            .chain([0, 1 << 10, 1 << 16, 1 << 20, 64 << 20])
        {
            let got = decode_under::<T>(&bytes, budget);
            if charge <= budget {
                assert_eq!(got, Ok(()), "{ty}: {len} elements under {budget}");
            } else {
                assert_eq!(
                    got,
                    Err(ErrorKind::LimitExceeded),
                    "{ty}: {len} elements under {budget}"
                );
            }
        }
    }
}

/// A `Big`: 8 bytes inline (its 4,104-byte array is held out of line), plus the array
/// and one allocation.
const BIG: u64 = 8 + 4104 + 32;

#[test]
fn absent_large_optionals_are_charged_their_memory() {
    // `optional<Big>`: {bool, Big} is 16 bytes inline, plus Big's out-of-line array.
    budget_holds::<Absent>(
        "Absent",
        |n| json!({ "l": vec![Value::Null; n] }),
        16 + BIG - 8,
    );
}

#[test]
fn one_bit_unit_variants_of_a_large_union_are_charged_the_union() {
    // {tag, Big}: 16 bytes inline, plus Big's out-of-line array, whichever the variant.
    let units = |n| json!({ "l": vec!["Nothing"; n] });
    budget_holds::<Units>("Units", units, 16 + BIG - 8);
}

#[test]
fn nested_empty_lists_are_charged_their_header() {
    budget_holds::<Rows>("Rows", |n| json!({ "l": vec![json!([]); n] }), 24);
}

#[test]
fn charges_add_up_across_lists() {
    let value = json!({ "l": [vec![Value::Null; 100], vec![Value::Null; 100]] });
    let bytes = encode("Nested", &value);
    let outer = 2 * 24 + 32;
    let inner = 100 * (16 + BIG - 8) + 32;
    assert_eq!(decode_under::<Nested>(&bytes, outer + 2 * inner), Ok(()));
    assert_eq!(
        decode_under::<Nested>(&bytes, outer + 2 * inner - 1),
        Err(ErrorKind::LimitExceeded)
    );
}

#[test]
fn default_limits_bound_a_hostile_input() {
    // 8 KB of absent elements: 65,000 elements of 4,152 bytes would be 270 MB; the
    // default budget (1 MiB + 64 bytes per input byte) stops it before any allocation.
    let bytes = encode("Absent", &json!({ "l": vec![Value::Null; 65_000] }));
    assert!(bytes.len() < 8200);
    let (got, peak) = peak_during(|| Absent::decode(&bytes).map(drop));
    assert_eq!(got.map_err(|e| e.kind()), Err(ErrorKind::LimitExceeded));
    assert!(peak <= ERROR_ALLOWANCE, "allocated {peak} bytes");
}

#[test]
fn a_16_mib_array_decodes_on_a_small_stack() {
    use bitwire_conformance::suites::extra::huge::{Huge, Wide};
    let bytes = vec![0x5Au8; 2_097_152 * 8];
    // A thread with 256 KiB of stack: the array is built on the heap.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let huge = Huge::decode(&bytes).expect("decodes");
            assert_eq!(huge.words.len(), 2_097_152);
            assert!(huge.words.iter().all(|&w| w == 0x5A5A_5A5A_5A5A_5A5A));
            Huge::verify(&bytes).expect("verifies");
            let again = huge.encode_to_vec().expect("encodes");
            assert_eq!(again.len(), bytes.len());
            let wide = Wide::decode(&vec![1u8; 4 * 500 * 8]).expect("decodes");
            assert_eq!(wide.d[499], 0x0101_0101_0101_0101);
        })
        .expect("spawns");
    handle.join().expect("no stack overflow");
}
