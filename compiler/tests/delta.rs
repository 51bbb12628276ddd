//! The reference codec's delta encoding (spec §12): the shared vectors of
//! `testdata/vectors/delta/`, and properties over random (baseline, value) pairs of
//! every delta message there — decoding a delta gives what decoding the full encoding
//! gives, and every delta a decoder accepts is the one the encoder writes (canonical
//! form, §12.6), also for mutated bytes, which never panic.

use std::path::Path;

use bitwire_compiler::codec::random::Rng;
use bitwire_compiler::codec::random_delta::{perturb, sort_keys};
use bitwire_compiler::codec::{
    decode, decode_delta, encode, encode_delta, random::random_value, value_from_json, CodecError,
    Value,
};
use bitwire_compiler::ir::{Schema, Type, TypeId};

fn dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/vectors/delta")
}

fn schema() -> Schema {
    bitwire_compiler::compile_file(&dir().join("delta.bw")).expect("delta.bw compiles")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).expect("hex"))
        .collect()
}

fn wire(e: &CodecError) -> (String, u64, String) {
    match e {
        CodecError::Wire { kind, bit, path } => (kind.name().to_string(), *bit, path.clone()),
        other => panic!("not a wire error: {other}"),
    }
}

#[test]
fn vectors_through_the_reference_codec() {
    let s = schema();
    let text = std::fs::read_to_string(dir().join("delta.json")).expect("delta.json");
    let suite: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let cases = suite["cases"].as_array().expect("cases");
    assert!(cases.len() > 60, "{} cases", cases.len());
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let ty = s.type_by_name(case["type"].as_str().unwrap()).unwrap();
        let base = value_from_json(&s, ty, &case["baseline"]).expect(id);
        let value = case
            .get("value")
            .map(|v| value_from_json(&s, ty, v).expect(id));
        let bytes = case.get("bytes").map(|b| unhex(b.as_str().unwrap()));
        match (case["result"].as_str().unwrap(), value, bytes) {
            (result @ ("valid" | "encodes"), Some(v), Some(b)) => {
                let got = encode_delta(&s, ty, &base, &v).expect(id);
                assert_eq!(hex(&got), hex(&b), "{id}");
                if result == "valid" {
                    let back = decode_delta(&s, ty, &base, &b).expect(id);
                    let full = decode(&s, ty, &encode(&s, ty, &v).unwrap()).unwrap();
                    assert_eq!(back, full, "{id}");
                }
            }
            ("invalid", None, Some(b)) => {
                let e = decode_delta(&s, ty, &base, &b).expect_err(id);
                let want = &case["error"];
                let (kind, bit, path) = wire(&e);
                assert_eq!(kind, want["kind"].as_str().unwrap(), "{id}");
                assert_eq!(bit, want["bit"].as_u64().unwrap(), "{id}");
                assert_eq!(path, want["path"].as_str().unwrap(), "{id}");
            }
            ("invalid", Some(v), None) => {
                let e = encode_delta(&s, ty, &base, &v).expect_err(id);
                let (kind, _, path) = wire(&e);
                assert_eq!(kind, case["error"]["kind"].as_str().unwrap(), "{id}");
                assert_eq!(path, case["error"]["path"].as_str().unwrap(), "{id}");
            }
            other => panic!("{id}: malformed case {:?}", other.0),
        }
    }
}

/// A value as a receiver holds it: through the full encoding and back.
fn received(s: &Schema, ty: TypeId, v: &Value) -> Value {
    decode(s, ty, &encode(s, ty, v).expect("a valid value")).expect("decodes")
}

#[test]
fn deltas_decode_to_the_value_and_are_canonical() {
    let s = schema();
    let mut rng = Rng(0x00de_17a0_5eed);
    let mut sizes = (0usize, 0usize);
    let mut outcomes = (0usize, 0usize);
    for id in s
        .types
        .iter()
        .enumerate()
        .filter(|(_, t)| t.delta)
        .map(|(i, _)| i)
    {
        let ty = Type::Named {
            id,
            name: s.types[id].name.clone(),
        };
        for round in 0..300 {
            let base = received(
                &s,
                id,
                &sort_keys(&s, &ty, &random_value(&mut rng, &s, &ty)),
            );
            let percent = [5, 30, 100][round % 3];
            let value = sort_keys(&s, &ty, &perturb(&mut rng, &s, &ty, &base, percent));
            let delta = encode_delta(&s, id, &base, &value).expect("sorted keyed lists encode");
            let back = decode_delta(&s, id, &base, &delta).expect("its own delta decodes");
            assert_eq!(back, received(&s, id, &value), "{}", s.types[id].name);
            sizes.0 += delta.len();
            sizes.1 += encode(&s, id, &value).unwrap().len();
            let (ok, bad) = mutations_stay_canonical(&s, id, &base, &delta, &mut rng);
            outcomes = (outcomes.0 + ok, outcomes.1 + bad);
        }
    }
    // The perturbed values share most of their baseline: deltas are smaller.
    assert!(
        sizes.0 < sizes.1,
        "deltas {} bytes, full {} bytes",
        sizes.0,
        sizes.1
    );
}

/// Bit flips, truncations and extensions of a valid delta: never a panic, and what
/// decodes re-encodes to the same bytes (one delta per (baseline, value), §12.6).
/// Returns how many mutations decoded and how many were rejected.
fn mutations_stay_canonical(
    s: &Schema,
    id: TypeId,
    base: &Value,
    delta: &[u8],
    rng: &mut Rng,
) -> (usize, usize) {
    let mut outcomes = (0, 0);
    for _ in 0..20 {
        let mut bytes = delta.to_vec();
        match rng.below(3) {
            0 if !bytes.is_empty() => {
                let bit = rng.below(bytes.len() as u64 * 8);
                bytes[(bit / 8) as usize] ^= 1 << (bit % 8);
            }
            1 if !bytes.is_empty() => bytes.truncate(rng.below(bytes.len() as u64) as usize),
            _ => bytes.push(rng.next_u64() as u8),
        }
        match decode_delta(s, id, base, &bytes) {
            Ok(v) => {
                outcomes.0 += 1;
                let again = encode_delta(s, id, base, &v).expect("a decoded value encodes");
                let name = &s.types[id].name;
                assert_eq!(
                    hex(&again),
                    hex(&bytes),
                    "{name} accepted a non-canonical delta"
                );
            }
            Err(_) => outcomes.1 += 1,
        }
    }
    outcomes
}

/// `bitwire delta encode | decode | explain` on the two ticks of examples/delta.
#[test]
fn cli_encodes_decodes_and_explains() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let schema = root.join("bench/delta/delta.bw");
    let base = root.join("examples/delta/tick100.json");
    let value = std::fs::read(root.join("examples/delta/tick106.json")).unwrap();
    let run = |cmd: &str, input: &[u8]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_bitwire"))
            .args(["delta", cmd, "--type", "World", "--hex", "--schema"])
            .arg(&schema)
            .arg("--baseline")
            .arg(&base)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
        (out.status.code(), text)
    };
    let (code, delta) = run("encode", &value);
    assert_eq!(code, Some(0), "{delta}");
    let delta = delta.trim().to_string();
    assert_eq!(delta.len(), 46, "23 bytes: {delta}");
    let (code, json) = run("decode", delta.as_bytes());
    assert_eq!(code, Some(0), "{json}");
    let got: serde_json::Value = serde_json::from_str(&json).unwrap();
    let want: serde_json::Value = serde_json::from_slice(&value).unwrap();
    assert_eq!(got, want);
    let (code, text) = run("explain", delta.as_bytes());
    assert_eq!(code, Some(0), "{text}");
    for line in [
        "tick                difference n-1=3, z=12 (+6): wire value 100 -> 106",
        "entities[3]         op 1: removed",
        "entities            gap 2: [4..5] unchanged",
        "entities            added 1",
        "23 bytes, 177 bits of delta",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
    let (code, text) = run("explain", &delta.as_bytes()[..20]);
    assert_eq!(code, Some(1));
    assert!(text.contains("error: Truncated at bit"), "{text}");
    let (code, text) = run("decode", b"0767");
    assert_eq!(code, Some(1));
    assert!(text.contains("delta decode failed: Truncated"), "{text}");
}
