//! Decodes arbitrary bytes as a delta (spec §12) of each `delta message` of the delta
//! vector schema (`testdata/vectors/delta/delta.bw`), against an arbitrary baseline: the
//! first byte picks the message, the second how many of the following bytes are the
//! baseline's full encoding (which must decode: that is how the fuzzer makes valid
//! baselines), the rest is the delta. Properties: decoding never panics; `verify_delta`
//! agrees with `decode_delta`; whatever decodes re-encodes against the same baseline to
//! exactly the input (canonical form, §12.6), also into a reused buffer, and decodes
//! again to the same value; and decoding allocates at most the decode budget for the
//! delta's length (§12.8) plus twice what a copy of the baseline takes (the parts of the
//! baseline the result copies are not charged) plus a fixed part, measured by a
//! counting allocator.
#![no_main]

use bitwire::{Delta, Limits};
use delta::{Composite, Keys, Scalars, World};
use bitwire_count_alloc::{peak_during, Counting};
use libfuzzer_sys::fuzz_target;

bitwire::include_schema!(
    /// Code generated from `testdata/vectors/delta/delta.bw` by `bitwire-build` (build.rs).
    mod delta
);

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fixed part of every message of the schema and an error's allocation fit in this.
const FIXED: usize = 64 * 1024;

fn check<T: Delta + Clone>(baseline: &[u8], bytes: &[u8]) {
    let Ok(baseline) = T::decode(baseline) else {
        return;
    };
    let (copy, copy_peak) = peak_during(|| baseline.clone());
    drop(copy);
    let (decoded, peak) = peak_during(|| T::decode_delta(&baseline, bytes));
    let bound = Limits::DEFAULT.budget(bytes.len()) as usize + 2 * copy_peak + FIXED;
    assert!(
        peak <= bound,
        "decoding a {}-byte delta allocated {peak} (bound {bound})",
        bytes.len()
    );
    let verified = T::verify_delta(&baseline, bytes);
    assert_eq!(
        verified.as_ref().err(),
        decoded.as_ref().err(),
        "verify_delta and decode_delta disagree"
    );
    let Ok(value) = decoded else {
        return;
    };
    let mut out = vec![0xAA; 3];
    out.clear();
    value
        .encode_delta(&baseline, &mut out)
        .expect("a decoded delta re-encodes");
    assert_eq!(out, bytes, "decode_delta → encode_delta changed the bytes");
    let again = T::decode_delta(&baseline, &out).expect("re-encoded bytes decode");
    // Compared on the wire: floats (NaN) have no equality of their own.
    assert_eq!(
        again.encode_to_vec().expect("encodes"),
        value.encode_to_vec().expect("encodes")
    );
}

fuzz_target!(|data: &[u8]| {
    let [which, split, rest @ ..] = data else {
        return;
    };
    let (baseline, bytes) = rest.split_at((*split as usize).min(rest.len()));
    match which % 4 {
        0 => check::<Scalars>(baseline, bytes),
        1 => check::<Composite>(baseline, bytes),
        2 => check::<World>(baseline, bytes),
        _ => check::<Keys>(baseline, bytes),
    }
});
