//! Decodes arbitrary bytes with the generated Rust bincode decoders (docs/spec.md §13)
//! of every type of `testdata/codegen/kitchen_sink.bw` (every type expression) and of
//! `conformance/rust/schemas/bulk.bw` (bulk number lists). The first byte picks the
//! type, the second how many of the following bytes are a seed value's encoding (it
//! must decode: that is how the fuzzer makes used values to decode into), the rest is
//! the input. Properties: decoding never panics; `verify_bincode` gives exactly what
//! `decode_bincode` gives; `decode_bincode_into` the seed's value gives exactly what
//! `decode_bincode` gives (the same error, or a value with the same bytes); whatever
//! decodes re-encodes to exactly the input (bincode has one encoding per value), also
//! into a reused buffer, and decodes again; and decoding, into a fresh value or into
//! the seed's, allocates at most the decode budget for the input's length (§11.5) plus
//! the value's fixed part, measured by a counting allocator.
#![no_main]

use bitwire::{Bincode, Limits};
use bitwire_count_alloc::{peak_during, Counting};
use libfuzzer_sys::fuzz_target;

bitwire::include_schema!(
    /// Code generated from `testdata/codegen/kitchen_sink.bw` by `bitwire-build` (build.rs).
    mod kitchen_sink
);
bitwire::include_schema!(
    /// Code generated from `conformance/rust/schemas/bulk.bw` by `bitwire-build` (build.rs).
    mod bulk
);

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fixed part of every type of the two schemas and an error's allocation fit in this.
const FIXED: usize = 64 * 1024;

/// An outcome as `(kind, bit, path)` for an error, or the value's bytes.
type Outcome = Result<Vec<u8>, (String, u64, String)>;

fn outcome<T: Bincode>(r: &Result<T, bitwire::Error>) -> Outcome {
    match r {
        Ok(v) => Ok(v.encode_bincode_to_vec().expect("a decoded value encodes")),
        Err(e) => Err((e.kind().name().into(), e.bit(), e.path_string())),
    }
}

fn check<T: Bincode>(seed: &[u8], bytes: &[u8]) {
    let bound = Limits::DEFAULT.budget(bytes.len()) as usize + FIXED;
    let (decoded, peak) = peak_during(|| T::decode_bincode(bytes));
    assert!(
        peak <= bound,
        "decoding {} bytes allocated {peak} (bound {bound})",
        bytes.len()
    );
    let verified = T::verify_bincode(bytes);
    assert_eq!(
        verified.as_ref().err(),
        decoded.as_ref().err(),
        "verify_bincode and decode_bincode disagree"
    );
    let fresh = outcome(&decoded);
    if let Ok(mut used) = T::decode_bincode(seed) {
        let (into, peak) = peak_during(|| used.decode_bincode_into(bytes, &Limits::DEFAULT));
        assert!(peak <= bound, "decoding into a value allocated {peak} (bound {bound})");
        assert_eq!(
            outcome(&into.map(|()| used)),
            fresh,
            "decode_bincode_into and decode_bincode disagree"
        );
    }
    let Ok(value) = decoded else {
        return;
    };
    let mut buf = vec![0xAA; 3];
    buf.clear();
    value
        .encode_bincode(&mut buf)
        .expect("a decoded value re-encodes");
    assert_eq!(buf, bytes, "decode → encode changed the bytes");
    let again = T::decode_bincode(&buf).expect("re-encoded bytes decode");
    assert_eq!(outcome(&Ok(again)), fresh);
}

fuzz_target!(|data: &[u8]| {
    let [which, split, rest @ ..] = data else {
        return;
    };
    let (seed, bytes) = rest.split_at((*split as usize).min(rest.len()));
    match which % 12 {
        0 => check::<kitchen_sink::Mode>(seed, bytes),
        1 => check::<kitchen_sink::Single>(seed, bytes),
        2 => check::<kitchen_sink::Scalars>(seed, bytes),
        3 => check::<kitchen_sink::Composite>(seed, bytes),
        4 => check::<kitchen_sink::Point>(seed, bytes),
        5 => check::<kitchen_sink::Empty>(seed, bytes),
        6 => check::<kitchen_sink::Shape>(seed, bytes),
        7 => check::<kitchen_sink::Lonely>(seed, bytes),
        8 => check::<kitchen_sink::Wrapper>(seed, bytes),
        9 => check::<bulk::Words>(seed, bytes),
        10 => check::<bulk::Floats>(seed, bytes),
        _ => check::<bulk::Table>(seed, bytes),
    }
});
