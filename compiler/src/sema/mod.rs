//! Semantic analysis: loading imports, name resolution and checks, producing the
//! resolved [`model::Model`] from which the [`crate::layout`] pass builds the IR.
//!
//! Steps, each in its own file: `imports` (load and parse every file, detect
//! import cycles) → `scope` (declarations, duplicates, lookup) → `consts`,
//! `types`, `decls` (evaluate constants, lower and check types and declarations
//! into the model) → `recursion` (reject types that contain themselves) → layout.
//! Sema decides no widths or sizes: everything derived is the layout pass's.

mod builtins;
mod consts;
mod decls;
mod imports;
mod keys;
mod layout_errors;
mod loader;
mod lower;
pub(crate) mod model;
mod recursion;
mod scope;
mod suggest;
mod types;

pub use loader::{normalize, read_source, FsLoader, MemLoader, SourceLoader, MAX_SOURCE_BYTES};

use crate::diag::{Diagnostics, SourceMap};
use crate::ir::Schema;

/// Compiles the schema file `root` (a name the loader understands, e.g. a path
/// relative to the loader's base) and everything it imports.
///
/// Returns the schema if there were no errors, and every diagnostic (errors and
/// warnings) in either case.
pub fn compile(root: &str, loader: &dyn SourceLoader) -> (Option<Schema>, Diagnostics) {
    let root = normalize(root);
    let mut sources = SourceMap::new();
    let mut diags = Vec::new();
    let units = imports::load(&root, loader, &mut sources, &mut diags);
    let schema = if units.is_empty() {
        None
    } else {
        lower::lower(&units, &sources, &root, &mut diags)
    };
    (schema, Diagnostics::new(root, sources, diags))
}
