//! Lowering type expressions to the model's [`Ty`], with every check a type
//! expression needs on its own: widths, ranges, quantization, lengths. Widths the
//! encoding derives (of bounded and quantized values, length prefixes) are left to
//! the layout pass.
//!
//! On an error the diagnostic is recorded and a placeholder (`bool`) is returned,
//! so lowering goes on and later checks still run; a schema with errors is never
//! returned to the caller.

use super::builtins::{builtin, int_name, int_range, Builtin};
use super::lower::Lowerer;
use super::model::{ListKey, Ty};
use super::scope::{Resolved, Symbol, Want};
use crate::diag::{Code, Diagnostic, Span};
use crate::ir::FloatRepr;
use crate::syntax::ast::{self, Quant, TypeExprKind};

/// Stands in for a type that had an error.
const PLACEHOLDER: Ty = Ty::Bool;

/// Largest array length (spec: `1 ≤ N ≤ 2^32`).
const MAX_ARRAY_LEN: i128 = 1 << 32;

/// What quantization allows for each float type.
#[derive(Clone, Copy)]
struct FloatLimits {
    /// `f32` or `f64`.
    type_name: &'static str,
    /// Largest `bits B` (and `2^max_bits` the most steps a `step S` may give).
    max_bits: u32,
    /// Stored mantissa bits, which set how far apart neighbouring values are.
    mantissa_bits: i32,
}

impl FloatLimits {
    /// The limits of `repr`.
    fn of(repr: FloatRepr) -> Self {
        let (type_name, max_bits, mantissa_bits) = match repr {
            FloatRepr::F32 => ("f32", 24, 23),
            FloatRepr::F64 => ("f64", 52, 52),
        };
        FloatLimits {
            type_name,
            max_bits,
            mantissa_bits,
        }
    }
}

/// The grid of a quantized range: STEPS equal steps from MIN to MAX.
struct QuantGrid {
    min: f64,
    max: f64,
    steps: u64,
}

impl Lowerer<'_> {
    /// Lowers a type expression written in `unit`.
    pub fn lower_type(&mut self, unit: usize, ty: &ast::TypeExpr) -> Ty {
        match &ty.kind {
            TypeExprKind::Name(ident) => self.lower_name(unit, ident),
            TypeExprKind::Refined(r) => self.lower_refined(unit, r),
            TypeExprKind::Optional(inner) => {
                if matches!(inner.kind, TypeExprKind::Optional(_)) {
                    // Both "absent" and "present but inner absent" would map to JSON
                    // `null`, so a value could not survive a trip through JSON.
                    self.diags.push(
                        Diagnostic::error(
                            Code::NestedOptional,
                            "`optional` directly inside `optional`",
                            ty.span,
                            "nested optional",
                        )
                        .with_help(
                            "use one `optional`, or a union with a unit variant to tell \
                             the two kinds of absence apart",
                        ),
                    );
                    return PLACEHOLDER;
                }
                Ty::Optional(Box::new(self.lower_type(unit, inner)))
            }
            TypeExprKind::Array(elem, len) => {
                let elem = self.lower_type(unit, elem);
                let Some(len) = self.eval_int(unit, len, "an array length") else {
                    return PLACEHOLDER;
                };
                if !(1..=MAX_ARRAY_LEN).contains(&len) {
                    self.diags.push(
                        Diagnostic::error(
                            Code::InvalidLength,
                            format!("array length {len} is out of range"),
                            ty.span,
                            "invalid length",
                        )
                        .with_help("array lengths are 1..=4294967296 (2^32)"),
                    );
                    return PLACEHOLDER;
                }
                Ty::Array(Box::new(elem), len as u64)
            }
            TypeExprKind::List(elem, max, key) => {
                let elem = Box::new(self.lower_type(unit, elem));
                let key = key.as_ref().map(|k| ListKey {
                    name: k.name.clone(),
                    span: k.span,
                    field: usize::MAX,
                });
                Ty::List(elem, self.max_bound(unit, max.as_ref(), "list"), key)
            }
            TypeExprKind::String(max) => Ty::String(self.max_bound(unit, max.as_ref(), "string")),
            TypeExprKind::Bytes(max) => Ty::Bytes(self.max_bound(unit, max.as_ref(), "bytes")),
        }
    }

    /// The `max N` of a list, string or bytes (`None` when absent or invalid).
    fn max_bound(&mut self, unit: usize, max: Option<&ast::ValueExpr>, what: &str) -> Option<u64> {
        let expr = max?;
        let value = self.eval_int(unit, expr, "a maximum length")?;
        if value < 1 || value > i128::from(u64::MAX) {
            self.diags.push(
                Diagnostic::error(
                    Code::InvalidLength,
                    format!("`{what}` maximum length {value} is out of range"),
                    expr.span,
                    "invalid maximum",
                )
                .with_help("the maximum must be at least 1; an always-empty value carries no data"),
            );
            return None;
        }
        Some(value as u64)
    }

    fn lower_name(&mut self, unit: usize, ident: &ast::Ident) -> Ty {
        match builtin(&ident.name) {
            Some(Ok(b)) => match b {
                Builtin::Bool => Ty::Bool,
                Builtin::UInt(bits) => Ty::UInt { bits },
                Builtin::SInt(bits) => Ty::SInt { bits },
                Builtin::F32 => Ty::Float(FloatRepr::F32),
                Builtin::F64 => Ty::Float(FloatRepr::F64),
                Builtin::VarU(bits) => Ty::VarUInt { bits },
                Builtin::VarI(bits) => Ty::VarSInt { bits },
                // The parser turns `string`, `bytes`, `list<..>`, `optional<..>` into their own nodes.
                Builtin::Generic => {
                    unreachable!("generic type names are parsed as their own syntax")
                }
            },
            Some(Err(e)) => {
                self.diags.push(
                    Diagnostic::error(Code::InvalidWidth, e.message, ident.span, "invalid width")
                        .with_help(e.help),
                );
                PLACEHOLDER
            }
            None => match self.scope.resolve(unit, &ident.name) {
                Resolved::Found(Symbol::Type(id)) => Ty::Named(id, ident.name.clone()),
                _ => {
                    let diag = self.scope.unresolved(unit, ident, Want::Type);
                    self.diags.push(diag);
                    PLACEHOLDER
                }
            },
        }
    }

    /// `BASE in MIN..=MAX (bits B | step S)?`: a bounded integer or a quantized float.
    fn lower_refined(&mut self, unit: usize, r: &ast::Refined) -> Ty {
        let base = self.lower_type(unit, &r.base);
        match base {
            Ty::UInt { bits } | Ty::SInt { bits } => {
                if let Some(Quant::Bits(kw, _) | Quant::Step(kw, _)) = &r.quant {
                    self.diags.push(
                        Diagnostic::error(
                            Code::InvalidRefinement,
                            "`bits` and `step` apply only to float ranges",
                            *kw,
                            "not allowed on an integer range",
                        )
                        .with_help("a bounded integer is always stored in the fewest bits that hold MAX - MIN"),
                    );
                }
                let signed = matches!(base, Ty::SInt { .. });
                self.lower_bounded(unit, r, signed, bits)
            }
            Ty::Float(repr) => self.lower_quantized(unit, r, repr),
            Ty::Bool if self.is_placeholder(&r.base) => PLACEHOLDER,
            _ => {
                let written = self.sources.snippet(r.base.span).to_string();
                self.diags.push(
                    Diagnostic::error(
                        Code::InvalidRefinement,
                        format!("`{written}` cannot be restricted to a range"),
                        r.base.span.to(r.range_span),
                        "range not allowed here",
                    )
                    .with_help("ranges apply to `uN` and `iN` (bounded integers) and to `f32` and `f64` (quantized floats)"),
                );
                PLACEHOLDER
            }
        }
    }

    /// Whether a base that lowered to `bool` was really written `bool` (otherwise it
    /// is a placeholder for an error that is already reported).
    fn is_placeholder(&self, base: &ast::TypeExpr) -> bool {
        !matches!(&base.kind, TypeExprKind::Name(i) if i.name == "bool")
    }

    fn lower_bounded(&mut self, unit: usize, r: &ast::Refined, signed: bool, bits: u32) -> Ty {
        let min = self.eval_int(unit, &r.min, "a range bound");
        let max = self.eval_int(unit, &r.max, "a range bound");
        let (Some(min), Some(max)) = (min, max) else {
            return PLACEHOLDER;
        };
        let (lo, hi) = int_range(signed, bits);
        let name = int_name(signed, bits);
        let mut ok = true;
        for (value, expr, which) in [(min, &r.min, "minimum"), (max, &r.max, "maximum")] {
            if value < lo || value > hi {
                self.diags.push(
                    Diagnostic::error(
                        Code::ValueOutOfRange,
                        format!("range {which} {value} is outside `{name}`"),
                        expr.span,
                        format!("out of range for `{name}`"),
                    )
                    .with_help(format!(
                        "`{name}` holds {lo}..={hi}; widen the base type or narrow the range"
                    )),
                );
                ok = false;
            }
        }
        if ok && min > max {
            self.diags.push(
                Diagnostic::error(
                    Code::EmptyRange,
                    format!("empty range: minimum {min} is greater than maximum {max}"),
                    r.range_span,
                    "empty range",
                )
                .with_help("write the smaller bound first"),
            );
            ok = false;
        }
        if !ok {
            return PLACEHOLDER;
        }
        Ty::Bounded {
            signed,
            base_bits: bits,
            min,
            max,
        }
    }

    /// `f32|f64 in MIN..=MAX (bits B | step S)`: a quantized float.
    fn lower_quantized(&mut self, unit: usize, r: &ast::Refined, repr: FloatRepr) -> Ty {
        let min = self.eval_number(unit, &r.min, "a range bound");
        let max = self.eval_number(unit, &r.max, "a range bound");
        let limits = FloatLimits::of(repr);
        let type_name = limits.type_name;
        let Some(quant) = &r.quant else {
            self.diags.push(
                Diagnostic::error(
                    Code::InvalidRefinement,
                    format!("an `{type_name}` range needs `bits N` or `step S`"),
                    r.range_span,
                    "missing quantization",
                )
                .with_help(format!(
                    "write e.g. `{type_name} in -1.0..=1.0 bits 12` or `{type_name} in 0.0..=100.0 step 0.5`"
                )),
            );
            return PLACEHOLDER;
        };
        let (Some(min), Some(max)) = (min, max) else {
            return PLACEHOLDER;
        };
        if !self.check_quantized_range(r, repr, min, max) {
            return PLACEHOLDER;
        }
        let Some(steps) = self.quant_steps(unit, quant, min, max, &limits) else {
            return PLACEHOLDER;
        };
        // Generated code and the codec compute in the float type itself, so the
        // bounds of an `f32` range are the nearest `f32` values.
        let (min, max) = match repr {
            FloatRepr::F32 => (f64::from(min as f32), f64::from(max as f32)),
            FloatRepr::F64 => (min, max),
        };
        let grid = QuantGrid { min, max, steps };
        if !self.check_quant_grid(r, quant, repr, &limits, &grid) {
            return PLACEHOLDER;
        }
        Ty::Quantized {
            repr,
            min,
            max,
            steps,
        }
    }

    /// Checks the bounds of a quantized range on their own: they fit the float
    /// type, MIN < MAX, and MAX - MIN is a finite `f64`. Reports the first failure.
    fn check_quantized_range(
        &mut self,
        r: &ast::Refined,
        repr: FloatRepr,
        min: f64,
        max: f64,
    ) -> bool {
        if repr == FloatRepr::F32 {
            for (value, expr) in [(min, &r.min), (max, &r.max)] {
                if value.abs() > f64::from(f32::MAX) {
                    self.diags.push(
                        Diagnostic::error(
                            Code::ValueOutOfRange,
                            format!("range bound {value:?} does not fit in `f32`"),
                            expr.span,
                            "out of range",
                        )
                        .with_help("use `f64`"),
                    );
                    return false;
                }
            }
        }
        if min >= max {
            self.diags.push(
                Diagnostic::error(
                    Code::EmptyRange,
                    format!("empty range: minimum {min:?} is not less than maximum {max:?}"),
                    r.range_span,
                    "empty range",
                )
                .with_help("a quantized range needs MIN < MAX"),
            );
            return false;
        }
        if !(max - min).is_finite() {
            // The rounding rule divides by MAX - MIN, which must be a finite f64.
            self.diags.push(
                Diagnostic::error(
                    Code::ValueOutOfRange,
                    "range too wide: MAX - MIN overflows `f64`",
                    r.range_span,
                    "too wide",
                )
                .with_help("narrow the range"),
            );
            return false;
        }
        true
    }

    /// STEPS of a quantized range, from `bits B` (`2^B - 1`) or `step S` (see
    /// [`Self::steps_for`]); `None` when invalid (already reported).
    fn quant_steps(
        &mut self,
        unit: usize,
        quant: &Quant,
        min: f64,
        max: f64,
        limits: &FloatLimits,
    ) -> Option<u64> {
        let FloatLimits {
            type_name,
            max_bits,
            ..
        } = *limits;
        match quant {
            Quant::Bits(_, expr) => {
                let bits = self.eval_int(unit, expr, "a bit count")?;
                if !(1..=i128::from(max_bits)).contains(&bits) {
                    self.diags.push(
                        Diagnostic::error(
                            Code::InvalidQuantBits,
                            format!("`{type_name}` cannot be quantized to {bits} bits"),
                            expr.span,
                            "invalid bit count",
                        )
                        .with_help(format!("`{type_name}` takes `bits 1` to `bits {max_bits}`")),
                    );
                    return None;
                }
                Some((1u64 << bits) - 1)
            }
            Quant::Step(_, expr) => {
                let step = self.eval_number(unit, expr, "a step")?;
                self.steps_for(step, min, max, type_name, max_bits, expr.span)
            }
        }
    }

    /// Checks the grid of a quantized range (bounds already rounded to the float
    /// type): decoding must not overflow, and neighbouring grid points must be far
    /// enough apart for the float type to tell them apart. Reports the first failure.
    fn check_quant_grid(
        &mut self,
        r: &ast::Refined,
        quant: &Quant,
        repr: FloatRepr,
        limits: &FloatLimits,
        grid: &QuantGrid,
    ) -> bool {
        let type_name = limits.type_name;
        let span = r.range_span.to(match quant {
            Quant::Bits(_, e) | Quant::Step(_, e) => e.span,
        });
        if !((grid.max - grid.min) * grid.steps as f64).is_finite() {
            // §4.3 decodes `MIN + ((MAX - MIN) * q) / STEPS`: the product must stay finite
            // for every q, or decoded values would be infinite.
            self.diags.push(
                Diagnostic::error(
                    Code::ValueOutOfRange,
                    "range too wide for its grid: (MAX - MIN) × STEPS overflows `f64`",
                    span,
                    "overflows",
                )
                .with_note("decoding computes MIN + ((MAX - MIN) × q) / STEPS (spec §4.3)")
                .with_help("narrow the range or use fewer steps"),
            );
            return false;
        }
        let step = (grid.max - grid.min) / grid.steps as f64;
        let magnitude = grid.min.abs().max(grid.max.abs());
        let spacing = magnitude * 2f64.powi(-limits.mantissa_bits);
        if spacing > step / 4.0 {
            self.diags.push(
                Diagnostic::error(
                    Code::QuantTooFine,
                    format!("quantization grid is finer than `{type_name}` can represent"),
                    span,
                    format!("grid step {step:.3e}"),
                )
                .with_note(format!(
                    "near {magnitude:?}, `{type_name}` values can be up to {spacing:.3e} apart, \
                     more than a quarter of the grid step {step:.3e}"
                ))
                .with_help(format!(
                    "decoded values would not re-encode to the same integer; use fewer bits, a larger step{}",
                    if repr == FloatRepr::F32 { ", or `f64`" } else { "" }
                )),
            );
            return false;
        }
        true
    }

    /// `(max - min) / step`, which must be (within 1e-9 relative) a whole number
    /// of steps between 1 and `2^max_bits`.
    fn steps_for(
        &mut self,
        step: f64,
        min: f64,
        max: f64,
        type_name: &str,
        max_bits: u32,
        span: Span,
    ) -> Option<u64> {
        let fail = |this: &mut Self, message: String, help: String| {
            this.diags.push(
                Diagnostic::error(Code::InvalidQuantStep, message, span, "invalid step")
                    .with_help(help),
            );
            None
        };
        if step <= 0.0 {
            return fail(
                self,
                format!("step {step:?} is not positive"),
                "the step must be greater than 0".into(),
            );
        }
        let ratio = (max - min) / step;
        let rounded = ratio.round();
        if ratio < 1.0 - 1e-9 {
            return fail(
                self,
                format!("step {step:?} is larger than the range {min:?}..={max:?}"),
                "the step must divide MAX - MIN at least once".into(),
            );
        }
        if (ratio - rounded).abs() > 1e-9 * rounded {
            return fail(
                self,
                format!("step {step:?} does not divide the range {min:?}..={max:?}"),
                format!("(MAX - MIN) / step is {ratio}, not a whole number; choose a step that divides the range, or use `bits N`"),
            );
        }
        let limit = 2f64.powi(max_bits as i32);
        if rounded > limit {
            return fail(
                self,
                format!("step {step:?} divides the range into {rounded} steps, too many for `{type_name}`"),
                format!("`{type_name}` allows at most 2^{max_bits} steps; use a larger step"),
            );
        }
        Some(rounded as u64)
    }
}
