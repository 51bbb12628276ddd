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
use crate::ir::Schema;
use crate::syntax;

/// What formatting must not change: the schema's IR as JSON without the line
/// numbers of declarations and fields (spans are never in the JSON). Tests and the
/// `schema_text` fuzz target compare it before and after formatting.
pub fn meaning(schema: &Schema) -> serde_json::Value {
    fn strip_lines(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("line");
                map.values_mut().for_each(strip_lines);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip_lines),
            _ => {}
        }
    }
    let mut json = serde_json::to_value(schema).expect("the IR serializes");
    strip_lines(&mut json);
    json
}

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
