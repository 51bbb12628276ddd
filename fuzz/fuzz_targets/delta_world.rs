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
//!
//! Differential: the reference codec (`bitwire_compiler::codec`, which interprets the
//! IR of the same schema) decodes the baseline and the delta too, and must agree: both
//! decode (to values with the same full encoding) or both fail with the same kind, bit
//! and path.
#![no_main]

use std::sync::OnceLock;

use bitwire::{Delta, Limits};
use bitwire_compiler::codec::{self, CodecError};
use bitwire_compiler::ir::Schema;
use bitwire_count_alloc::{peak_during, Counting};
use delta::{Composite, Keys, Scalars, World};
use libfuzzer_sys::fuzz_target;

bitwire::include_schema!(
    /// Code generated from `testdata/vectors/delta/delta.bw` by `bitwire-build` (build.rs).
    mod delta
);

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fixed part of every message of the schema and an error's allocation fit in this.
const FIXED: usize = 64 * 1024;

/// The schema build.rs generates the code from, compiled once for the reference codec.
fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let text = include_str!("../../testdata/vectors/delta/delta.bw");
        bitwire_compiler::compile_source("delta.bw", text).expect("the delta schema compiles")
    })
}

/// An outcome as `(kind, bit, path)` for an error, or the value's full encoding.
type Outcome = Result<Vec<u8>, (String, u64, String)>;

fn generated<T: Delta>(r: &Result<T, bitwire::Error>) -> Outcome {
    match r {
        Ok(v) => Ok(v.encode_to_vec().expect("a decoded value encodes")),
        Err(e) => Err((e.kind().name().into(), e.bit(), e.path_string())),
    }
}

fn reference(s: &Schema, id: usize, r: Result<codec::Value, CodecError>) -> Outcome {
    match r {
        Ok(v) => Ok(codec::encode(s, id, &v).expect("a decoded value encodes")),
        Err(CodecError::Wire { kind, bit, path }) => Err((kind.name().into(), bit, path)),
        Err(e) => panic!("the reference decoder gave a non-wire error: {e}"),
    }
}

fn check<T: Delta + Clone>(name: &str, baseline: &[u8], bytes: &[u8]) {
    let s = schema();
    let id = s.type_by_name(name).expect("a delta message");
    let full = T::decode(baseline);
    let reference_full = codec::decode(s, id, baseline);
    let (ours, theirs) = (generated(&full), reference(s, id, reference_full.clone()));
    assert_eq!(
        ours, theirs,
        "{name}: the full decoders disagree on the baseline {baseline:02x?}"
    );
    let (Ok(baseline), Ok(reference_baseline)) = (full, reference_full) else {
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
    let want = reference(
        s,
        id,
        codec::decode_delta(s, id, &reference_baseline, bytes),
    );
    assert_eq!(
        generated(&decoded),
        want,
        "{name}: generated and reference delta decoders disagree on {bytes:02x?}"
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
        0 => check::<Scalars>("Scalars", baseline, bytes),
        1 => check::<Composite>("Composite", baseline, bytes),
        2 => check::<World>("World", baseline, bytes),
        _ => check::<Keys>("Keys", baseline, bytes),
    }
});
