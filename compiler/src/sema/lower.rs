//! The lowering driver: from the parsed units to the checked [`Model`], in order —
//! declarations and scope, constants, type definitions, recursion check — and then
//! the layout pass, which builds the [`ir::Schema`] from it. Every step runs even
//! after errors in an earlier one (errors leave placeholders behind), so one run
//! reports as much as possible.

use std::collections::HashMap;

use super::consts::Slot;
use super::imports::Unit;
use super::model::Model;
use super::scope::Scope;
use crate::diag::{Diagnostic, SourceMap, Span};
use crate::ir::{self, Schema};
use crate::layout;

/// State shared by the lowering steps (their code is in `consts.rs`, `types.rs`,
/// `decls.rs`).
pub(crate) struct Lowerer<'a> {
    pub units: &'a [Unit],
    pub sources: &'a SourceMap,
    pub scope: Scope<'a>,
    pub diags: Vec<Diagnostic>,
    /// Evaluation state per constant (indexed like `scope.consts`).
    pub const_slots: Vec<Slot>,
    /// Constants whose values are being computed, innermost last.
    pub const_stack: Vec<usize>,
    /// Message ids seen so far: where and by which message.
    pub message_ids: HashMap<u32, (Span, String)>,
}

impl Lowerer<'_> {
    /// The IR origin of a declaration whose name is at `span` in `unit`.
    pub fn origin(&self, unit: usize, span: Span) -> ir::Origin {
        ir::Origin {
            file: self.units[unit].origin.clone(),
            line: self.sources.line_of(span),
        }
    }
}

/// Lowers the loaded units. Returns the schema if no error was found; diagnostics
/// are appended to `diags` either way.
pub(crate) fn lower(
    units: &[Unit],
    sources: &SourceMap,
    root: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Schema> {
    let scope = Scope::build(units, diags);
    let mut l = Lowerer {
        units,
        sources,
        const_slots: vec![Slot::Pending; scope.consts.len()],
        scope,
        diags: Vec::new(),
        const_stack: Vec::new(),
        message_ids: HashMap::new(),
    };
    let constants = l.lower_consts();
    let types = (0..l.scope.types.len())
        .map(|id| l.lower_type_def(id))
        .collect();
    let root_file = root.rsplit('/').next().unwrap_or(root).to_string();
    let mut model = Model {
        root_file,
        constants,
        types,
    };
    super::recursion::check(&model, &mut l.diags);
    super::keys::check(&mut model, &mut l.diags);
    // The layout pass cuts cycles itself (counting a back reference as one bit,
    // which cannot cause a zero-width or overflow report), so it can run even
    // when recursive types were found and still report its own problems.
    let (schema, errors) = layout::build(&model);
    for error in errors {
        l.diags
            .push(super::layout_errors::diagnostic(&model, error));
    }
    let failed = l
        .diags
        .iter()
        .chain(diags.iter())
        .any(|d| d.severity == crate::diag::Severity::Error);
    diags.append(&mut l.diags);
    (!failed).then_some(schema)
}
