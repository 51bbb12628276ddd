//! Parsing of type expressions (`u8`, `list<T, max N>`, `f32 in -1.0..=1.0 bits 12`,
//! ...) and constant value expressions (`16`, `-0.5`, `MAX_NAME`).

use super::ast::*;
use super::parser::{PResult, Parser, MAX_TYPE_NESTING};
use super::token::{Keyword, TokenKind};
use crate::diag::{Code, Diagnostic, Span};

/// A type constructor whose inner type is still being read.
#[derive(Clone, Copy)]
enum Open {
    /// `[` T `; N]`
    Array,
    /// `optional<` T `>`
    Optional,
    /// `list<` T `>` or `list<` T `, max N>`
    List,
}

impl Parser {
    /// A type, with an optional `in MIN..=MAX` refinement.
    ///
    /// Type expressions nest (`list<optional<[u8; 4]>>`), but the parser does not
    /// recurse: it reads the opening of each constructor onto a stack down to the
    /// innermost type, then closes them innermost first. Nesting beyond
    /// [`MAX_TYPE_NESTING`] levels is reported (`E0108`) where it starts.
    pub(super) fn type_expr(&mut self) -> PResult<TypeExpr> {
        let mut open: Vec<(Open, Span)> = Vec::new();
        let innermost = loop {
            if open.len() as u32 >= MAX_TYPE_NESTING {
                self.too_deep();
                return Err(());
            }
            let start = self.span();
            let constructor = match self.peek() {
                TokenKind::LBracket => Open::Array,
                TokenKind::Ident(name) if name == "optional" => Open::Optional,
                TokenKind::Ident(name) if name == "list" => Open::List,
                _ => break self.type_leaf()?,
            };
            self.bump();
            match constructor {
                Open::Array => {}
                Open::Optional => self.open_angle("optional<T>")?,
                Open::List => self.open_angle("list<T>` or `list<T, max N>")?,
            }
            open.push((constructor, start));
        };
        let mut ty = self.maybe_refined(innermost)?;
        while let Some((constructor, start)) = open.pop() {
            let inner = Box::new(ty);
            let (kind, close) = match constructor {
                Open::Array => {
                    if !self.at(&TokenKind::Semi) {
                        let help = Some("write `[T; N]`".into());
                        self.error_expected("`;` and the array length", help);
                        return Err(());
                    }
                    self.bump();
                    let len = self.value_expr("the array length")?;
                    let close = self.expect(&TokenKind::RBracket, "`]`")?;
                    (TypeExprKind::Array(inner, len), close)
                }
                Open::Optional => {
                    let close = self.expect(&TokenKind::Gt, "`>`")?;
                    (TypeExprKind::Optional(inner), close)
                }
                Open::List => {
                    let (max, key) = self.list_options()?;
                    let close = self.expect(&TokenKind::Gt, "`>`")?;
                    (TypeExprKind::List(inner, max, key), close)
                }
            };
            let span = start.to(close);
            ty = self.maybe_refined(TypeExpr { kind, span })?;
        }
        Ok(ty)
    }

    /// `base`, or `base in MIN..=MAX ...` when a refinement follows.
    fn maybe_refined(&mut self, base: TypeExpr) -> PResult<TypeExpr> {
        if self.at_kw(Keyword::In) {
            self.refinement(base)
        } else {
            Ok(base)
        }
    }

    #[cold]
    fn too_deep(&mut self) {
        let diag = Diagnostic::error(
            Code::TypeNestingTooDeep,
            format!("type expression nested more than {MAX_TYPE_NESTING} levels deep"),
            self.span(),
            format!("level {}", MAX_TYPE_NESTING + 1),
        )
        .with_help(
            "no type can be more than 64 levels deep (spec §11); flatten it, or send \
             deep parts as separate messages",
        );
        self.report(diag);
    }

    /// A type that nests no other: a name (built-in or declared), `string` or
    /// `bytes` with an optional `<max N>`.
    fn type_leaf(&mut self) -> PResult<TypeExpr> {
        let start = self.span();
        let TokenKind::Ident(name) = self.peek() else {
            self.error_expected("a type", None);
            return Err(());
        };
        let string = match name.as_str() {
            "string" => true,
            "bytes" => false,
            _ => {
                let (name, span) = self.take_text();
                let ident = Ident { name, span };
                return Ok(TypeExpr {
                    kind: TypeExprKind::Name(ident),
                    span: start,
                });
            }
        };
        self.bump();
        let mut span = start;
        let mut max = None;
        if self.eat(&TokenKind::Lt).is_some() {
            let form = if string {
                "string<max N>"
            } else {
                "bytes<max N>"
            };
            max = Some(self.max_bound(form)?);
            span = start.to(self.expect(&TokenKind::Gt, "`>`")?);
        }
        let kind = if string {
            TypeExprKind::String(max)
        } else {
            TypeExprKind::Bytes(max)
        };
        Ok(TypeExpr { kind, span })
    }

    fn open_angle(&mut self, form: &str) -> PResult<()> {
        if self.eat(&TokenKind::Lt).is_some() {
            return Ok(());
        }
        self.error_expected("`<`", Some(format!("write `{form}`")));
        Err(())
    }

    /// What may follow `list<T`: `, max N`, `, key F`, or `, max N, key F`.
    fn list_options(&mut self) -> PResult<(Option<ValueExpr>, Option<Ident>)> {
        const FORM: &str = "list<T, max N>` or `list<T, max N, key F>";
        let (mut max, mut key) = (None, None);
        if self.eat(&TokenKind::Comma).is_some() {
            if self.at_word("key") {
                self.bump();
                key = Some(self.ident("the key field's name")?);
            } else {
                max = Some(self.max_bound(FORM)?);
                if self.eat(&TokenKind::Comma).is_some() {
                    if !self.at_word("key") {
                        self.error_expected("`key`", Some(format!("write `{FORM}`")));
                        return Err(());
                    }
                    self.bump();
                    key = Some(self.ident("the key field's name")?);
                }
            }
        } else if !self.at(&TokenKind::Gt) {
            self.error_expected("`,` or `>`", None);
            return Err(());
        }
        Ok((max, key))
    }

    /// `max N` inside `list<T, max N>`, `string<max N>`, `bytes<max N>`.
    fn max_bound(&mut self, form: &str) -> PResult<ValueExpr> {
        if !self.at_word("max") {
            self.error_expected("`max`", Some(format!("write `{form}`")));
            return Err(());
        }
        self.bump();
        self.value_expr("the maximum length")
    }

    /// `in MIN..=MAX (bits B | step S)?` after `base`.
    fn refinement(&mut self, base: TypeExpr) -> PResult<TypeExpr> {
        self.bump();
        let min = self.value_expr("the range minimum")?;
        match self.peek() {
            TokenKind::DotDotEq => {
                self.bump();
            }
            TokenKind::DotDot => {
                // Reported, then parsed as if `..=` had been written, to find later errors.
                let diag = Diagnostic::error(
                    Code::HalfOpenRange,
                    "half-open ranges are not supported",
                    self.span(),
                    "`..` here",
                )
                .with_help("use `..=`; ranges are inclusive");
                self.report(diag);
                self.bump();
            }
            _ => {
                self.error_expected("`..=`", Some("write a range as `MIN..=MAX`".into()));
                return Err(());
            }
        }
        let max = self.value_expr("the range maximum")?;
        let range_span = min.span.to(max.span);
        let mut span = base.span.to(max.span);
        let quant = if self.at_word("bits") {
            let kw = self.bump();
            let v = self.value_expr("the number of bits")?;
            span = span.to(v.span);
            Some(Quant::Bits(kw, v))
        } else if self.at_word("step") {
            let kw = self.bump();
            let v = self.value_expr("the step")?;
            span = span.to(v.span);
            Some(Quant::Step(kw, v))
        } else {
            None
        };
        let refined = Refined {
            base,
            min,
            max,
            range_span,
            quant,
        };
        Ok(TypeExpr {
            kind: TypeExprKind::Refined(Box::new(refined)),
            span,
        })
    }

    /// A constant value: a literal, a constant name, or `-` before either.
    pub(super) fn value_expr(&mut self, what: &str) -> PResult<ValueExpr> {
        if self.at(&TokenKind::Minus) {
            let minus = self.bump();
            let inner = self.value_atom(what)?;
            let span = minus.to(inner.span);
            return Ok(ValueExpr {
                kind: ValueExprKind::Neg(Box::new(inner)),
                span,
            });
        }
        self.value_atom(what)
    }

    fn value_atom(&mut self, what: &str) -> PResult<ValueExpr> {
        let kind = match self.peek() {
            TokenKind::Int(v) => ValueExprKind::Int(*v),
            TokenKind::Float(v) => ValueExprKind::Float(*v),
            // The text is moved out of the token below.
            TokenKind::Str(_) => ValueExprKind::Str(String::new()),
            TokenKind::Keyword(Keyword::True) => ValueExprKind::Bool(true),
            TokenKind::Keyword(Keyword::False) => ValueExprKind::Bool(false),
            TokenKind::Ident(_) => ValueExprKind::Name(Ident {
                name: String::new(),
                span: self.span(),
            }),
            TokenKind::Error => ValueExprKind::Error,
            _ => {
                self.error_expected(what, None);
                return Err(());
            }
        };
        let (text, span) = self.take_text();
        let kind = match kind {
            ValueExprKind::Str(_) => ValueExprKind::Str(text),
            ValueExprKind::Name(ident) => ValueExprKind::Name(Ident {
                name: text,
                span: ident.span,
            }),
            other => other,
        };
        Ok(ValueExpr { kind, span })
    }
}
