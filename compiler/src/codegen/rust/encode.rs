//! `write`: the packed encoder of each named type (spec §3–§5).
//!
//! Structs follow the chunk plan: each run of fixed-width scalar fields is range
//! checked and then written as one word built with constant shifts; other fields are
//! written one by one. Every check returns the error at the bit where the value would
//! start, with the field path added while the error unwinds. The range checks of a run
//! are one branch-free overflow word and one test; the error itself is found by a
//! cold, out-of-line `write_range_error` that repeats the checks in field order.

use super::printer::Printer;
use super::{error_with_path, naming, return_error, try_expr, Ctx, Gen};
use crate::codegen::plan::{self, NestedStep};
use crate::ir::{FloatRepr, IntRepr, LengthEncoding, Type, TypeDefKind, TypeId};

const SIG: &str =
    "pub fn write(&self, w: &mut ::bitwire::BitWriter<'_>) -> Result<(), ::bitwire::Error> {";

/// Prints the `write` method of a named type.
pub fn write_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    p.line("/// Writes the value's bit stream (no padding) at the writer's position.");
    p.line("#[inline]");
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            if def.packed.max_bits == Some(0) && fields.iter().all(|f| !can_fail(g, &f.ty)) {
                p.open(SIG.replace("w: &mut", "_w: &mut"));
                p.line("Ok(())");
                p.close("}");
                return;
            }
            p.open(SIG);
            // The members of combined range checks, for `write_range_error`.
            let mut checks = Vec::new();
            let top_locals: Vec<String> = g.names.types[id]
                .members
                .iter()
                .map(|m| naming::local_ident(m))
                .collect();
            for step in plan::nested_struct_plan(g.schema, fields) {
                match step {
                    NestedStep::Run(run) => {
                        let mut names = super::decode::NestedLocals::new(&top_locals);
                        let mut members = Vec::new();
                        let mut ctxs = Vec::new();
                        for leaf in &run.leaves {
                            let chain = plan::leaf_fields(g.schema, fields, &leaf.path);
                            let mut place = "self".to_string();
                            for k in 1..=leaf.path.len() {
                                let ident =
                                    super::decode::member_ident(g, id, fields, &leaf.path[..k]);
                                place = format!("{place}.{ident}");
                                names.get(&leaf.path[..k], ident);
                            }
                            let ident = super::decode::member_ident(g, id, fields, &leaf.path);
                            members.push(Member {
                                val: Val::place(place),
                                ty: &chain.last().expect("a field").ty,
                                offset: leaf.offset,
                                bits: leaf.bits,
                                local: names.get(&leaf.path, ident),
                            });
                            ctxs.push(super::decode::leaf_ctx(g, fields, &leaf.path));
                        }
                        write_run(g, p, &members, &ctxs, run.bits, Some(&mut checks));
                    }
                    NestedStep::Field(i) => {
                        let f = &fields[i];
                        let v = Val::place(format!("self.{}", g.names.types[id].members[i]));
                        write_value(g, p, &Ctx::default().field(&f.name), &f.ty, &v);
                    }
                }
            }
            p.line("Ok(())");
            p.close("}");
            if !checks.is_empty() {
                p.blank();
                range_error_fn(p, &checks);
            }
        }
        TypeDefKind::Enum {
            packed_tag_bits, ..
        } => {
            if *packed_tag_bits == 0 {
                p.open(SIG.replace("w: &mut", "_w: &mut"));
            } else {
                p.open(SIG);
                p.line(format!("w.write_bits(*self as u64, {packed_tag_bits});"));
            }
            p.line("Ok(())");
            p.close("}");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            // A 0-bit tag and no payloads: nothing is ever written.
            if *packed_tag_bits == 0 && variants.iter().all(|v| v.payload.is_none()) {
                p.open(SIG.replace("w: &mut", "_w: &mut"));
            } else {
                p.open(SIG);
            }
            p.open("match self {");
            for (v, vname) in variants.iter().zip(&g.names.types[id].members) {
                let pattern = match v.payload {
                    Some(_) => format!("Self::{vname}(v) => {{"),
                    None => format!("Self::{vname} => {{"),
                };
                if v.payload.is_none() && *packed_tag_bits == 0 {
                    p.line(format!("Self::{vname} => {{}}"));
                    continue;
                }
                p.open(pattern);
                if *packed_tag_bits > 0 {
                    p.line(format!("w.write_bits({}, {packed_tag_bits});", v.tag));
                }
                if let Some(ty) = &v.payload {
                    write_value(
                        g,
                        p,
                        &Ctx::default().field(&v.name),
                        ty,
                        &Val::reference("v"),
                    );
                }
                p.close("}");
            }
            p.close("}");
            p.line("Ok(())");
            p.close("}");
        }
    }
}

/// A value being written: an expression that is either a place of the value's type
/// (`self.health`) or a reference to one (`item`, `v`).
#[derive(Debug, Clone)]
pub(crate) struct Val {
    expr: String,
    by_ref: bool,
}

impl Val {
    /// A place of the value's type.
    pub fn place(expr: impl Into<String>) -> Val {
        Val {
            expr: expr.into(),
            by_ref: false,
        }
    }

    /// A reference to the value.
    pub fn reference(expr: impl Into<String>) -> Val {
        Val {
            expr: expr.into(),
            by_ref: true,
        }
    }

    /// The value itself (for `Copy` scalars).
    pub fn value(&self) -> String {
        if self.by_ref {
            format!("*{}", self.expr)
        } else {
            self.expr.clone()
        }
    }

    /// A reference to the value.
    pub fn as_ref(&self) -> String {
        if self.by_ref {
            self.expr.clone()
        } else {
            format!("&{}", self.expr)
        }
    }

    /// The expression to call methods on (auto-ref and auto-deref apply).
    pub fn recv(&self) -> &str {
        &self.expr
    }
}

/// Whether writing a value of `ty` can fail (a check or a nested call that returns a
/// `Result`); loops only number their elements when it can.
fn can_fail(g: &Gen, ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::Float { .. } | Type::VarUInt { .. } | Type::VarSInt { .. } => false,
        Type::UInt { bits, repr } | Type::SInt { bits, repr } => *bits < repr.bits(),
        Type::Bounded { .. } | Type::Quantized { .. } => true,
        Type::Optional { inner } => can_fail(g, inner),
        Type::Array { elem, .. } => can_fail(g, elem),
        Type::List { elem, max, .. } => max.is_some() || can_fail(g, elem),
        Type::String { max, .. } | Type::Bytes { max, .. } => max.is_some(),
        // Enums write their tag infallibly; structs and unions return a Result.
        Type::Named { .. } => !g.is_enum(ty),
    }
}

/// `u64` bits of a scalar (run member or single value) after its checks passed.
/// `quantized` holds the local with the quantized integer, for quantized floats.
fn scalar_bits_expr(g: &Gen, ty: &Type, v: &Val, quantized: Option<&str>) -> String {
    let x = v.value();
    match ty {
        Type::Bool => format!("u64::from({x})"),
        Type::UInt {
            repr: IntRepr::U64, ..
        } => x,
        Type::UInt { .. } => format!("u64::from({x})"),
        Type::SInt { bits, repr } => format!(
            "::bitwire::to_twos_complement({}, {bits})",
            to_i64(&x, *repr)
        ),
        Type::Float {
            repr: FloatRepr::F32,
        } => format!("::bitwire::f32_to_wire({x})"),
        Type::Float {
            repr: FloatRepr::F64,
        } => format!("::bitwire::f64_to_wire({x})"),
        Type::Bounded { repr, min, .. } => bounded_offset(&x, *repr, *min),
        Type::Quantized { .. } => quantized.expect("quantized local").to_string(),
        Type::Named { .. } if g.is_enum(ty) => format!("{x} as u64"),
        other => unreachable!("not a run scalar: {other:?}"),
    }
}

fn to_i64(x: &str, repr: IntRepr) -> String {
    if repr == IntRepr::I64 {
        x.to_string()
    } else {
        format!("i64::from({x})")
    }
}

/// `v - min` as `u64` for a bounded value already checked to be in range.
fn bounded_offset(x: &str, repr: IntRepr, min: i128) -> String {
    match (
        repr.signed(),
        repr == IntRepr::U64 || repr == IntRepr::I64,
        min,
    ) {
        (false, true, 0) => x.to_string(),
        (false, true, m) => format!("{x} - {m}"),
        (false, false, 0) => format!("u64::from({x})"),
        (false, false, m) => format!("u64::from({x}) - {m}"),
        // i64: the difference can exceed i64::MAX, but wraps to the right u64.
        (true, true, 0) => format!("{x} as u64"),
        (true, true, m) => format!("{x}.wrapping_sub({}) as u64", i64_lit(m)),
        // Narrower signed types cannot overflow in i64.
        (true, false, m) if m < 0 => format!("(i64::from({x}) + {}) as u64", -m),
        (true, false, m) => format!("(i64::from({x}) - {m}) as u64"),
    }
}

/// An `i64` literal; `i64::MIN` cannot be written as a negated literal in every position.
pub(crate) fn i64_lit(v: i128) -> String {
    if v == i128::from(i64::MIN) {
        "i64::MIN".into()
    } else {
        v.to_string()
    }
}

/// The condition under which a scalar is out of range, if it can be. `x` is the value,
/// `xr` a reference to it (for `contains`).
fn range_violation(ty: &Type, x: &str, xr: &str) -> Option<String> {
    match ty {
        Type::UInt { bits, repr } if *bits < repr.bits() => {
            Some(format!("{x} > {}", (1u128 << bits) - 1))
        }
        Type::SInt { bits, repr } if *bits < repr.bits() => {
            let half = 1i128 << (bits - 1);
            Some(format!("!({}..={}).contains({xr})", -half, half - 1))
        }
        Type::Bounded { repr, min, max, .. } => {
            let (lo, hi) = repr_range(*repr);
            match (*min <= lo, *max >= hi) {
                _ if min == max => Some(format!("{x} != {}", lit(*min, *repr))),
                (true, true) => None,
                (true, false) => Some(format!("{x} > {}", lit(*max, *repr))),
                (false, true) => Some(format!("{x} < {}", lit(*min, *repr))),
                (false, false) => Some(format!(
                    "!({}..={}).contains({xr})",
                    lit(*min, *repr),
                    lit(*max, *repr)
                )),
            }
        }
        _ => None,
    }
}

fn lit(v: i128, repr: IntRepr) -> String {
    if repr == IntRepr::I64 {
        i64_lit(v)
    } else {
        v.to_string()
    }
}

/// The value range of an integer representation.
pub(crate) fn repr_range(repr: IntRepr) -> (i128, i128) {
    let bits = repr.bits();
    if repr.signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// Prints the checks of a scalar at `offset` bits from the writer's position. For a
/// quantized float, also quantizes into a local and returns its name.
fn check_scalar(
    p: &mut Printer,
    ctx: &Ctx,
    ty: &Type,
    v: &Val,
    offset: u32,
    local: &str,
) -> Option<String> {
    if let Type::Quantized {
        repr,
        min,
        max,
        steps,
        ..
    } = ty
    {
        let x = match repr {
            FloatRepr::F32 => format!("f64::from({})", v.value()),
            FloatRepr::F64 => v.value(),
        };
        let args = [
            x,
            super::f64_lit(*min),
            super::f64_lit(*max),
            steps.to_string(),
            offset.to_string(),
        ];
        p.call(&format!("let {local} = w.quantize("), &args, ");");
        let q = try_expr(p, ctx, local);
        p.line(format!("let {local} = {q};"));
        return Some(local.to_string());
    }
    let make = format!("w.error(::bitwire::ErrorKind::OutOfRange, {offset})");
    range_check(p, ctx, ty, v, &make, true);
    None
}

/// Prints `if <v out of range> { return <error>; }` for a scalar that can be out of
/// range (nothing for one that cannot), the error made by `make` with the context's
/// path; `in_result` wraps it in `Err(..)`.
fn range_check(p: &mut Printer, ctx: &Ctx, ty: &Type, v: &Val, make: &str, in_result: bool) {
    let x = v.value();
    let Some(cond) = range_violation(ty, &x, &v.as_ref()) else {
        return;
    };
    // A long field name would make rustfmt break the condition; a short local keeps
    // the line as printed.
    let cond = if cond.len() + 8 > super::printer::SHORT_WIDTH {
        p.line(format!("let v = {x};"));
        range_violation(ty, "v", "&v").expect("same type")
    } else {
        cond
    };
    p.open(format!("if {cond} {{"));
    if in_result {
        return_error(p, ctx, make);
    } else {
        let e = error_with_path(p, ctx, make);
        p.line(format!("return {e};"));
    }
    p.close("}");
}

/// A `u64` that is zero exactly when the scalar `x` is in range, for the types that
/// [`range_violation`] checks (`None` for the others): the bits of `x`'s offset in its
/// range above the range's width, or a comparison as `0` / `1` when the range is not a
/// power of two wide. Branch-free, so that the terms of a run can be ORed into one word
/// and tested once.
fn overflow_term(ty: &Type, x: &str) -> Option<String> {
    match ty {
        Type::UInt { bits, repr } if *bits < repr.bits() => {
            let x = if *repr == IntRepr::U64 {
                x.to_string()
            } else {
                format!("u64::from({x})")
            };
            Some(format!("{x} >> {bits}"))
        }
        Type::SInt { bits, repr } if *bits < repr.bits() => {
            // `x + 2^(N-1)` is in `0..2^N` exactly when `x` is in range; computed modulo
            // 2^64 (in `i64` when it cannot overflow there), it is at least 2^N otherwise.
            let half = 1i128 << (bits - 1);
            let off = if *repr == IntRepr::I64 {
                format!("{x}.wrapping_add({half}) as u64")
            } else {
                format!("(i64::from({x}) + {half}) as u64")
            };
            Some(format!("{off} >> {bits}"))
        }
        Type::Bounded { repr, min, max, .. } => {
            let (lo, hi) = repr_range(*repr);
            if min == max {
                return Some(format!("u64::from({x} != {})", lit(*min, *repr)));
            }
            if *min <= lo && *max >= hi {
                return None;
            }
            let span = max - min;
            if (span + 1).count_ones() == 1 {
                let off = wrapping_offset(x, *repr, *min);
                return Some(format!("{off} >> {}", (span + 1).trailing_zeros()));
            }
            Some(match (*min <= lo, *max >= hi) {
                (true, _) => format!("u64::from({x} > {})", lit(*max, *repr)),
                (_, true) => format!("u64::from({x} < {})", lit(*min, *repr)),
                _ => format!("u64::from({} > {span})", wrapping_offset(x, *repr, *min)),
            })
        }
        _ => None,
    }
}

/// `x - min` as `u64`, wrapping: the offset of a value in its range, and more than
/// `max - min` for any value outside it (below `min` included), whatever the types.
fn wrapping_offset(x: &str, repr: IntRepr, min: i128) -> String {
    match (repr.signed(), repr == IntRepr::U64, min) {
        (false, true, m) if m != 0 => format!("{x}.wrapping_sub({m})"),
        (false, false, m) if m != 0 => format!("u64::from({x}).wrapping_sub({m})"),
        // The others cannot overflow (or already wrap).
        _ => bounded_offset(x, repr, min),
    }
}

/// A scalar in a run.
struct Member<'t> {
    val: Val,
    ty: &'t Type,
    /// Bit offset in the run's word.
    offset: u32,
    bits: u32,
    /// The local that holds a quantized integer, if the member is a quantized float.
    local: String,
}

/// A struct field in a combined range check, checked again by `write_range_error`.
struct Check<'t> {
    val: Val,
    ty: &'t Type,
    ctx: Ctx,
    /// Bit offset in the run's word.
    offset: u32,
}

/// Prints a run: the members' checks in field order, then one `write_bits` of the
/// word that holds them all. Range checks of struct fields are combined when `checks`
/// is given; it collects the combined members for `write_range_error`.
fn write_run<'t>(
    g: &Gen,
    p: &mut Printer,
    members: &[Member<'t>],
    ctxs: &[Ctx],
    bits: u32,
    mut checks: Option<&mut Vec<Check<'t>>>,
) {
    // Each member's bits, and the same as an operand of the word (shifted, bracketed).
    let mut raw = Vec::new();
    let mut operands = Vec::new();
    let mut checked_upto = 0;
    for (k, (m, ctx)) in members.iter().zip(ctxs).enumerate() {
        let (v, ty, offset) = (&m.val, m.ty, m.offset);
        if k >= checked_upto {
            if let Some(checks) = checks.as_deref_mut() {
                checked_upto = combined_checks(p, &members[k..], &ctxs[k..], checks) + k;
            }
        }
        let q = if k < checked_upto && !matches!(ty, Type::Quantized { .. }) {
            None
        } else {
            check_scalar(p, ctx, ty, v, offset, &m.local)
        };
        if m.bits == 0 {
            continue;
        }
        let x = scalar_bits_expr(g, ty, v, q.as_deref());
        raw.push(x.clone());
        operands.push(match offset {
            0 if is_simple(&x) => x,
            0 => format!("({x})"),
            o if is_simple(&x) => format!("({x} << {o})"),
            o => format!("(({x}) << {o})"),
        });
    }
    match operands.len() {
        0 => {}
        1 if members.len() == 1 => write_single(p, members[0].ty, &members[0].val, &raw[0], bits),
        _ => {
            p.binary("let word = ", &operands, "|", ";");
            p.line(format!("w.write_bits(word, {bits});"));
        }
    }
}

/// For two or more range-checked struct fields at the start of `members` (up to the
/// first quantized float, whose check keeps its place in field order; fields that
/// cannot be out of range are skipped), prints one branch-free test of all of them: an
/// overflow word that is zero exactly when every field is in range (see
/// [`overflow_term`]), and one well-predicted branch to the cold `write_range_error`,
/// which finds the first failing field. Comparisons ORed as `bool`s become one branch
/// per field, and a cold call that took the writer would force it into memory; this
/// measurably speeds up encoding a 64-bit packet. Returns how many members it covered
/// (0 when it printed nothing) and adds the checked ones to `checks`.
fn combined_checks<'t>(
    p: &mut Printer,
    members: &[Member<'t>],
    ctxs: &[Ctx],
    checks: &mut Vec<Check<'t>>,
) -> usize {
    let group = members
        .iter()
        .position(|m| matches!(m.ty, Type::Quantized { .. }))
        .unwrap_or(members.len());
    let checked: Vec<usize> = (0..group)
        .filter(|&i| overflow_term(members[i].ty, "x").is_some())
        .collect();
    if checked.len() < 2 {
        return 0;
    }
    let mut terms = Vec::new();
    for (n, &i) in checked.iter().enumerate() {
        let (ty, x) = (members[i].ty, members[i].val.value());
        let mut term = overflow_term(ty, &x).expect("a checked member");
        // A long field name would make rustfmt break the term; a short local keeps
        // it on one line.
        if term.len() > super::printer::SHORT_WIDTH {
            let var = format!("v{n}");
            p.line(format!("let {var} = {x};"));
            term = overflow_term(ty, &var).expect("a checked member");
        }
        terms.push(if is_simple(&term) {
            term
        } else {
            format!("({term})")
        });
    }
    p.binary("let over = ", &terms, "|", ";");
    p.open("if over != 0 {");
    p.line("return Err(self.write_range_error(w.bit_pos()));");
    p.close("}");
    checks.extend(checked.iter().map(|&i| Check {
        val: members[i].val.clone(),
        ty: members[i].ty,
        ctx: ctxs[i].clone(),
        offset: members[i].offset,
    }));
    group
}

/// Prints `write_range_error`, the error path of every combined range check of a
/// struct: out of line and cold, and given the writer's position rather than the
/// writer, so that `write` keeps the writer in registers.
fn range_error_fn(p: &mut Printer, checks: &[Check]) {
    p.line("/// The error of the first field out of range (spec §7.2), for `write` when the");
    p.line("/// combined range check of a run failed; `at` is the writer's position at the");
    p.line("/// start of that run. The fields of earlier runs passed their checks already.");
    p.line("#[cold]");
    p.line("#[inline(never)]");
    p.open("fn write_range_error(&self, at: u64) -> ::bitwire::Error {");
    let make = |offset: u32| {
        let at = match offset {
            0 => "at".to_string(),
            o => format!("at + {o}"),
        };
        format!("::bitwire::Error::new(::bitwire::ErrorKind::OutOfRange, {at})")
    };
    let (last, rest) = checks.split_last().expect("at least two checks");
    for c in rest {
        range_check(p, &c.ctx, c.ty, &c.val, &make(c.offset), false);
    }
    p.line("// The last check: the combined test failed and every check above passed.");
    let e = error_with_path(p, &last.ctx, &make(last.offset));
    p.line(e);
    p.close("}");
}

/// Writes a lone scalar with the most readable runtime call.
fn write_single(p: &mut Printer, ty: &Type, v: &Val, bits_expr: &str, bits: u32) {
    match ty {
        Type::Bool => p.line(format!("w.write_bool({});", v.value())),
        Type::SInt { bits, repr } => p.line(format!(
            "w.write_int({}, {bits});",
            to_i64(&v.value(), *repr)
        )),
        Type::Float {
            repr: FloatRepr::F32,
        } => p.line(format!("w.write_f32({});", v.value())),
        Type::Float {
            repr: FloatRepr::F64,
        } => p.line(format!("w.write_f64({});", v.value())),
        _ => p.line(format!("w.write_bits({bits_expr}, {bits});")),
    }
}

/// Whether `x` is a single term (a path, call or method call: no operator outside
/// brackets) that can be shifted without parentheses.
fn is_simple(x: &str) -> bool {
    let mut depth = 0i32;
    for ch in x.chars() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ' ' if depth == 0 => return false,
            _ => {}
        }
    }
    true
}

/// Prints the writing of one value of any type (field by field, not in a run).
pub(crate) fn write_value(g: &Gen, p: &mut Printer, ctx: &Ctx, ty: &Type, v: &Val) {
    let bound;
    let v = match ty {
        Type::Array { .. } | Type::List { .. } | Type::String { .. } | Type::Bytes { .. }
            if v.recv().len() > 32 =>
        {
            // `self.long_name.iter().enumerate()` would be broken by rustfmt.
            let var = ctx.var("list");
            p.line(format!("let {var} = {};", v.as_ref()));
            bound = Val::reference(var);
            &bound
        }
        _ => v,
    };
    if let Some(bits) = plan::scalar_bits(g.schema, ty) {
        if let Type::Named { .. } = ty {
            // Enums have their own infallible `write`.
            p.line(format!("{}.write(w)?;", v.recv()));
            return;
        }
        let m = Member {
            val: v.clone(),
            ty,
            offset: 0,
            bits,
            local: ctx.var("q"),
        };
        write_run(g, p, &[m], std::slice::from_ref(ctx), bits, None);
        return;
    }
    match ty {
        Type::VarUInt { bits, repr } => {
            let x = if *repr == IntRepr::U64 {
                v.value()
            } else {
                format!("u64::from({})", v.value())
            };
            p.line(format!("w.write_varint({x}, {bits});"));
        }
        Type::VarSInt { bits, repr } => {
            let x = to_i64(&v.value(), *repr);
            p.line(format!(
                "w.write_varint(::bitwire::zigzag_encode({x}), {bits});"
            ));
        }
        Type::Optional { inner } => {
            let var = ctx.deeper().var("v");
            p.open(format!("if let Some({var}) = {} {{", v.as_ref()));
            p.line("w.write_bool(true);");
            write_value(g, p, &ctx.deeper(), inner, &Val::reference(var));
            p.middle("} else {");
            p.line("w.write_bool(false);");
            p.close("}");
        }
        Type::Array { elem, .. } => {
            if is_byte(elem) {
                p.line(format!("w.write_bytes({});", v.as_ref()));
                return;
            }
            if let Some(lane) = bulk_lane(elem) {
                p.line(format!("w.write_{lane}s({});", v.as_ref()));
                return;
            }
            write_elements(g, p, ctx, elem, v);
        }
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            write_length(p, ctx, v, *max, *packed_len);
            if is_byte(elem) {
                p.line(format!("w.write_bytes({});", v.as_ref()));
            } else if let Some(lane) = bulk_lane(elem) {
                p.line(format!("w.write_{lane}s({});", v.as_ref()));
            } else {
                write_elements(g, p, ctx, elem, v);
            }
        }
        Type::String { max, packed_len } => {
            write_length(p, ctx, v, *max, *packed_len);
            p.line(format!("w.write_bytes({}.as_bytes());", v.recv()));
        }
        Type::Bytes { max, packed_len } => {
            write_length(p, ctx, v, *max, *packed_len);
            p.line(format!("w.write_bytes({});", v.as_ref()));
        }
        Type::Named { .. } => {
            let call = format!("{}.write(w)", v.recv());
            let e = try_expr(p, ctx, &call);
            p.line(format!("{e};"));
        }
        other => unreachable!("scalar handled above: {other:?}"),
    }
}

/// `u8` elements, written and read as whole bytes.
pub(crate) fn is_byte(ty: &Type) -> bool {
    matches!(ty, Type::UInt { bits: 8, .. })
}

/// The element type of a list or array that the runtime moves in bulk, 64 bits at a
/// time (`write_u64s`, `read_u64_vec`, `skip_f32s`, …): a number whose wire width is
/// its whole Rust type, `u16`…`u64`, `i8`…`i64`, `f32`, `f64`, with no bound and no
/// quantization. `u8` is not one: bytes have their own calls (`write_bytes`, …).
pub(crate) fn bulk_lane(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::UInt { bits, repr } if *bits == repr.bits() && *bits > 8 => {
            Some(super::int_type(*repr))
        }
        Type::SInt { bits, repr } if *bits == repr.bits() => Some(super::int_type(*repr)),
        Type::Float { repr } => Some(super::float_type(*repr)),
        _ => None,
    }
}

/// Checks a length against its bound and writes the length prefix (spec §5.6).
fn write_length(p: &mut Printer, ctx: &Ctx, v: &Val, max: Option<u64>, len: LengthEncoding) {
    let var = ctx.var("len");
    p.line(format!("let {var} = {}.len();", v.recv()));
    if let Some(m) = max {
        p.open(format!("if {var} > {m} {{"));
        return_error(p, ctx, "w.error(::bitwire::ErrorKind::InvalidLength, 0)");
        p.close("}");
    }
    match len {
        LengthEncoding::Fixed { bits } => p.line(format!("w.write_bits({var} as u64, {bits});")),
        LengthEncoding::Varint => p.line(format!("w.write_varint({var} as u64, 64);")),
    }
}

/// Writes every element of an array or list.
fn write_elements(g: &Gen, p: &mut Printer, ctx: &Ctx, elem: &Type, v: &Val) {
    let item = ctx.deeper().var("item");
    if can_fail(g, elem) {
        let i = ctx.deeper().var("i");
        p.open(format!(
            "for ({i}, {item}) in {}.iter().enumerate() {{",
            v.recv()
        ));
        write_value(g, p, &ctx.index(&i), elem, &Val::reference(item));
    } else {
        p.open(format!("for {item} in {} {{", v.as_ref()));
        write_value(g, p, &ctx.deeper(), elem, &Val::reference(item));
    }
    p.close("}");
}
