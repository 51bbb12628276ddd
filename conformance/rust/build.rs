//! Generates Rust code (with JSON conversions) for every `testdata/vectors/*.bw` and
//! for the bundled example `examples/game.bw` (suite `game`, which has no vector file
//! but takes part in the property tests) into `OUT_DIR`, plus `suites.rs`: one module
//! per suite and a registry of every named type, so that a suite dropped into
//! `testdata/vectors/` is picked up with no other change.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bitwire_compiler::codegen::rust::naming::Names;
use bitwire_compiler::codegen::{generate_rust, RustOptions};

fn main() {
    let vectors = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/vectors");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed={}", vectors.display());

    let mut schemas: Vec<PathBuf> = std::fs::read_dir(&vectors)
        .expect("testdata/vectors exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "bw"))
        .collect();
    schemas.sort();
    schemas.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/game.bw"));

    let mut modules = String::new();
    let mut registry = String::new();
    for path in &schemas {
        let path = &path.canonicalize().expect("schema path exists");
        println!("cargo:rerun-if-changed={}", path.display());
        let schema = match bitwire_compiler::compile_file(path) {
            Ok(s) => s,
            Err(d) => panic!("{} does not compile:\n{}", path.display(), d.render()),
        };
        let suite = path
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let opts = RustOptions {
            json: true,
            source_name: schema.root_file.clone(),
        };
        std::fs::write(
            out_dir.join(format!("{suite}.rs")),
            generate_rust(&schema, &opts),
        )
        .expect("write generated code");
        writeln!(modules, "/// Generated from `{}`.", schema.root_file).unwrap();
        writeln!(modules, "pub mod {suite} {{").unwrap();
        writeln!(
            modules,
            "    include!(concat!(env!(\"OUT_DIR\"), \"/{suite}.rs\"));"
        )
        .unwrap();
        writeln!(modules, "}}").unwrap();
        let names = Names::new(&schema);
        for (def, n) in schema.types.iter().zip(&names.types) {
            let ty = format!("{suite}::{}", n.ident);
            writeln!(modules, "impl crate::Vector for {ty} {{").unwrap();
            writeln!(modules, "    fn json_in(v: &::serde_json::Value) -> Result<Self, ::bitwire::json::JsonError> {{").unwrap();
            writeln!(modules, "        Self::from_json(v)").unwrap();
            writeln!(modules, "    }}").unwrap();
            writeln!(modules, "    fn json_out(&self) -> ::serde_json::Value {{").unwrap();
            writeln!(modules, "        self.to_json()").unwrap();
            writeln!(modules, "    }}").unwrap();
            writeln!(modules, "}}").unwrap();
            writeln!(
                registry,
                "    crate::TypeCodec::of::<{ty}>({suite:?}, {:?}, {:?}),",
                path.display().to_string(),
                def.name
            )
            .unwrap();
        }
    }
    modules.push_str(&extra_schemas(&out_dir));
    let text = format!(
        "{modules}\n/// Every named type of every suite.\npub fn registry() -> Vec<crate::TypeCodec> {{\n    vec![\n{registry}    ]\n}}\n"
    );
    std::fs::write(out_dir.join("suites.rs"), text).expect("write suites.rs");
}

/// Generates the schemas of `conformance/rust/schemas/` (test-only shapes too large for
/// the shared vector suites, such as a 16 MiB array) into `pub mod extra`, outside the
/// registry that the property tests walk.
fn extra_schemas(out_dir: &Path) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("schemas");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("conformance/rust/schemas exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "bw"))
        .collect();
    paths.sort();
    let mut modules =
        String::from("/// Test-only schemas (`conformance/rust/schemas/`).\npub mod extra {\n");
    for path in &paths {
        println!("cargo:rerun-if-changed={}", path.display());
        let schema = bitwire_compiler::compile_file(path)
            .unwrap_or_else(|d| panic!("{} does not compile:\n{}", path.display(), d.render()));
        let name = path
            .file_stem()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let opts = RustOptions {
            json: false,
            source_name: schema.root_file.clone(),
        };
        let file = format!("extra_{name}.rs");
        std::fs::write(out_dir.join(&file), generate_rust(&schema, &opts)).expect("write");
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
    modules
}
