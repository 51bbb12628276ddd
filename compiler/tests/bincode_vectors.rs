//! Every suite in `testdata/vectors/bincode/` (the case format of
//! `testdata/vectors/README.md`, `"encoding": "bincode"`) through the reference bincode
//! codec (`codec::bincode`, spec §13):
//!
//! - `valid`: the value encodes to exactly `bytes`, and `bytes` decode to the value
//!   (compared after normalizing the vector's JSON through the type's JSON mapping);
//! - `encodes`: the value encodes to exactly `bytes`;
//! - `decodes` (`testdata/vectors/bincode/README.md`): `bytes` decode to the value, and
//!   the decoded value (not the JSON, which cannot hold a NaN's payload) re-encodes to
//!   exactly `bytes`;
//! - `invalid` with `bytes`: decoding fails with the vector's kind, bit and path;
//! - `invalid` with only a `value`: encoding fails with the vector's kind, bit and path
//!   (a JSON error, which has no bit, by kind and path);
//! - `acceptable`: decoding may fail or succeed;
//! - text cases (`text`, `text_hex`): parsed by the reference JSON parser, then as
//!   `encodes` or `invalid`.
//!
//! Every case that decodes also re-encodes to exactly its bytes (bincode has one form
//! per value). The summary line is `N passed, N failed`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec::{self, bincode, CodecError};
use bitwire_compiler::ir::{Schema, TypeId};
use serde_json::Value;

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/vectors/bincode")
}

fn hex_decode(s: &str) -> Vec<u8> {
    assert!(s.len() % 2 == 0, "odd hex length: {s}");
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    codec::to_hex(bytes)
}

/// The error a case expects matches `e`: kind, path, and bit when both have one.
fn check_error(case: &Value, e: &CodecError) -> Result<(), String> {
    let want = &case["error"];
    let (kind, bit, path) = match e {
        CodecError::Wire { kind, bit, path } => (kind.name().to_string(), Some(*bit), path),
        CodecError::Json { kind, path, .. } => (kind.name().to_string(), None, path),
        CodecError::Shape { path, message } => (format!("Shape({message})"), None, path),
    };
    let kind_ok = want["kind"].as_str() == Some(kind.as_str());
    let bit_ok = match (want["bit"].as_u64(), bit) {
        (Some(w), Some(b)) => w == b,
        _ => true,
    };
    let path_ok = want["path"].as_str().is_none_or(|p| p == path);
    if kind_ok && bit_ok && path_ok {
        Ok(())
    } else {
        Err(format!("expected {want}, got {e:?}"))
    }
}

/// `bytes` decode to `want` (normalized through the JSON mapping) and re-encode to
/// themselves.
fn decodes_to(schema: &Schema, ty: TypeId, bytes: &[u8], want: &Value) -> Result<(), String> {
    let value = bincode::decode(schema, ty, bytes).map_err(|e| format!("decode failed: {e}"))?;
    let got = codec::value_to_json(schema, ty, &value);
    let parsed =
        codec::value_from_json(schema, ty, want).map_err(|e| format!("normalize failed: {e}"))?;
    let want = codec::value_to_json(schema, ty, &parsed);
    if got != want {
        return Err(format!("decoded {got}, expected {want}"));
    }
    let again = bincode::encode(schema, ty, &value).map_err(|e| format!("re-encode: {e}"))?;
    if again != bytes {
        return Err(format!("re-encoded to {}", hex(&again)));
    }
    Ok(())
}

fn encodes_to(schema: &Schema, ty: TypeId, value: &Value, bytes: &[u8]) -> Result<(), String> {
    let encoded =
        bincode::encode_json(schema, ty, value).map_err(|e| format!("encode failed: {e}"))?;
    if encoded != bytes {
        return Err(format!(
            "encoded {}, expected {}",
            hex(&encoded),
            hex(bytes)
        ));
    }
    Ok(())
}

/// A text case: the reference parser, the mapping, the bincode encoder.
fn run_text(schema: &Schema, ty: TypeId, case: &Value, text: &[u8]) -> Result<(), String> {
    let encoded = codec::json_from_bytes(text).and_then(|v| bincode::encode_json(schema, ty, &v));
    match (case["result"].as_str(), encoded) {
        (Some("encodes"), Ok(b)) => {
            let want = hex_decode(case["bytes"].as_str().ok_or("case has no bytes")?);
            if b != want {
                return Err(format!("encoded {}, expected {}", hex(&b), hex(&want)));
            }
            Ok(())
        }
        (Some("invalid"), Ok(b)) => Err(format!("encoded invalid text to {}", hex(&b))),
        (Some("invalid"), Err(e)) => check_error(case, &e),
        (r, e) => Err(format!("text case with result {r:?} gave {e:?}")),
    }
}

fn run_case(schema: &Schema, case: &Value) -> Result<(), String> {
    let name = case["type"].as_str().ok_or("case has no type")?;
    let ty = schema
        .type_by_name(name)
        .ok_or_else(|| format!("no type {name}"))?;
    let text = match case["text"].as_str() {
        Some(t) => Some(t.as_bytes().to_vec()),
        None => case["text_hex"].as_str().map(hex_decode),
    };
    if let Some(text) = text {
        return run_text(schema, ty, case, &text);
    }
    let result = case["result"].as_str().ok_or("case has no result")?;
    let bytes = case["bytes"].as_str().map(hex_decode);
    match (result, case.get("value"), bytes) {
        ("valid", Some(v), Some(b)) => {
            encodes_to(schema, ty, v, &b)?;
            decodes_to(schema, ty, &b, v)
        }
        ("encodes", Some(v), Some(b)) => encodes_to(schema, ty, v, &b),
        ("decodes", Some(v), Some(b)) => decodes_to(schema, ty, &b, v),
        ("invalid", _, Some(b)) => match bincode::decode(schema, ty, &b) {
            Ok(v) => Err(format!("decoded {v:?} from invalid input")),
            Err(e) => check_error(case, &e),
        },
        ("invalid", Some(v), None) => match bincode::encode_json(schema, ty, v) {
            Ok(b) => Err(format!("encoded invalid value to {}", hex(&b))),
            Err(e) => check_error(case, &e),
        },
        ("acceptable", _, Some(b)) => match bincode::decode(schema, ty, &b) {
            Ok(value) => match bincode::encode(schema, ty, &value) {
                Ok(again) if again == b => Ok(()),
                other => Err(format!("decoded, but re-encoded to {other:?}")),
            },
            Err(_) => Ok(()),
        },
        (r, _, _) => Err(format!("malformed case (result {r})")),
    }
}

#[test]
fn every_bincode_vector_suite() {
    let mut suites: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("testdata/vectors/bincode exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    suites.sort();
    assert!(!suites.is_empty(), "no bincode vector suites found");

    let mut seen = BTreeSet::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut problems = Vec::new();
    for path in &suites {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read suite"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            doc["encoding"],
            "bincode",
            "{}: a bincode suite says \"encoding\": \"bincode\"",
            path.display()
        );
        let schema_path = vectors_dir().join(doc["schema"].as_str().expect("schema file"));
        let schema = bitwire_compiler::compile_file(&schema_path).unwrap_or_else(|d| {
            panic!(
                "{} does not compile:\n{}",
                schema_path.display(),
                d.render()
            )
        });
        for case in doc["cases"].as_array().expect("cases") {
            let id = case["id"].as_str().expect("case id").to_string();
            assert!(seen.insert(id.clone()), "duplicate case id {id}");
            match run_case(&schema, case) {
                Ok(()) => passed += 1,
                Err(why) => {
                    failed += 1;
                    problems.push(format!("{id}: {why}"));
                }
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    assert!(
        problems.is_empty(),
        "bincode vector problems:\n{}",
        problems.join("\n")
    );
}
