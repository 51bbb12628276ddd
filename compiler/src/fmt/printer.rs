//! Lays out the pieces of a file that parses: items at column 0 separated by
//! blank lines, bodies one member per line with trailing commas, comments where
//! they were.

use super::trivia::{Piece, PieceKind};
use crate::syntax::token::TokenKind;

const INDENT: usize = 4;

/// A comment or doc comment on its own line, waiting to be printed before the
/// next member or item (or the closing brace).
struct Entry {
    text: String,
    doc: bool,
    blank: bool,
}

impl Entry {
    fn from(piece: &Piece) -> Entry {
        Entry {
            text: piece.text.clone(),
            doc: piece.kind == PieceKind::Doc,
            blank: piece.blank_before(),
        }
    }
}

/// Formats a file given as pieces (ending with the `Eof` token).
pub(super) fn print(pieces: &[Piece]) -> String {
    let mut p = Printer {
        pieces,
        pos: 0,
        out: String::new(),
        line: String::new(),
        has_content: false,
        prev: None,
        carry: Vec::new(),
    };
    p.file();
    p.out
}

struct Printer<'a> {
    pieces: &'a [Piece],
    pos: usize,
    out: String,
    /// The line being built.
    line: String,
    has_content: bool,
    /// The last token on the current line, for spacing.
    prev: Option<TokenKind>,
    /// Own-line comments displaced from before a `,`, `;` or `{`: they go before
    /// the next member or item.
    carry: Vec<Entry>,
}

/// Whether a space goes between two tokens on one line.
fn space_between(prev: &TokenKind, next: &TokenKind) -> bool {
    use TokenKind::*;
    let tight_before = matches!(
        next,
        Comma | Semi | Colon | Gt | Lt | LParen | RParen | RBracket | DotDotEq | DotDot
    );
    let tight_after = matches!(prev, Lt | LParen | LBracket | DotDotEq | DotDot | Minus);
    let empty_body = matches!((prev, next), (LBrace, RBrace));
    !(tight_before || tight_after || empty_body)
}

impl Printer<'_> {
    fn piece(&self) -> &Piece {
        &self.pieces[self.pos.min(self.pieces.len() - 1)]
    }

    /// The index of the next token piece at or after the cursor.
    fn next_tok_index(&self) -> usize {
        (self.pos..self.pieces.len())
            .find(|&i| self.pieces[i].tok().is_some())
            .unwrap_or(self.pieces.len() - 1)
    }

    fn next_tok(&self) -> &TokenKind {
        self.pieces[self.next_tok_index()]
            .tok()
            .unwrap_or(&TokenKind::Eof)
    }

    fn open(&mut self, indent: usize) {
        self.line = " ".repeat(indent);
        self.has_content = false;
        self.prev = None;
    }

    fn close(&mut self) {
        if self.has_content {
            self.out.push_str(self.line.trim_end());
            self.out.push('\n');
        }
        self.line.clear();
        self.has_content = false;
        self.prev = None;
    }

    fn blank_line(&mut self) {
        if !self.out.is_empty() && !self.out.ends_with("\n\n") {
            self.out.push('\n');
        }
    }

    fn word(&mut self, kind: &TokenKind, text: &str) {
        if let Some(prev) = &self.prev {
            if space_between(prev, kind) {
                self.line.push(' ');
            }
        }
        self.line.push_str(text);
        self.has_content = true;
        self.prev = Some(kind.clone());
    }

    /// Prints the token under the cursor and moves past it.
    fn take_tok(&mut self) {
        let piece = self.piece().clone();
        if let PieceKind::Tok(kind) = &piece.kind {
            self.word(kind, &piece.text);
        }
        self.pos += 1;
    }

    fn comment_on_line(&mut self, text: &str) {
        if self.has_content {
            self.line.push(' ');
        }
        self.line.push_str(text);
        self.has_content = true;
    }

    /// Own-line comments and doc comments before the next token (after any
    /// carried ones).
    fn collect_prefix(&mut self) -> Vec<Entry> {
        let mut entries = std::mem::take(&mut self.carry);
        while matches!(self.piece().kind, PieceKind::Comment | PieceKind::Doc) {
            entries.push(Entry::from(self.piece()));
            self.pos += 1;
        }
        entries
    }

    /// Prints the comments before a member or item at `indent`, plain comments
    /// first and doc comments directly above the target, then the blank line
    /// the target gets. `first` is the first thing in its scope (no blank line
    /// before it); `forced` asks for a blank line before the first line printed.
    fn prefix(
        &mut self,
        mut entries: Vec<Entry>,
        indent: usize,
        target_blank: bool,
        first: bool,
        forced: bool,
    ) {
        let doc_then_plain = entries.iter().skip_while(|e| !e.doc).any(|e| !e.doc);
        if doc_then_plain {
            let (plain, docs): (Vec<Entry>, Vec<Entry>) = entries.into_iter().partition(|e| !e.doc);
            entries = plain;
            // The doc comments end up directly below the plain comments.
            entries.extend(docs.into_iter().map(|e| Entry { blank: false, ..e }));
        }
        let mut prev_doc = false;
        for (i, entry) in entries.iter().enumerate() {
            let blank = if i == 0 {
                !first && (forced || entry.blank)
            } else {
                entry.blank && !(entry.doc && prev_doc)
            };
            if blank {
                self.blank_line();
            }
            self.open(indent);
            self.comment_on_line(&entry.text);
            self.close();
            prev_doc = entry.doc;
        }
        let blank = match entries.last() {
            None => !first && (forced || target_blank),
            Some(last) => !last.doc && target_blank,
        };
        if blank {
            self.blank_line();
        }
    }

    /// Prints tokens on the current line until one of `stops` at nesting depth
    /// 0 (not consumed). A comment inside the run ends the line; the run goes on
    /// on the next line, indented one more level. Comments right before the stop
    /// token are returned instead, for [`Printer::finish_line`].
    fn run(&mut self, indent: usize, stops: &[TokenKind]) -> Vec<Piece> {
        let mut depth = 0usize;
        loop {
            let piece = self.piece().clone();
            match &piece.kind {
                PieceKind::Tok(TokenKind::Eof) => return Vec::new(),
                PieceKind::Tok(kind) => {
                    if depth == 0 && stops.contains(kind) {
                        return Vec::new();
                    }
                    match kind {
                        TokenKind::Lt | TokenKind::LParen | TokenKind::LBracket => depth += 1,
                        TokenKind::Gt | TokenKind::RParen | TokenKind::RBracket => {
                            depth = depth.saturating_sub(1)
                        }
                        _ => {}
                    }
                    self.take_tok();
                }
                PieceKind::Comment | PieceKind::Doc => {
                    let next = self.next_tok_index();
                    let at_stop = self.pieces[next]
                        .tok()
                        .is_some_and(|k| depth == 0 && (stops.contains(k) || *k == TokenKind::Eof));
                    if at_stop {
                        let pending = self.pieces[self.pos..next].to_vec();
                        self.pos = next;
                        return pending;
                    }
                    if piece.is_trailing() {
                        self.comment_on_line(&piece.text);
                        self.close();
                    } else {
                        self.close();
                        self.open(indent + INDENT);
                        self.comment_on_line(&piece.text);
                        self.close();
                    }
                    self.open(indent + INDENT);
                    self.pos += 1;
                }
            }
        }
    }

    /// Ends the current line after a `,`, `;`, `{` or `}` just printed: the first
    /// of `pending` (comments that stood before that token) stays on the line if
    /// it was an end-of-line comment, else an end-of-line comment after the token
    /// does; every other comment moves before the next member or item.
    fn finish_line(&mut self, pending: Vec<Piece>) {
        let mut rest = Vec::new();
        let mut has_trailing = false;
        for (i, piece) in pending.iter().enumerate() {
            if i == 0 && piece.is_trailing() && piece.kind == PieceKind::Comment {
                self.comment_on_line(&piece.text);
                has_trailing = true;
            } else {
                rest.push(Entry::from(piece));
            }
        }
        let after = self.piece();
        if after.kind == PieceKind::Comment && after.is_trailing() {
            let after = after.clone();
            self.pos += 1;
            if has_trailing {
                rest.push(Entry {
                    text: after.text,
                    doc: false,
                    blank: false,
                });
            } else {
                self.comment_on_line(&after.text);
            }
        }
        self.close();
        self.carry.extend(rest);
    }

    fn file(&mut self) {
        let mut prev_kind: Option<String> = None;
        loop {
            let entries = self.collect_prefix();
            if *self.next_tok() == TokenKind::Eof {
                let first = prev_kind.is_none();
                self.prefix(entries, 0, false, first, false);
                return;
            }
            let kind = self.piece().text.clone();
            let grouped = prev_kind.as_deref() == Some(kind.as_str())
                && matches!(kind.as_str(), "import" | "const");
            let target_blank = self.piece().blank_before();
            self.prefix(entries, 0, target_blank, prev_kind.is_none(), !grouped);
            self.item();
            prev_kind = Some(kind);
        }
    }

    /// One item: its header up to `;` or `{`, then the body.
    fn item(&mut self) {
        self.open(0);
        // `delta message` (spec §12) starts an item with a contextual word.
        let starts_item = match self.piece().tok() {
            Some(TokenKind::Keyword(k)) => k.starts_item(),
            Some(TokenKind::Ident(w)) => w == "delta",
            _ => false,
        };
        let pending = self.run(0, &[TokenKind::Semi, TokenKind::LBrace]);
        match self.next_tok().clone() {
            TokenKind::Semi => {
                self.take_tok();
                self.finish_line(pending);
            }
            TokenKind::LBrace if starts_item => {
                self.take_tok();
                if self.piece().tok() == Some(&TokenKind::RBrace) {
                    self.take_tok();
                    self.finish_line(pending);
                    return;
                }
                self.finish_line(pending);
                self.body(0);
                self.finish_line(Vec::new());
            }
            _ => {
                // Not reached for files that parse; make progress regardless.
                if self.next_tok() != &TokenKind::Eof {
                    self.take_tok();
                }
                self.finish_line(pending);
            }
        }
    }

    /// The members of a body, one per line, and the closing `}` (left open for
    /// an end-of-line comment).
    fn body(&mut self, indent: usize) {
        let inner = indent + INDENT;
        let mut first = true;
        loop {
            let entries = self.collect_prefix();
            match self.next_tok() {
                TokenKind::RBrace | TokenKind::Eof => {
                    self.prefix(entries, inner, false, first, false);
                    self.open(indent);
                    if self.next_tok() == &TokenKind::RBrace {
                        self.take_tok();
                    }
                    return;
                }
                _ => {
                    let target_blank = self.piece().blank_before();
                    self.prefix(entries, inner, target_blank, first, false);
                    self.open(inner);
                    let pending = self.run(inner, &[TokenKind::Comma, TokenKind::RBrace]);
                    if self.next_tok() == &TokenKind::Comma {
                        self.take_tok();
                    } else {
                        self.word(&TokenKind::Comma, ",");
                    }
                    self.finish_line(pending);
                    first = false;
                }
            }
        }
    }
}
