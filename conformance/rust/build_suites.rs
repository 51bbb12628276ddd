//! Shared by the build scripts of `bitwire-conformance` (the vector suites) and
//! `bitwire-schemagen-rust` (random schemas): generates Rust code with JSON
//! conversions for each schema into `OUT_DIR/<suite>.rs`, and `OUT_DIR/suites.rs`
//! with one module per suite, a `crate::Vector` impl per named type and
//! `registry()`, the `crate::TypeCodec` of every named type.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use bitwire_compiler::codegen::rust::derives_default;
use bitwire_compiler::codegen::rust::naming::Names;
use bitwire_compiler::codegen::{generate_rust, RustOptions};

/// The `*.bw` files of `dir`, sorted, as absolute paths (the reference codec
/// compiles them again at run time, from any directory).
pub fn schemas_in(dir: &Path) -> Vec<PathBuf> {
    let mut schemas: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "bw"))
        .map(|p| p.canonicalize().expect("schema path exists"))
        .collect();
    schemas.sort();
    schemas
}

/// Generates the code of every schema (a suite is the schema's file stem) and the
/// registry into `out_dir`.
pub fn write_suites(schemas: &[PathBuf], out_dir: &Path) {
    let mut modules = String::new();
    let mut registry = String::new();
    for path in schemas {
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
            bincode: false,
            source_name: schema.root_file.clone(),
            ..Default::default()
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
        let defaults = derives_default(&schema);
        for (id, (def, n)) in schema.types.iter().zip(&names.types).enumerate() {
            let ty = format!("{suite}::{}", n.ident);
            writeln!(modules, "impl crate::Vector for {ty} {{").unwrap();
            writeln!(modules, "    fn json_in(v: &::serde_json::Value) -> Result<Self, ::bitwire::json::JsonError> {{").unwrap();
            writeln!(modules, "        Self::from_json(v)").unwrap();
            writeln!(modules, "    }}").unwrap();
            writeln!(modules, "    fn json_out(&self) -> ::serde_json::Value {{").unwrap();
            writeln!(modules, "        self.to_json()").unwrap();
            writeln!(modules, "    }}").unwrap();
            writeln!(modules, "}}").unwrap();
            let with_default = if defaults[id] {
                format!(".with_default::<{ty}>()")
            } else {
                String::new()
            };
            writeln!(
                registry,
                "    crate::TypeCodec::of::<{ty}>({suite:?}, {:?}, {:?}){with_default},",
                path.display().to_string(),
                def.name
            )
            .unwrap();
        }
    }
    let text = format!(
        "{modules}\n/// Every named type of every suite.\npub fn registry() -> Vec<crate::TypeCodec> {{\n    vec![\n{registry}    ]\n}}\n"
    );
    std::fs::write(out_dir.join("suites.rs"), text).expect("write suites.rs");
}
