//! Properties of the generated bincode codec (docs/spec.md §13) over every value of the
//! packed vector suites (`testdata/vectors/*.json`, the `valid` and `encodes` cases
//! with a value): every construct of the schema language in many shapes, without
//! needing bincode vectors for them.
//!
//! For each value: it encodes (the schema's checks are the same in both encodings);
//! the bytes decode to the value and encode back to themselves; their length is within
//! `MIN_BYTES..=MAX_BYTES`; every strict prefix fails, and one more byte is
//! `TrailingData` at the first of it; and for the bytes, each prefix and byte-mutated
//! variants, `verify_bincode` and `decode_bincode_into` (into values of the same type
//! decoded before) give exactly what `decode_bincode` gives, and whatever decodes
//! encodes back to exactly the bytes it came from (bincode has one encoding per value).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use bitwire::{ErrorKind, Limits};
use bitwire_conformance::{bincode_registry, BincodeCodec, Failure};
use serde_json::Value;

/// Decoding, as a comparable outcome.
fn outcome(r: Result<Value, Failure>) -> Result<Value, String> {
    r.map_err(|f| match f {
        Failure::Wire(e) => format!("{} at bit {}, {:?}", e.kind(), e.bit(), e.path_string()),
        Failure::Json(e) => format!("json {e:?}"),
    })
}

/// The checks every input gets: verify, decode_into and re-encoding agree with decode.
/// Returns the decode's error kind, if it failed.
fn agree(c: &BincodeCodec, bytes: &[u8], seeds: &[Vec<u8>]) -> Result<Option<ErrorKind>, String> {
    let limits = Limits::DEFAULT;
    let decoded = (c.decode)(bytes, &limits);
    let kind = match &decoded {
        Err(Failure::Wire(e)) => Some(e.kind()),
        _ => None,
    };
    let decoded = outcome(decoded);
    let verified = outcome(
        (c.verify)(bytes, &limits)
            .map(|()| Value::Null)
            .map_err(Failure::Wire),
    );
    if decoded.is_ok() != verified.is_ok() || (decoded.is_err() && decoded != verified) {
        return Err(format!("decode {decoded:?}, verify {verified:?}"));
    }
    for seed in seeds {
        let into = outcome((c.decode_into)(seed, bytes, &limits));
        if into != decoded {
            return Err(format!("decode_into {into:?}, decode {decoded:?}"));
        }
    }
    if decoded.is_ok() {
        let again = (c.reencode)(bytes).map_err(|e| format!("re-encode failed: {e}"))?;
        if again != bytes {
            return Err(format!("decoded bytes {bytes:02x?} encode to {again:02x?}"));
        }
    }
    Ok(kind)
}

/// Byte-mutated variants of `bytes`: each of up to 24 positions set to a few values.
fn mutations(bytes: &[u8]) -> Vec<Vec<u8>> {
    let step = bytes.len().div_ceil(24).max(1);
    let mut out = Vec::new();
    for at in (0..bytes.len()).step_by(step) {
        for v in [0x00, 0x01, 0x02, 0xff, bytes[at] ^ 0x80] {
            if v != bytes[at] {
                let mut m = bytes.to_vec();
                m[at] = v;
                out.push(m);
            }
        }
    }
    out
}

/// Every property for one value of `c`'s type; `seeds` are bytes of other values.
fn check_value(c: &BincodeCodec, value: &Value, seeds: &[Vec<u8>]) -> Result<Vec<u8>, String> {
    let bytes = (c.encode)(value).map_err(|e| format!("encode failed: {e:?}"))?;
    let limits = Limits::DEFAULT;
    let decoded = (c.decode)(&bytes, &limits).map_err(|e| format!("decode failed: {e:?}"))?;
    let want = (c.normalize)(value).map_err(|e| format!("normalize: {e:?}"))?;
    if decoded != want {
        return Err(format!("decoded {decoded}, expected {want}"));
    }
    let n = bytes.len() as u64;
    if n < c.min_bytes || c.max_bytes.is_some_and(|m| n > m) {
        return Err(format!(
            "{n} bytes, MIN_BYTES {} MAX_BYTES {:?}",
            c.min_bytes, c.max_bytes
        ));
    }
    agree(c, &bytes, seeds)?;
    for len in 0..bytes.len() {
        match agree(c, &bytes[..len], seeds)? {
            Some(ErrorKind::Truncated | ErrorKind::LimitExceeded) => {}
            other => return Err(format!("prefix of {len} bytes: {other:?}")),
        }
    }
    let mut longer = bytes.clone();
    longer.push(0);
    match (c.decode)(&longer, &limits) {
        Err(Failure::Wire(e)) if e.kind() == ErrorKind::TrailingData && e.bit() == 8 * n => {}
        other => return Err(format!("one byte more: {other:?}")),
    }
    for m in mutations(&bytes) {
        agree(c, &m, seeds).map_err(|e| format!("mutated {m:02x?}: {e}"))?;
    }
    Ok(bytes)
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors")
}

#[test]
fn every_packed_vector_value_round_trips_through_bincode() {
    let registry: BTreeMap<(&str, &str), BincodeCodec> = bincode_registry()
        .into_iter()
        .map(|c| ((c.suite, c.type_name), c))
        .collect();
    let mut suites: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("testdata/vectors exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    suites.sort();
    let (mut values, mut problems) = (0usize, Vec::new());
    for path in &suites {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read"))
            .expect("a vector file");
        let suite = doc["suite"].as_str().expect("suite");
        // Bytes of values already checked, by type: the seeds of decode_into.
        let mut seeds: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
        for case in doc["cases"].as_array().expect("cases") {
            let result = case["result"].as_str().unwrap_or_default();
            let (Some(value), Some(ty)) = (case.get("value"), case["type"].as_str()) else {
                continue;
            };
            if !matches!(result, "valid" | "encodes") {
                continue;
            }
            let Some(c) = registry.get(&(suite, ty)) else {
                problems.push(format!("{suite}.{ty}: no bincode codec"));
                continue;
            };
            let type_seeds = seeds.entry(ty.to_string()).or_default();
            values += 1;
            match check_value(c, value, type_seeds) {
                Ok(bytes) if type_seeds.len() < 3 => type_seeds.push(bytes),
                Ok(_) => {}
                Err(why) => problems.push(format!("{}: {why}", case["id"])),
            }
        }
    }
    println!("{values} values, {} problems", problems.len());
    assert!(values > 100, "only {values} values found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
