//! The codec commands read at most 256 MiB of input: an endless input is refused
//! with an error, not read into memory without bound.

use std::process::Command;

#[test]
fn an_endless_input_is_refused() {
    let schema = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/game.bw");
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    for cmd in ["decode", "verify", "explain"] {
        let out = Command::new(env!("CARGO_BIN_EXE_bitwire"))
            .args([
                cmd,
                "--schema",
                schema,
                "--type",
                "Input",
                "--input",
                "/dev/zero",
            ])
            .output()
            .expect("bitwire runs");
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("larger than 256 MiB"), "{cmd}: {err}");
    }
}
