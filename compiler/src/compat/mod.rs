//! `bitwire compat`: the changes between two versions of a schema, each classified
//! by the evolution rules of `docs/spec.md` §9.
//!
//! Types are matched by name, then unmatched messages by message id, then types
//! referenced from the same position of matched types. Fields are matched by
//! position (the wire has no names), enum and union variants by value or tag.
//! Every change has a stable code from [`CODES`] (a table separate from the
//! compiler's E-codes) and is rendered like a diagnostic: the primary label in the
//! new schema, a secondary label in the old one.

mod compare;
mod rules;

use std::fmt::Write;

use crate::diag::{self, Diagnostics, Label, SourceMap};
use crate::sema::{self, SourceLoader};

/// How a change affects peers that run the other schema version.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Bytes from either version decode to the same value under the other.
    Compatible,
    /// Old bytes decode under the new schema; new bytes decode under the old schema
    /// only while the new values (variant, range, length) are not sent.
    ForwardRisky,
    /// Bytes of one version are rejected or misread by the other.
    Breaking,
}

impl Class {
    /// The word used in headers and the summary.
    pub fn word(self) -> &'static str {
        match self {
            Class::Compatible => "compatible",
            Class::ForwardRisky => "forward-risky",
            Class::Breaking => "breaking",
        }
    }
}

/// The closed table of change codes: code, class, title. Codes are stable and
/// never reused; `docs/tooling.md` lists every one (a test checks that).
pub const CODES: &[(&str, Class, &str)] = &[
    ("C0101", Class::Compatible, "type renamed"),
    ("C0102", Class::Compatible, "field renamed"),
    ("C0103", Class::Compatible, "variant renamed"),
    (
        "C0104",
        Class::Compatible,
        "constant renamed, added, removed or changed",
    ),
    ("C0105", Class::Compatible, "type added"),
    (
        "C0106",
        Class::Compatible,
        "integer base type changed, wire unchanged",
    ),
    (
        "C0107",
        Class::Compatible,
        "plain integer and full-range bound exchanged, wire unchanged",
    ),
    (
        "C0201",
        Class::ForwardRisky,
        "enum variant added within the tag width",
    ),
    (
        "C0202",
        Class::ForwardRisky,
        "union variant added within the tag width",
    ),
    (
        "C0203",
        Class::ForwardRisky,
        "bound widened within the stored width",
    ),
    (
        "C0204",
        Class::ForwardRisky,
        "max length raised within the prefix width",
    ),
    ("C0301", Class::Breaking, "field added"),
    ("C0302", Class::Breaking, "field removed"),
    ("C0303", Class::Breaking, "field moved to another position"),
    ("C0304", Class::Breaking, "type changed"),
    (
        "C0305",
        Class::Breaking,
        "bound changed: stored width or minimum",
    ),
    ("C0306", Class::Breaking, "bound narrowed"),
    ("C0307", Class::Breaking, "length prefix changed"),
    ("C0308", Class::Breaking, "max length lowered"),
    ("C0309", Class::Breaking, "quantization changed"),
    ("C0310", Class::Breaking, "tag width changed"),
    ("C0311", Class::Breaking, "variant removed"),
    ("C0312", Class::Breaking, "variant value or tag changed"),
    ("C0313", Class::Breaking, "message id changed"),
    ("C0314", Class::Breaking, "type removed"),
];

/// The class of a code from [`CODES`].
fn class_of(code: &str) -> Class {
    CODES
        .iter()
        .find(|(c, _, _)| *c == code)
        .map(|(_, class, _)| *class)
        .expect("codes come from the table")
}

/// One difference between the schemas.
#[derive(Debug, Clone)]
pub struct Change {
    /// The stable code (`C0301`).
    pub code: &'static str,
    pub class: Class,
    /// The headline.
    pub message: String,
    /// The new location (the old one when the thing was removed).
    pub primary: Option<Label>,
    /// The old location (and others).
    pub secondary: Vec<Label>,
    pub notes: Vec<String>,
}

/// Every change between two schemas, with the sources their spans point into.
#[derive(Debug)]
pub struct Report {
    pub sources: SourceMap,
    pub changes: Vec<Change>,
    pub old_name: String,
    pub new_name: String,
}

impl Report {
    /// Whether any change is breaking (`bitwire compat` then exits 1).
    pub fn is_breaking(&self) -> bool {
        self.changes.iter().any(|c| c.class == Class::Breaking)
    }

    /// The codes of all changes, in order.
    pub fn codes(&self) -> Vec<&'static str> {
        self.changes.iter().map(|c| c.code).collect()
    }

    /// Every change rendered like a diagnostic, then a one-line summary.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for c in &self.changes {
            let header = format!("{}[{}]: {}", c.class.word(), c.code, c.message);
            out.push_str(&diag::render_labeled(
                &self.sources,
                &header,
                c.primary.as_ref(),
                &c.secondary,
                &c.notes,
                None,
            ));
            out.push('\n');
        }
        out.push_str(&self.summary());
        out.push('\n');
        out
    }

    /// `breaking: old.bw -> new.bw: 3 changes (1 breaking, 1 forward-risky, 1 compatible)`.
    pub fn summary(&self) -> String {
        let count = |class| self.changes.iter().filter(|c| c.class == class).count();
        let verdict = if self.is_breaking() {
            "breaking"
        } else {
            "compatible"
        };
        let mut s = format!("{verdict}: {} -> {}: ", self.old_name, self.new_name);
        if self.changes.is_empty() {
            s.push_str("no wire-relevant changes");
        } else {
            let n = self.changes.len();
            let _ = write!(
                s,
                "{n} change{} ({} breaking, {} forward-risky, {} compatible)",
                if n == 1 { "" } else { "s" },
                count(Class::Breaking),
                count(Class::ForwardRisky),
                count(Class::Compatible)
            );
        }
        s
    }
}

/// Compiles both schemas (each with its own loader) and compares them. Fails with
/// the diagnostics of the first schema that does not compile.
pub fn compare_with_loaders(
    old_root: &str,
    old_loader: &dyn SourceLoader,
    new_root: &str,
    new_loader: &dyn SourceLoader,
) -> Result<Report, Diagnostics> {
    // The IR's spans point into the sources each compilation loaded.
    let compile = |root: &str, loader: &dyn SourceLoader| {
        let (schema, diags) = sema::compile(root, loader);
        match schema {
            Some(s) if !diags.has_errors() => Ok((s, diags.sources)),
            _ => Err(diags),
        }
    };
    let (old, mut sources) = compile(old_root, old_loader)?;
    let (new, new_sources) = compile(new_root, new_loader)?;
    let new_files = sources.append(new_sources);
    let changes = compare::compare(&old, &new, new_files);
    Ok(Report {
        sources,
        changes,
        old_name: sema::normalize(old_root),
        new_name: sema::normalize(new_root),
    })
}

/// Compares two schema files on disk (paths as given, relative to the current directory).
pub fn compare_files(old: &std::path::Path, new: &std::path::Path) -> Result<Report, Diagnostics> {
    let loader = sema::FsLoader::new("");
    compare_with_loaders(
        &old.to_string_lossy(),
        &loader,
        &new.to_string_lossy(),
        &loader,
    )
}
