//! `bitwire fmt`: the canonical layout of a `.bw` file, comments included.
//!
//! The formatter works from the token stream, not the AST: the lexer's tokens
//! (doc comments are tokens) plus the plain `//` comments found in the gaps
//! between them ([`trivia`]), laid out by [`printer`]. It only ever changes
//! whitespace, moves comments between lines and adds the optional trailing comma
//! of a body, so the formatted file means the same as the original. A file with
//! syntax errors is refused: its structure is not known well enough to lay out.
//! The rules are documented in `docs/schema-language.md`, section "Formatting".

mod printer;
mod trivia;

use crate::diag::{Diagnostics, Severity, SourceMap};
use crate::syntax;

/// Formats the schema text `source` (named `name` in diagnostics). Fails with the
/// lexing and syntax errors if the file does not parse.
pub fn format_source(name: &str, source: &str) -> Result<String, Diagnostics> {
    let mut sources = SourceMap::new();
    let file = sources.add(name, source);
    let (_, diags) = syntax::parse(file, source);
    if diags.iter().any(|d| d.severity == Severity::Error) {
        return Err(Diagnostics::new(name, sources, diags));
    }
    let (tokens, _) = syntax::lex(file, source);
    let pieces = trivia::pieces(source, &tokens);
    Ok(printer::print(&pieces))
}
