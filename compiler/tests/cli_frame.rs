//! `bitwire frame decode` / `frame encode` on the frame vectors
//! (`testdata/vectors/frames/frames.json`): every stream case whose frames are
//! messages, as raw bytes and as hex, gives one JSON line per frame with the vector's
//! id, type and value, then exits 0 or names the vector's error kind and byte offset
//! (exit 1); encoding each listed value gives the vector's frame bytes.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

const SCHEMA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../testdata/vectors/frames/frames.bw"
);

fn bitwire(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitwire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bitwire runs");
    // The command may stop reading at an error.
    let _ = child.stdin.take().expect("stdin").write_all(stdin);
    child.wait_with_output().expect("bitwire finishes")
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../testdata/vectors/frames/frames.json"
    );
    let suite: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    suite["cases"].as_array().unwrap().clone()
}

fn settings_args(case: &Value) -> Vec<String> {
    let mut args = vec![
        "--max".to_string(),
        case["max_frame"].to_string(),
        "--max-data".to_string(),
        case["max_data"].to_string(),
    ];
    if let Some(t) = case["threshold"].as_u64() {
        args.extend(["--threshold".to_string(), t.to_string()]);
    }
    args
}

/// The line `frame decode` prints for a listed frame: its value, or for a frame of the
/// delta message World its envelope (the header the vector names and the body).
fn line_of(f: &Value) -> Value {
    match f.get("envelope") {
        Some(header) => {
            let body = &f["data"].as_str().unwrap()[6..];
            let envelope =
                serde_json::json!({ "seq": header["seq"], "back": header["back"], "body": body });
            serde_json::json!({ "id": f["id"], "type": f["type"], "envelope": envelope })
        }
        None => serde_json::json!({ "id": f["id"], "type": f["type"], "value": f["value"] }),
    }
}

#[test]
fn decode_prints_the_vectors_frames_and_errors() {
    let mut runs = 0;
    for case in cases() {
        let Some(stream) = case["stream"].as_str() else {
            continue;
        };
        let frames = case["frames"].as_array().unwrap();
        if frames.iter().any(|f| f.get("type").is_none()) {
            continue; // Minecraft's handshake is not a message of frames.bw
        }
        for as_hex in [false, true] {
            let mut args = vec!["frame", "decode", "--schema", SCHEMA];
            let settings = settings_args(&case);
            args.extend(settings.iter().map(String::as_str));
            let input = if as_hex {
                args.push("--hex");
                format!("{stream}\n").into_bytes()
            } else {
                hex(stream)
            };
            let out = bitwire(&args, &input);
            let lines: Vec<Value> = String::from_utf8(out.stdout.clone())
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).expect("a JSON line"))
                .collect();
            let want: Vec<Value> = frames.iter().map(line_of).collect();
            assert_eq!(lines, want, "{} (hex: {as_hex})", case["id"]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            match case["end"].get("kind") {
                None => assert!(out.status.success(), "{}: {stderr}", case["id"]),
                Some(kind) => {
                    assert_eq!(out.status.code(), Some(1), "{}", case["id"]);
                    let at = format!(
                        "{} at byte {}",
                        kind.as_str().unwrap(),
                        case["end"]["offset"]
                    );
                    assert!(
                        stderr.contains(&at),
                        "{}: `{stderr}` does not name `{at}`",
                        case["id"]
                    );
                }
            }
            runs += 1;
        }
    }
    assert!(runs >= 2 * 50, "{runs} runs");
}

#[test]
fn encode_writes_the_vectors_frames() {
    let mut runs = 0;
    for case in cases() {
        if case["encode"] != "exact" || case["end"] != "clean" || case.get("stream").is_none() {
            continue;
        }
        let frames = case["frames"].as_array().unwrap();
        // Envelopes are made against a baseline, not by `frame encode` (below).
        if frames
            .iter()
            .any(|f| f.get("type").is_none() || f.get("envelope").is_some())
        {
            continue;
        }
        let mut written = Vec::new();
        for f in frames {
            let mut args = vec![
                "frame",
                "encode",
                "--schema",
                SCHEMA,
                "--type",
                f["type"].as_str().unwrap(),
            ];
            let settings = settings_args(&case);
            args.extend(settings.iter().map(String::as_str));
            let out = bitwire(&args, f["value"].to_string().as_bytes());
            assert!(
                out.status.success(),
                "{}: {}",
                case["id"],
                String::from_utf8_lossy(&out.stderr)
            );
            written.extend(out.stdout);
        }
        assert_eq!(
            written,
            hex(case["stream"].as_str().unwrap()),
            "{}",
            case["id"]
        );
        runs += 1;
    }
    assert!(runs >= 8, "{runs} runs");
}

#[test]
fn encode_refuses_a_delta_message() {
    let args = ["frame", "encode", "--schema", SCHEMA, "--type", "World"];
    let out = bitwire(&args, br#"{"tick": 1, "entities": []}"#);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`World` is a delta message"), "{stderr}");
    assert!(out.stdout.is_empty());
}

#[test]
fn encode_then_decode_with_compression() {
    let value = r#"{"from": 7, "text": "the quick brown fox jumps over the lazy dog, twice: the quick brown fox jumps over the lazy dog"}"#;
    let args = [
        "frame",
        "encode",
        "--schema",
        SCHEMA,
        "--type",
        "Chat",
        "--threshold",
        "16",
        "--hex",
    ];
    let out = bitwire(&args, value.as_bytes());
    assert!(out.status.success());
    let frame = String::from_utf8(out.stdout).unwrap();
    // PacketLength (one byte here), DataLength (above the threshold), a zlib stream.
    let bytes = hex(frame.trim());
    assert_eq!(usize::from(bytes[0]), bytes.len() - 1, "{frame}");
    assert!(bytes[1] > 16 && bytes[2..4] == [0x78, 0x9c], "{frame}");
    let out = bitwire(&["frame", "decode", "--schema", SCHEMA, "--hex"], b"0g");
    assert_eq!(out.status.code(), Some(1));
    let out = bitwire(
        &[
            "frame", "encode", "--schema", SCHEMA, "--type", "Wide", "--max", "2",
        ],
        br#"{"v": 1}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("FrameTooLarge"));
}
