//! `bitwire encode|decode|verify|explain --encoding bincode` (spec §13) through the
//! binary: bytes, JSON, exit codes and error lines; `explain` against golden dumps in
//! `testdata/explain/bincode/` (`BLESS=1` rewrites them); and `verify` against every
//! case with bytes of every suite in `testdata/vectors/bincode/`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::json;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root")
        .to_path_buf()
}

fn game() -> PathBuf {
    root().join("examples/game.bw")
}

/// Runs `bitwire ARGS` with `stdin` as standard input.
fn bitwire(args: &[&str], schema: &Path, stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bitwire"))
        .args(args)
        .arg("--schema")
        .arg(schema)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bitwire");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("wait for bitwire")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A Packet64 and its bincode bytes: a `u8` for `u4`/`u2`, a `u16` for `u9`, `i16`s
/// for the `i12`s (−310 is `ca fe`), no message id.
const PACKET: &str = r#"{"is_alive":true,"weapon_id":2,"team_id":1,"health":87,"pos_x":-310,"pos_y":1200,"rotation":64,"score":1250}"#;
const PACKET_BINCODE: &str = "0102015700cafeb00440e204";
const PACKET_PACKED: &str = "a52bca0e4b40e204";

#[test]
fn encode_and_decode_hex_both_ways() {
    let out = bitwire(
        &[
            "encode",
            "--encoding",
            "bincode",
            "--type",
            "Packet64",
            "--hex",
        ],
        &game(),
        PACKET.as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), format!("{PACKET_BINCODE}\n"));

    // The default stays packed.
    let out = bitwire(
        &["encode", "--type", "Packet64", "--hex"],
        &game(),
        PACKET.as_bytes(),
    );
    assert_eq!(text(&out.stdout), format!("{PACKET_PACKED}\n"));
    let out = bitwire(
        &[
            "encode",
            "--encoding",
            "packed",
            "--type",
            "Packet64",
            "--hex",
        ],
        &game(),
        PACKET.as_bytes(),
    );
    assert_eq!(text(&out.stdout), format!("{PACKET_PACKED}\n"));

    let out = bitwire(
        &[
            "decode",
            "--encoding",
            "bincode",
            "--type",
            "Packet64",
            "--hex",
        ],
        &game(),
        format!("{PACKET_BINCODE}\n").as_bytes(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let want: serde_json::Value = serde_json::from_str(PACKET).unwrap();
    assert_eq!(got, want);
}

#[test]
fn raw_bytes_through_files() {
    let dir = std::env::temp_dir().join(format!("bitwire-bincode-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (json_in, bin, json_out) = (
        dir.join("in.json"),
        dir.join("p.bincode"),
        dir.join("out.json"),
    );
    let value = json!({"tick": 5, "events": [
        {"Chat": {"from": "bob", "text": "gg"}},
        {"Kill": {"killer": 1, "victim": 2, "weapon": "Sniper", "headshot": true}},
        "RoundOver"
    ]});
    std::fs::write(&json_in, value.to_string()).unwrap();
    let run = |args: &[&str]| bitwire(args, &game(), b"");
    let out = run(&[
        "encode",
        "--encoding",
        "bincode",
        "--type",
        "Events",
        "-i",
        json_in.to_str().unwrap(),
        "-o",
        bin.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&bin).unwrap();
    // varu32 tick (4 bytes), the list's u64 length, then each event's u32 index.
    assert_eq!(
        &bytes[..16],
        &[5, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    assert_eq!(bytes.len(), 54);
    let out = run(&[
        "decode",
        "--encoding",
        "bincode",
        "--type",
        "Events",
        "-i",
        bin.to_str().unwrap(),
        "-o",
        json_out.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let back: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&json_out).unwrap()).unwrap();
    assert_eq!(back, value);
    let out = run(&[
        "verify",
        "--encoding",
        "bincode",
        "--type",
        "Events",
        "-i",
        bin.to_str().unwrap(),
    ]);
    assert_eq!(text(&out.stdout), "ok: 54 bytes\n");
    // The packed decoder rejects the same bytes.
    let out = run(&["verify", "--type", "Events", "-i", bin.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn errors_name_kind_bit_byte_and_path() {
    let cases: &[(&[&str], &str, &str)] = &[
        // weapon_id 16 does not fit a u4.
        (
            &["verify", "--type", "Packet64", "--hex"],
            "0110015700cafeb00440e204",
            "error: verify failed: OutOfRange at bit 8 (byte 1) in `weapon_id`",
        ),
        (
            &["decode", "--type", "Packet64", "--hex"],
            "0102015700cafeb00440e2",
            "error: decode failed: Truncated at bit 80 (byte 10) in `score`",
        ),
        (
            &["verify", "--type", "Packet64", "--hex"],
            "0102015700cafeb00440e20400",
            "error: verify failed: TrailingData at bit 96 (byte 12)",
        ),
        // An event index past the five arms.
        (
            &["verify", "--type", "Events", "--hex"],
            "05000000 0100000000000000 05000000",
            "error: verify failed: InvalidEnum at bit 96 (byte 12) in `events[0]`",
        ),
        (
            &["encode", "--type", "Packet64"],
            r#"{"is_alive":true,"weapon_id":2,"team_id":4,"health":87,"pos_x":-310,"pos_y":1200,"rotation":64,"score":1250}"#,
            "error: encode failed: OutOfRange at bit 16 (byte 2) in `team_id`",
        ),
        (
            &["decode", "--type", "Packet64", "--hex"],
            "01x2",
            "error: invalid hex input: `x2` is not a hex byte",
        ),
    ];
    for (args, input, want) in cases {
        let mut all = args.to_vec();
        all.extend(["--encoding", "bincode"]);
        let out = bitwire(&all, &game(), input.as_bytes());
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(text(&out.stderr).trim_end(), *want, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_flags_and_endless_input() {
    let out = bitwire(
        &["decode", "--encoding", "protobuf", "--type", "Packet64"],
        &game(),
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bincode"),
        "{}",
        text(&out.stderr)
    );
    let out = bitwire(
        &["verify", "--encoding", "bincode", "--type", "Nope"],
        &game(),
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    if Path::new("/dev/zero").exists() {
        for cmd in ["decode", "verify", "explain"] {
            let out = bitwire(
                &[
                    cmd,
                    "--encoding",
                    "bincode",
                    "--type",
                    "Input",
                    "-i",
                    "/dev/zero",
                ],
                &game(),
                b"",
            );
            assert_eq!(out.status.code(), Some(1), "{cmd}");
            assert!(text(&out.stderr).contains("larger than 256 MiB"), "{cmd}");
        }
    }
}

/// The explain goldens: file name, type of `examples/game.bw`, bytes.
const GOLDENS: &[(&str, &str, &str)] = &[
    ("packet64", "Packet64", PACKET_BINCODE),
    (
        "snapshot",
        "Snapshot",
        "e8030000070001000000000000002a0000002841000050c00000903f000000000000b442c8050000000100000001000111000300000000000000616e6e",
    ),
    (
        "events",
        "Events",
        "050000000300000000000000000000000300000000000000626f62020000000000000067670100000001000200040000000104000000",
    ),
    (
        "events_truncated",
        "Events",
        "050000000300000000000000000000000300000000000000626f620200000000000000",
    ),
    ("invalid_enum", "Events", "05000000010000000000000005000000"),
    ("list_too_long", "Events", "050000000100000000000000050000"),
    ("out_of_range", "Packet64", "0102045700cafeb00440e204"),
    ("trailing_data", "Packet64", "0102015700cafeb00440e204ff"),
];

#[test]
fn explain_matches_goldens() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for (name, ty, hex) in GOLDENS {
        let out = bitwire(
            &["explain", "--encoding", "bincode", "--type", ty, "--hex"],
            &game(),
            hex.as_bytes(),
        );
        let dump = String::from_utf8(out.stdout).expect("UTF-8 output");
        let valid = !dump.lines().last().unwrap_or("").starts_with("error:");
        assert_eq!(
            out.status.code(),
            Some(if valid { 0 } else { 1 }),
            "{name}: exit code; stderr: {}",
            text(&out.stderr)
        );
        if valid {
            assert!(
                dump.ends_with(&format!("\n{} bytes\n", hex.len() / 2)),
                "{name}"
            );
        }
        let golden = root()
            .join("testdata/explain/bincode")
            .join(format!("{name}.txt"));
        let header = format!(
            "# bitwire explain --encoding bincode (examples/game.bw, type {ty}, bytes {hex})\n"
        );
        let full = format!("{header}{dump}");
        if bless {
            std::fs::create_dir_all(golden.parent().unwrap()).expect("create golden dir");
            std::fs::write(&golden, &full).expect("write golden");
        } else if std::fs::read_to_string(&golden).unwrap_or_default() != full {
            failures.push(format!("{name}: output differs from {}", golden.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{}\n(run with BLESS=1 to rewrite)",
        failures.join("\n")
    );
}

/// Every bincode suite: (suite name, schema path, cases).
fn bincode_suites() -> Vec<(String, PathBuf, Vec<serde_json::Value>)> {
    let dir = root().join("testdata/vectors/bincode");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let doc: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("read suite"))
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let schema = dir.join(doc["schema"].as_str().expect("schema"));
            let cases = doc["cases"].as_array().expect("cases").clone();
            (
                doc["suite"].as_str().expect("suite").to_string(),
                schema,
                cases,
            )
        })
        .collect()
}

#[test]
fn verify_matches_every_bincode_vector() {
    let mut checked = 0;
    for (suite, schema, cases) in bincode_suites() {
        for c in cases {
            let (Some(hex), Some(ty)) = (c["bytes"].as_str(), c["type"].as_str()) else {
                continue;
            };
            let id = c["id"].as_str().expect("id");
            let out = bitwire(
                &["verify", "--encoding", "bincode", "--type", ty, "--hex"],
                &schema,
                hex.as_bytes(),
            );
            let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
            match c["result"].as_str() {
                Some("valid" | "decodes") => {
                    assert_eq!(out.status.code(), Some(0), "{suite}: {id}: {stderr}");
                    assert_eq!(stdout, format!("ok: {} bytes\n", hex.len() / 2), "{id}");
                }
                Some("invalid") if c.get("value").is_none() => {
                    let e = &c["error"];
                    let bit = e["bit"].as_u64().expect("bit");
                    let mut want = format!(
                        "error: verify failed: {} at bit {bit} (byte {})",
                        e["kind"].as_str().expect("kind"),
                        bit / 8
                    );
                    let path = e["path"].as_str().expect("path");
                    if !path.is_empty() {
                        want.push_str(&format!(" in `{path}`"));
                    }
                    assert_eq!(out.status.code(), Some(1), "{id}");
                    assert_eq!(stderr.trim_end(), want, "{id}");
                    assert!(stdout.is_empty(), "{id}");
                }
                // `encodes` cases decode to another value; verify only checks bytes.
                _ => continue,
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no bincode vectors with bytes found");
}

/// The `$ bitwire …` examples of docs/tooling.md's bincode section print what the
/// binary prints, run in a directory holding `game.bw` and the capture `capture.bin`.
#[test]
fn tooling_md_examples_are_what_the_cli_prints() {
    let doc = std::fs::read_to_string(root().join("docs/tooling.md")).expect("docs/tooling.md");
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("The bincode encoding"))
        .expect("docs/tooling.md has a bincode section");
    let dir = std::env::temp_dir().join(format!("bitwire-bincode-doc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(game(), dir.join("game.bw")).unwrap();
    let capture: Vec<u8> = (0..PACKET_BINCODE.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&PACKET_BINCODE[i..i + 2], 16).unwrap())
        .collect();
    std::fs::write(dir.join("capture.bin"), capture).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_bitwire")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );

    let mut examples = 0;
    let mut lines = section.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(cmd) = line.strip_prefix("$ ") else {
            continue;
        };
        let mut want = String::new();
        while let Some(next) = lines.peek() {
            if next.starts_with("$ ") || next.starts_with("```") {
                break;
            }
            want.push_str(next);
            want.push('\n');
            lines.next();
        }
        let out = Command::new("sh")
            .args(["-c", cmd])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .expect("run sh");
        let got = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(got, want, "docs/tooling.md: `{cmd}`");
        examples += 1;
    }
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(examples >= 4, "only {examples} examples found");
}
