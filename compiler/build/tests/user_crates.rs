//! Generated code in a user's crates, outside this workspace: a binary crate (edition
//! 2024) that uses one message of each schema, through `bitwire-build` +
//! `bitwire::include_schema!` and through a CLI-generated module file, and a library
//! crate (edition 2021) with `#![deny(missing_docs)]` that exports both. `cargo clippy
//! -- -D warnings` must pass (rustc's warnings included: dead_code, non_snake_case,
//! unused imports) and so must `cargo doc` with `-D warnings`. The schemas use names
//! in every style (`tests/fixtures/names.bw`) and an import; both routes generate the
//! bincode encoding too (docs/spec.md §13).
//!
//! The crates are built in `target/projects`, the target directory the fresh-project
//! harness (`conformance/projects/run.py`) uses, so the two share their builds.

use std::path::{Path, PathBuf};
use std::process::Command;

use bitwire_compiler::codegen::{generate_rust, RustOptions};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The module file `bitwire gen --lang rust` writes for `schema`.
fn cli_module(schema: &Path) -> String {
    let compiled = bitwire_compiler::compile_file(schema).expect("the fixture compiles");
    let opts = RustOptions {
        json: true,
        bincode: true,
        source_name: compiled.root_file.clone(),
        module_file: true,
    };
    generate_rust(&compiled, &opts)
}

/// The manifest of a crate depending on the runtime (with JSON) and, for the build
/// script, `bitwire-build`, by path.
fn manifest(name: &str, edition: &str) -> String {
    let repo = Path::new(REPO).canonicalize().unwrap();
    format!(
        "[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"{edition}\"\n\
         publish = false\n\n[dependencies]\n\
         bitwire = {{ path = \"{runtime}\", features = [\"json\"] }}\n\n\
         [build-dependencies]\nbitwire-build = {{ path = \"{build}\" }}\n",
        runtime = repo.join("runtime/rust").display(),
        build = repo.join("compiler/build").display(),
    )
}

const BUILD_RS: &str = "fn main() -> Result<(), bitwire_build::Error> {
    bitwire_build::Config::new()
        .json(true)
        .bincode(true)
        .compile(&[\"../schemas/names.bw\", \"../schemas/game.bw\"])
}
";

const MAIN_RS: &str = "//! Uses one message of each schema, each way.

bitwire::include_schema!(mod names);
bitwire::include_schema!(mod game);
mod cli_names;

use bitwire::{Bincode, Packed};

fn main() -> Result<(), bitwire::Error> {
    let other = names::Other {
        at: names::InnerPos { pos_x: -3, pos_y: 4 },
    };
    let bytes = other.encode_to_vec()?;
    assert_eq!(cli_names::Other::decode(&bytes)?.at.pos_y, 4);
    let wide = other.encode_bincode_to_vec()?;
    assert_eq!(cli_names::Other::decode_bincode(&wide)?.at.pos_x, -3);
    let packet = game::Packet64::decode(&[0; 8])?;
    println!(\"{} {:?}\", bytes.len(), packet);
    Ok(())
}
";

const LIB_RS: &str = "//! Exports the generated code both ways.
#![deny(missing_docs)]

bitwire::include_schema!(pub mod names);
bitwire::include_schema!(
    /// The example game's schema.
    pub mod game
);
pub mod cli_names;
";

/// Lays out the workspace under `dir`.
fn workspace(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    write(
        &dir.join("Cargo.toml"),
        "[workspace]\nresolver = \"2\"\nmembers = [\"app\", \"lib\"]\n",
    );
    // The versions this repository's own lockfile pins (cargo drops what is unused).
    std::fs::copy(Path::new(REPO).join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let schemas = dir.join("schemas");
    write(
        &schemas.join("names.bw"),
        &std::fs::read_to_string(Path::new(FIXTURES).join("names.bw")).unwrap(),
    );
    write(
        &schemas.join("shared/geo.bw"),
        &std::fs::read_to_string(Path::new(FIXTURES).join("shared/geo.bw")).unwrap(),
    );
    std::fs::copy(
        Path::new(REPO).join("examples/game.bw"),
        schemas.join("game.bw"),
    )
    .unwrap();
    let cli = cli_module(&schemas.join("names.bw"));
    for (name, edition, root, text) in [
        ("app", "2024", "src/main.rs", MAIN_RS),
        ("lib", "2021", "src/lib.rs", LIB_RS),
    ] {
        let krate = dir.join(name);
        write(
            &krate.join("Cargo.toml"),
            &manifest(&format!("bitwire-user-{name}"), edition),
        );
        write(&krate.join("build.rs"), BUILD_RS);
        write(&krate.join(root), text);
        write(&krate.join("src/cli_names.rs"), &cli);
    }
}

/// `cargo ARGS` in `dir` with the shared target directory; panics with the output on
/// failure.
fn cargo(dir: &Path, target: &Path, args: &[&str], env: &[(&str, &str)]) {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut cmd = Command::new(cargo);
    cmd.current_dir(dir)
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_ENCODED_RUSTFLAGS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {} failed:\n{}\n{}",
        args.join(" "),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn has_clippy() -> bool {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args(["clippy", "--version"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn generated_code_is_warning_free_in_user_crates() {
    if !has_clippy() {
        eprintln!("clippy not installed; skipping the user-crate check");
        return;
    }
    // `CARGO_TARGET_TMPDIR` is `<target dir>/tmp`.
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .unwrap()
        .join("projects");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("bitwire-build-users");
    workspace(&dir);
    let offline = ["--offline", "--workspace", "--all-targets"];
    cargo(
        &dir,
        &target,
        &[&["clippy"][..], &offline, &["--", "-D", "warnings"]].concat(),
        &[],
    );
    cargo(
        &dir,
        &target,
        &["doc", "--offline", "--workspace", "--no-deps"],
        &[("RUSTDOCFLAGS", "-D warnings")],
    );
    cargo(
        &dir,
        &target,
        &["run", "--offline", "-q", "-p", "bitwire-user-app"],
        &[],
    );
}
