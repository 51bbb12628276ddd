//! The bitwire schema compiler.
//!
//! Passes run in order: [`syntax`] (lex, recovering parse to an AST) → [`sema`]
//! (imports, name resolution, checks, lowering) → [`layout`] (packed widths, offsets,
//! size bounds) → [`ir`] (plain data) → consumers: [`codegen`] backends that only
//! print, and the [`codec`] reference codec that interprets the IR directly and is
//! the oracle every generated codec is tested against.

pub mod cli;
pub mod codec;
pub mod codegen;
pub mod diag;
pub mod ir;
pub mod layout;
pub mod sema;
pub mod syntax;
