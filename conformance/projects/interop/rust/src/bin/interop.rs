//! The interop exchange of the fresh-project test (conformance/projects/run.py): every
//! project encodes the same three values of `lobby.bw` and decodes what the others
//! wrote. `interop write DIR` writes `DIR/rust.<Message>.bin`; `interop read DIR`
//! checks each `DIR/<project>.<Message>.bin` of the other projects: the bytes are this
//! program's own encoding of the value, they decode to it, and the decoded value
//! encodes to the same bytes. It prints one line per file and fails on any mismatch.

bitwire::include_schema!(mod lobby);

use std::path::Path;
use std::process::ExitCode;

use bitwire::Packed;
use lobby::{Chat, Join, Move, Role};

const PROJECT: &str = "rust";

fn join() -> Join {
    Join {
        name: "Ada ✓".into(),
        role: Role::Host,
        build: 9223372036854775813,
        region: Some(7),
    }
}

fn chat() -> Chat {
    Chat {
        from: 300,
        text: "hello, lobby".into(),
        mentions: vec![1, 2, 70000],
    }
}

fn moved() -> Move {
    Move {
        player: 1023,
        x: -12.5,
        y: 100.0625,
        heading: 90.0,
        running: true,
    }
}

/// The message names with this program's encoding of each value.
fn encodings() -> Result<Vec<(&'static str, Vec<u8>)>, bitwire::Error> {
    Ok(vec![
        ("Join", join().encode_to_vec()?),
        ("Chat", chat().encode_to_vec()?),
        ("Move", moved().encode_to_vec()?),
    ])
}

/// Decodes `bytes` as `message`, compares the fields every project compares, and
/// encodes the decoded value again.
fn decode_and_reencode(message: &str, bytes: &[u8]) -> Result<Vec<u8>, String> {
    let err = |e: bitwire::Error| e.to_string();
    match message {
        "Join" => {
            let v = Join::decode(bytes).map_err(err)?;
            let want = join();
            if (&v.name, v.build) != (&want.name, want.build) {
                return Err(format!("decoded {v:?}, want {want:?}"));
            }
            v.encode_to_vec().map_err(err)
        }
        "Chat" => {
            let v = Chat::decode(bytes).map_err(err)?;
            if v.mentions != chat().mentions {
                return Err(format!("decoded mentions {:?}", v.mentions));
            }
            v.encode_to_vec().map_err(err)
        }
        "Move" => {
            let v = Move::decode(bytes).map_err(err)?;
            if v.player != moved().player {
                return Err(format!("decoded player {}", v.player));
            }
            v.encode_to_vec().map_err(err)
        }
        _ => Err(format!("unknown message {message}")),
    }
}

fn write(dir: &Path) -> Result<(), String> {
    for (message, bytes) in encodings().map_err(|e| e.to_string())? {
        let path = dir.join(format!("{PROJECT}.{message}.bin"));
        std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        println!(
            "{PROJECT}: wrote {} ({} bytes)",
            path.display(),
            bytes.len()
        );
    }
    Ok(())
}

/// Checks every file of the other projects; returns how many failed.
fn read(dir: &Path) -> Result<usize, String> {
    let ours = encodings().map_err(|e| e.to_string())?;
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let (mut checked, mut failed) = (0, 0);
    for name in names {
        let Some((project, message)) = name
            .strip_suffix(".bin")
            .and_then(|stem| stem.split_once('.'))
        else {
            continue;
        };
        if project == PROJECT {
            continue;
        }
        let Some((_, want)) = ours.iter().find(|(m, _)| *m == message) else {
            continue;
        };
        let bytes = std::fs::read(dir.join(&name)).map_err(|e| format!("{name}: {e}"))?;
        let outcome = if bytes != *want {
            // What decoding them says helps to find the difference.
            let decoded = match decode_and_reencode(message, &bytes) {
                Ok(_) => "they decode".to_string(),
                Err(e) => format!("decoding them: {e}"),
            };
            Err(format!(
                "bytes {bytes:02x?}, Rust encodes {want:02x?}; {decoded}"
            ))
        } else {
            match decode_and_reencode(message, &bytes) {
                Ok(again) if again == bytes => Ok(()),
                Ok(again) => Err(format!("re-encoded to {again:02x?}")),
                Err(e) => Err(e),
            }
        };
        checked += 1;
        match outcome {
            Ok(()) => println!("{PROJECT}: {name}: ok ({} bytes)", bytes.len()),
            Err(e) => {
                failed += 1;
                println!("{PROJECT}: {name}: MISMATCH: {e}");
            }
        }
    }
    println!("{PROJECT}: checked {checked} files of other projects, {failed} failed");
    Ok(failed)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let result = match (args.get(1).map(String::as_str), args.get(2)) {
        (Some("write"), Some(dir)) => write(Path::new(dir)).map(|()| 0),
        (Some("read"), Some(dir)) => read(Path::new(dir)),
        _ => Err("usage: interop write|read DIR".into()),
    };
    match result {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("{PROJECT}: {e}");
            ExitCode::FAILURE
        }
    }
}
