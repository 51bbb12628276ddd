//! Tokens and comments in source order, each with the number of line breaks
//! before it: the formatter's input.

use crate::syntax::token::{Token, TokenKind};

/// What a piece is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum PieceKind {
    /// A token other than a doc comment (the last piece is always `Eof`).
    Tok(TokenKind),
    /// A plain `//` (or `////...`) comment.
    Comment,
    /// A `///` doc comment.
    Doc,
}

/// A token or comment and its spelling in the source.
#[derive(Debug, Clone)]
pub(super) struct Piece {
    pub kind: PieceKind,
    /// The source text: literals keep their spelling (`0xFF`, `1_000`), comments
    /// run from `//` to the end of the line (plain comments without trailing
    /// whitespace; doc comments exactly, since their text is part of the schema).
    pub text: String,
    /// Line breaks between the previous piece and this one, capped at 2 (2 means
    /// a blank line). The first piece of the file counts as on its own line.
    pub breaks: u8,
}

impl Piece {
    /// A comment on the same line as the piece before it.
    pub fn is_trailing(&self) -> bool {
        self.breaks == 0
    }

    /// Whether a blank line precedes the piece.
    pub fn blank_before(&self) -> bool {
        self.breaks >= 2
    }

    pub fn tok(&self) -> Option<&TokenKind> {
        match &self.kind {
            PieceKind::Tok(kind) => Some(kind),
            _ => None,
        }
    }
}

/// Splits `src` into pieces, given its tokens. The text between two tokens holds
/// only whitespace and plain comments (anything else is a lexing error, and such
/// files are not formatted).
pub(super) fn pieces(src: &str, tokens: &[Token]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut breaks = 1usize;
    let mut at = 0;
    for token in tokens {
        let (start, end) = (token.span.start as usize, token.span.end as usize);
        scan_gap(&src[at..start], &mut breaks, &mut out);
        let raw = &src[start..end];
        let (kind, text) = match &token.kind {
            TokenKind::DocComment(_) => (PieceKind::Doc, raw.trim_end_matches('\r').to_string()),
            other => (PieceKind::Tok(other.clone()), raw.to_string()),
        };
        out.push(Piece {
            kind,
            text,
            breaks: breaks.min(2) as u8,
        });
        breaks = 0;
        at = end;
    }
    out
}

/// Records the comments of one gap, counting line breaks before each.
fn scan_gap(gap: &str, breaks: &mut usize, out: &mut Vec<Piece>) {
    let mut rest = gap;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            out.push(Piece {
                kind: PieceKind::Comment,
                text: rest[..end].trim_end().to_string(),
                breaks: (*breaks).min(2) as u8,
            });
            *breaks = 0;
            rest = &rest[end..];
            continue;
        }
        if c == '\n' {
            *breaks += 1;
        }
        rest = &rest[c.len_utf8()..];
    }
}
