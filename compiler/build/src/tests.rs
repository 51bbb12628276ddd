use super::*;

use std::sync::atomic::{AtomicUsize, Ordering};

/// A new empty directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("bitwire-build-{}-{n}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `config` on `schemas` (paths under `dir`), returning the result and the
/// directives printed.
fn run(
    config: &Config,
    schemas: &[PathBuf],
    out_dir: Option<PathBuf>,
) -> (Result<(), Error>, String) {
    let mut buf = Vec::new();
    let mut out = cargo::Directives::with_error_directive(&mut buf, true);
    let result = config.compile_to(schemas, out_dir, &mut out);
    (result, String::from_utf8(buf).unwrap())
}

const COMMON: &str = "/// A point.\nstruct Point { x: i12, y: i12 }\n";
const GAME: &str = "import \"common/types.bw\";\n\n/// Where a player is.\nmessage Pos = 1 { at: Point, hp: u9 }\n";

fn game_dir() -> PathBuf {
    let dir = temp_dir("game");
    std::fs::create_dir_all(dir.join("common")).unwrap();
    std::fs::write(dir.join("common/types.bw"), COMMON).unwrap();
    std::fs::write(dir.join("game-state.bw"), GAME).unwrap();
    dir
}

#[test]
fn writes_the_code_and_reruns_on_every_imported_file() {
    let dir = game_dir();
    let out_dir = dir.join("out");
    let schema = dir.join("game-state.bw");
    let (result, directives) = run(
        &Config::new(),
        std::slice::from_ref(&schema),
        Some(out_dir.clone()),
    );
    result.unwrap();
    let root = schema.to_string_lossy().into_owned();
    let import = dir.join("common/types.bw").to_string_lossy().into_owned();
    assert_eq!(
        directives,
        format!("cargo:rerun-if-changed={root}\ncargo:rerun-if-changed={import}\n")
    );
    // The file is named after the schema's stem, made a module name, and holds what
    // the compiler generates for `include!` (no inner attributes).
    let code = std::fs::read_to_string(out_dir.join("game_state.rs")).unwrap();
    let compiled = bitwire_compiler::compile_file(&schema).unwrap();
    let opts = RustOptions {
        source_name: "game-state.bw".into(),
        ..Default::default()
    };
    assert_eq!(code, generate_rust(&compiled, &opts));
    assert!(code.contains("pub struct Pos {") && code.contains("pub struct Point {"));
    assert!(
        !code.contains("#!["),
        "an include!d file cannot hold inner attributes"
    );
    assert!(!code.contains("to_json"));
}

#[test]
fn options_json_and_no_rerun_lines() {
    let dir = game_dir();
    let out_dir = dir.join("gen");
    let mut config = Config::new();
    config
        .json(true)
        .emit_rerun_if_changed(false)
        .out_dir(&out_dir);
    // The configured directory wins over $OUT_DIR.
    let (result, directives) = run(&config, &[dir.join("game-state.bw")], Some(dir.join("x")));
    result.unwrap();
    assert_eq!(directives, "");
    let code = std::fs::read_to_string(out_dir.join("game_state.rs")).unwrap();
    assert!(code.contains("pub fn to_json(self) -> ::bitwire::json::Value"));
    assert!(!dir.join("x").exists());
}

#[test]
fn an_unchanged_file_is_not_rewritten() {
    let dir = game_dir();
    let out_dir = dir.join("out");
    let schemas = [dir.join("game-state.bw")];
    run(&Config::new(), &schemas, Some(out_dir.clone()))
        .0
        .unwrap();
    let file = out_dir.join("game_state.rs");
    // A marker that compiling again would remove if it rewrote the file with the
    // same text: instead, make the file differ and check it is rewritten, then
    // check that a second identical run leaves the modification time alone.
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    run(&Config::new(), &schemas, Some(out_dir.clone()))
        .0
        .unwrap();
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    std::fs::write(&file, "stale").unwrap();
    run(&Config::new(), &schemas, Some(out_dir)).0.unwrap();
    assert!(std::fs::read_to_string(&file)
        .unwrap()
        .contains("pub struct Pos"));
}

#[test]
fn errors_become_cargo_errors_and_the_result() {
    let dir = temp_dir("bad");
    let schema = dir.join("bad.bw");
    std::fs::write(&schema, "message A = 1 { x: u99, y: Nope }\n").unwrap();
    let (result, directives) = run(
        &Config::new(),
        std::slice::from_ref(&schema),
        Some(dir.join("out")),
    );
    let Err(Error::Schema {
        errors, rendered, ..
    }) = &result
    else {
        panic!("expected a schema error, got {result:?}");
    };
    assert_eq!(*errors, 2, "{rendered}");
    // Every rendered line is one `cargo::error=` directive, after the rerun line.
    let mut lines = directives.lines();
    assert_eq!(
        lines.next(),
        Some(format!("cargo:rerun-if-changed={}", schema.display()).as_str())
    );
    let errors: Vec<&str> = lines.collect();
    assert_eq!(errors.len(), rendered.lines().count());
    for (directive, line) in errors.iter().zip(rendered.lines()) {
        assert_eq!(*directive, format!("cargo::error={line}"));
    }
    assert!(rendered.contains("error[E0") && rendered.contains("bad.bw:1:"));
    // The message says which schema failed and shows the diagnostics.
    let message = result.unwrap_err().to_string();
    assert_eq!(
        message,
        format!(
            "bitwire-build: {} has 2 errors (shown above), no code was generated",
            schema.display()
        )
    );
    assert!(!dir.join("out").join("bad.rs").exists());
}

#[test]
fn a_missing_import_is_watched_too() {
    let dir = temp_dir("missing");
    let schema = dir.join("a.bw");
    std::fs::write(&schema, "import \"b.bw\";\nmessage A = 1 { x: u8 }\n").unwrap();
    let (result, directives) = run(&Config::new(), &[schema], Some(dir.join("out")));
    assert!(matches!(result, Err(Error::Schema { .. })));
    let missing = dir.join("b.bw").to_string_lossy().into_owned();
    assert!(
        directives.contains(&format!("cargo:rerun-if-changed={missing}\n")),
        "{directives}"
    );
}

#[test]
fn every_schema_is_compiled_and_the_first_error_returned() {
    let dir = game_dir();
    std::fs::write(dir.join("bad.bw"), "message A = 1 { x: u99 }\n").unwrap();
    let schemas = [dir.join("bad.bw"), dir.join("game-state.bw")];
    let (result, _) = run(&Config::new(), &schemas, Some(dir.join("out")));
    assert!(matches!(result, Err(Error::Schema { ref schema, .. }) if schema.ends_with("bad.bw")));
    assert!(dir.join("out/game_state.rs").exists());
}

#[test]
fn schemas_with_one_stem_are_refused() {
    let dir = temp_dir("stems");
    let (result, directives) = run(
        &Config::new(),
        &[dir.join("a/lobby.bw"), dir.join("b/lobby.bw")],
        Some(dir.clone()),
    );
    let message = result.unwrap_err().to_string();
    assert!(
        message.contains("would both be written to lobby.rs"),
        "{message}"
    );
    assert_eq!(directives, "");
}

#[test]
fn without_out_dir() {
    let (result, _) = run(&Config::new(), &[PathBuf::from("x.bw")], None);
    let message = result.unwrap_err().to_string();
    assert!(message.contains("OUT_DIR is not set"), "{message}");
}
