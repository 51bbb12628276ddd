//! The bitwire schema compiler.
//!
//! Passes run in order: [`syntax`] (lex, recovering parse to an AST) → [`sema`]
//! (imports, name resolution, checks: a resolved model with no derived numbers) →
//! [`layout`] (packed widths, offsets, size bounds, in-memory sizes; builds the IR)
//! → [`ir`] (plain data) → [`plan`] (every wire operation, check, error path and
//! allocation charge, decided once per type) → [`codegen`] backends that only print
//! the plan. The [`codec`] reference codec interprets the IR directly, sharing nothing
//! with the plan or the runtimes: it is the oracle every generated codec is tested
//! against.

pub mod cli;
pub mod codec;
pub mod codegen;
pub mod compat;
pub mod diag;
pub mod fingerprint;
pub mod fmt;
mod graph;
pub mod ir;
pub mod layout;
pub mod plan;
pub mod sema;
pub mod syntax;

use std::path::Path;

pub use diag::Diagnostics;

/// The version of the packed wire format this compiler generates and decodes (docs/spec.md).
/// A change to the bytes of any value bumps it; `bitwire --version` prints it.
pub const WIRE_FORMAT_VERSION: u32 = 1;
pub use sema::{FsLoader, MemLoader, SourceLoader};

/// Compiles the schema at `path` and the files it imports (relative to the
/// importing file) from the file system. Diagnostics name files as given: `path`
/// as passed, imports joined to its directory.
pub fn compile_file(path: &Path) -> Result<ir::Schema, Diagnostics> {
    let name = path.to_string_lossy();
    into_result(sema::compile(&name, &FsLoader::new("")))
}

/// Compiles a single in-memory schema named `file_name`. It cannot import other
/// files (an import is reported as not found); use [`compile_with_loader`] with a
/// [`MemLoader`] for several in-memory files.
pub fn compile_source(file_name: &str, source: &str) -> Result<ir::Schema, Diagnostics> {
    let loader = MemLoader::new().with(file_name, source);
    into_result(sema::compile(file_name, &loader))
}

/// Compiles the schema `root` with files provided by `loader`.
pub fn compile_with_loader(
    root: &str,
    loader: &dyn SourceLoader,
) -> Result<ir::Schema, Diagnostics> {
    into_result(sema::compile(root, loader))
}

/// Warnings alone do not fail a compilation (they are dropped here; use
/// [`sema::compile`] to see them together with the schema).
fn into_result(
    (schema, diags): (Option<ir::Schema>, Diagnostics),
) -> Result<ir::Schema, Diagnostics> {
    match schema {
        Some(schema) if !diags.has_errors() => Ok(schema),
        _ => Err(diags),
    }
}
