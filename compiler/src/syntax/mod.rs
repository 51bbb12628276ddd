//! Lexing and parsing of one schema file into an [`ast::File`].
//!
//! Both stages recover from errors, so [`parse`] always returns a tree (possibly
//! missing the broken parts) together with every lexing and syntax diagnostic.

pub mod ast;
mod lexer;
mod parser;
pub mod token;
mod type_expr;

use crate::diag::{Code, Diagnostic, FileId, Span};

/// The lexer, and then the parser, stop after this many errors in one file: a
/// file can have an error at every character, and nobody reads past the first
/// screenful. (Later passes report at most a few errors per declaration.)
pub const MAX_SYNTAX_ERRORS: usize = 1000;

/// The error that ends the reports of a stage that gave up at `at` (`label`
/// says what it did not do past there).
fn too_many_errors(at: Span, label: &str) -> Diagnostic {
    Diagnostic::error(
        Code::TooManyErrors,
        format!("too many errors in this file: stopped after {MAX_SYNTAX_ERRORS}"),
        at,
        label,
    )
    .with_help("fix the errors above and compile again; the rest of the file is checked then")
}

pub use lexer::lex;

/// Lexes and parses `source` (the text of file `file`).
pub fn parse(file: FileId, source: &str) -> (ast::File, Vec<Diagnostic>) {
    let (tokens, mut diags) = lex(file, source);
    let mut parser = parser::Parser::new(tokens);
    let tree = parser.file();
    diags.append(&mut parser.diags);
    (tree, diags)
}
