//! Parsing of type expressions (`u8`, `list<T, max N>`, `f32 in -1.0..=1.0 bits 12`,
//! ...) and constant value expressions (`16`, `-0.5`, `MAX_NAME`).

use super::ast::*;
use super::parser::{PResult, Parser};
use super::token::{Keyword, TokenKind};
use crate::diag::{Code, Diagnostic};

impl Parser<'_> {
    /// A type, with an optional `in MIN..=MAX` refinement.
    pub(super) fn type_expr(&mut self) -> PResult<TypeExpr> {
        let base = self.type_atom()?;
        if self.at_kw(Keyword::In) {
            self.refinement(base)
        } else {
            Ok(base)
        }
    }

    fn type_atom(&mut self) -> PResult<TypeExpr> {
        let start = self.span();
        match self.peek().clone() {
            TokenKind::LBracket => {
                self.bump();
                let elem = self.type_expr()?;
                if !self.at(&TokenKind::Semi) {
                    self.error_expected("`;` and the array length", Some("write `[T; N]`".into()));
                    return Err(());
                }
                self.bump();
                let len = self.value_expr("the array length")?;
                let close = self.expect(&TokenKind::RBracket, "`]`")?;
                Ok(TypeExpr {
                    kind: TypeExprKind::Array(Box::new(elem), len),
                    span: start.to(close),
                })
            }
            TokenKind::Ident(name) => {
                let ident = Ident {
                    name: name.clone(),
                    span: self.bump().span,
                };
                match name.as_str() {
                    "optional" => {
                        self.open_angle("optional<T>")?;
                        let inner = self.type_expr()?;
                        let close = self.expect(&TokenKind::Gt, "`>`")?;
                        Ok(TypeExpr {
                            kind: TypeExprKind::Optional(Box::new(inner)),
                            span: start.to(close),
                        })
                    }
                    "list" => {
                        self.open_angle("list<T>` or `list<T, max N>")?;
                        let elem = self.type_expr()?;
                        let mut max = None;
                        if self.eat(&TokenKind::Comma).is_some() {
                            max = Some(self.max_bound("list<T, max N>")?);
                        } else if !self.at(&TokenKind::Gt) {
                            self.error_expected("`,` or `>`", None);
                            return Err(());
                        }
                        let close = self.expect(&TokenKind::Gt, "`>`")?;
                        Ok(TypeExpr {
                            kind: TypeExprKind::List(Box::new(elem), max),
                            span: start.to(close),
                        })
                    }
                    "string" | "bytes" => {
                        let mut span = start;
                        let mut max = None;
                        if self.eat(&TokenKind::Lt).is_some() {
                            max = Some(self.max_bound(&format!("{name}<max N>"))?);
                            span = start.to(self.expect(&TokenKind::Gt, "`>`")?);
                        }
                        let kind = if name == "string" {
                            TypeExprKind::String(max)
                        } else {
                            TypeExprKind::Bytes(max)
                        };
                        Ok(TypeExpr { kind, span })
                    }
                    _ => Ok(TypeExpr {
                        kind: TypeExprKind::Name(ident),
                        span: start,
                    }),
                }
            }
            _ => {
                self.error_expected("a type", None);
                Err(())
            }
        }
    }

    fn open_angle(&mut self, form: &str) -> PResult<()> {
        if self.eat(&TokenKind::Lt).is_some() {
            return Ok(());
        }
        self.error_expected("`<`", Some(format!("write `{form}`")));
        Err(())
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
            let kw = self.bump().span;
            let v = self.value_expr("the number of bits")?;
            span = span.to(v.span);
            Some(Quant::Bits(kw, v))
        } else if self.at_word("step") {
            let kw = self.bump().span;
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
            let minus = self.bump().span;
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
        let kind = match self.peek().clone() {
            TokenKind::Int(v) => ValueExprKind::Int(v),
            TokenKind::Float(v) => ValueExprKind::Float(v),
            TokenKind::Str(s) => ValueExprKind::Str(s),
            TokenKind::Keyword(Keyword::True) => ValueExprKind::Bool(true),
            TokenKind::Keyword(Keyword::False) => ValueExprKind::Bool(false),
            TokenKind::Ident(name) => ValueExprKind::Name(Ident {
                name,
                span: self.span(),
            }),
            TokenKind::Error => ValueExprKind::Error,
            _ => {
                self.error_expected(what, None);
                return Err(());
            }
        };
        let span = self.bump().span;
        Ok(ValueExpr { kind, span })
    }
}
