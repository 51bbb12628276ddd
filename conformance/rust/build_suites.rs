//! Shared by the build scripts of `bitwire-conformance` (the vector suites) and
//! `bitwire-schemagen-rust` (random schemas): generates Rust code with JSON
//! conversions for each schema into `OUT_DIR/<suite>.rs`, and `OUT_DIR/suites.rs`
//! with one module per suite, a `crate::Vector` impl per named type and
//! `registry()`, the `crate::TypeCodec` of every named type. With the bincode
//! encoding ([`SuiteSet::bincode`]) also `bincode_registry()`, the
//! `crate::BincodeCodec` of every named type.

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

/// Where a set of suites' code goes and what it holds.
pub struct SuiteSet<'a> {
    /// The file holding the modules and registries (`suites.rs`).
    pub index: &'a str,
    /// Prefix of each suite's code file (`<prefix><suite>.rs`).
    pub file_prefix: &'a str,
    /// Also generate the bincode encoding (docs/spec.md §13) and `bincode_registry()`.
    pub bincode: bool,
}

/// Generates the code of every schema (a suite is the schema's file stem) and the
/// registry into `out_dir`.
pub fn write_suites(schemas: &[PathBuf], out_dir: &Path) {
    let set = SuiteSet {
        index: "suites.rs",
        file_prefix: "",
        bincode: false,
    };
    write_suite_set(schemas, out_dir, &set);
}

/// [`write_suites`] for the set `set`.
pub fn write_suite_set(schemas: &[PathBuf], out_dir: &Path, set: &SuiteSet) {
    let mut modules = String::new();
    let mut registry = String::new();
    let mut bincode_registry = String::new();
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
            bincode: set.bincode,
            source_name: schema.root_file.clone(),
            ..Default::default()
        };
        let file = format!("{}{suite}.rs", set.file_prefix);
        std::fs::write(out_dir.join(&file), generate_rust(&schema, &opts))
            .expect("write generated code");
        writeln!(modules, "/// Generated from `{}`.", schema.root_file).unwrap();
        writeln!(modules, "pub mod {suite} {{").unwrap();
        writeln!(
            modules,
            "    include!(concat!(env!(\"OUT_DIR\"), \"/{file}\"));"
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
            writeln!(
                bincode_registry,
                "    crate::BincodeCodec::of::<{ty}>({suite:?}, {:?}, {:?}),",
                path.display().to_string(),
                def.name
            )
            .unwrap();
        }
    }
    let mut text = format!(
        "{modules}\n/// Every named type of every suite.\npub fn registry() -> Vec<crate::TypeCodec> {{\n    vec![\n{registry}    ]\n}}\n"
    );
    if set.bincode {
        text.push_str(&format!(
            "\n/// Every named type of every suite, through its bincode encoding.\npub fn bincode_registry() -> Vec<crate::BincodeCodec> {{\n    vec![\n{bincode_registry}    ]\n}}\n"
        ));
    }
    std::fs::write(out_dir.join(set.index), text).expect("write the suites' index");
}
