//! The recovering parser for items, fields and variants. Type and value
//! expressions are in `type_expr.rs`.
//!
//! Recovery: a failed item, field or variant is reported once, then tokens are
//! skipped to the next `,` or `}` (inside a body) or to the next item keyword, and
//! parsing goes on. So one run reports every syntax error of a file, and an error
//! that is merely a consequence of an earlier one at the same token is dropped.

use super::ast::*;
use super::token::{Keyword, Token, TokenKind};
use super::{too_many_errors, MAX_SYNTAX_ERRORS};
use crate::diag::{Code, Diagnostic, Span};

/// A failed parse; the diagnostic was already recorded.
pub(super) type PResult<T> = Result<T, ()>;

const DOC_HELP: &str =
    "doc comments (`///`) go right before an item, field or variant; use `//` for a plain comment";

pub(super) struct Parser {
    /// The file's tokens. Consumed identifiers, strings and doc comments have their
    /// text moved into the tree ([`Parser::take_text`]); only spans of consumed tokens
    /// are read again.
    tokens: Vec<Token>,
    pos: usize,
    pub(super) diags: Vec<Diagnostic>,
    /// Token index of the last reported error: a second error at the same token
    /// is almost always a consequence of the first.
    last_error_at: Option<usize>,
}

/// Type expressions nest at most this deep (`u8` is 1, `list<u8>` 2), so later
/// passes, which recurse once per level, never see deeper ones; such types would
/// be rejected by the layout pass anyway (spec §11). The parser reports `E0108`
/// at the first level too many.
pub const MAX_TYPE_NESTING: u32 = 64;

impl Parser {
    pub(super) fn new(tokens: Vec<Token>) -> Self {
        Parser {
            tokens,
            pos: 0,
            diags: Vec::new(),
            last_error_at: None,
        }
    }

    // ---- token access -------------------------------------------------------

    pub(super) fn peek(&self) -> &TokenKind {
        self.peek_nth(0)
    }

    pub(super) fn peek_nth(&self, n: usize) -> &TokenKind {
        let i = (self.pos + n).min(self.tokens.len() - 1);
        &self.tokens[i].kind
    }

    /// Span of the current token.
    pub(super) fn span(&self) -> Span {
        self.tokens[self.pos.min(self.tokens.len() - 1)].span
    }

    /// A zero-width span right after the previous token (where a missing `;` goes).
    pub(super) fn after_previous(&self) -> Span {
        match self.pos.checked_sub(1) {
            Some(i) => {
                let s = self.tokens[i].span;
                Span {
                    file: s.file,
                    start: s.end,
                    end: s.end,
                }
            }
            None => self.span(),
        }
    }

    /// Moves past the current token (never past the end-of-file token) and returns its
    /// span. Callers read the token through [`Parser::peek`] first: the token is not
    /// cloned here (an identifier's or string's text would be copied for nothing).
    pub(super) fn bump(&mut self) -> Span {
        let span = self.tokens[self.pos.min(self.tokens.len() - 1)].span;
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        span
    }

    /// Moves the text out of the current identifier, string literal or doc comment
    /// and steps past it (the parser never reads a consumed token's value again, so
    /// the text is not copied).
    pub(super) fn take_text(&mut self) -> (String, Span) {
        let i = self.pos.min(self.tokens.len() - 1);
        let text = match &mut self.tokens[i].kind {
            TokenKind::Ident(s) | TokenKind::Str(s) | TokenKind::DocComment(s) => std::mem::take(s),
            _ => String::new(),
        };
        (text, self.bump())
    }

    /// Whether the current token is of the same kind as `kind` (values are ignored).
    pub(super) fn at(&self, kind: &TokenKind) -> bool {
        std::mem::discriminant(self.peek()) == std::mem::discriminant(kind)
    }

    pub(super) fn eat(&mut self, kind: &TokenKind) -> Option<Span> {
        if self.at(kind) {
            Some(self.bump())
        } else {
            None
        }
    }

    pub(super) fn at_kw(&self, k: Keyword) -> bool {
        *self.peek() == TokenKind::Keyword(k)
    }

    /// Whether the current token is the identifier `word` (contextual keywords).
    pub(super) fn at_word(&self, word: &str) -> bool {
        matches!(self.peek(), TokenKind::Ident(w) if w == word)
    }

    /// Whether an item starts here: an item keyword followed by its name (or, for
    /// `import`, by a string). Requiring the name keeps a field called `message`
    /// from being taken for the start of an item.
    pub(super) fn at_item_start(&self) -> bool {
        match self.peek() {
            TokenKind::Keyword(Keyword::Import) => matches!(self.peek_nth(1), TokenKind::Str(_)),
            TokenKind::Keyword(k) if k.starts_item() => {
                matches!(self.peek_nth(1), TokenKind::Ident(_))
            }
            _ => false,
        }
    }

    // ---- errors -----------------------------------------------------------------

    /// Records a diagnostic unless one was already reported at the current token.
    pub(super) fn report(&mut self, diag: Diagnostic) {
        if self.last_error_at == Some(self.pos) {
            return;
        }
        self.last_error_at = Some(self.pos);
        self.push(diag);
    }

    /// Records a diagnostic. After [`MAX_SYNTAX_ERRORS`] of them the parser says
    /// it stops and skips to the end of the file.
    fn push(&mut self, diag: Diagnostic) {
        if self.diags.len() > MAX_SYNTAX_ERRORS {
            return;
        }
        self.diags.push(diag);
        if self.diags.len() == MAX_SYNTAX_ERRORS {
            let at = self.span();
            self.diags.push(too_many_errors(at, "not parsed past here"));
            self.pos = self.tokens.len() - 1;
        }
    }

    /// Reports "expected WHAT, found ..." at the current token.
    pub(super) fn error_expected(&mut self, what: &str, help: Option<String>) {
        let found = self.peek().clone();
        if found == TokenKind::Error {
            // The lexer already reported this malformed literal.
            self.last_error_at = Some(self.pos);
            return;
        }
        let help = match (&found, help) {
            (_, Some(h)) => Some(h),
            (TokenKind::DocComment(_), None) => Some(DOC_HELP.to_string()),
            (TokenKind::Keyword(k), None) => Some(format!("`{}` is a reserved word", k.as_str())),
            (_, None) => None,
        };
        let diag = Diagnostic::error(
            Code::UnexpectedToken,
            format!("expected {what}, found {}", found.describe()),
            self.span(),
            format!("expected {what}"),
        )
        .with_help_opt(help);
        self.report(diag);
    }

    pub(super) fn expect(&mut self, kind: &TokenKind, what: &str) -> PResult<Span> {
        match self.eat(kind) {
            Some(span) => Ok(span),
            None => {
                self.error_expected(what, None);
                Err(())
            }
        }
    }

    pub(super) fn ident(&mut self, what: &str) -> PResult<Ident> {
        if let TokenKind::Ident(_) = self.peek() {
            let (name, span) = self.take_text();
            return Ok(Ident { name, span });
        }
        self.error_expected(what, None);
        Err(())
    }

    /// A missing `;` after a complete item is reported, but the item is kept.
    fn expect_semi(&mut self, after: &str) {
        if self.eat(&TokenKind::Semi).is_none() {
            let found = self.peek().describe();
            let diag = Diagnostic::error(
                Code::UnexpectedToken,
                format!("expected `;` after {after}, found {found}"),
                self.after_previous(),
                "expected `;`",
            );
            self.report(diag);
        }
    }

    /// Collects the doc comments before an item, field or variant.
    fn docs(&mut self) -> (Docs, Option<Span>) {
        let mut docs = Docs::default();
        let mut span: Option<Span> = None;
        while let TokenKind::DocComment(_) = self.peek() {
            let (text, s) = self.take_text();
            docs.lines.push(text);
            span = Some(span.map_or(s, |sp| sp.to(s)));
        }
        (docs, span)
    }

    fn dangling_docs(&mut self, span: Option<Span>, what: &str) {
        if let Some(span) = span {
            let label = if what == "on an import" {
                "imports cannot be documented"
            } else {
                "documents nothing"
            };
            self.push(
                Diagnostic::error(
                    Code::DanglingDocComment,
                    format!("doc comment {what}"),
                    span,
                    label,
                )
                .with_help(DOC_HELP),
            );
        }
    }

    // ---- recovery ---------------------------------------------------------------

    /// Skips to the next item start (or the end of the file).
    fn recover_item(&mut self) {
        loop {
            if self.at(&TokenKind::Eof) || self.at_item_start() {
                return;
            }
            self.bump();
        }
    }

    /// Skips to the next `,` or `}` of the current body (not consuming it), or to
    /// the next item start, skipping over nested brackets.
    fn recover_in_block(&mut self) {
        let mut depth = 0u32;
        loop {
            match self.peek() {
                TokenKind::Eof => return,
                TokenKind::Comma | TokenKind::RBrace if depth == 0 => return,
                _ if depth == 0 && self.at_item_start() => return,
                TokenKind::LBrace | TokenKind::LParen | TokenKind::LBracket | TokenKind::Lt => {
                    depth += 1
                }
                TokenKind::RBrace | TokenKind::RParen | TokenKind::RBracket | TokenKind::Gt => {
                    depth = depth.saturating_sub(1)
                }
                _ => {}
            }
            self.bump();
        }
    }

    // ---- items ----------------------------------------------------------------

    /// Parses a whole file.
    pub(super) fn file(&mut self) -> File {
        let mut items = Vec::new();
        loop {
            let (docs, docs_span) = self.docs();
            let result = match self.peek().clone() {
                TokenKind::Eof => {
                    self.dangling_docs(docs_span, "at the end of the file");
                    break;
                }
                TokenKind::Keyword(Keyword::Import) => {
                    self.dangling_docs(docs_span, "on an import");
                    self.import()
                }
                TokenKind::Keyword(Keyword::Const) => self.const_decl(docs),
                TokenKind::Keyword(Keyword::Struct) => self.struct_decl(docs, false, None),
                TokenKind::Keyword(Keyword::Message) => self.struct_decl(docs, true, None),
                TokenKind::Ident(ref w)
                    if w == "delta"
                        && self.peek_nth(1) == &TokenKind::Keyword(Keyword::Message) =>
                {
                    let delta = self.bump();
                    self.struct_decl(docs, true, Some(delta))
                }
                TokenKind::Keyword(Keyword::Enum) => self.enum_decl(docs),
                TokenKind::Keyword(Keyword::Union) => self.union_decl(docs),
                other => {
                    let help = match other {
                        TokenKind::Semi => Some(
                            "declarations other than `import` and `const` do not end with `;`"
                                .into(),
                        ),
                        TokenKind::Ident(ref w) if w == "type" || w == "use" => {
                            Some("declare types with `struct`, `message`, `enum` or `union`".into())
                        }
                        _ => None,
                    };
                    self.error_expected(
                        "`import`, `const`, `struct`, `message`, `enum` or `union`",
                        help,
                    );
                    Err(())
                }
            };
            match result {
                Ok(item) => items.push(item),
                Err(()) => self.recover_item(),
            }
        }
        File { items }
    }

    fn import(&mut self) -> PResult<Item> {
        self.bump();
        let TokenKind::Str(path) = self.peek().clone() else {
            self.error_expected(
                "a string literal with the imported path",
                Some("write `import \"common.bw\";`".into()),
            );
            return Err(());
        };
        let span = self.bump();
        self.expect_semi("the import");
        Ok(Item::Import(Import { path, span }))
    }

    fn const_decl(&mut self, docs: Docs) -> PResult<Item> {
        self.bump();
        let name = self.ident("a constant name")?;
        self.expect(&TokenKind::Colon, "`:` and the constant's type")?;
        let ty = self.type_expr()?;
        self.expect(&TokenKind::Eq, "`=` and the constant's value")?;
        let value = self.value_expr("a constant value")?;
        self.expect_semi("the constant");
        Ok(Item::Const(ConstDecl {
            docs,
            name,
            ty,
            value,
        }))
    }

    fn struct_decl(&mut self, docs: Docs, is_message: bool, delta: Option<Span>) -> PResult<Item> {
        self.bump();
        let name = self.ident(if is_message {
            "a message name"
        } else {
            "a struct name"
        })?;
        let mut message_id = None;
        if is_message {
            if self.eat(&TokenKind::Eq).is_some() {
                message_id = Some(self.value_expr("a message id")?);
            } else {
                let help = format!(
                    "a message needs a numeric id: `message {} = 1 {{ ... }}`",
                    name.name
                );
                self.error_expected("`=` and the message id", Some(help));
                // Parse the body anyway, so errors inside it are reported too.
                if !self.at(&TokenKind::LBrace) {
                    return Err(());
                }
            }
        }
        let open = self.expect(&TokenKind::LBrace, "`{`")?;
        let (fields, _) = self.body(open, "field", Self::next_is_field, |p, docs| p.field(docs));
        Ok(Item::Struct(StructDecl {
            docs,
            name,
            message_id,
            delta,
            fields,
        }))
    }

    fn field(&mut self, docs: Docs) -> PResult<FieldDecl> {
        let name = self.ident("a field name")?;
        if !self.at(&TokenKind::Colon) {
            self.error_expected(
                "`:` and the field's type",
                Some(format!("write `{}: TYPE`", name.name)),
            );
            return Err(());
        }
        self.bump();
        let ty = self.type_expr()?;
        Ok(FieldDecl { docs, name, ty })
    }

    fn next_is_field(&self) -> bool {
        matches!(self.peek(), TokenKind::Ident(_)) && matches!(self.peek_nth(1), TokenKind::Colon)
    }

    fn next_is_variant(&self) -> bool {
        matches!(self.peek(), TokenKind::Ident(_))
            && matches!(
                self.peek_nth(1),
                TokenKind::Comma | TokenKind::RBrace | TokenKind::LParen | TokenKind::Eq
            )
    }

    fn tag_type(&mut self) -> PResult<Option<TypeExpr>> {
        if self.eat(&TokenKind::Colon).is_some() {
            Ok(Some(self.type_expr()?))
        } else {
            Ok(None)
        }
    }

    fn enum_decl(&mut self, docs: Docs) -> PResult<Item> {
        self.bump();
        let name = self.ident("an enum name")?;
        let tag_type = self.tag_type()?;
        let open = self.expect(&TokenKind::LBrace, "`{`")?;
        let (variants, body) = self.body(open, "variant", Self::next_is_variant, |p, docs| {
            p.variant(docs, true)
        });
        Ok(Item::Enum(EnumDecl {
            docs,
            name,
            tag_type,
            variants,
            body,
        }))
    }

    fn union_decl(&mut self, docs: Docs) -> PResult<Item> {
        self.bump();
        let name = self.ident("a union name")?;
        let tag_type = self.tag_type()?;
        let open = self.expect(&TokenKind::LBrace, "`{`")?;
        let (variants, body) = self.body(open, "variant", Self::next_is_variant, |p, docs| {
            p.variant(docs, false)
        });
        Ok(Item::Union(UnionDecl {
            docs,
            name,
            tag_type,
            variants,
            body,
        }))
    }

    fn variant(&mut self, docs: Docs, in_enum: bool) -> PResult<VariantDecl> {
        let name = self.ident("a variant name")?;
        let mut payload = None;
        if self.at(&TokenKind::LParen) {
            let open = self.bump();
            let ty = self.type_expr()?;
            let close = self.expect(&TokenKind::RParen, "`)`")?;
            if in_enum {
                let diag = Diagnostic::error(
                    Code::UnexpectedToken,
                    format!("enum variant `{}` cannot carry a payload", name.name),
                    open.to(close),
                    "payload not allowed in an enum",
                )
                .with_help("use a `union` for variants with payloads");
                self.report(diag);
            } else {
                payload = Some(ty);
            }
        }
        let mut value = None;
        if self.eat(&TokenKind::Eq).is_some() {
            value = Some(self.value_expr(if in_enum {
                "an enum value"
            } else {
                "a union tag"
            })?);
        }
        Ok(VariantDecl {
            docs,
            name,
            payload,
            value,
        })
    }

    /// Parses the comma-separated members of a `{ ... }` body whose `{` was just
    /// consumed, with recovery. Returns the members and the span of the body.
    fn body<T>(
        &mut self,
        open: Span,
        what: &str,
        next_is_member: fn(&Self) -> bool,
        mut member: impl FnMut(&mut Self, Docs) -> PResult<T>,
    ) -> (Vec<T>, Span) {
        let mut out = Vec::new();
        loop {
            let (docs, docs_span) = self.docs();
            if self.at(&TokenKind::RBrace) {
                self.dangling_docs(docs_span, &format!("after the last {what}"));
                let close = self.bump();
                return (out, open.to(close));
            }
            if self.at(&TokenKind::Eof) || self.at_item_start() {
                self.dangling_docs(docs_span, &format!("after the last {what}"));
                let found = self.peek().describe();
                let diag = Diagnostic::error(
                    Code::UnexpectedToken,
                    format!("expected `}}`, found {found}"),
                    self.span(),
                    "expected `}`",
                )
                .with_secondary(open, "unclosed `{`")
                .with_help("close the body with `}`");
                self.report(diag);
                return (out, open.to(self.after_previous()));
            }
            match member(self, docs) {
                Ok(m) => out.push(m),
                Err(()) => self.recover_in_block(),
            }
            match self.peek() {
                TokenKind::Comma => {
                    self.bump();
                }
                TokenKind::RBrace | TokenKind::Eof => {}
                _ if self.at_item_start() => {}
                TokenKind::Semi => {
                    let diag = Diagnostic::error(
                        Code::UnexpectedToken,
                        "expected `,` or `}`, found `;`",
                        self.span(),
                        "expected `,`",
                    )
                    .with_help(format!("{what}s are separated by `,`, not `;`"));
                    self.report(diag);
                    self.bump();
                }
                _ if next_is_member(self) => {
                    // A forgotten comma: report it and go on with the next member.
                    let diag = Diagnostic::error(
                        Code::UnexpectedToken,
                        format!("expected `,` or `}}`, found {}", self.peek().describe()),
                        self.after_previous(),
                        "expected `,`",
                    )
                    .with_help(format!("{what}s are separated by `,`"));
                    self.report(diag);
                }
                _ => {
                    self.error_expected("`,` or `}`", None);
                    self.recover_in_block();
                    self.eat(&TokenKind::Comma);
                }
            }
        }
    }
}
