//! The outcome file a corpus runner writes when asked to (`$BITWIRE_DIFF_OUTCOMES`),
//! in every language: JSON lines that say, for each corpus line the runner did not
//! agree with, what it got instead; measurements on adversarial inputs; and a summary.
//!
//! ```json
//! {"line": 17, "suite": "s003", "type": "Foo", "check": "decode",
//!  "got": {"error": {"kind": "Truncated", "bit": 7, "path": "a"}}, "problem": "…"}
//! {"line": 90, "suite": "s003", "type": "Foo", "measure": {"input_bytes": 4096, "alloc_bytes": 81920}}
//! {"summary": {"runner": "go", "passed": 1200, "failed": 3}}
//! ```
//!
//! `line` is 1-based in the corpus file. `check` is one of [`CHECKS`]; `got` is
//! `{"bytes": hex}` (what the encoder wrote), `{"value": json}` (what the decoder
//! returned, in the JSON mapping), `{"error": {kind, bit, path}}` (a wire error; JSON
//! errors carry no bit), `{"accepted": true}` (verify accepted) or
//! `{"panic": "message"}`. `measure` is informative (allocation per language:
//! Rust's counting allocator, Go's `runtime.MemStats`, the JS heap).

use serde_json::{json, Value};

/// What a runner checks on each corpus line:
/// - `encode`: a value line's value encodes to exactly the reference bytes;
/// - `roundtrip`: the reference bytes decode back to the value;
/// - `decode`: an input line decodes to the reference's value, or fails with its
///   kind, bit and path;
/// - `verify`: `verify` accepts exactly what decodes, and fails with the same error;
/// - `panic`: anything thrown that is not a bitwire error;
/// - `missing`: the runner has no generated type for the line.
pub const CHECKS: &[&str] = &[
    "encode",
    "roundtrip",
    "decode",
    "verify",
    "panic",
    "missing",
];

/// One disagreement of a runner with the reference on one corpus line.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// One of [`CHECKS`].
    pub check: String,
    /// What the runner got (see the module docs).
    pub got: Value,
    /// A sentence for people.
    pub detail: String,
}

impl Problem {
    /// A problem of kind `check`.
    pub fn new(check: &str, got: Value, detail: impl Into<String>) -> Problem {
        Problem {
            check: check.into(),
            got,
            detail: detail.into(),
        }
    }

    /// The outcome-file record of this problem on corpus line `line`.
    pub fn record(&self, line: usize, suite: &str, ty: &str) -> Value {
        json!({
            "line": line, "suite": suite, "type": ty,
            "check": self.check, "got": self.got, "problem": self.detail,
        })
    }

    /// Reads a problem record; `None` for measurements and the summary.
    pub fn from_record(r: &Value) -> Option<(usize, Problem)> {
        let line = r.get("line")?.as_u64()? as usize;
        let check = r.get("check")?.as_str()?;
        Some((
            line,
            Problem::new(
                check,
                r.get("got").cloned().unwrap_or(Value::Null),
                r.get("problem").and_then(Value::as_str).unwrap_or(""),
            ),
        ))
    }
}

/// The measurement record of an adversarial input.
pub fn measure_record(
    line: usize,
    suite: &str,
    ty: &str,
    input_bytes: usize,
    alloc_bytes: usize,
) -> Value {
    json!({
        "line": line, "suite": suite, "type": ty,
        "measure": { "input_bytes": input_bytes, "alloc_bytes": alloc_bytes },
    })
}

/// The summary record, the last line of a complete outcome file.
pub fn summary_record(runner: &str, passed: usize, failed: usize) -> Value {
    json!({ "summary": { "runner": runner, "passed": passed, "failed": failed } })
}
