//! Runs every case of every suite in `testdata/vectors/bincode/` (docs/spec.md §13)
//! through the generated Rust bincode codec (`bitwire::Bincode`):
//!
//! - `valid`: the value encodes to exactly `bytes` (appended to a buffer that already
//!   holds bytes), and `bytes` decode to the value (compared after normalizing the
//!   vector's JSON through the type's JSON mapping);
//! - `encodes`: the value encodes to exactly `bytes`;
//! - `invalid` with `bytes`: decoding fails with the vector's kind, bit and path;
//! - `invalid` with only a `value`: encoding fails with the vector's kind, path and bit
//!   (a value the Rust type cannot hold fails in `from_json`, without a bit);
//! - `acceptable`: decoding may fail or succeed, but must not panic.
//!
//! Every case with `bytes` also goes through `verify_bincode`, which must give exactly
//! what decoding gives, and through `decode_bincode_into` on values already decoded from
//! the suite's valid cases of the type (so into vectors and strings of other lengths),
//! which must give exactly what a fresh decode gives.
//!
//! Cases listed in `conformance/rust/known-failures-bincode.txt` must fail; the run fails
//! when one passes. The summary line is `N passed, N failed`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use bitwire::Limits;
use bitwire_conformance::{find_bincode, BincodeCodec, Failure};
use serde_json::Value;

/// What a vector says an error must be.
#[derive(Debug)]
struct Expected {
    kind: String,
    bit: Option<u64>,
    path: Option<String>,
}

fn expected_error(case: &Value) -> Expected {
    let e = &case["error"];
    Expected {
        kind: e["kind"].as_str().expect("error.kind").to_string(),
        bit: e["bit"].as_u64(),
        path: e["path"].as_str().map(str::to_string),
    }
}

/// Whether `f` is the expected error; a JSON error has no bit to compare.
fn check_error(f: &Failure, want: &Expected) -> Result<(), String> {
    let (kind, bit, path) = match f {
        Failure::Wire(e) => (e.kind().name(), Some(e.bit()), e.path_string()),
        Failure::Json(e) => (e.kind().name(), None, e.path_string()),
    };
    let bit_ok = match (want.bit, bit) {
        (Some(w), Some(o)) => w == o,
        _ => true,
    };
    let path_ok = want.path.as_ref().is_none_or(|p| *p == path);
    if kind == want.kind && bit_ok && path_ok {
        Ok(())
    } else {
        Err(format!(
            "expected {want:?}, got {kind} at bit {bit:?}, path {path:?}"
        ))
    }
}

fn bincode_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors/bincode")
}

use bitwire_compiler::codec::to_hex as hex;
use bitwire_conformance::check::hex as hex_decode;

/// Decoding `bytes`, as a comparable outcome: the value's JSON or the error's
/// kind, bit and path.
fn outcome(r: Result<Value, Failure>) -> Result<Value, String> {
    r.map_err(|f| match f {
        Failure::Wire(e) => format!("{} at bit {}, {:?}", e.kind(), e.bit(), e.path_string()),
        Failure::Json(e) => format!("json {e:?}"),
    })
}

/// Checks that `verify` and `decode_into` (from every seed) agree with `decode`.
fn agreement(c: &BincodeCodec, bytes: &[u8], seeds: &[Vec<u8>]) -> Result<(), String> {
    let limits = Limits::DEFAULT;
    let decoded = outcome((c.decode)(bytes, &limits));
    let verified = (c.verify)(bytes, &limits).map_err(Failure::Wire);
    let verified = outcome(verified.map(|()| Value::Null));
    match (&decoded, &verified) {
        (Ok(_), Ok(_)) => {}
        (Err(d), Err(v)) if d == v => {}
        (d, v) => return Err(format!("decode gave {d:?} but verify {v:?}")),
    }
    for seed in seeds {
        let into = outcome((c.decode_into)(seed, bytes, &limits));
        if into != decoded {
            return Err(format!(
                "decode_into a value from {} gave {into:?}, decode {decoded:?}",
                hex(seed)
            ));
        }
    }
    Ok(())
}

/// Runs one case through the generated code; `seeds` are the bytes of the suite's
/// valid cases of the case's type.
fn run_case(suite: &str, case: &Value, seeds: &[Vec<u8>]) -> Result<(), String> {
    let ty = case["type"].as_str().ok_or("case has no type")?;
    let c = find_bincode(suite, ty).ok_or_else(|| format!("no generated type {suite}.{ty}"))?;
    let result = case["result"].as_str().ok_or("case has no result")?;
    let bytes = case["bytes"].as_str().map(hex_decode);
    if let Some(b) = &bytes {
        agreement(&c, b, seeds)?;
    }
    let limits = Limits::DEFAULT;
    match (result, case.get("value"), bytes) {
        ("valid", Some(v), Some(b)) => {
            let encoded = (c.encode)(v).map_err(|e| format!("encode failed: {e:?}"))?;
            if encoded != b {
                return Err(format!("encoded {}, expected {}", hex(&encoded), hex(&b)));
            }
            let decoded = (c.decode)(&b, &limits).map_err(|e| format!("decode failed: {e:?}"))?;
            let want = (c.normalize)(v).map_err(|e| format!("normalize failed: {e:?}"))?;
            if decoded != want {
                return Err(format!("decoded {decoded}, expected {want}"));
            }
            let n = b.len() as u64;
            if n < c.min_bytes || c.max_bytes.is_some_and(|m| n > m) {
                return Err(format!(
                    "{n} bytes outside MIN_BYTES {} ..= MAX_BYTES {:?}",
                    c.min_bytes, c.max_bytes
                ));
            }
            Ok(())
        }
        ("encodes", Some(v), Some(b)) => {
            let encoded = (c.encode)(v).map_err(|e| format!("encode failed: {e:?}"))?;
            if encoded != b {
                return Err(format!("encoded {}, expected {}", hex(&encoded), hex(&b)));
            }
            Ok(())
        }
        ("invalid", _, Some(b)) => match (c.decode)(&b, &limits) {
            Ok(v) => Err(format!("decoded {v} from invalid input")),
            Err(f) => check_error(&f, &expected_error(case)),
        },
        ("invalid", Some(v), None) => match (c.encode)(v) {
            Ok(b) => Err(format!("encoded invalid value to {}", hex(&b))),
            Err(f) => check_error(&f, &expected_error(case)),
        },
        // Bytes JSON cannot spell exactly (a NaN with a payload): they decode to the
        // value, and the decoded value (not its JSON) encodes back to them.
        ("decodes", Some(v), Some(b)) => {
            let decoded = (c.decode)(&b, &limits).map_err(|e| format!("decode failed: {e:?}"))?;
            let want = (c.normalize)(v).map_err(|e| format!("normalize failed: {e:?}"))?;
            if decoded != want {
                return Err(format!("decoded {decoded}, expected {want}"));
            }
            let again = (c.reencode)(&b).map_err(|e| format!("re-encode failed: {e:?}"))?;
            if again != b {
                return Err(format!("re-encoded {}, expected {}", hex(&again), hex(&b)));
            }
            Ok(())
        }
        // Decoding, verify and decode_into agreed and did not panic.
        ("acceptable", _, Some(_)) => Ok(()),
        (r, _, _) => Err(format!("malformed case (result {r})")),
    }
}

fn known_failures() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("known-failures-bincode.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The bytes of the valid cases of each type of a suite, at most four per type.
fn seeds(cases: &[Value]) -> BTreeMap<String, Vec<Vec<u8>>> {
    let mut seeds: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for case in cases.iter().filter(|c| c["result"] == "valid") {
        let (Some(ty), Some(b)) = (case["type"].as_str(), case["bytes"].as_str()) else {
            continue;
        };
        let list = seeds.entry(ty.to_string()).or_default();
        if list.len() < 4 {
            list.push(hex_decode(b));
        }
    }
    seeds
}

#[test]
fn every_bincode_vector_suite() {
    let mut suites: Vec<PathBuf> = std::fs::read_dir(bincode_dir())
        .expect("testdata/vectors/bincode exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    suites.sort();
    assert!(!suites.is_empty(), "no bincode vector suites found");

    let known = known_failures();
    let mut seen = BTreeSet::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut problems = Vec::new();
    for path in &suites {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read suite"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            doc["encoding"],
            "bincode",
            "{}: not a bincode suite",
            path.display()
        );
        let suite = doc["suite"].as_str().expect("suite name");
        let cases = doc["cases"].as_array().expect("cases");
        let seeds = seeds(cases);
        for case in cases {
            let id = case["id"].as_str().expect("case id").to_string();
            assert!(seen.insert(id.clone()), "duplicate case id {id}");
            let ty = case["type"].as_str().unwrap_or_default();
            let type_seeds = seeds.get(ty).map(Vec::as_slice).unwrap_or_default();
            match (run_case(suite, case, type_seeds), known.contains(&id)) {
                (Ok(()), false) => passed += 1,
                (Ok(()), true) => {
                    passed += 1;
                    problems.push(format!(
                        "{id}: listed in known-failures-bincode.txt but passes"
                    ));
                }
                (Err(why), true) => {
                    failed += 1;
                    println!("known failure {id}: {why}");
                }
                (Err(why), false) => {
                    failed += 1;
                    problems.push(format!("{id}: {why}"));
                }
            }
        }
    }
    for id in known.difference(&seen) {
        problems.push(format!(
            "{id}: listed in known-failures-bincode.txt but no such case"
        ));
    }
    println!("{passed} passed, {failed} failed");
    assert!(
        problems.is_empty(),
        "bincode conformance problems:\n{}",
        problems.join("\n")
    );
}
