//! Lowering declarations (structs, messages, enums, unions) to the model's
//! [`Def`]s, with the checks that concern a declaration as a whole: duplicate
//! members, tag values, declared tag widths, message ids. The packed tag width of
//! an enum or union without a declared tag type is the layout pass's to decide.

use std::collections::HashMap;

use super::builtins::{builtin, Builtin};
use super::lower::Lowerer;
use super::model::{Def, DefKind, Field, Variant};
use super::scope::TypeDecl;
use crate::diag::{Code, Diagnostic, Span};
use crate::ir;
use crate::syntax::ast::{self, TypeExprKind};

/// The implicit value of the next variant.
#[derive(Clone, Copy)]
enum Next {
    Value(u64),
    /// The previous value was `u64::MAX`.
    Overflow,
    /// The previous value had an error (already reported).
    Unknown,
}

/// Message ids are below 2^31 (spec §2.3).
const MESSAGE_ID_LIMIT: i128 = 1 << 31;

impl Lowerer<'_> {
    /// Lowers and checks the declaration of type `id`.
    pub fn lower_type_def(&mut self, id: ir::TypeId) -> Def {
        let (unit, decl) = self.scope.types[id];
        let name = decl.name();
        let tag_span = match decl {
            TypeDecl::Struct(_) => None,
            TypeDecl::Enum(d) => d.tag_type.as_ref().map(|t| t.span),
            TypeDecl::Union(d) => d.tag_type.as_ref().map(|t| t.span),
        };
        let delta = matches!(decl, TypeDecl::Struct(d) if d.delta.is_some());
        let (docs, message_id, kind) = match decl {
            TypeDecl::Struct(d) => {
                let message_id = d
                    .message_id
                    .as_ref()
                    .and_then(|e| self.message_id(unit, &name.name, e));
                let fields = self.lower_fields(unit, d);
                (&d.docs, message_id, DefKind::Struct { fields })
            }
            TypeDecl::Enum(d) => {
                let (tags, declared_tag_bits) =
                    self.tags(unit, "enum", name, d.tag_type.as_ref(), &d.variants);
                let variants = d
                    .variants
                    .iter()
                    .zip(tags)
                    .map(|(v, value)| ir::EnumVariant {
                        name: v.name.name.clone(),
                        doc: v.docs.lines.clone(),
                        value,
                        spans: ir::Spans {
                            name: v.name.span,
                            ty: None,
                        },
                    })
                    .collect();
                (
                    &d.docs,
                    None,
                    DefKind::Enum {
                        declared_tag_bits,
                        variants,
                    },
                )
            }
            TypeDecl::Union(d) => {
                let (tags, declared_tag_bits) =
                    self.tags(unit, "union", name, d.tag_type.as_ref(), &d.variants);
                let variants = d
                    .variants
                    .iter()
                    .zip(tags)
                    .map(|(v, tag)| Variant {
                        name: v.name.name.clone(),
                        doc: v.docs.lines.clone(),
                        tag,
                        payload: v.payload.as_ref().map(|t| self.lower_type(unit, t)),
                        spans: ir::Spans {
                            name: v.name.span,
                            ty: v.payload.as_ref().map(|t| t.span),
                        },
                    })
                    .collect();
                (
                    &d.docs,
                    None,
                    DefKind::Union {
                        declared_tag_bits,
                        variants,
                    },
                )
            }
        };
        Def {
            name: name.name.clone(),
            doc: docs.lines.clone(),
            origin: self.origin(unit, name.span),
            message_id,
            delta,
            spans: ir::Spans {
                name: name.span,
                ty: tag_span,
            },
            kind,
        }
    }

    fn lower_fields(&mut self, unit: usize, d: &ast::StructDecl) -> Vec<Field> {
        let mut seen: HashMap<&str, Span> = HashMap::with_capacity(d.fields.len());
        let mut fields = Vec::with_capacity(d.fields.len());
        for f in &d.fields {
            if let Some(&first) = seen.get(f.name.name.as_str()) {
                self.diags.push(
                    Diagnostic::error(
                        Code::DuplicateField,
                        format!(
                            "field `{}` is declared more than once in `{}`",
                            f.name.name, d.name.name
                        ),
                        f.name.span,
                        "declared again here",
                    )
                    .with_secondary(first, "first declared here")
                    .with_help("rename or remove one of the fields"),
                );
            } else {
                seen.insert(&f.name.name, f.name.span);
            }
            fields.push(Field {
                name: f.name.name.clone(),
                doc: f.docs.lines.clone(),
                line: self.sources.line_of(f.name.span),
                ty: self.lower_type(unit, &f.ty),
                spans: ir::Spans {
                    name: f.name.span,
                    ty: Some(f.ty.span),
                },
            });
        }
        fields
    }

    fn message_id(&mut self, unit: usize, name: &str, expr: &ast::ValueExpr) -> Option<u32> {
        let id = self.eval_int(unit, expr, "a message id")?;
        if !(0..MESSAGE_ID_LIMIT).contains(&id) {
            self.diags.push(
                Diagnostic::error(
                    Code::MessageIdOutOfRange,
                    format!("message id {id} of `{name}` is out of range"),
                    expr.span,
                    "out of range",
                )
                .with_help("message ids are 0..=2147483647 (below 2^31)"),
            );
            return None;
        }
        let id = id as u32;
        if let Some(&(first, ref first_name)) = self.message_ids.get(&id) {
            self.diags.push(
                Diagnostic::error(
                    Code::DuplicateMessageId,
                    format!("message id {id} is used by both `{first_name}` and `{name}`"),
                    expr.span,
                    "used again here",
                )
                .with_secondary(first, format!("first used by `{first_name}`"))
                .with_help("every message needs its own id, so a receiver can tell them apart"),
            );
        } else {
            self.message_ids.insert(id, (expr.span, name.to_string()));
        }
        Some(id)
    }

    /// Checks the variants of an enum or union and computes their tag values.
    /// Returns one value per variant (0 for ones with errors) and the width of the
    /// declared tag type, if there is a valid one.
    fn tags(
        &mut self,
        unit: usize,
        what: &str,
        ident: &ast::Ident,
        tag_type: Option<&ast::TypeExpr>,
        variants: &[ast::VariantDecl],
    ) -> (Vec<u64>, Option<u32>) {
        let name = ident.name.as_str();
        let declared = tag_type.and_then(|t| self.tag_width(what, t));
        if variants.is_empty() {
            self.diags.push(
                Diagnostic::error(
                    Code::NoVariants,
                    format!("{what} `{name}` has no variants"),
                    ident.span,
                    "no variants",
                )
                .with_help(format!(
                    "add at least one variant; a value of an empty {what} could never be encoded"
                )),
            );
        }
        let mut names: HashMap<&str, Span> = HashMap::with_capacity(variants.len());
        let mut values: HashMap<u64, (Span, &str)> = HashMap::with_capacity(variants.len());
        let mut out = Vec::with_capacity(variants.len());
        let mut next = Next::Value(0);
        for v in variants {
            self.check_variant_name(name, v, &mut names);
            let (value, span) = self.variant_value(unit, what, v, next);
            let Some(value) = value else {
                out.push(0);
                next = Next::Unknown;
                continue;
            };
            next = value.checked_add(1).map_or(Next::Overflow, Next::Value);
            out.push(value);
            if let Some((bits, ty_span)) = declared {
                self.check_tag_fits(name, v, value, span, (bits, ty_span));
            }
            self.check_tag_unique(what, v, value, span, &mut values);
        }
        (out, declared.map(|(bits, _)| bits))
    }

    /// Reports a variant named like an earlier one of the same enum or union
    /// `name`; otherwise records it in `names`.
    fn check_variant_name<'v>(
        &mut self,
        name: &str,
        v: &'v ast::VariantDecl,
        names: &mut HashMap<&'v str, Span>,
    ) {
        if let Some(&first) = names.get(v.name.name.as_str()) {
            self.diags.push(
                Diagnostic::error(
                    Code::DuplicateVariant,
                    format!(
                        "variant `{}` is declared more than once in `{name}`",
                        v.name.name
                    ),
                    v.name.span,
                    "declared again here",
                )
                .with_secondary(first, "first declared here")
                .with_help("rename or remove one of the variants"),
            );
        } else {
            names.insert(&v.name.name, v.name.span);
        }
    }

    /// The tag value of a variant, explicit (`= N`) or implicit (`next`), and the
    /// span it is reported at; `None` when it has an error (already reported).
    fn variant_value(
        &mut self,
        unit: usize,
        what: &str,
        v: &ast::VariantDecl,
        next: Next,
    ) -> (Option<u64>, Span) {
        match (&v.value, next) {
            (Some(expr), _) => (self.tag_value(unit, what, expr), expr.span),
            (None, Next::Value(n)) => (Some(n), v.name.span),
            (None, Next::Overflow) => {
                self.diags.push(
                    Diagnostic::error(
                        Code::ValueOutOfRange,
                        format!("the implicit value of `{}` overflows 64 bits", v.name.name),
                        v.name.span,
                        "previous value + 1 does not fit in 64 bits",
                    )
                    .with_help(format!("give `{}` an explicit value", v.name.name)),
                );
                (None, v.name.span)
            }
            (None, Next::Unknown) => (None, v.name.span),
        }
    }

    /// Reports a tag value that does not fit the declared tag type `u{bits}` of
    /// enum or union `name`.
    fn check_tag_fits(
        &mut self,
        name: &str,
        v: &ast::VariantDecl,
        value: u64,
        span: Span,
        (bits, ty_span): (u32, Span),
    ) {
        if bits < 64 && value >> bits != 0 {
            self.diags.push(
                Diagnostic::error(
                    Code::TagTooWide,
                    format!(
                        "value {value} of `{}` does not fit the {bits}-bit tag of `{name}`",
                        v.name.name
                    ),
                    span,
                    "does not fit",
                )
                .with_secondary(ty_span, format!("tags are `u{bits}`"))
                .with_help(format!(
                    "`u{bits}` holds 0..={}; widen the tag type or use a smaller value",
                    (1u128 << bits) - 1
                )),
            );
        }
    }

    /// Reports a tag value already taken by an earlier variant; otherwise records
    /// it in `values`.
    fn check_tag_unique<'v>(
        &mut self,
        what: &str,
        v: &'v ast::VariantDecl,
        value: u64,
        span: Span,
        values: &mut HashMap<u64, (Span, &'v str)>,
    ) {
        if let Some(&(first, first_name)) = values.get(&value) {
            let noun = if what == "enum" { "value" } else { "tag" };
            self.diags.push(
                Diagnostic::error(
                    Code::DuplicateTag,
                    format!("{noun} {value} is used by both `{first_name}` and `{}`", v.name.name),
                    span,
                    format!("`{}` is {value}", v.name.name),
                )
                .with_secondary(first, format!("`{first_name}` is {value}"))
                .with_help(format!("every variant needs its own {noun}; without `= N` a variant takes the previous {noun} + 1")),
            );
        } else {
            values.insert(value, (span, &v.name.name));
        }
    }

    fn tag_value(&mut self, unit: usize, what: &str, expr: &ast::ValueExpr) -> Option<u64> {
        let value = self.eval_int(
            unit,
            expr,
            if what == "enum" {
                "an enum value"
            } else {
                "a union tag"
            },
        )?;
        if value < 0 || value > i128::from(u64::MAX) {
            self.diags.push(
                Diagnostic::error(
                    Code::ValueOutOfRange,
                    format!("{what} tag value {value} is out of range"),
                    expr.span,
                    "out of range",
                )
                .with_help("tag values are 0..=18446744073709551615"),
            );
            return None;
        }
        Some(value as u64)
    }

    /// The width of a declared tag type (`enum E: u4`), which must be a plain `uN`.
    fn tag_width(&mut self, what: &str, ty: &ast::TypeExpr) -> Option<(u32, Span)> {
        if let TypeExprKind::Name(ident) = &ty.kind {
            match builtin(&ident.name) {
                Some(Ok(Builtin::UInt(bits))) => return Some((bits, ty.span)),
                Some(Err(e)) => {
                    self.diags.push(
                        Diagnostic::error(
                            Code::InvalidWidth,
                            e.message,
                            ident.span,
                            "invalid width",
                        )
                        .with_help(e.help),
                    );
                    return None;
                }
                _ => {}
            }
        }
        let written = self.sources.snippet(ty.span).to_string();
        self.diags.push(
            Diagnostic::error(
                Code::InvalidTagType,
                format!(
                    "`{written}` cannot be the tag type of {} {what}",
                    if what == "enum" { "an" } else { "a" }
                ),
                ty.span,
                "not an unsigned integer type",
            )
            .with_help(format!(
                "declare the tag as `uN`, e.g. `{what} Name: u4 {{ ... }}`, or leave it out"
            )),
        );
        None
    }
}
