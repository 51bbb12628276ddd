//! The Rust runner of a differential corpus ([`crate::corpus`]): checks one corpus
//! line with a generated type, as the Go (`diff_test.go`) and TypeScript
//! (`src/corpus.ts`) runners do, and says what it got when it disagrees.
//!
//! Values are compared twice: as JSON text exactly as the reference prints them (the
//! JSON mapping is canonical, docs/json-mapping.md), and as reference-codec values
//! (bit-exact floats, so `-0.0` and `0.0` differ).

use bitwire_compiler::codec;
use bitwire_compiler::ir::{Schema, TypeId};
use serde_json::{json, Value};

use crate::outcome::Problem;
use crate::{Failure, TypeCodec};

/// What a generated codec's failure looks like in an outcome record.
pub fn failure_json(f: &Failure) -> Value {
    match f {
        Failure::Wire(e) => {
            json!({ "error": { "kind": e.kind().name(), "bit": e.bit(), "path": e.path_string() } })
        }
        Failure::Json(e) => {
            json!({ "error": { "kind": e.kind().name(), "path": e.path_string() } })
        }
    }
}

fn wire_json(e: &bitwire::Error) -> Value {
    failure_json(&Failure::Wire(e.clone()))
}

/// Whether generated JSON `got` is the reference's `want`: equal as JSON and, read
/// back by the reference, bit for bit.
fn same_value(s: &Schema, id: TypeId, got: &Value, want: &Value) -> bool {
    let read = |v: &Value| codec::value_from_json(s, id, v).ok();
    got == want && read(got).is_some() && read(got) == read(want)
}

/// Checks corpus line `line` (a value line or an input line) with `c`, the generated
/// type `id` of schema `s`.
pub fn check_line(c: &TypeCodec, s: &Schema, id: TypeId, line: &Value) -> Result<(), Problem> {
    if let (Some(value), Some(bytes)) = (line.get("value"), line.get("bytes")) {
        let want = bytes.as_str().unwrap_or_default();
        let got = (c.encode)(value)
            .map_err(|f| Problem::new("encode", failure_json(&f), "encode failed"))?;
        let got_hex = codec::to_hex(&got);
        if got_hex != want {
            return Err(Problem::new(
                "encode",
                json!({ "bytes": got_hex }),
                format!("encoded {got_hex}, reference {want}"),
            ));
        }
        if let Err(e) = (c.verify)(&got) {
            return Err(Problem::new(
                "verify",
                wire_json(&e),
                "verify rejects the reference bytes",
            ));
        }
        return match (c.decode)(&got) {
            Ok(back) if same_value(s, id, &back, value) => Ok(()),
            Ok(back) => Err(Problem::new(
                "roundtrip",
                json!({ "value": back }),
                "decodes to another value",
            )),
            Err(f) => Err(Problem::new(
                "roundtrip",
                failure_json(&f),
                "the reference bytes do not decode",
            )),
        };
    }
    let input = line
        .get("input")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let bytes = hex(input);
    let want = line.get("outcome").cloned().unwrap_or(Value::Null);
    let got = match (c.decode)(&bytes) {
        Ok(v) => json!({ "value": v }),
        Err(f) => failure_json(&f),
    };
    let agrees = match (got.get("value"), want.get("value")) {
        (Some(g), Some(w)) => same_value(s, id, g, w),
        (None, None) => got == want,
        _ => false,
    };
    if !agrees {
        let detail = format!("decoded to {}, reference {}", clip(&got), clip(&want));
        return Err(Problem::new("decode", got, detail));
    }
    let verified = match (c.verify)(&bytes) {
        Ok(()) => json!({ "accepted": true }),
        Err(e) => wire_json(&e),
    };
    let verify_agrees = if want.get("value").is_some() {
        verified.get("accepted").is_some()
    } else {
        verified == want
    };
    if !verify_agrees {
        let detail = format!("verify gave {}, reference {}", clip(&verified), clip(&want));
        return Err(Problem::new("verify", verified, detail));
    }
    Ok(())
}

/// JSON text of `v`, at most 200 characters (for messages).
fn clip(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// Bytes from lowercase hex (corpus files are written by us: bad hex is a bug).
pub fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("corpus hex"))
        .collect()
}
