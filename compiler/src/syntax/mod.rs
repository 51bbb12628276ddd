//! Lexing and parsing of one schema file into an [`ast::File`].
//!
//! Both stages recover from errors, so [`parse`] always returns a tree (possibly
//! missing the broken parts) together with every lexing and syntax diagnostic.

pub mod ast;
mod lexer;
mod parser;
pub mod token;
mod type_expr;

use crate::diag::{Diagnostic, FileId};

pub use lexer::lex;

/// Lexes and parses `source` (the text of file `file`).
pub fn parse(file: FileId, source: &str) -> (ast::File, Vec<Diagnostic>) {
    let (tokens, mut diags) = lex(file, source);
    let mut parser = parser::Parser::new(&tokens);
    let tree = parser.file();
    diags.append(&mut parser.diags);
    (tree, diags)
}
