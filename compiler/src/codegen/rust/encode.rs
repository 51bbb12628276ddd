//! `write`: the packed encoder of each named type, printed from its codec plan.
//!
//! A run is range checked and then written as one word built with constant shifts;
//! other fields are written one by one. Every check returns the error at the bit where
//! the value would start, with the field path added while the error unwinds. The
//! range checks of a run are one branch-free overflow word and one test; the error
//! itself is found by a cold, out-of-line `write_range_error` that repeats the checks
//! in field order.

use super::exprs::{
    is_simple, overflow_term, range_error, range_violation, to_i64, to_u64, wire_bits,
};
use super::printer::Printer;
use super::{error_with_path, f64_lit, return_error, try_expr, Call, Ctx, Gen};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::{
    Body, Form, Lang, Length, Node, Op, Prefix, Run, Scalar, ScalarKind, StructPlan,
};

const SIG: &str =
    "fn write(&self, w: &mut ::bitwire::BitWriter<'_>) -> Result<(), ::bitwire::Error> {";

/// Prints the `write` method of a named type's `Packed` impl (documented by the
/// trait) into `p`, and the private helpers it calls into `helpers`, a printer for
/// the type's inherent impl.
pub fn write_fn(g: &Gen, p: &mut Printer, helpers: &mut Printer, id: TypeId) {
    let plan = g.plan.get(id);
    p.line("#[inline]");
    match &plan.body {
        Body::Struct(s) => write_struct(g, p, helpers, id, s, plan.is_zero_width()),
        Body::Enum(e) => {
            if e.tag_bits == 0 {
                p.open(SIG.replace("w: &mut", "_w: &mut"));
            } else {
                p.open(SIG);
                p.line(format!("w.write_bits(*self as u64, {});", e.tag_bits));
            }
            p.line("Ok(())");
            p.close("}");
        }
        Body::Union(u) => {
            // A 0-bit tag and no payloads: nothing is ever written.
            if u.tag_bits == 0 && u.arms.iter().all(|a| a.payload.is_none()) {
                p.open(SIG.replace("w: &mut", "_w: &mut"));
            } else {
                p.open(SIG);
            }
            p.open("match self {");
            for (arm, vname) in u.arms.iter().zip(&g.names.types[id].members) {
                if arm.payload.is_none() && u.tag_bits == 0 {
                    p.line(format!("Self::{vname} => {{}}"));
                    continue;
                }
                match arm.payload {
                    Some(_) => p.open(format!("Self::{vname}(v) => {{")),
                    None => p.open(format!("Self::{vname} => {{")),
                }
                if u.tag_bits > 0 {
                    p.line(format!("w.write_bits({}, {});", arm.tag, u.tag_bits));
                }
                if let Some(node) = &arm.payload {
                    if arm.out_of_line {
                        p.line("let v = &**v;");
                    }
                    let ctx = Ctx::default().field(&arm.name);
                    write_value(g, p, &ctx, node, &Val::reference("v"));
                }
                p.close("}");
            }
            p.close("}");
            p.line("Ok(())");
            p.close("}");
        }
    }
}

fn write_struct(
    g: &Gen,
    p: &mut Printer,
    helpers: &mut Printer,
    id: TypeId,
    s: &StructPlan,
    zero_width: bool,
) {
    if zero_width && s.fields.iter().all(|f| !f.node.encode_can_fail(Lang::RUST)) {
        p.open(SIG.replace("w: &mut", "_w: &mut"));
        p.line("Ok(())");
        p.close("}");
        return;
    }
    p.open(SIG);
    // The members of combined range checks, for `write_range_error`.
    let mut checks = Vec::new();
    let mut locals = super::decode::LeafLocals::new(g, id);
    for step in &s.steps {
        match step {
            crate::plan::Step::Run(run) => {
                let members = run_members(g, id, run, &mut locals);
                write_run(p, &members, run.bits, Some(&mut checks));
            }
            crate::plan::Step::Field(i) => {
                let f = &s.fields[*i];
                let v = Val::place(format!("self.{}", g.names.types[id].members[*i]));
                write_value(g, p, &Ctx::default().field(&f.name), &f.node, &v);
            }
        }
    }
    p.line("Ok(())");
    p.close("}");
    if !checks.is_empty() {
        range_error_fn(helpers, &checks);
    }
}

/// The members of a run of struct `id`: each leaf's place (`self.pos.x`), its path
/// context and a local for its quantized integer.
fn run_members<'p>(
    g: &Gen,
    id: TypeId,
    run: &'p Run,
    locals: &mut super::decode::LeafLocals,
) -> Vec<Member<'p>> {
    run.leaves
        .iter()
        .map(|leaf| {
            let idents = super::leaf_idents(g, id, &leaf.path);
            Member {
                val: Val::place(format!("self.{}", idents.join("."))),
                scalar: &leaf.scalar,
                offset: leaf.offset,
                local: locals.get(&leaf.path),
                ctx: leaf
                    .names
                    .iter()
                    .fold(Ctx::default(), |c, name| c.field(name)),
            }
        })
        .collect()
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

/// A scalar being written, alone or in a run.
struct Member<'p> {
    val: Val,
    scalar: &'p Scalar,
    /// Bit offset in the run's word.
    offset: u32,
    /// The local that holds a quantized integer, if the member is a quantized float.
    local: String,
    ctx: Ctx,
}

/// Prints the checks of a scalar at `offset` bits from the writer's position. For a
/// quantized float, also quantizes into a local and returns its name.
fn check_scalar(p: &mut Printer, m: &Member) -> Option<String> {
    if let ScalarKind::Quantized {
        repr,
        min,
        max,
        steps,
        ..
    } = m.scalar.kind
    {
        let x = match repr {
            FloatRepr::F32 => format!("f64::from({})", m.val.value()),
            FloatRepr::F64 => m.val.value(),
        };
        // One multiplication instead of a division where the plan proved it gives the
        // same index for every f32 (compiler/src/plan/quant.rs).
        let (method, last) = match repr {
            FloatRepr::F32 => match crate::plan::quant::f32_encode_factor(min, max, steps) {
                Some(factor) => ("quantize_scaled", f64_lit(factor)),
                None => ("quantize", steps.to_string()),
            },
            FloatRepr::F64 => ("quantize", steps.to_string()),
        };
        let args = [x, f64_lit(min), f64_lit(max), last, m.offset.to_string()];
        p.call(&format!("let {} = w.{method}(", m.local), &args, ");");
        let q = try_expr(p, &m.ctx, &m.local);
        p.line(format!("let {} = {q};", m.local));
        return Some(m.local.clone());
    }
    range_check(p, m, Ok(m.offset), true);
    None
}

/// Prints `if <value out of range> { return <error>; }` for a scalar that can be out
/// of range (nothing for one that cannot), the error at `at` (see [`range_error`]);
/// `in_result` wraps it in `Err(..)`.
fn range_check(p: &mut Printer, m: &Member, at: Result<u32, &str>, in_result: bool) {
    let x = m.val.value();
    let Some(cond) = range_violation(m.scalar, &x, &m.val.as_ref()) else {
        return;
    };
    // A long field name would make rustfmt break the condition; a short local keeps
    // the line as printed. It is not `v`: the value may be `*v` (a union's payload),
    // still written after the check.
    let (cond, x) = if cond.len() + 8 > super::printer::SHORT_WIDTH {
        p.line(format!("let val = {x};"));
        let c = range_violation(m.scalar, "val", "&val").expect("same scalar");
        (c, "val".to_string())
    } else {
        (cond, x)
    };
    p.open(format!("if {cond} {{"));
    let make = range_error(m.scalar, &x, at);
    if in_result {
        return_error(p, &m.ctx, &make);
    } else {
        let e = error_with_path(p, &m.ctx, &make);
        p.line(format!("return {e};"));
    }
    p.close("}");
}

/// Prints a run: the members' checks in stream order, then one `write_bits` of the
/// word that holds them all. Range checks of struct fields are combined when `checks`
/// is given; it collects the combined members for `write_range_error`.
fn write_run<'p>(
    p: &mut Printer,
    members: &[Member<'p>],
    bits: u32,
    mut checks: Option<&mut Vec<Check<'p>>>,
) {
    let mut raw = Vec::new();
    let mut operands = Vec::new();
    let mut checked_upto = 0;
    for (k, m) in members.iter().enumerate() {
        if k >= checked_upto {
            if let Some(checks) = checks.as_deref_mut() {
                checked_upto = combined_checks(p, &members[k..], checks) + k;
            }
        }
        let q = if k < checked_upto && !matches!(m.scalar.kind, ScalarKind::Quantized { .. }) {
            None
        } else {
            check_scalar(p, m)
        };
        if m.scalar.bits == 0 {
            continue;
        }
        let x = wire_bits(m.scalar, &m.val.value(), q.as_deref());
        raw.push(x.clone());
        operands.push(match m.offset {
            0 if is_simple(&x) => x,
            0 => format!("({x})"),
            o if is_simple(&x) => format!("({x} << {o})"),
            o => format!("(({x}) << {o})"),
        });
    }
    match operands.len() {
        0 => {}
        1 if members.len() == 1 => write_single(p, &members[0], &raw[0], bits),
        // One member with bits among zero-width ones: no `|`, so no brackets.
        1 if operands[0] == format!("({})", raw[0]) => {
            p.line(format!("let word = {};", raw[0]));
            p.line(format!("w.write_bits(word, {bits});"));
        }
        _ => {
            p.binary("let word = ", &operands, "|", ";");
            p.line(format!("w.write_bits(word, {bits});"));
        }
    }
}

/// A member of a combined range check, checked again by `write_range_error`.
struct Check<'p> {
    val: Val,
    scalar: &'p Scalar,
    ctx: Ctx,
    /// Bit offset in the run's word.
    offset: u32,
}

/// For two or more range-checked members at the start of `members` (up to the first
/// quantized float, whose check keeps its place in stream order; members that cannot
/// be out of range are skipped), prints one branch-free test of all of them: an
/// overflow word that is zero exactly when every member is in range (see
/// [`overflow_term`]), and one well-predicted branch to the cold `write_range_error`,
/// which finds the first failing member. Comparisons ORed as `bool`s become one branch
/// per field, and a cold call that took the writer would force it into memory; this
/// measurably speeds up encoding a 64-bit packet. Returns how many members it covered
/// (0 when it printed nothing) and adds the checked ones to `checks`.
fn combined_checks<'p>(
    p: &mut Printer,
    members: &[Member<'p>],
    checks: &mut Vec<Check<'p>>,
) -> usize {
    let group = members
        .iter()
        .position(|m| matches!(m.scalar.kind, ScalarKind::Quantized { .. }))
        .unwrap_or(members.len());
    let checked: Vec<usize> = (0..group)
        .filter(|&i| overflow_term(members[i].scalar, "x").is_some())
        .collect();
    if checked.len() < 2 {
        return 0;
    }
    let mut terms = Vec::new();
    for (n, &i) in checked.iter().enumerate() {
        let (s, x) = (members[i].scalar, members[i].val.value());
        let mut term = overflow_term(s, &x).expect("a checked member");
        // A long field name would make rustfmt break the term; a short local keeps
        // it on one line.
        if term.len() > super::printer::SHORT_WIDTH {
            let var = format!("v{n}");
            p.line(format!("let {var} = {x};"));
            term = overflow_term(s, &var).expect("a checked member");
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
        scalar: members[i].scalar,
        ctx: members[i].ctx.clone(),
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
    let at = |offset: u32| match offset {
        0 => "at".to_string(),
        o => format!("at + {o}"),
    };
    let (last, rest) = checks.split_last().expect("at least two checks");
    for c in rest {
        let m = Member {
            val: c.val.clone(),
            scalar: c.scalar,
            offset: c.offset,
            local: String::new(),
            ctx: c.ctx.clone(),
        };
        range_check(p, &m, Err(&at(c.offset)), false);
    }
    p.line("// The last check: the combined test failed and every check above passed.");
    let make = range_error(last.scalar, &last.val.value(), Err(&at(last.offset)));
    let e = error_with_path(p, &last.ctx, &make);
    p.line(e);
    p.close("}");
}

/// Writes a lone scalar with the most readable runtime call.
fn write_single(p: &mut Printer, m: &Member, bits_expr: &str, bits: u32) {
    let x = m.val.value();
    match m.scalar.kind {
        ScalarKind::Bool => p.line(format!("w.write_bool({x});")),
        ScalarKind::SInt { repr } => p.line(format!("w.write_int({}, {bits});", to_i64(&x, repr))),
        ScalarKind::Float {
            repr: FloatRepr::F32,
        } => p.line(format!("w.write_f32({x});")),
        ScalarKind::Float {
            repr: FloatRepr::F64,
        } => p.line(format!("w.write_f64({x});")),
        _ => p.line(format!("w.write_bits({bits_expr}, {bits});")),
    }
}

/// Prints the writing of one value of any type (not in a run).
pub(crate) fn write_value(g: &Gen, p: &mut Printer, ctx: &Ctx, node: &Node, v: &Val) {
    let bound;
    let v = match node.op {
        Op::Array(_) | Op::List(_) | Op::String(_) | Op::Bytes(_) if v.recv().len() > 32 => {
            // `self.long_name.iter().enumerate()` would be broken by rustfmt.
            let var = ctx.var("list");
            p.line(format!("let {var} = {};", v.as_ref()));
            bound = Val::reference(var);
            &bound
        }
        _ => v,
    };
    match &node.op {
        Op::Scalar(s) if matches!(s.kind, ScalarKind::Enum { .. }) => {
            // Enums have their own infallible `write`.
            p.line(format!("{}.write(w)?;", v.recv()));
        }
        Op::Scalar(s) => {
            let m = Member {
                val: v.clone(),
                scalar: s,
                offset: 0,
                local: ctx.var("q"),
                ctx: ctx.clone(),
            };
            write_run(p, &[m], s.bits, None);
        }
        Op::Varint(vi) => {
            let x = if vi.signed {
                format!("::bitwire::zigzag_encode({})", to_i64(&v.value(), vi.repr))
            } else {
                to_u64(&v.value(), vi.repr)
            };
            p.line(format!("w.write_varint({x}, {});", vi.bits));
        }
        Op::Optional(inner) => {
            let var = ctx.deeper().var("v");
            p.open(format!("if let Some({var}) = {} {{", v.as_ref()));
            match &inner.op {
                Op::Scalar(s) if s.bits > 0 && s.bits < 64 => {
                    write_present_scalar(p, &ctx.deeper(), s, Val::reference(var));
                }
                _ => {
                    p.line("w.write_bool(true);");
                    write_value(g, p, &ctx.deeper(), inner, &Val::reference(var));
                }
            }
            p.middle("} else {");
            p.line("w.write_bool(false);");
            p.close("}");
        }
        Op::Array(a) => write_elements(g, p, ctx, &a.elem, a.form, v),
        Op::List(l) => {
            write_length(p, ctx, v, &l.length);
            write_elements(g, p, ctx, &l.elem, l.form, v);
        }
        Op::String(len) => write_byte_run(p, ctx, v, len, &format!("{}.as_bytes()", v.recv())),
        Op::Bytes(len) => write_byte_run(p, ctx, v, len, &v.as_ref()),
        Op::Named(_) => {
            let call = format!("{}.write(w)", v.recv());
            let e = try_expr(p, ctx, &call);
            p.line(format!("{e};"));
        }
    }
}

/// Checks a length against its bound and writes the length prefix (spec §5.6).
/// Writes a present optional scalar: its checks first (at bit 1, after the presence
/// bit: where they were when the bit went out first), then the presence bit and the
/// value as one word.
fn write_present_scalar(p: &mut Printer, ctx: &Ctx, s: &Scalar, val: Val) {
    let m = Member {
        val,
        scalar: s,
        offset: 1,
        local: ctx.var("q"),
        ctx: ctx.clone(),
    };
    let q = check_scalar(p, &m);
    let x = wire_bits(s, &m.val.value(), q.as_deref());
    let shifted = if is_simple(&x) {
        format!("({x} << 1)")
    } else {
        format!("(({x}) << 1)")
    };
    p.binary("let word = ", &["1".to_string(), shifted], "|", ";");
    p.line(format!("w.write_bits(word, {});", s.bits + 1));
}

/// Writes a string's or bytes value's length and bytes (`bytes`, an expression of a
/// byte slice). A length prefix of at most 8 bits goes with the bytes in one call, which
/// writes a run shorter than eight bytes and its length as one word.
fn write_byte_run(p: &mut Printer, ctx: &Ctx, v: &Val, len: &Length, bytes: &str) {
    match len.prefix {
        Prefix::Fixed { bits } if bits <= 8 && len.max.is_some() => {
            check_length(p, ctx, v, len);
            p.line(format!("w.write_prefixed_bytes({bytes}, {bits});"));
        }
        _ => {
            write_length(p, ctx, v, len);
            p.line(format!("w.write_bytes({bytes});"));
        }
    }
}

fn write_length(p: &mut Printer, ctx: &Ctx, v: &Val, len: &Length) {
    let var = check_length(p, ctx, v, len);
    match len.prefix {
        Prefix::Fixed { bits } => p.line(format!("w.write_bits({var} as u64, {bits});")),
        Prefix::Varint => p.line(format!("w.write_varint({var} as u64, 64);")),
    }
}

/// Prints `let len = <v>.len();` and the check of `len` against the bound; returns the
/// local's name.
fn check_length(p: &mut Printer, ctx: &Ctx, v: &Val, len: &Length) -> String {
    let var = ctx.var("len");
    p.line(format!("let {var} = {}.len();", v.recv()));
    // A `usize` cannot exceed 2^64 - 1, and a bound above `u32::MAX` is compared in
    // `u64` (a `usize` literal that large would not compile for 32-bit targets).
    if let Some(m) = len.max.filter(|&m| m < u64::MAX) {
        let cond = if m > u64::from(u32::MAX) {
            format!("{var} as u64 > {m}")
        } else {
            format!("{var} > {m}")
        };
        p.open(format!("if {cond} {{"));
        return_error(
            p,
            ctx,
            &Call::new("w.length_error", ["0".into(), var.clone(), m.to_string()]),
        );
        p.close("}");
    }
    var
}

/// Writes every element of an array or list, in the plan's form.
fn write_elements(g: &Gen, p: &mut Printer, ctx: &Ctx, elem: &Node, form: Form, v: &Val) {
    match form {
        Form::Bytes => p.line(format!("w.write_bytes({});", slice(v))),
        Form::Lanes { lane } => p.line(format!("w.write_{}s({});", lane.name(), slice(v))),
        Form::Items => {
            let item = ctx.deeper().var("item");
            if elem.encode_can_fail(Lang::RUST) {
                let i = ctx.deeper().var("i");
                p.open(format!(
                    "for ({i}, {item}) in {}.iter().enumerate() {{",
                    v.recv()
                ));
                write_value(g, p, &ctx.index(&i), elem, &Val::reference(item));
            } else {
                p.open(format!("for {item} in {}.iter() {{", v.recv()));
                write_value(g, p, &ctx.deeper(), elem, &Val::reference(item));
            }
            p.close("}");
        }
    }
}

/// The value as a slice expression (`&self.list[..]` works for vectors, arrays and
/// boxed arrays alike).
fn slice(v: &Val) -> String {
    format!("&{}[..]", v.expr)
}
