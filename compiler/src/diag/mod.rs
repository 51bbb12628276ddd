//! Diagnostics: what every front-end pass reports, and their rustc-style rendering.
//!
//! A [`Diagnostic`] has a stable [`Code`], a message, a primary labelled span,
//! optional secondary labels (possibly in other files), notes and a help line.
//! Passes never stop at the first problem; they collect diagnostics, and the
//! compile functions return all of them together in [`Diagnostics`].

mod codes;
mod render;
mod source;

pub use codes::Code;

/// Renders `header` and then the labels, notes and help exactly as diagnostics are
/// rendered (used by reports that are not compiler diagnostics, e.g. `bitwire compat`).
pub fn render_labeled(
    sources: &SourceMap,
    header: &str,
    primary: Option<&Label>,
    secondary: &[Label],
    notes: &[String],
    help: Option<&str>,
) -> String {
    let mut out = String::new();
    let body = render::Body {
        primary,
        secondary,
        notes,
        help,
    };
    render::render_labeled(&mut out, sources, header, &body);
    out
}
pub use source::{FileId, SourceFile, SourceMap, Span, BOM};

/// How bad a diagnostic is. Only errors make a compilation fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The schema is rejected.
    Error,
    /// Worth fixing, but the schema compiles.
    Warning,
}

/// A span with a message, underlined in the rendered snippet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Label {
    /// What is underlined.
    pub span: Span,
    /// Printed after the underline (may be empty).
    pub message: String,
}

/// One reported problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The stable code (`E0201`).
    pub code: Code,
    /// The headline, printed after the code.
    pub message: String,
    /// Where the problem is. `None` only when there is no source position at all
    /// (the root schema file itself cannot be read).
    pub primary: Option<Label>,
    /// Related places ("first defined here").
    pub secondary: Vec<Label>,
    /// Extra facts, rendered as `= note: ...`.
    pub notes: Vec<String>,
    /// How to fix it, rendered as `= help: ...`.
    pub help: Option<String>,
}

impl Diagnostic {
    /// Starts an error with a primary label.
    pub fn error(
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: Some(Label {
                span,
                message: label.into(),
            }),
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// Starts an error that has no source position.
    pub fn error_without_span(code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            primary: None,
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// Adds a secondary label.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push(Label {
            span,
            message: label.into(),
        });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line if `help` is `Some`.
    pub fn with_help_opt(mut self, help: Option<String>) -> Self {
        if help.is_some() {
            self.help = help;
        }
        self
    }
}

/// Every diagnostic of one compilation, with the sources needed to render them.
#[derive(Debug, Clone)]
pub struct Diagnostics {
    /// The files that were loaded (spans point into these).
    pub sources: SourceMap,
    /// The diagnostics, sorted by file load order and position.
    pub items: Vec<Diagnostic>,
    /// The root schema's display name, used in the closing summary line.
    pub root: String,
}

impl Diagnostics {
    /// Bundles diagnostics with their sources; sorts them into reading order
    /// (file load order, then position; the sort is stable so passes keep their
    /// relative order for diagnostics at the same place).
    pub fn new(root: impl Into<String>, sources: SourceMap, mut items: Vec<Diagnostic>) -> Self {
        items.sort_by_key(|d| d.primary.as_ref().map(|l| (l.span.file, l.span.start)));
        Diagnostics {
            sources,
            items,
            root: root.into(),
        }
    }

    /// Number of errors.
    pub fn error_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// Number of warnings.
    pub fn warning_count(&self) -> usize {
        self.items
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count()
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.error_count() > 0
    }

    /// The codes of all diagnostics, in order (handy in tests).
    pub fn codes(&self) -> Vec<Code> {
        self.items.iter().map(|d| d.code).collect()
    }

    /// Renders every diagnostic as plain rustc-style text, followed by a summary
    /// line. Deterministic: depends only on the diagnostics and the sources.
    pub fn render(&self) -> String {
        render::render_all(self)
    }
}

impl std::fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for Diagnostics {}
