//! Source positions for the compatibility report: the IR keeps only lines, so each
//! schema file is parsed again and its declarations indexed by name.

use std::collections::HashMap;

use crate::diag::{SourceMap, Span};
use crate::ir::Schema;
use crate::sema::{normalize, SourceLoader};
use crate::syntax::{self, ast};

/// Spans of one declaration: its name and, per field or variant, name and type.
#[derive(Debug, Clone)]
pub(crate) struct DeclSpans {
    pub name: Span,
    /// Per member (field or variant), in declaration order: name span, type span.
    pub members: Vec<(Span, Option<Span>)>,
}

/// Every declaration of one schema (root and imports), by name.
#[derive(Debug, Default)]
pub(crate) struct SpanIndex {
    pub decls: HashMap<String, DeclSpans>,
}

impl SpanIndex {
    /// Loads and parses every file `schema` was compiled from into `sources`.
    pub fn build(
        root: &str,
        schema: &Schema,
        loader: &dyn SourceLoader,
        sources: &mut SourceMap,
    ) -> SpanIndex {
        let root = normalize(root);
        let dir = root.rfind('/').map(|i| &root[..i]);
        let mut files: Vec<&str> = Vec::new();
        let origins = schema
            .types
            .iter()
            .map(|t| t.origin.file.as_str())
            .chain(schema.constants.iter().map(|c| c.origin.file.as_str()));
        for f in origins {
            if !files.contains(&f) {
                files.push(f);
            }
        }
        let mut index = SpanIndex::default();
        for f in files {
            let name = match dir {
                Some(d) => normalize(&format!("{d}/{f}")),
                None => normalize(f),
            };
            let Ok(text) = loader.load(&name) else {
                continue;
            };
            let id = sources.add(name, text.clone());
            let (tree, _) = syntax::parse(id, &text);
            for item in &tree.items {
                let (name, members) = match item {
                    ast::Item::Import(_) => continue,
                    ast::Item::Const(c) => (&c.name, Vec::new()),
                    ast::Item::Struct(s) => (
                        &s.name,
                        s.fields
                            .iter()
                            .map(|f| (f.name.span, Some(f.ty.span)))
                            .collect(),
                    ),
                    ast::Item::Enum(e) => (
                        &e.name,
                        e.variants.iter().map(|v| (v.name.span, None)).collect(),
                    ),
                    ast::Item::Union(u) => (
                        &u.name,
                        u.variants
                            .iter()
                            .map(|v| (v.name.span, v.payload.as_ref().map(|p| p.span)))
                            .collect(),
                    ),
                };
                index.decls.entry(name.name.clone()).or_insert(DeclSpans {
                    name: name.span,
                    members,
                });
            }
        }
        index
    }
}
