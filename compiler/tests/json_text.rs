//! `bitwire encode` on every JSON-text case of `testdata/vectors/` (cases with `text`
//! or `text_hex`): the text goes to the binary on standard input, exactly as a user's
//! file would, and the exit code, the hex output or the error's kind and path must be
//! what the case says (`testdata/vectors/README.md`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

/// Runs `bitwire encode --schema <schema> --type <ty> --hex` with `text` on stdin.
fn encode(schema: &Path, ty: &str, text: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitwire"))
        .args(["encode", "--type", ty, "--hex", "--schema"])
        .arg(schema)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bitwire");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(text).expect("write stdin");
    drop(stdin);
    child.wait_with_output().expect("wait for bitwire")
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

/// The kind and path of `error: encode failed: Kind [at bit N] [in `path`][: …]`.
fn kind_and_path(stderr: &str) -> Option<(String, String)> {
    let rest = stderr.strip_prefix("error: encode failed: ")?;
    let kind: String = rest
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect();
    let path = match rest.find(" in `") {
        Some(i) => rest[i + 5..].split('`').next()?.to_string(),
        None => String::new(),
    };
    Some((kind, path))
}

/// `None` when the case behaves as stated, else why not.
fn check(schema: &Path, case: &Value, text: &[u8]) -> Option<String> {
    let ty = case["type"].as_str().expect("type");
    let out = encode(schema, ty, text);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match case["result"].as_str() {
        Some("encodes") => {
            let want = case["bytes"].as_str().expect("bytes");
            (out.status.code() != Some(0) || stdout.trim_end() != want)
                .then(|| format!("exit {:?}, stdout {stdout}, stderr {stderr}", out.status))
        }
        Some("invalid") => {
            let e = &case["error"];
            let want = (
                e["kind"].as_str().expect("kind").to_string(),
                e["path"].as_str().expect("path").to_string(),
            );
            let got = kind_and_path(stderr.trim_end());
            (out.status.code() != Some(1) || got.as_ref() != Some(&want))
                .then(|| format!("exit {:?}, stderr {stderr}", out.status))
        }
        r => Some(format!("malformed text case (result {r:?})")),
    }
}

#[test]
fn encode_matches_every_text_case() {
    let dir = root().join("testdata/vectors");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("list vectors")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let (mut checked, mut problems) = (0, Vec::new());
    for file in files {
        let doc: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
        let schema = dir.join(doc["schema"].as_str().expect("schema"));
        for case in doc["cases"].as_array().expect("cases") {
            let text = match (case["text"].as_str(), case["text_hex"].as_str()) {
                (Some(t), _) => t.as_bytes().to_vec(),
                (None, Some(h)) => unhex(h),
                (None, None) => continue,
            };
            checked += 1;
            if let Some(why) = check(&schema, case, &text) {
                problems.push(format!("{}: {why}", case["id"]));
            }
        }
    }
    assert!(checked >= 100, "only {checked} text cases found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
