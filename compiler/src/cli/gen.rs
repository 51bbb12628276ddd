//! `bitwire gen --lang rust --out DIR SCHEMA`: compile a schema and write the
//! generated code for one language into `DIR`, one file per schema.

use std::process::ExitCode;

use super::term;
use super::{Encoding, GenArgs, Lang};
use crate::codegen::{generate_rust, RustOptions};
use crate::sema::{self, FsLoader};

/// Runs `bitwire gen`: prints diagnostics (warnings included) to stderr and exits 1
/// on errors; otherwise writes the file and prints its path.
pub fn run(args: &GenArgs) -> ExitCode {
    let (schema, diags) = sema::compile(&args.schema.to_string_lossy(), &FsLoader::new(""));
    if !diags.items.is_empty() {
        term::eprint_report(&diags.render());
    }
    let Some(schema) = schema.filter(|_| !diags.has_errors()) else {
        return ExitCode::FAILURE;
    };
    let stem = crate::codegen::file_stem(&args.schema);
    let (file_name, code) = match args.lang {
        Lang::Rust => {
            let opts = RustOptions {
                json: args.json,
                bincode: args.encoding == Encoding::Bincode,
                source_name: schema.root_file.clone(),
                module_file: true,
            };
            (format!("{stem}.rs"), generate_rust(&schema, &opts))
        }
        Lang::Go => {
            let package = match &args.package {
                Some(p) if crate::codegen::go::naming::is_package_name(p) => p.clone(),
                Some(p) => {
                    eprintln!("error: `{p}` is not a valid Go package name");
                    return ExitCode::FAILURE;
                }
                None => crate::codegen::go::naming::package_name(&stem),
            };
            let opts = crate::codegen::GoOptions {
                json: args.json,
                bincode: args.encoding == Encoding::Bincode,
                source_name: schema.root_file.clone(),
                package,
            };
            (
                format!("{stem}.go"),
                crate::codegen::generate_go(&schema, &opts),
            )
        }
        Lang::Ts => {
            let opts = crate::codegen::TsOptions {
                json: args.json,
                bincode: args.encoding == Encoding::Bincode,
                typed_arrays: args.typed_arrays,
                source_name: schema.root_file.clone(),
                ..Default::default()
            };
            (
                format!("{stem}.ts"),
                crate::codegen::generate_ts(&schema, &opts),
            )
        }
    };
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("error: cannot create `{}`: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    let path = args.out.join(file_name);
    if let Err(e) = std::fs::write(&path, code) {
        eprintln!("error: cannot write `{}`: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!("{}", path.display());
    ExitCode::SUCCESS
}
