//! Runs every case of the delta vector suites (`testdata/vectors/delta/*.json`, spec §12)
//! through (a) the generated Rust code (`bitwire::Delta` of each `delta message`) and
//! (b) the reference codec (`codec::encode_delta` / `decode_delta`):
//!
//! - `valid`: the value encoded against the baseline is exactly `bytes`, and `bytes`
//!   decoded against the baseline give what decoding the value's full encoding gives;
//!   the generated `verify_delta` accepts them;
//! - `encodes`: the value encodes to exactly `bytes` (one way: off-grid input);
//! - `invalid` with `bytes`: decoding (and the generated `verify_delta`) fails with the
//!   vector's kind, bit and path;
//! - `invalid` with a value and no bytes: encoding fails with the vector's kind and path
//!   (a delta encoder's errors name no bit, §12.7).
//!
//! The summary line is `N passed, N failed`.

use std::path::{Path, PathBuf};

use bitwire_compiler::codec::{self, CodecError};
use bitwire_compiler::ir::Schema;
use bitwire_conformance::{find, find_delta, Failure};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors/delta")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// An error as `(kind, bit, path)`; a JSON mapping error has no bit.
type Seen = (String, Option<u64>, String);

fn from_failure(f: &Failure) -> Seen {
    match f {
        Failure::Wire(e) => (e.kind().name().into(), Some(e.bit()), e.path_string()),
        Failure::Json(e) => (e.kind().name().into(), None, e.path_string()),
    }
}

fn from_codec(e: &CodecError) -> Seen {
    match e {
        CodecError::Wire { kind, bit, path } => (kind.name().into(), Some(*bit), path.clone()),
        CodecError::Json { kind, path, .. } => (kind.name().into(), None, path.clone()),
        CodecError::Shape { path, message } => (format!("Shape({message})"), None, path.clone()),
    }
}

/// Whether `seen` is the case's error; the bit only when `with_bit` (decoding).
fn check_error(case: &Value, seen: &Seen, with_bit: bool) -> Result<(), String> {
    let e = &case["error"];
    let kind_ok = e["kind"].as_str() == Some(seen.0.as_str());
    let bit_ok = !with_bit || e["bit"].as_u64() == seen.1;
    let path_ok = e["path"].as_str() == Some(seen.2.as_str());
    if kind_ok && bit_ok && path_ok {
        Ok(())
    } else {
        Err(format!("expected {e}, got {seen:?}"))
    }
}

/// One case through the generated code.
fn run_generated(case: &Value) -> Result<(), String> {
    let ty = case["type"].as_str().ok_or("no type")?;
    let c = find_delta(ty).ok_or_else(|| format!("no generated delta message {ty}"))?;
    let full = find("delta", ty).ok_or("no generated type")?;
    let base = &case["baseline"];
    let bytes = case["bytes"].as_str().map(unhex);
    let limits = bitwire::Limits::DEFAULT;
    match (case["result"].as_str(), case.get("value"), bytes) {
        (Some(result @ ("valid" | "encodes")), Some(v), Some(b)) => {
            let got = (c.encode)(base, v).map_err(|e| format!("encode: {e:?}"))?;
            if got != b {
                return Err(format!(
                    "encoded {}, expected {}",
                    codec::to_hex(&got),
                    codec::to_hex(&b)
                ));
            }
            if result == "encodes" {
                return Ok(());
            }
            let decoded = (c.decode)(base, &b, &limits).map_err(|e| format!("decode: {e:?}"))?;
            (c.verify)(base, &b).map_err(|e| format!("verify: {e:?}"))?;
            let want = (full.encode)(v).and_then(|bytes| (full.decode)(&bytes));
            let want = want.map_err(|e| format!("full codec: {e:?}"))?;
            if decoded != want {
                return Err(format!("decoded {decoded}, expected {want}"));
            }
            Ok(())
        }
        (Some("invalid"), None, Some(b)) => {
            match (c.verify)(base, &b) {
                Ok(()) => return Err("verify accepted invalid input".into()),
                Err(f) => check_error(case, &from_failure(&f), true)
                    .map_err(|e| format!("verify: {e}"))?,
            }
            match (c.decode)(base, &b, &limits) {
                Ok(v) => Err(format!("decoded {v} from invalid input")),
                Err(f) => check_error(case, &from_failure(&f), true),
            }
        }
        (Some("invalid"), Some(v), None) => match (c.encode)(base, v) {
            Ok(b) => Err(format!("encoded invalid value to {}", codec::to_hex(&b))),
            Err(f) => check_error(case, &from_failure(&f), false),
        },
        (r, _, _) => Err(format!("malformed case (result {r:?})")),
    }
}

/// One case through the reference codec.
fn run_reference(s: &Schema, case: &Value) -> Result<(), String> {
    let name = case["type"].as_str().ok_or("no type")?;
    let ty = s.type_by_name(name).ok_or("no such type")?;
    let value_of = |j: &Value| codec::value_from_json(s, ty, j).map_err(|e| e.to_string());
    let base = value_of(&case["baseline"])?;
    let bytes = case["bytes"].as_str().map(unhex);
    match (case["result"].as_str(), case.get("value"), bytes) {
        (Some(result @ ("valid" | "encodes")), Some(v), Some(b)) => {
            let v = value_of(v)?;
            let got = codec::encode_delta(s, ty, &base, &v).map_err(|e| e.to_string())?;
            if got != b {
                return Err(format!("encoded {}", codec::to_hex(&got)));
            }
            if result == "valid" {
                let back = codec::decode_delta(s, ty, &base, &b).map_err(|e| e.to_string())?;
                let full = codec::encode(s, ty, &v).and_then(|f| codec::decode(s, ty, &f));
                if Ok(back) != full {
                    return Err("decodes to another value".into());
                }
            }
            Ok(())
        }
        (Some("invalid"), None, Some(b)) => match codec::decode_delta(s, ty, &base, &b) {
            Ok(_) => Err("decoded invalid input".into()),
            Err(e) => check_error(case, &from_codec(&e), true),
        },
        (Some("invalid"), Some(v), None) => {
            let v = match codec::value_from_json(s, ty, v) {
                Ok(v) => v,
                Err(e) => return check_error(case, &from_codec(&e), false),
            };
            match codec::encode_delta(s, ty, &base, &v) {
                Ok(b) => Err(format!("encoded an invalid value to {}", codec::to_hex(&b))),
                Err(e) => check_error(case, &from_codec(&e), false),
            }
        }
        (r, _, _) => Err(format!("malformed case (result {r:?})")),
    }
}

#[test]
fn every_delta_vector_suite() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("testdata/vectors/delta exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no delta vector suites");
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut problems = Vec::new();
    for path in files {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let schema_path = dir().join(doc["schema"].as_str().expect("schema"));
        let s = bitwire_compiler::compile_file(&schema_path)
            .unwrap_or_else(|d| panic!("{}", d.render()));
        for case in doc["cases"].as_array().expect("cases") {
            let id = case["id"].as_str().expect("id");
            let mut why = Vec::new();
            if let Err(e) = run_generated(case) {
                why.push(format!("generated: {e}"));
            }
            if let Err(e) = run_reference(&s, case) {
                why.push(format!("reference: {e}"));
            }
            if why.is_empty() {
                passed += 1;
            } else {
                failed += 1;
                problems.push(format!("{id}: {}", why.join("; ")));
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    assert!(
        problems.is_empty(),
        "delta vectors:\n{}",
        problems.join("\n")
    );
}
