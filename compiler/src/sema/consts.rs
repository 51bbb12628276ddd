//! Constants: their types, their values, and the evaluation of the value
//! expressions used anywhere a number is needed (bounds, lengths, ids, tags).
//!
//! Constants are evaluated on demand, so their declaration order does not matter;
//! a constant reached again while its own value is being computed is a cycle.

use super::builtins::{builtin, int_name, int_range, Builtin};
use super::lower::Lowerer;
use super::scope::{Resolved, Symbol, Want};
use crate::diag::{Code, Diagnostic, Span};
use crate::ir::{self, FloatRepr, IntRepr};
use crate::syntax::ast::{self, TypeExprKind, ValueExprKind};

/// A computed constant value.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
}

impl Value {
    fn kind_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Float(_) => "a float",
            Value::Bool(_) => "a bool",
            Value::Str(_) => "a string",
        }
    }
}

/// The declared type of a constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConstType {
    Int { signed: bool, bits: u32 },
    Float(FloatRepr),
    Bool,
    Str,
}

/// Evaluation state of one constant.
#[derive(Debug, Clone)]
pub(crate) enum Slot {
    Pending,
    InProgress,
    /// The value, or `None` if it had an error (already reported).
    Done(Option<(ConstType, Value)>),
}

impl Lowerer<'_> {
    /// Evaluates every constant and returns the valid ones in declaration order.
    pub fn lower_consts(&mut self) -> Vec<ir::Constant> {
        let mut out = Vec::new();
        for id in 0..self.scope.consts.len() {
            let (unit, decl) = self.scope.consts[id];
            self.const_value(id, decl.name.span);
            let Slot::Done(Some((ty, value))) = self.const_slots[id].clone() else {
                continue;
            };
            let value = match (ty, value) {
                (ConstType::Int { signed, bits }, Value::Int(v)) => ir::ConstValue::Int {
                    ty: IntRepr::for_width(signed, bits),
                    value: v,
                },
                (ConstType::Float(repr), Value::Float(v)) => {
                    ir::ConstValue::Float { ty: repr, value: v }
                }
                (ConstType::Bool, Value::Bool(v)) => ir::ConstValue::Bool { value: v },
                (ConstType::Str, Value::Str(v)) => ir::ConstValue::String { value: v },
                _ => unreachable!("values are converted to their constant's type"),
            };
            out.push(ir::Constant {
                name: decl.name.name.clone(),
                doc: decl.docs.lines.clone(),
                origin: self.origin(unit, decl.name.span),
                value,
                spans: ir::Spans {
                    name: decl.name.span,
                    ty: Some(decl.ty.span),
                },
            });
        }
        out
    }

    /// The value of constant `id`, reached through a use at `use_span`.
    ///
    /// A constant's value names at most one other constant (`C`, `-C`), so the
    /// constants it depends on form a chain. The chain is followed in a loop and
    /// then evaluated from its far end back, each value using the one after it:
    /// no recursion, however long the chain (schemas are untrusted input).
    fn const_value(&mut self, id: usize, use_span: Span) -> Option<Value> {
        let mut chain = Vec::new();
        let (mut at, mut reached_by) = (id, use_span);
        // Follow the chain until a constant that is done, in progress (a cycle, or
        // a constant further up that is being evaluated) or that names no other.
        let cut = loop {
            match self.const_slots[at] {
                Slot::Done(_) => break false,
                Slot::InProgress => {
                    self.const_cycle(at, reached_by);
                    break true;
                }
                Slot::Pending => {}
            }
            self.const_slots[at] = Slot::InProgress;
            self.const_stack.push(at);
            chain.push(at);
            match self.const_reference(at) {
                Some((next, span)) => (at, reached_by) = (next, span),
                None => break false,
            }
        };
        // The last constant of a chain that ran into a cycle would meet it again.
        let mut skip_last = cut;
        while let Some(c) = chain.pop() {
            let result = self.evaluate_const(c, skip_last);
            skip_last = false;
            self.const_stack.pop();
            self.const_slots[c] = Slot::Done(result);
        }
        match &self.const_slots[id] {
            Slot::Done(v) => v.as_ref().map(|(_, v)| v.clone()),
            // `id` itself was in progress further up (a cycle, already reported).
            _ => None,
        }
    }

    /// The constant that constant `id`'s value names, with the span of the name.
    fn const_reference(&self, id: usize) -> Option<(usize, Span)> {
        let (unit, decl) = self.scope.consts[id];
        let mut expr = &decl.value;
        while let ValueExprKind::Neg(inner) = &expr.kind {
            expr = inner;
        }
        let ValueExprKind::Name(ident) = &expr.kind else {
            return None;
        };
        match self.scope.resolve(unit, &ident.name) {
            Resolved::Found(Symbol::Const(next)) => Some((next, ident.span)),
            _ => None,
        }
    }

    /// Type-checks constant `id` and evaluates its value, once every constant it
    /// names is done; `cyclic`: its value closes a cycle (already reported).
    fn evaluate_const(&mut self, id: usize, cyclic: bool) -> Option<(ConstType, Value)> {
        let (unit, decl) = self.scope.consts[id];
        let ty = self.const_type(&decl.ty);
        if cyclic {
            return None;
        }
        let raw = self.eval(unit, &decl.value);
        match (ty, raw) {
            (Some(ty), Some(raw)) => self
                .convert(ty, raw, &decl.ty, decl.value.span)
                .map(|v| (ty, v)),
            _ => None,
        }
    }

    fn const_cycle(&mut self, id: usize, use_span: Span) {
        let name = &self.scope.consts[id].1.name;
        let start = self.const_stack.iter().position(|&c| c == id).unwrap_or(0);
        let mut chain: Vec<&str> = self.const_stack[start..]
            .iter()
            .map(|&c| self.scope.consts[c].1.name.name.as_str())
            .collect();
        chain.push(&name.name);
        let diag = Diagnostic::error(
            Code::ConstCycle,
            format!("constant `{}` depends on itself", name.name),
            use_span,
            format!(
                "`{}` is used here while its own value is being computed",
                name.name
            ),
        )
        .with_secondary(name.span, format!("`{}` is declared here", name.name))
        .with_note(format!("cycle: {}", chain.join(" -> ")))
        .with_help("give one of these constants a literal value");
        self.diags.push(diag);
    }

    /// Checks a constant's declared type.
    fn const_type(&mut self, ty: &ast::TypeExpr) -> Option<ConstType> {
        let found = match &ty.kind {
            TypeExprKind::Name(ident) => match builtin(&ident.name) {
                Some(Ok(Builtin::UInt(bits))) => Some(ConstType::Int {
                    signed: false,
                    bits,
                }),
                Some(Ok(Builtin::SInt(bits))) => Some(ConstType::Int { signed: true, bits }),
                Some(Ok(Builtin::F32)) => Some(ConstType::Float(FloatRepr::F32)),
                Some(Ok(Builtin::F64)) => Some(ConstType::Float(FloatRepr::F64)),
                Some(Ok(Builtin::Bool)) => Some(ConstType::Bool),
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
                _ => None,
            },
            TypeExprKind::String(None) => Some(ConstType::Str),
            _ => None,
        };
        if found.is_none() {
            let written = self.sources.snippet(ty.span).to_string();
            self.diags.push(
                Diagnostic::error(
                    Code::InvalidConstType,
                    format!("a constant cannot have type `{written}`"),
                    ty.span,
                    "not a constant type",
                )
                .with_help("constants are integers (`uN`, `iN`), floats (`f32`, `f64`), `bool` or `string`"),
            );
        }
        found
    }

    /// Converts an evaluated value to a constant's declared type.
    fn convert(
        &mut self,
        ty: ConstType,
        value: Value,
        written: &ast::TypeExpr,
        span: Span,
    ) -> Option<Value> {
        let type_name = self.sources.snippet(written.span).to_string();
        match (ty, value) {
            (ConstType::Int { signed, bits }, Value::Int(v)) => {
                let (lo, hi) = int_range(signed, bits);
                if v < lo || v > hi {
                    self.diags.push(
                        Diagnostic::error(
                            Code::ValueOutOfRange,
                            format!("value `{v}` does not fit in `{type_name}`"),
                            span,
                            "out of range",
                        )
                        .with_help(format!("`{}` holds {lo}..={hi}", int_name(signed, bits))),
                    );
                    return None;
                }
                Some(Value::Int(v))
            }
            (ConstType::Float(repr), Value::Int(v)) => {
                let f = v as f64;
                if f as i128 != v {
                    self.diags.push(
                        Diagnostic::error(
                            Code::ValueOutOfRange,
                            format!("integer `{v}` cannot be represented exactly as `{type_name}`"),
                            span,
                            "inexact",
                        )
                        .with_help("write the value as a float literal to accept the rounding"),
                    );
                    return None;
                }
                self.float_const(repr, f, &type_name, span)
            }
            (ConstType::Float(repr), Value::Float(f)) => {
                self.float_const(repr, f, &type_name, span)
            }
            (ConstType::Bool, v @ Value::Bool(_)) | (ConstType::Str, v @ Value::Str(_)) => Some(v),
            (ty, value) => {
                let expected = match ty {
                    ConstType::Int { .. } => "an integer",
                    ConstType::Float(_) => "a number",
                    ConstType::Bool => "a bool",
                    ConstType::Str => "a string",
                };
                self.diags.push(
                    Diagnostic::error(
                        Code::TypeMismatch,
                        format!("expected {expected}, found {}", value.kind_name()),
                        span,
                        format!("this is {}", value.kind_name()),
                    )
                    .with_help(format!(
                        "the constant is declared `{type_name}`; change its value or its type"
                    )),
                );
                None
            }
        }
    }

    /// An `f32` constant is stored as the nearest `f32` value (exactly what generated code holds).
    fn float_const(
        &mut self,
        repr: FloatRepr,
        f: f64,
        type_name: &str,
        span: Span,
    ) -> Option<Value> {
        if repr == FloatRepr::F32 {
            if f.abs() > f64::from(f32::MAX) {
                self.diags.push(
                    Diagnostic::error(
                        Code::ValueOutOfRange,
                        format!("value `{f:?}` does not fit in `{type_name}`"),
                        span,
                        "out of range",
                    )
                    .with_help(format!(
                        "`f32` holds at most {:e} in magnitude; use `f64`",
                        f32::MAX
                    )),
                );
                return None;
            }
            return Some(Value::Float(f64::from(f as f32)));
        }
        Some(Value::Float(f))
    }

    /// Evaluates a value expression as seen from `unit`.
    pub fn eval(&mut self, unit: usize, expr: &ast::ValueExpr) -> Option<Value> {
        match &expr.kind {
            ValueExprKind::Int(v) => Some(Value::Int(i128::from(*v))),
            ValueExprKind::Float(v) => Some(Value::Float(*v)),
            ValueExprKind::Bool(v) => Some(Value::Bool(*v)),
            ValueExprKind::Str(v) => Some(Value::Str(v.clone())),
            ValueExprKind::Error => None,
            ValueExprKind::Neg(inner) => match self.eval(unit, inner)? {
                Value::Int(v) => Some(Value::Int(-v)),
                Value::Float(v) => Some(Value::Float(-v)),
                other => {
                    self.diags.push(
                        Diagnostic::error(
                            Code::TypeMismatch,
                            format!("cannot negate {}", other.kind_name()),
                            expr.span,
                            "only numbers can be negated",
                        )
                        .with_help("remove the `-`"),
                    );
                    None
                }
            },
            ValueExprKind::Name(ident) => match self.scope.resolve(unit, &ident.name) {
                Resolved::Found(Symbol::Const(id)) => self.const_value(id, ident.span),
                _ => {
                    let diag = self.scope.unresolved(unit, ident, Want::Const);
                    self.diags.push(diag);
                    None
                }
            },
        }
    }

    /// Evaluates an expression that must be an integer (`what` names it in errors).
    pub fn eval_int(&mut self, unit: usize, expr: &ast::ValueExpr, what: &str) -> Option<i128> {
        match self.eval(unit, expr)? {
            Value::Int(v) => Some(v),
            other => {
                self.mismatch(expr.span, what, "an integer", &other);
                None
            }
        }
    }

    /// Evaluates an expression that must be a number; integers are converted to `f64`.
    pub fn eval_number(&mut self, unit: usize, expr: &ast::ValueExpr, what: &str) -> Option<f64> {
        match self.eval(unit, expr)? {
            Value::Int(v) => Some(v as f64),
            Value::Float(v) => Some(v),
            other => {
                self.mismatch(expr.span, what, "a number", &other);
                None
            }
        }
    }

    fn mismatch(&mut self, span: Span, what: &str, expected: &str, found: &Value) {
        let shown = match found {
            Value::Int(v) => v.to_string(),
            Value::Float(v) => format!("{v:?}"),
            Value::Bool(v) => v.to_string(),
            Value::Str(v) => format!("{v:?}"),
        };
        self.diags.push(
            Diagnostic::error(
                Code::TypeMismatch,
                format!(
                    "expected {expected} for {what}, found {} `{shown}`",
                    found.kind_name()
                ),
                span,
                format!("expected {expected}"),
            )
            .with_help_opt(
                (expected == "an integer" && matches!(found, Value::Float(_)))
                    .then(|| format!("{what} must be a whole number")),
            ),
        );
    }
}
