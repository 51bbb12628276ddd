//! Generates Rust code (with JSON conversions) for every `testdata/vectors/*.bw` and
//! for the bundled example `examples/game.bw` (suite `game`, which has no vector file
//! but takes part in the property tests), `testdata/vectors/frames/frames.bw` (suite
//! `frames`, the frame vectors' messages) and `testdata/vectors/delta/delta.bw` (suite
//! `delta`, the delta vectors' messages, also listed in `deltas.rs`) into `OUT_DIR`,
//! plus `suites.rs`: one module per suite and a registry of every named type, so that
//! a suite dropped into `testdata/vectors/` is picked up with no other change
//! (`build_suites.rs`). Every suite's code has the bincode encoding too; the bincode
//! vector suites (`testdata/vectors/bincode/*.bw`) go into `bincode_suites.rs` (module
//! `bincode_vectors`), with `bincode_registry()`.

use std::path::{Path, PathBuf};

// `write_suites`, the packed-only entry, is what the random schemas' build script
// (conformance/schemagen/rust) calls; this one calls `write_suite_set`.
#[path = "build_suites.rs"]
#[allow(dead_code)]
mod build_suites;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let vectors = root.join("testdata/vectors");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", vectors.display());
    let mut schemas = build_suites::schemas_in(&vectors);
    schemas.push(
        root.join("examples/game.bw")
            .canonicalize()
            .expect("examples/game.bw exists"),
    );
    // The frame vectors' schema (suite `frames`, run by tests/frames.rs).
    schemas.push(
        vectors
            .join("frames/frames.bw")
            .canonicalize()
            .expect("testdata/vectors/frames/frames.bw exists"),
    );
    // The delta vectors' schema (suite `delta`, run by tests/delta.rs); its `delta
    // message`s also go into `deltas.rs`.
    let delta = vectors
        .join("delta/delta.bw")
        .canonicalize()
        .expect("testdata/vectors/delta/delta.bw exists");
    schemas.push(delta.clone());
    // Every suite's code also has the bincode encoding, which the bincode property
    // and limits tests run on the suites' values (tests/bincode_*.rs).
    let main = build_suites::SuiteSet {
        index: "suites.rs",
        file_prefix: "",
        bincode: true,
    };
    build_suites::write_suite_set(&schemas, &out_dir, &main);
    // The bincode vectors (`testdata/vectors/bincode/`, run by tests/bincode_vectors.rs):
    // module `bincode_vectors`, files `bincode_<suite>.rs`.
    let bincode_dir = vectors.join("bincode");
    println!("cargo:rerun-if-changed={}", bincode_dir.display());
    let bincode = build_suites::SuiteSet {
        index: "bincode_suites.rs",
        file_prefix: "bincode_",
        bincode: true,
    };
    build_suites::write_suite_set(&build_suites::schemas_in(&bincode_dir), &out_dir, &bincode);
    delta_registry(&delta, &out_dir);
    extra_schemas(&out_dir);
}

/// Writes `OUT_DIR/deltas.rs`: `delta_registry()`, the `crate::DeltaCodec` of every
/// `delta message` of the delta suite (`testdata/vectors/delta/delta.bw`).
fn delta_registry(path: &Path, out_dir: &Path) {
    use std::fmt::Write as _;

    let schema = bitwire_compiler::compile_file(path)
        .unwrap_or_else(|d| panic!("{} does not compile:\n{}", path.display(), d.render()));
    let names = bitwire_compiler::codegen::rust::naming::Names::new(&schema);
    let mut text = String::from(
        "/// Every `delta message` of the delta suite.\npub fn delta_registry() -> Vec<crate::DeltaCodec> {\n    vec![\n",
    );
    for (def, n) in schema
        .types
        .iter()
        .zip(&names.types)
        .filter(|(d, _)| d.delta)
    {
        writeln!(
            text,
            "        crate::DeltaCodec::of::<delta::{}>({:?}, {:?}),",
            n.ident,
            path.display().to_string(),
            def.name
        )
        .unwrap();
    }
    text.push_str("    ]\n}\n");
    std::fs::write(out_dir.join("deltas.rs"), text).expect("write deltas.rs");
}

/// Generates the schemas of `conformance/rust/schemas/` (test-only shapes too large for
/// the shared vector suites, such as a 16 MiB array; bulk lists for the bincode limits)
/// into `OUT_DIR/extra.rs`, with the bincode encoding, a module `extra` outside the
/// registry that the property tests walk.
fn extra_schemas(out_dir: &Path) {
    use std::fmt::Write as _;

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut modules =
        String::from("/// Test-only schemas (`conformance/rust/schemas/`).\npub mod extra {\n");
    for path in build_suites::schemas_in(&dir) {
        println!("cargo:rerun-if-changed={}", path.display());
        let schema = bitwire_compiler::compile_file(&path)
            .unwrap_or_else(|d| panic!("{} does not compile:\n{}", path.display(), d.render()));
        let name = path
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let opts = bitwire_compiler::codegen::RustOptions {
            json: false,
            bincode: true,
            source_name: schema.root_file.clone(),
            ..Default::default()
        };
        let file = format!("extra_{name}.rs");
        let code = bitwire_compiler::codegen::generate_rust(&schema, &opts);
        std::fs::write(out_dir.join(&file), code).expect("write generated code");
        writeln!(modules, "    /// Generated from `{}`.", schema.root_file).unwrap();
        writeln!(modules, "    pub mod {name} {{").unwrap();
        writeln!(
            modules,
            "        include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));"
        )
        .unwrap();
        writeln!(modules, "    }}").unwrap();
    }
    modules.push_str("}\n");
    std::fs::write(out_dir.join("extra.rs"), modules).expect("write extra.rs");
}
