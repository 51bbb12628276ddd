//! The bincode differential corpus (`bitwire_conformance::bincode_corpus`, the lines
//! `diffcorpus --bincode` writes for Go and TypeScript) through the generated Rust
//! bincode code: random values of every type of the bincode suites encode to the
//! reference codec's bytes and decode back, and every mutation of those bytes gives
//! the reference decoder's value or error (kind, bit, path), with verify agreeing.

use std::path::Path;

use bitwire::Limits;
use bitwire_compiler::codec::to_hex as hex_of;
use bitwire_conformance::bincode_corpus::write_bincode_corpus;
use bitwire_conformance::check::hex;
use bitwire_conformance::corpus::{schemas_in, Options, Suite};
use bitwire_conformance::{find_bincode, BincodeCodec, Failure};
use serde_json::Value;

/// The reference outcome's error as (kind, bit, path).
fn want_error(e: &Value) -> (String, u64, String) {
    (
        e["kind"].as_str().unwrap_or_default().into(),
        e["bit"].as_u64().unwrap_or(u64::MAX),
        e["path"].as_str().unwrap_or_default().into(),
    )
}

fn got_error(f: &Failure) -> (String, u64, String) {
    match f {
        Failure::Wire(e) => (e.kind().name().into(), e.bit(), e.path_string()),
        Failure::Json(e) => (e.kind().name().into(), u64::MAX, e.path_string()),
    }
}

fn check_line(c: &BincodeCodec, line: &Value) -> Result<(), String> {
    let limits = Limits::DEFAULT;
    if let (Some(value), Some(bytes)) = (line.get("value"), line["bytes"].as_str()) {
        let want = hex(bytes);
        let got = (c.encode)(value).map_err(|e| format!("encode failed: {e:?}"))?;
        if got != want {
            return Err(format!("encoded {}, reference {bytes}", hex_of(&got)));
        }
        let decoded = (c.decode)(&want, &limits).map_err(|e| format!("decode: {e:?}"))?;
        let norm = (c.normalize)(value).map_err(|e| format!("normalize: {e:?}"))?;
        if decoded != norm {
            return Err(format!("decoded {decoded}, reference {norm}"));
        }
        return Ok(());
    }
    let input = hex(line["input"].as_str().ok_or("a line without input")?);
    let outcome = &line["outcome"];
    let decoded = (c.decode)(&input, &limits);
    let verified = (c.verify)(&input, &limits);
    match (&outcome["error"], decoded) {
        (Value::Null, Ok(v)) => {
            let norm = (c.normalize)(&outcome["value"]).map_err(|e| format!("{e:?}"))?;
            if v != norm {
                return Err(format!("decoded {v}, reference {norm}"));
            }
            verified.map_err(|e| format!("verify rejected what decodes: {e}"))
        }
        (Value::Null, Err(f)) => Err(format!("decode failed with {f:?}, reference decodes")),
        (e, Ok(v)) => Err(format!("decoded {v}, reference fails with {e}")),
        (e, Err(f)) => {
            let (want, got) = (want_error(e), got_error(&f));
            if want != got {
                return Err(format!("error {got:?}, reference {want:?}"));
            }
            match verified {
                Err(v) if (v.kind().name(), v.bit()) == (want.0.as_str(), want.1) => Ok(()),
                other => Err(format!("verify gave {other:?}, decode {got:?}")),
            }
        }
    }
}

#[test]
fn bincode_differential_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors/bincode");
    let suites: Vec<Suite> = schemas_in(&dir)
        .expect("testdata/vectors/bincode")
        .iter()
        .map(|p| Suite::load(p).expect("a suite compiles"))
        .collect();
    let opts = Options {
        seed: 42,
        cases: 20,
        adversarial: 0,
    };
    let mut text = Vec::new();
    let counts = write_bincode_corpus(&mut text, &suites, opts).expect("the corpus");
    assert!(counts.rejected.is_empty(), "{:?}", counts.rejected);
    let (mut passed, mut failed) = (0, Vec::new());
    for (n, line) in String::from_utf8(text).expect("UTF-8").lines().enumerate() {
        let line: Value = serde_json::from_str(line).expect("a JSON line");
        let (Some(suite), Some(ty)) = (line["suite"].as_str(), line["type"].as_str()) else {
            continue;
        };
        let c = find_bincode(suite, ty).unwrap_or_else(|| panic!("no type {suite}.{ty}"));
        match check_line(&c, &line) {
            Ok(()) => passed += 1,
            Err(why) => failed.push(format!("line {}: {suite}.{ty}: {why}", n + 1)),
        }
    }
    println!(
        "differential corpus bincode: {passed} passed, {} failed",
        failed.len()
    );
    assert!(passed > 1000, "only {passed} lines");
    assert!(
        failed.is_empty(),
        "{}",
        failed[..failed.len().min(20)].join("\n")
    );
}
