//! The CLI as a user meets it: `--version`, `--help` with examples, `-o/--output`,
//! shell completions and colour (NO_COLOR, CLICOLOR_FORCE).

use std::path::PathBuf;
use std::process::{Command, Output};

fn bitwire(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_bitwire"));
    cmd.args(args)
        .env_remove("NO_COLOR")
        .env_remove("CLICOLOR_FORCE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("bitwire runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn version_names_the_wire_format() {
    let out = bitwire(&["--version"], &[]);
    assert!(out.status.success());
    let version = text(&out.stdout);
    assert_eq!(
        version.trim(),
        format!(
            "bitwire {} (packed wire format {})",
            env!("CARGO_PKG_VERSION"),
            bitwire_compiler::WIRE_FORMAT_VERSION
        )
    );
}

const SUBCOMMANDS: &[&str] = &[
    "gen",
    "check",
    "ir",
    "plan",
    "encode",
    "decode",
    "fmt",
    "explain",
    "verify",
    "compat",
    "fingerprint",
    "completions",
    "frame",
    "frame decode",
    "frame encode",
];

#[test]
fn every_subcommand_help_has_an_example() {
    for sub in SUBCOMMANDS {
        let mut args: Vec<&str> = sub.split(' ').collect();
        args.push("--help");
        let out = bitwire(&args, &[]);
        assert!(out.status.success(), "{sub} --help failed");
        let help = text(&out.stdout);
        let example = help
            .split_once("Example")
            .unwrap_or_else(|| panic!("`bitwire {sub} --help` has no example:\n{help}"))
            .1;
        assert!(
            example.contains(&format!("bitwire {sub}")),
            "the example of `{sub}` does not run `bitwire {sub}`:\n{help}"
        );
    }
}

#[test]
fn gen_takes_o_output_and_out() {
    let dir = scratch("gen_output_flags");
    let schema = dir.join("s.bw");
    std::fs::write(&schema, "message M = 1 { a: u8 }\n").unwrap();
    for flag in ["-o", "--output", "--out"] {
        let out_dir = dir.join(flag.trim_start_matches('-'));
        let out = bitwire(
            &[
                "gen",
                "--lang",
                "go",
                flag,
                out_dir.to_str().unwrap(),
                schema.to_str().unwrap(),
            ],
            &[],
        );
        assert!(out.status.success(), "{flag}: {}", text(&out.stderr));
        assert!(out_dir.join("s.go").is_file(), "{flag} wrote nothing");
    }
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef bitwire"),
        ("fish", "complete -c bitwire"),
    ] {
        let out = bitwire(&["completions", shell], &[]);
        assert!(out.status.success());
        let script = text(&out.stdout);
        assert!(script.contains(marker), "{shell}: no `{marker}`");
        for sub in ["gen", "compat", "explain"] {
            assert!(
                script.contains(sub),
                "{shell} script does not offer `{sub}`"
            );
        }
    }
    assert!(!bitwire(&["completions", "tcsh"], &[]).status.success());
}

#[test]
fn colour_follows_no_color_and_clicolor_force() {
    let dir = scratch("colour");
    let schema = dir.join("bad.bw");
    std::fs::write(&schema, "message M = 1 { a: Foo }\n").unwrap();
    let path = schema.to_str().unwrap();
    // A pipe is not a terminal: plain text.
    let plain = text(&bitwire(&["check", path], &[]).stderr);
    assert!(plain.starts_with("error[E0201]"), "{plain}");
    assert!(!plain.contains('\x1b'));
    let forced = text(&bitwire(&["check", path], &[("CLICOLOR_FORCE", "1")]).stderr);
    assert!(forced.contains("\x1b[1;31merror[E0201]:"), "{forced:?}");
    let no_color = bitwire(
        &["check", path],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert_eq!(text(&no_color.stderr), plain);
}
