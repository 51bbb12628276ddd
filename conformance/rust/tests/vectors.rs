//! Runs every case of every suite in `testdata/vectors/` through (a) the generated Rust
//! code and (b) the reference codec, and checks both against the vector:
//!
//! - `valid`: the value encodes to exactly `bytes`, and `bytes` decode to the value
//!   (compared after normalizing the vector's JSON through the type's JSON mapping);
//! - `invalid` with `bytes`: decoding fails with the vector's kind, bit and path;
//! - `invalid` with only a `value`: encoding fails with the vector's kind and path, and
//!   bit (a JSON error of the generated code, such as a number too large for the Rust
//!   type, carries no bit offset and is compared by kind and path);
//! - `encodes`: the value encodes to exactly `bytes` (one way: for lossy or lenient
//!   input such as off-grid quantized floats, which decode to another value);
//! - `acceptable`: decoding may fail or succeed, but must not panic.
//! - JSON-text cases (`text` or `text_hex`): the text goes through the implementation's
//!   own parser (`bitwire::json::parse`, the reference codec's `json_from_bytes`), then
//!   `encodes` compares the bytes (and the canonical `value`), `invalid` the error.
//!
//! Every case with `bytes` also goes through the generated `verify`, which must accept
//! the bytes of `valid` cases and fail on `invalid` ones with the vector's error.
//!
//! Cases listed in `conformance/rust/known-failures.txt` must fail; the run fails when
//! one passes. The summary line is `N passed, N failed`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use bitwire_compiler::codec::{self, CodecError};
use bitwire_compiler::ir::Schema;
use bitwire_conformance::{find, Failure};
use serde_json::Value;

/// What a vector says an error must be.
#[derive(Debug)]
struct Expected {
    kind: String,
    bit: Option<u64>,
    path: Option<String>,
}

/// An error as observed from one implementation.
#[derive(Debug)]
struct Observed {
    kind: String,
    bit: Option<u64>,
    path: String,
}

impl Observed {
    fn from_failure(f: &Failure) -> Observed {
        match f {
            Failure::Wire(e) => Observed {
                kind: e.kind().name().into(),
                bit: Some(e.bit()),
                path: e.path_string(),
            },
            Failure::Json(e) => Observed {
                kind: e.kind().name().into(),
                bit: None,
                path: e.path_string(),
            },
        }
    }

    fn from_codec(e: &CodecError) -> Observed {
        match e {
            CodecError::Wire { kind, bit, path } => Observed {
                kind: kind.name().into(),
                bit: Some(*bit),
                path: path.clone(),
            },
            CodecError::Json { kind, path, .. } => Observed {
                kind: kind.name().into(),
                bit: None,
                path: path.clone(),
            },
            CodecError::Shape { path, message } => Observed {
                kind: format!("Shape({message})"),
                bit: None,
                path: path.clone(),
            },
        }
    }

    /// Whether this error is the expected one; a missing bit is not compared.
    fn check(&self, want: &Expected) -> Result<(), String> {
        let bit_ok = match (want.bit, self.bit) {
            (Some(w), Some(o)) => w == o,
            _ => true,
        };
        let path_ok = want.path.as_ref().is_none_or(|p| *p == self.path);
        if self.kind == want.kind && bit_ok && path_ok {
            Ok(())
        } else {
            Err(format!("expected {want:?}, got {self:?}"))
        }
    }
}

fn vectors_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors")
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

fn expected_error(case: &Value) -> Expected {
    let e = &case["error"];
    Expected {
        kind: e["kind"].as_str().expect("error.kind").to_string(),
        bit: e["bit"].as_u64(),
        path: e["path"].as_str().map(str::to_string),
    }
}

/// The JSON text of a text case (`text`, or `text_hex` for bytes that are not UTF-8).
fn case_text(case: &Value) -> Option<Vec<u8>> {
    match case["text"].as_str() {
        Some(t) => Some(t.as_bytes().to_vec()),
        None => case["text_hex"].as_str().map(hex_decode),
    }
}

/// What a text case checks, given the implementation's parse-map-encode of the text
/// and its normalization of a parsed value.
fn check_text_case<E: std::fmt::Debug>(
    case: &Value,
    encoded: Result<Vec<u8>, E>,
    observe: impl Fn(&E) -> Observed,
    normalized: impl Fn() -> Result<(Value, Value), String>,
) -> Result<(), String> {
    match (case["result"].as_str(), encoded) {
        (Some("encodes"), Ok(b)) => {
            let want = hex_decode(case["bytes"].as_str().ok_or("case has no bytes")?);
            if b != want {
                return Err(format!("encoded {}, expected {}", hex(&b), hex(&want)));
            }
            if case.get("value").is_some() {
                let (got, want) = normalized()?;
                if got != want {
                    return Err(format!("the text maps to {got}, expected {want}"));
                }
            }
            Ok(())
        }
        (Some("encodes"), Err(e)) => Err(format!("failed: {e:?}")),
        (Some("invalid"), Ok(b)) => Err(format!("encoded invalid text to {}", hex(&b))),
        (Some("invalid"), Err(e)) => observe(&e).check(&expected_error(case)),
        (r, _) => Err(format!("malformed text case (result {r:?})")),
    }
}

/// Runs one text case through `bitwire::json::parse` and the generated code.
fn run_generated_text(
    c: &bitwire_conformance::TypeCodec,
    case: &Value,
    text: &[u8],
) -> Result<(), String> {
    let parsed = bitwire::json::parse(text).map_err(Failure::Json);
    let encoded = parsed.clone().and_then(|v| (c.encode)(&v));
    check_text_case(case, encoded, Observed::from_failure, || {
        let v = parsed.clone().map_err(|e| format!("{e:?}"))?;
        let got = (c.normalize)(&v).map_err(|e| format!("{e:?}"))?;
        let want = (c.normalize)(&case["value"]).map_err(|e| format!("{e:?}"))?;
        Ok((got, want))
    })
}

/// Runs one text case through the reference codec's parser and encoder.
fn run_reference_text(
    schema: &Schema,
    ty: bitwire_compiler::ir::TypeId,
    case: &Value,
    text: &[u8],
) -> Result<(), String> {
    let parsed = codec::json_from_bytes(text);
    let encoded = parsed
        .clone()
        .and_then(|v| codec::encode_json(schema, ty, &v));
    check_text_case(case, encoded, Observed::from_codec, || {
        let norm = |v: &Value| {
            codec::value_from_json(schema, ty, v)
                .map(|x| codec::value_to_json(schema, ty, &x))
                .map_err(|e| e.to_string())
        };
        let v = parsed.clone().map_err(|e| e.to_string())?;
        Ok((norm(&v)?, norm(&case["value"])?))
    })
}

/// Runs one case through the generated code.
fn run_generated(suite: &str, case: &Value) -> Result<(), String> {
    let ty = case["type"].as_str().ok_or("case has no type")?;
    let c = find(suite, ty).ok_or_else(|| format!("no generated type {suite}.{ty}"))?;
    if let Some(text) = case_text(case) {
        return run_generated_text(&c, case, &text);
    }
    let result = case["result"].as_str().ok_or("case has no result")?;
    let bytes = case["bytes"].as_str().map(hex_decode);
    let value = case.get("value");
    match (result, value, bytes) {
        ("valid", Some(v), Some(b)) => {
            let encoded = (c.encode)(v).map_err(|e| format!("encode failed: {e:?}"))?;
            if encoded != b {
                return Err(format!("encoded {}, expected {}", hex(&encoded), hex(&b)));
            }
            let decoded = (c.decode)(&b).map_err(|e| format!("decode failed: {e:?}"))?;
            (c.verify)(&b).map_err(|e| format!("verify failed: {e:?}"))?;
            let want = (c.normalize)(v).map_err(|e| format!("normalize failed: {e:?}"))?;
            if decoded != want {
                return Err(format!("decoded {decoded}, expected {want}"));
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
        ("invalid", _, Some(b)) => {
            match (c.verify)(&b) {
                Ok(()) => return Err("verify accepted invalid input".into()),
                Err(e) => Observed::from_failure(&Failure::Wire(e))
                    .check(&expected_error(case))
                    .map_err(|e| format!("verify: {e}"))?,
            }
            match (c.decode)(&b) {
                Ok(v) => Err(format!("decoded {v} from invalid input")),
                Err(f) => Observed::from_failure(&f).check(&expected_error(case)),
            }
        }
        ("invalid", Some(v), None) => match (c.encode)(v) {
            Ok(b) => Err(format!("encoded invalid value to {}", hex(&b))),
            Err(f) => Observed::from_failure(&f).check(&expected_error(case)),
        },
        ("acceptable", _, Some(b)) => {
            let decoded = (c.decode)(&b).map(drop);
            let verified = (c.verify)(&b).map_err(Failure::Wire);
            match (decoded, verified) {
                (Ok(()), Ok(())) => Ok(()),
                (Err(d), Err(v)) if format!("{d:?}") == format!("{v:?}") => Ok(()),
                (d, v) => Err(format!("decode gave {d:?} but verify {v:?}")),
            }
        }
        (r, _, _) => Err(format!("malformed case (result {r})")),
    }
}

/// Runs one case through the reference codec.
fn run_reference(schema: &Schema, case: &Value) -> Result<(), String> {
    let name = case["type"].as_str().ok_or("case has no type")?;
    let ty = schema
        .type_by_name(name)
        .ok_or_else(|| format!("no type {name}"))?;
    if let Some(text) = case_text(case) {
        return run_reference_text(schema, ty, case, &text);
    }
    let result = case["result"].as_str().ok_or("case has no result")?;
    let bytes = case["bytes"].as_str().map(hex_decode);
    let value = case.get("value");
    match (result, value, bytes) {
        ("valid", Some(v), Some(b)) => {
            let encoded =
                codec::encode_json(schema, ty, v).map_err(|e| format!("encode failed: {e}"))?;
            if encoded != b {
                return Err(format!("encoded {}, expected {}", hex(&encoded), hex(&b)));
            }
            let decoded =
                codec::decode_to_json(schema, ty, &b).map_err(|e| format!("decode failed: {e}"))?;
            let parsed = codec::value_from_json(schema, ty, v)
                .map_err(|e| format!("normalize failed: {e}"))?;
            let want = codec::value_to_json(schema, ty, &parsed);
            if decoded != want {
                return Err(format!("decoded {decoded}, expected {want}"));
            }
            Ok(())
        }
        ("encodes", Some(v), Some(b)) => {
            let encoded =
                codec::encode_json(schema, ty, v).map_err(|e| format!("encode failed: {e}"))?;
            if encoded != b {
                return Err(format!("encoded {}, expected {}", hex(&encoded), hex(&b)));
            }
            Ok(())
        }
        ("invalid", _, Some(b)) => match codec::decode_to_json(schema, ty, &b) {
            Ok(v) => Err(format!("decoded {v} from invalid input")),
            Err(e) => Observed::from_codec(&e).check(&expected_error(case)),
        },
        ("invalid", Some(v), None) => match codec::encode_json(schema, ty, v) {
            Ok(b) => Err(format!("encoded invalid value to {}", hex(&b))),
            Err(e) => Observed::from_codec(&e).check(&expected_error(case)),
        },
        ("acceptable", _, Some(b)) => {
            let _ = codec::decode_to_json(schema, ty, &b);
            Ok(())
        }
        (r, _, _) => Err(format!("malformed case (result {r})")),
    }
}

fn known_failures() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("known-failures.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn every_vector_suite() {
    let mut suites: Vec<PathBuf> = std::fs::read_dir(vectors_dir())
        .expect("testdata/vectors exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    suites.sort();
    assert!(!suites.is_empty(), "no vector suites found");

    let known = known_failures();
    let mut seen = BTreeSet::new();
    let (mut passed, mut failed) = (0usize, 0usize);
    let mut problems = Vec::new();
    for path in &suites {
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read suite"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let suite = doc["suite"].as_str().expect("suite name");
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
            let outcome = match (run_generated(suite, case), run_reference(&schema, case)) {
                (Ok(()), Ok(())) => Ok(()),
                (g, r) => {
                    let mut why = Vec::new();
                    if let Err(e) = g {
                        why.push(format!("generated: {e}"));
                    }
                    if let Err(e) = r {
                        why.push(format!("reference: {e}"));
                    }
                    Err(why.join("; "))
                }
            };
            match (outcome, known.contains(&id)) {
                (Ok(()), false) => passed += 1,
                (Ok(()), true) => {
                    passed += 1;
                    problems.push(format!("{id}: listed in known-failures.txt but passes"));
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
            "{id}: listed in known-failures.txt but no such case"
        ));
    }
    println!("{passed} passed, {failed} failed");
    assert!(
        problems.is_empty(),
        "conformance problems:\n{}",
        problems.join("\n")
    );
}
