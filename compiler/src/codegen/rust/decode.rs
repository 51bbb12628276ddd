//! `read`: the packed decoder of each named type (spec §3–§5, error order §7.2).
//!
//! Runs of fixed-width scalar fields are loaded as one [`Chunk`](bitwire::Chunk) and
//! each field is extracted at its constant offset and validated in field order, so a
//! truncated input fails at the same field as a bit-by-bit decoder would. Lengths are
//! checked against their bound and against the remaining input before anything is
//! allocated (§5.6).

use super::encode::{bulk_lane, i64_lit, is_byte};
use super::printer::{Printer, SHORT_WIDTH};
use super::{f64_lit, int_type, let_stmt, naming, return_error, try_expr, Ctx, Gen};
use crate::codegen::plan::{self, NestedStep, Step};
use crate::codegen::quant::reciprocal_scale;
use crate::ir::{FloatRepr, IntRepr, LengthEncoding, Type, TypeDefKind, TypeId};

const SIG: &str =
    "pub fn read(r: &mut ::bitwire::BitReader<'_>) -> Result<Self, ::bitwire::Error> {";

/// Prints the `read` method of a named type.
pub fn read_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    p.line("/// Reads a value at the reader's position.");
    p.line("#[inline]");
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            if def.packed.max_bits == Some(0) && fields.iter().all(|f| !needs_reader(g, &f.ty)) {
                p.open(SIG.replace("r: &mut", "_r: &mut"));
            } else {
                p.open(SIG);
            }
            let locals: Vec<String> = names
                .members
                .iter()
                .map(|m| naming::local_ident(m))
                .collect();
            let mut runs = 0;
            for step in plan::nested_struct_plan(g.schema, fields) {
                let step = match step {
                    NestedStep::Run(run) if !run.is_flat() => {
                        runs += 1;
                        read_nested_run(g, p, id, &run, fields, &locals, runs);
                        continue;
                    }
                    NestedStep::Run(run) => Step::Run(run.to_flat()),
                    NestedStep::Field(i) => Step::Field(i),
                };
                match step {
                    Step::Run(run) if run.fields.len() == 1 => {
                        let f = &fields[run.fields[0].index];
                        let local = &locals[run.fields[0].index];
                        read_into(g, p, &Ctx::default().field(&f.name), &f.ty, local);
                    }
                    Step::Run(run) => {
                        runs += 1;
                        read_run(g, p, &run, fields, &locals, runs);
                    }
                    Step::Field(i) => {
                        let f = &fields[i];
                        read_into(g, p, &Ctx::default().field(&f.name), &f.ty, &locals[i]);
                    }
                }
            }
            let items: Vec<String> = names
                .members
                .iter()
                .zip(&locals)
                .map(|(m, l)| {
                    if m == l {
                        m.clone()
                    } else {
                        format!("{m}: {l}")
                    }
                })
                .collect();
            struct_literal(p, "Ok(Self {", &items, "})");
            p.close("}");
        }
        TypeDefKind::Enum {
            packed_tag_bits,
            variants,
            ..
        } => {
            if *packed_tag_bits == 0 {
                p.open(SIG.replace("r: &mut", "_r: &mut"));
                p.line(format!("Ok(Self::{})", names.members[0]));
                let _ = variants;
            } else {
                p.open(SIG);
                p.line(format!("let c = r.read_chunk({packed_tag_bits});"));
                p.line(format!("let tag = c.get(0, {packed_tag_bits})?;"));
                p.open("let Some(v) = Self::from_value(tag) else {");
                p.line("return Err(c.error(::bitwire::ErrorKind::InvalidEnum, 0));");
                p.close("};");
                p.line("Ok(v)");
            }
            p.close("}");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let any_payload_reads = variants
                .iter()
                .any(|v| v.payload.as_ref().is_some_and(|t| needs_reader(g, t)));
            if *packed_tag_bits == 0 && !any_payload_reads {
                p.open(SIG.replace("r: &mut", "_r: &mut"));
            } else {
                p.open(SIG);
            }
            let arm = |p: &mut Printer, v: &crate::ir::UnionVariant, vname: &str| match &v.payload {
                Some(ty) => {
                    read_into(g, p, &Ctx::default().field(&v.name), ty, "v");
                    p.line(format!("Ok(Self::{vname}(v))"));
                }
                None => p.line(format!("Ok(Self::{vname})")),
            };
            if *packed_tag_bits == 0 {
                // One variant, tag 0 in zero bits: nothing to dispatch on.
                arm(p, &variants[0], &names.members[0]);
            } else {
                p.line(format!("let c = r.read_chunk({packed_tag_bits});"));
                p.line(format!("let tag = c.get(0, {packed_tag_bits})?;"));
                p.open("match tag {");
                for (v, vname) in variants.iter().zip(&names.members) {
                    if v.payload.is_some() {
                        p.open(format!("{} => {{", v.tag));
                        arm(p, v, vname);
                        p.close("}");
                    } else {
                        p.line(format!("{} => Ok(Self::{vname}),", v.tag));
                    }
                }
                p.line("_ => Err(c.error(::bitwire::ErrorKind::InvalidEnum, 0)),");
                p.close("}");
            }
            p.close("}");
        }
    }
}

/// Whether a scalar needs no validation, so that its bits can be taken from a chunk
/// without a truncation check of its own ([`read_run`]).
pub(crate) fn is_plain(ty: &Type) -> bool {
    match ty {
        Type::Bool | Type::UInt { .. } | Type::SInt { .. } => true,
        Type::Bounded {
            min,
            max,
            packed_bits,
            ..
        } => *packed_bits > 0 && (max - min) as u128 == (1u128 << packed_bits) - 1,
        _ => false,
    }
}

/// Reads a run of two or more scalar fields from one chunk (spec §7.2 order kept).
///
/// Fields that need no validation are extracted unchecked; one comparison of the
/// chunk's available bits, before the next validated field and at the end of the run,
/// reports `Truncated` at the first incomplete field (validated fields check their own
/// bits). A 64-bit packet of plain fields thus costs one load and one comparison.
fn read_run(
    g: &Gen,
    p: &mut Printer,
    run: &plan::Run,
    fields: &[crate::ir::Field],
    locals: &[String],
    n: usize,
) {
    let table = if n == 1 {
        "RUN".to_string()
    } else {
        format!("RUN{n}")
    };
    p.line(format!("let c = r.read_chunk({});", run.bits));
    // Plain fields read since the last check, as `(offset, bits, name)`.
    let mut pending: Vec<String> = Vec::new();
    let mut declared = false;
    let mut check = |p: &mut Printer, pending: &mut Vec<String>, end: u32| {
        if pending.is_empty() {
            return;
        }
        if !declared {
            // Every plain field of the run: the first incomplete one is the error.
            let all: Vec<String> = run
                .fields
                .iter()
                .filter(|rf| is_plain(&fields[rf.index].ty))
                .map(|rf| {
                    format!(
                        "({}, {}, {})",
                        rf.offset,
                        rf.bits,
                        naming::str_lit(&fields[rf.index].name)
                    )
                })
                .collect();
            p.array(
                &format!("const {table}: &[(u32, u32, &str)] = &"),
                &all,
                ";",
            );
            declared = true;
        }
        p.open(format!("if c.avail() < {end} {{"));
        p.line(format!("return Err(c.truncated({table}));"));
        p.close("}");
        pending.clear();
    };
    let mut end = 0;
    for rf in &run.fields {
        let f = &fields[rf.index];
        let local = &locals[rf.index];
        if is_plain(&f.ty) {
            let raw = format!("c.bits({}, {})", rf.offset, rf.bits);
            let value = match &f.ty {
                Type::Bool => format!("{raw} != 0"),
                Type::UInt { repr, .. } => cast(raw, true, *repr),
                Type::SInt { repr, .. } => cast(
                    format!("::bitwire::sign_extend({raw}, {})", rf.bits),
                    false,
                    *repr,
                ),
                Type::Bounded { repr, min, .. } => bounded_from_raw(&raw, *repr, *min),
                other => unreachable!("not plain: {other:?}"),
            };
            let_stmt(p, local, &value);
            pending.push(f.name.clone());
            end = rf.offset + rf.bits;
        } else {
            check(p, &mut pending, end);
            let ctx = Ctx::default().field(&f.name);
            read_scalar(g, p, &ctx, &f.ty, "c", rf.offset, local);
        }
    }
    check(p, &mut pending, end);
}

/// The locals of the values of a nested run: the planned struct's own fields keep
/// their locals; a field of a nested struct gets `{parent}_{field}`, made unique.
pub(crate) struct NestedLocals {
    taken: std::collections::HashSet<String>,
    by_path: std::collections::HashMap<Vec<usize>, String>,
}

impl NestedLocals {
    pub(crate) fn new(top: &[String]) -> NestedLocals {
        NestedLocals {
            taken: top.iter().cloned().collect(),
            by_path: top
                .iter()
                .enumerate()
                .map(|(i, l)| (vec![i], l.clone()))
                .collect(),
        }
    }

    /// The local of the value at `path`; `member` is its field identifier.
    pub(crate) fn get(&mut self, path: &[usize], member: &str) -> String {
        if let Some(l) = self.by_path.get(path) {
            return l.clone();
        }
        let parent = self.by_path[&path[..path.len() - 1]].clone();
        let base = format!("{}_{}", parent, member.trim_start_matches("r#"));
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&name) {
            name = format!("{base}_{n}");
            n += 1;
        }
        self.taken.insert(name.clone());
        self.by_path.insert(path.to_vec(), name.clone());
        name
    }
}

/// The struct type that holds the value at `path` (`path.len() >= 2`): the named
/// struct type of the field at `path[..len - 1]`.
pub(crate) fn nested_owner(g: &Gen, fields: &[crate::ir::Field], path: &[usize]) -> TypeId {
    let chain = plan::leaf_fields(g.schema, fields, &path[..path.len() - 1]);
    match &chain.last().expect("a parent field").ty {
        Type::Named { id, .. } => *id,
        other => unreachable!("not a nested struct: {other:?}"),
    }
}

/// The field identifier of the value at `path` in struct `top` (a field of `top` or
/// of a struct nested in one).
pub(crate) fn member_ident<'a>(
    g: &'a Gen,
    top: TypeId,
    fields: &[crate::ir::Field],
    path: &[usize],
) -> &'a str {
    if path.len() == 1 {
        return &g.names.types[top].members[path[0]];
    }
    let owner = nested_owner(g, fields, path);
    &g.names.types[owner].members[path[path.len() - 1]]
}

/// The path context of the value at `path`.
pub(crate) fn leaf_ctx(g: &Gen, fields: &[crate::ir::Field], path: &[usize]) -> Ctx {
    plan::leaf_fields(g.schema, fields, path)
        .iter()
        .fold(Ctx::default(), |c, f| c.field(&f.name))
}

/// Reads a run that holds fields of nested structs ([`plan::nested_struct_plan`]),
/// as [`read_run`] does, building each nested struct after its last field. Plain
/// fields are checked for truncation once per group of consecutive plain fields of
/// the same struct, so that the error's path names the nested field (`buttons.fire`)
/// as the nested struct's own `read` would.
fn read_nested_run(
    g: &Gen,
    p: &mut Printer,
    top: TypeId,
    run: &plan::NestedRun,
    fields: &[crate::ir::Field],
    locals: &[String],
    n: usize,
) {
    let table = if n == 1 {
        "RUN".to_string()
    } else {
        format!("RUN{n}")
    };
    let mut names = NestedLocals::new(locals);
    p.line(format!("let c = r.read_chunk({});", run.bits));
    // Plain leaves read since the last check, all of the struct at `group`.
    let mut pending: Vec<&plan::Leaf> = Vec::new();
    let mut group: Vec<usize> = Vec::new();
    let mut tables = 0;
    let mut flush = |p: &mut Printer, pending: &mut Vec<&plan::Leaf>, group: &[usize]| {
        let Some(last) = pending.last() else {
            return;
        };
        tables += 1;
        let name = format!("{table}_{tables}");
        let end = last.offset + last.bits;
        let rows: Vec<String> = pending
            .iter()
            .map(|l| {
                let f = plan::leaf_fields(g.schema, fields, &l.path);
                let leaf = f.last().expect("a field");
                format!(
                    "({}, {}, {})",
                    l.offset,
                    l.bits,
                    naming::str_lit(&leaf.name)
                )
            })
            .collect();
        p.array(
            &format!("const {name}: &[(u32, u32, &str)] = &"),
            &rows,
            ";",
        );
        p.open(format!("if c.avail() < {end} {{"));
        if group.is_empty() {
            p.line(format!("return Err(c.truncated({name}));"));
        } else {
            let ctx = leaf_ctx(g, fields, group);
            return_error(p, &ctx, &format!("c.truncated({name})"));
        }
        p.close("}");
        pending.clear();
    };
    // Nested structs being filled, outermost first, as paths.
    let mut open: Vec<Vec<usize>> = Vec::new();
    let close = |p: &mut Printer, names: &mut NestedLocals, path: &[usize]| {
        let id = nested_owner(g, fields, &[path, &[0]].concat());
        let TypeDefKind::Struct { fields: inner } = &g.schema.types[id].kind else {
            unreachable!()
        };
        let local = names.get(path, member_ident(g, top, fields, path));
        let items: Vec<String> = (0..inner.len())
            .map(|i| {
                let sub = [path, &[i]].concat();
                let m = member_ident(g, top, fields, &sub).to_string();
                let l = names.get(&sub, &m);
                if m == l {
                    m
                } else {
                    format!("{m}: {l}")
                }
            })
            .collect();
        struct_literal(
            p,
            &format!("let {local} = {} {{", g.ident(id)),
            &items,
            "};",
        );
    };
    for leaf in &run.leaves {
        let prefix = &leaf.path[..leaf.path.len() - 1];
        let chain = plan::leaf_fields(g.schema, fields, &leaf.path);
        let f = *chain.last().expect("a field");
        if !pending.is_empty() && group.as_slice() != prefix {
            flush(p, &mut pending, &group);
        }
        // Close the structs this leaf is not in (innermost first), open the others.
        while let Some(o) = open.last() {
            if prefix.starts_with(o) {
                break;
            }
            let o = open.pop().expect("an open struct");
            close(p, &mut names, &o);
        }
        for k in 1..prefix.len() + 1 {
            if open.last().is_none_or(|o| o.len() < k) {
                open.push(prefix[..k].to_vec());
            }
            // Name outer structs before their fields (`pos`, then `pos_x`).
            names.get(&prefix[..k], member_ident(g, top, fields, &prefix[..k]));
        }
        let local = names.get(&leaf.path, member_ident(g, top, fields, &leaf.path));
        if is_plain(&f.ty) {
            let raw = format!("c.bits({}, {})", leaf.offset, leaf.bits);
            let value = match &f.ty {
                Type::Bool => format!("{raw} != 0"),
                Type::UInt { repr, .. } => cast(raw, true, *repr),
                Type::SInt { repr, .. } => cast(
                    format!("::bitwire::sign_extend({raw}, {})", leaf.bits),
                    false,
                    *repr,
                ),
                Type::Bounded { repr, min, .. } => bounded_from_raw(&raw, *repr, *min),
                other => unreachable!("not plain: {other:?}"),
            };
            let_stmt(p, &local, &value);
            group = prefix.to_vec();
            pending.push(leaf);
        } else {
            flush(p, &mut pending, &group);
            let ctx = leaf_ctx(g, fields, &leaf.path);
            read_scalar(g, p, &ctx, &f.ty, "c", leaf.offset, &local);
        }
    }
    flush(p, &mut pending, &group);
    while let Some(o) = open.pop() {
        close(p, &mut names, &o);
    }
}

/// Whether reading a value of `ty` touches the reader (false only for zero-bit values).
pub(crate) fn needs_reader(g: &Gen, ty: &Type) -> bool {
    plan::type_layout(g.schema, ty).max_bits != Some(0)
}

/// Prints a struct literal the way rustfmt lays it out (`struct_lit_width` = 18).
pub(crate) fn struct_literal(p: &mut Printer, head: &str, items: &[String], tail: &str) {
    if items.is_empty() {
        p.line(format!("{head}{tail}"));
        return;
    }
    let joined = items.join(", ");
    let one = format!("{head} {joined} {tail}");
    if joined.len() <= 18 && p.fits(&one) {
        p.line(one);
        return;
    }
    p.open(head);
    for i in items {
        p.line(format!("{i},"));
    }
    p.close(tail);
}

/// Appends ` as T` unless the value already has the representation's type.
fn cast(expr: String, from_u64: bool, repr: IntRepr) -> String {
    match (from_u64, repr) {
        (true, IntRepr::U64) | (false, IntRepr::I64) => expr,
        _ => format!("{expr} as {}", int_type(repr)),
    }
}

/// Prints the decoding of a fixed-width scalar at `offset` bits into chunk `c` as
/// `let {dest} = ...;`, with its validation.
fn read_scalar(g: &Gen, p: &mut Printer, ctx: &Ctx, ty: &Type, c: &str, offset: u32, dest: &str) {
    let bits = plan::scalar_bits(g.schema, ty).expect("a scalar");
    match ty {
        Type::Bool => {
            let e = try_expr(p, ctx, &format!("{c}.get({offset}, 1)"));
            let_stmt(p, dest, &format!("{e} != 0"));
        }
        Type::UInt { repr, .. } => {
            let e = try_expr(p, ctx, &format!("{c}.get({offset}, {bits})"));
            let_stmt(p, dest, &cast(e, true, *repr));
        }
        Type::SInt { repr, .. } => {
            let e = try_expr(p, ctx, &format!("{c}.get_int({offset}, {bits})"));
            let_stmt(p, dest, &cast(e, false, *repr));
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => {
            let e = try_expr(p, ctx, &format!("{c}.get_f32({offset})"));
            let_stmt(p, dest, &e);
        }
        Type::Float {
            repr: FloatRepr::F64,
        } => {
            let e = try_expr(p, ctx, &format!("{c}.get_f64({offset})"));
            let_stmt(p, dest, &e);
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => {
            let mut args = vec![
                offset.to_string(),
                bits.to_string(),
                f64_lit(*min),
                f64_lit(*max),
                steps.to_string(),
            ];
            let call = match reciprocal_scale(*repr, *min, *max, *steps) {
                Some(scale) => {
                    args.push(f64_lit(scale));
                    "get_quantized_scaled"
                }
                None => "get_quantized",
            };
            p.call(&format!("let {dest} = {c}.{call}("), &args, ");");
            quantized_result(p, ctx, *repr, dest);
        }
        Type::Bounded { repr, min, max, .. } => {
            if bits == 0 {
                p.line(format!(
                    "let {dest}: {} = {};",
                    int_type(*repr),
                    value_lit(*min, *repr)
                ));
                return;
            }
            let e = try_expr(p, ctx, &format!("{c}.get({offset}, {bits})"));
            let_stmt(p, dest, &e);
            let range = (max - min) as u128;
            if range < (1u128 << bits) - 1 {
                p.open(format!("if {dest} > {range} {{"));
                return_error(
                    p,
                    ctx,
                    &format!("{c}.error(::bitwire::ErrorKind::OutOfRange, {offset})"),
                );
                p.close("}");
            }
            let conv = bounded_from_raw(dest, *repr, *min);
            if conv != dest {
                let_stmt(p, dest, &conv);
            }
        }
        Type::Named { id, .. } => {
            let ident = g.ident(*id);
            if bits == 0 {
                let TypeDefKind::Enum { variants, .. } = &g.schema.types[*id].kind else {
                    unreachable!()
                };
                let first = variants
                    .iter()
                    .position(|v| v.value == 0)
                    .expect("a zero-bit enum has value 0");
                let_stmt(
                    p,
                    dest,
                    &format!("{ident}::{}", g.names.types[*id].members[first]),
                );
                return;
            }
            let e = try_expr(p, ctx, &format!("{c}.get({offset}, {bits})"));
            let_stmt(p, dest, &e);
            p.open(format!(
                "let Some({dest}) = {ident}::from_value({dest}) else {{"
            ));
            return_error(
                p,
                ctx,
                &format!("{c}.error(::bitwire::ErrorKind::InvalidEnum, {offset})"),
            );
            p.close("};");
        }
        other => unreachable!("not a scalar: {other:?}"),
    }
}

/// After `let {dest} = ...get_quantized(...)`: applies the path and rounds to `f32`.
fn quantized_result(p: &mut Printer, ctx: &Ctx, repr: FloatRepr, dest: &str) {
    let e = try_expr(p, ctx, dest);
    match repr {
        FloatRepr::F32 => let_stmt(p, dest, &format!("{e} as f32")),
        FloatRepr::F64 => let_stmt(p, dest, &e),
    }
}

/// An integer literal of a representation (`i64::MIN` spelled out).
fn value_lit(v: i128, repr: IntRepr) -> String {
    if repr == IntRepr::I64 {
        i64_lit(v)
    } else {
        v.to_string()
    }
}

/// `raw + min` in the representation, for a stored offset already checked to be
/// at most `max - min`.
fn bounded_from_raw(raw: &str, repr: IntRepr, min: i128) -> String {
    match (repr.signed(), repr, min) {
        (false, IntRepr::U64, 0) => raw.to_string(),
        (false, IntRepr::U64, m) => format!("{raw} + {m}"),
        (false, r, 0) => format!("{raw} as {}", int_type(r)),
        (false, r, m) => format!("({raw} + {m}) as {}", int_type(r)),
        // The sum is in range, but `raw` alone may exceed i64::MAX: wrap.
        (true, IntRepr::I64, 0) => format!("{raw} as i64"),
        (true, IntRepr::I64, m) => format!("({raw} as i64).wrapping_add({})", i64_lit(m)),
        (true, r, m) if m < 0 => format!("(({raw} as i64) - {}) as {}", -m, int_type(r)),
        (true, r, m) => format!("(({raw} as i64) + {m}) as {}", int_type(r)),
    }
}

/// Whether the element type has a zero value to pre-fill an array with.
fn zero_value(ty: &Type) -> Option<&'static str> {
    match ty {
        Type::Bool => Some("false"),
        Type::UInt { .. } | Type::SInt { .. } | Type::VarUInt { .. } | Type::VarSInt { .. } => {
            Some("0")
        }
        Type::Bounded { .. } => Some("0"),
        Type::Float { .. } | Type::Quantized { .. } => Some("0.0"),
        _ => None,
    }
}

/// Prints the decoding of one value of any type as `let {dest} = ...;`.
pub(crate) fn read_into(g: &Gen, p: &mut Printer, ctx: &Ctx, ty: &Type, dest: &str) {
    match ty {
        Type::Bool => {
            let e = try_expr(p, ctx, "r.read_bool()");
            let_stmt(p, dest, &e);
        }
        Type::UInt { bits, repr } => {
            let e = try_expr(p, ctx, &format!("r.read_bits({bits})"));
            let_stmt(p, dest, &cast(e, true, *repr));
        }
        Type::SInt { bits, repr } => {
            let e = try_expr(p, ctx, &format!("r.read_int({bits})"));
            let_stmt(p, dest, &cast(e, false, *repr));
        }
        Type::Float {
            repr: FloatRepr::F32,
        } => {
            let e = try_expr(p, ctx, "r.read_f32()");
            let_stmt(p, dest, &e);
        }
        Type::Float {
            repr: FloatRepr::F64,
        } => {
            let e = try_expr(p, ctx, "r.read_f64()");
            let_stmt(p, dest, &e);
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            packed_bits,
        } => {
            let mut args = vec![
                packed_bits.to_string(),
                f64_lit(*min),
                f64_lit(*max),
                steps.to_string(),
            ];
            let call = match reciprocal_scale(*repr, *min, *max, *steps) {
                Some(scale) => {
                    args.push(f64_lit(scale));
                    "read_quantized_scaled"
                }
                None => "read_quantized",
            };
            p.call(&format!("let {dest} = r.{call}("), &args, ");");
            quantized_result(p, ctx, *repr, dest);
        }
        Type::Bounded { packed_bits, .. } => {
            let c = ctx.var("c");
            if *packed_bits > 0 {
                p.line(format!("let {c} = r.read_chunk({packed_bits});"));
            }
            read_scalar(g, p, ctx, ty, &c, 0, dest);
        }
        Type::VarUInt { bits, repr } => {
            let e = try_expr(p, ctx, &format!("r.read_varint({bits})"));
            let_stmt(p, dest, &cast(e, true, *repr));
        }
        Type::VarSInt { bits, repr } => {
            let e = try_expr(p, ctx, &format!("r.read_varint({bits})"));
            let_stmt(p, dest, &e);
            let_stmt(
                p,
                dest,
                &cast(format!("::bitwire::zigzag_decode({dest})"), false, *repr),
            );
        }
        Type::Optional { inner } => {
            let present = try_expr(p, ctx, "r.read_bool()");
            p.open(format!("let {dest} = if {present} {{"));
            let v = ctx.deeper().var("v");
            read_into(g, p, &ctx.deeper(), inner, &v);
            p.line(format!("Some({v})"));
            p.middle("} else {");
            p.line("None");
            p.close("};");
        }
        Type::Array { elem, len } => read_array(g, p, ctx, elem, *len, dest),
        Type::List {
            elem,
            max,
            packed_len,
        } => {
            let (len, start) = read_length(g, p, ctx, ty, *max, *packed_len);
            if is_byte(elem) {
                let e = try_expr(p, ctx, &format!("r.read_bytes({len})"));
                let_stmt(p, dest, &e);
                return;
            }
            if let Some(lane) = bulk_lane(elem) {
                let e = try_expr(p, ctx, &format!("r.read_{lane}_vec({len})"));
                let_stmt(p, dest, &e);
                return;
            }
            let i = ctx.deeper().var("i");
            let item = ctx.deeper().var("item");
            p.line(format!("let mut {dest} = Vec::with_capacity({len});"));
            p.open(format!("for {i} in 0..{len} {{"));
            read_into(g, p, &ctx.index(&i), elem, &item);
            p.line(format!("{dest}.push({item});"));
            p.close("}");
            let _ = start;
        }
        Type::String { max, packed_len } => {
            let (len, start) = read_length(g, p, ctx, ty, *max, *packed_len);
            let e = try_expr(p, ctx, &format!("r.read_string({len}, {start})"));
            let_stmt(p, dest, &e);
        }
        Type::Bytes { max, packed_len } => {
            let (len, _) = read_length(g, p, ctx, ty, *max, *packed_len);
            let e = try_expr(p, ctx, &format!("r.read_bytes({len})"));
            let_stmt(p, dest, &e);
        }
        Type::Named { id, .. } => {
            let e = try_expr(p, ctx, &format!("{}::read(r)", g.ident(*id)));
            let_stmt(p, dest, &e);
        }
    }
}

/// Reads a length prefix and validates it (spec §5.6): the bound first, then that
/// the elements can fit in what is left of the input. Returns the locals holding the
/// checked `usize` length and the value's start bit.
pub(crate) fn read_length(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    ty: &Type,
    max: Option<u64>,
    len: LengthEncoding,
) -> (String, String) {
    let start = ctx.var("start");
    let n = ctx.var("len");
    p.line(format!("let {start} = r.bit_pos();"));
    let read = match len {
        LengthEncoding::Fixed { bits } => format!("r.read_bits({bits})"),
        LengthEncoding::Varint => "r.read_varint(64)".to_string(),
    };
    let e = try_expr(p, ctx, &read);
    let_stmt(p, &n, &e);
    if let Some(m) = max {
        let fixed_max = match len {
            LengthEncoding::Fixed { bits } if bits < 64 => (1u64 << bits) - 1,
            _ => u64::MAX,
        };
        if m < fixed_max {
            p.open(format!("if {n} > {m} {{"));
            return_error(
                p,
                ctx,
                &format!("::bitwire::Error::new(::bitwire::ErrorKind::InvalidLength, {start})"),
            );
            p.close("}");
        }
    }
    let min_bits = plan::element_min_bits(g.schema, ty);
    let check = format!("r.check_len({n}, {min_bits}, {start})");
    let e = try_expr(p, ctx, &check);
    let_stmt(p, &n, &e);
    (n, start)
}

/// Reads `[T; N]`: filling a zeroed array in place for scalars, collecting otherwise.
fn read_array(g: &Gen, p: &mut Printer, ctx: &Ctx, elem: &Type, len: u64, dest: &str) {
    let i = ctx.deeper().var("i");
    let item = ctx.deeper().var("item");
    let rust = format!("[{}; {len}]", g.rust_type(elem));
    if let Some(zero) = zero_value(elem) {
        p.line(format!("let mut {dest}: {rust} = [{zero}; {len}];"));
        if is_byte(elem) {
            let e = try_expr(p, ctx, &format!("r.read_byte_array(&mut {dest})"));
            p.line(format!("{e};"));
            return;
        }
        if let Some(lane) = bulk_lane(elem) {
            let e = try_expr(p, ctx, &format!("r.read_{lane}s(&mut {dest})"));
            p.line(format!("{e};"));
            return;
        }
        let slot = ctx.deeper().var("slot");
        p.open(format!(
            "for ({i}, {slot}) in {dest}.iter_mut().enumerate() {{"
        ));
        read_into(g, p, &ctx.index(&i), elem, &item);
        p.line(format!("*{slot} = {item};"));
        p.close("}");
        return;
    }
    let items = ctx.deeper().var("items");
    p.line(format!("let mut {items} = Vec::with_capacity({len});"));
    p.open(format!("for {i} in 0..{len} {{"));
    read_into(g, p, &ctx.index(&i), elem, &item);
    p.line(format!("{items}.push({item});"));
    p.close("}");
    let conv = format!("::bitwire::array_from_vec({items})");
    let line = format!("let {dest}: {rust} = {conv};");
    if line.len() + p.indent_width() <= 100 && conv.len() <= SHORT_WIDTH {
        p.line(line);
    } else {
        let_stmt(p, dest, &conv);
    }
}
