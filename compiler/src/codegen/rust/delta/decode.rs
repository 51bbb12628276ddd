//! `read_delta_row`: the delta decoder of one struct row (spec §12.3), printed from the
//! delta plan, with every check of §12.4–§12.6 in stream order: a changed bit per
//! field, then the field's delta against the baseline's value; unchanged fields are
//! copies of the baseline's.

use super::encode::keyed_args;
use super::{field_local, fields, fn_sig, full_write, needs_packed, row_name, wire_value};
use crate::codegen::rust::decode::values::{decode_value, scalar_check, Checked, Mode};
use crate::codegen::rust::decode::{field_init, struct_literal};
use crate::codegen::rust::encode::Val;
use crate::codegen::rust::exprs::{cast, let_quantized, plain_value};
use crate::codegen::rust::printer::Printer;
use crate::codegen::rust::{let_stmt, return_error, try_expr, Call, Ctx, Gen};
use crate::plan::delta::{Delta, StructDelta};
use crate::plan::{Node, Op, ScalarKind};

/// Prints the row decoder of struct delta `s` (a function of the struct's inherent
/// impl): the value and whether any field changed.
pub fn row_fn(g: &Gen, p: &mut Printer, s: &StructDelta) {
    let names = &g.names.types[s.id].members;
    let plan = g.plan.struct_plan(s.id).expect("a struct");
    let mut body = p.child(1);
    let changing = s.fields.iter().any(|f| f.delta != Delta::Never);
    if changing {
        body.line("let mut any = false;");
    }
    let mut items = Vec::new();
    for (index, name, delta, node) in fields(g, s) {
        let member = &names[index];
        if *delta == Delta::Never {
            continue;
        }
        let local = field_local(member);
        let ctx = Ctx::default().field(name);
        let base = Val::place(format!("base.{member}"));
        read_changed(g, &mut body, &ctx, (delta, node), &base, &local);
        items.push((index, field_init(member, &local)));
    }
    // The key and the fields that never change are the baseline's.
    for (index, f) in plan.fields.iter().enumerate() {
        if !items.iter().any(|(i, _)| *i == index) {
            let member = &names[index];
            let base = Val::place(format!("base.{member}"));
            items.push((index, format!("{member}: {}", copy(g, &f.node, &base))));
        }
    }
    items.sort_by_key(|(i, _)| *i);
    let items: Vec<String> = items.into_iter().map(|(_, item)| item).collect();
    struct_literal(&mut body, "let v = Self {", &items, "};");
    body.line(if changing {
        "Ok((v, any))"
    } else {
        "Ok((v, false))"
    });
    p.line(match s.without {
        None => "/// Reads a delta row against `base` (spec §12.3): the value, and whether any",
        Some(_) => "/// Reads a delta row without the key against `base` (spec §12.5): the value",
    });
    p.line(match s.without {
        None => "/// field changed.",
        Some(_) => "/// (with the baseline's key), and whether any field changed.",
    });
    let base = if plan.fields.is_empty() {
        "_base"
    } else {
        "base"
    };
    let reader = if changing { "r" } else { "_r" };
    fn_sig(
        p,
        &format!("fn {}", row_name(g, s, "read")),
        &[
            &format!("{base}: &Self"),
            &format!("{reader}: &mut ::bitwire::BitReader<'_>"),
        ],
        "Result<(Self, bool), ::bitwire::Error>",
    );
    p.append(body);
    p.close("}");
}

/// The baseline's value `base` as an owned value: itself for `Copy` types, else a clone.
fn copy(g: &Gen, node: &Node, base: &Val) -> String {
    if g.node_is_copy(node) {
        base.value()
    } else {
        format!("{}.clone()", base.recv())
    }
}

/// Prints `let {dest} = ...;`: the changed bit, and the delta of the value against
/// `base` when it is set (marking the row changed), else the baseline's value.
fn read_changed(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    (delta, node): (&Delta, &Node),
    base: &Val,
    dest: &str,
) {
    let bit = try_expr(p, ctx, "r.read_bool()");
    let_stmt(p, "changed", &bit);
    if matches!(delta, Delta::Diff { .. }) {
        // A scalar (`Copy`): the baseline's value, replaced when it changed. (As the
        // tail of an `if` block, the last `let` of its checks would be a needless one.)
        p.line(format!("let mut {dest} = {};", copy(g, node, base)));
        p.open("if changed {");
        p.line("any = true;");
        let value = read_delta(g, p, ctx, (delta, node), base);
        p.line(format!("{dest} = {value};"));
        p.close("}");
        return;
    }
    p.open(format!("let {dest} = if changed {{"));
    p.line("any = true;");
    let value = read_delta(g, p, ctx, (delta, node), base);
    p.line(value);
    p.middle("} else {");
    p.line(copy(g, node, base));
    p.close("};");
}

/// `NonCanonical` here: a nested delta that changed nothing (§12.6).
fn unchanged_error(p: &mut Printer, ctx: &Ctx) {
    let make = Call::new("r.error", ["::bitwire::ErrorKind::NonCanonical", "0"]);
    return_error(p, ctx, &make);
}

/// Prints the reading of the delta `D(base, v)` (the changed bit was set) and returns
/// the expression of the new value.
fn read_delta(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    (delta, node): (&Delta, &Node),
    base: &Val,
) -> String {
    match delta {
        Delta::Never => unreachable!("a value that never changes has no delta"),
        Delta::Diff {
            width, prefix_bits, ..
        } => {
            let ub = wire_value(p, ctx, node, base, "ub");
            let_stmt(p, "ub", &ub);
            let code = format!("r.read_diff(ub, {width}, {prefix_bits})");
            let c = try_expr(p, ctx, &code);
            let_stmt(p, "c", &c);
            scalar_from_chunk(g, p, ctx, node, *width)
        }
        Delta::Struct { id } => {
            let call = format!("{}::read_delta_row({}, r)", g.ident(*id), base.as_ref());
            let e = try_expr(p, ctx, &call);
            let_stmt(p, "(v, changed)", &e);
            p.open("if !changed {");
            unchanged_error(p, ctx);
            p.close("}");
            "v".into()
        }
        Delta::Array { elem, .. } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array delta of {:?}", node.op)
            };
            read_array(g, p, ctx, (elem, &a.elem), node, base)
        }
        Delta::Keyed(k) => {
            let args = keyed_args(g, k, "read", [base.as_ref()]);
            crate::codegen::rust::let_call(p, "v", "::bitwire::read_keyed_delta", &args, "");
            try_expr(p, ctx, "v")
        }
        Delta::Replace => {
            if needs_packed(node) {
                p.use_packed();
            }
            p.line("let from = r.bit_pos();");
            decode_value(g, p, ctx, node, "v", Mode::Read);
            // The baseline's full encoding, to compare with what was read (§12.6).
            p.line("let mut scratch = Vec::new();");
            p.line("let mut writer = ::bitwire::BitWriter::new(&mut scratch);");
            p.line("let w = &mut writer;");
            full_write(g, p, ctx, node, base);
            p.line("let bits = w.bit_pos();");
            p.line("writer.finish();");
            p.open("if r.same_bits_since(from, &scratch, bits) {");
            unchanged_error(p, ctx);
            p.close("}");
            "v".into()
        }
    }
}

/// The value of a scalar or varint whose new wire bits are in chunk `c` (from the
/// difference code): the full decoder's checks, at the code's first bit (§12.4).
fn scalar_from_chunk(g: &Gen, p: &mut Printer, ctx: &Ctx, node: &Node, width: u32) -> String {
    let raw = format!("c.bits(0, {width})");
    match &node.op {
        Op::Varint(v) if v.signed => {
            cast(format!("::bitwire::zigzag_decode({raw})"), false, v.repr)
        }
        Op::Varint(v) => cast(raw, true, v.repr),
        Op::Scalar(s) if s.decode.is_none() => {
            if let ScalarKind::Quantized { .. } = s.kind {
                let_quantized(p, "v", s, &raw);
            } else {
                let ident = match s.kind {
                    ScalarKind::Enum { id, .. } => Some(g.ident(id)),
                    _ => None,
                };
                let_stmt(p, "v", &plain_value(s, &raw, ident));
            }
            "v".into()
        }
        Op::Scalar(s) => {
            let at = Checked {
                ctx,
                scalar: s,
                raw: &raw,
                chunk: "c",
                offset: 0,
                local: "v",
            };
            scalar_check(g, p, &at, Mode::Read);
            "v".into()
        }
        other => unreachable!("not a scalar: {other:?}"),
    }
}

/// `[T; N]` whose changed bit was set: the baseline's array, with each element whose
/// changed bit is set replaced by its delta; `NonCanonical` when none was.
fn read_array(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    (elem, elem_node): (&Delta, &Node),
    node: &Node,
    base: &Val,
) -> String {
    let inner = ctx.deeper();
    let (arr, slot, i, any) = (
        inner.var("arr"),
        inner.var("slot"),
        inner.var("i"),
        inner.var("any"),
    );
    p.line(format!("let mut {arr} = {};", copy(g, node, base)));
    p.line(format!("let mut {any} = false;"));
    p.open(format!(
        "for ({i}, {slot}) in {arr}.iter_mut().enumerate() {{"
    ));
    let ectx = ctx.index(&i);
    let bit = try_expr(p, &ectx, "r.read_bool()");
    let_stmt(p, "changed", &bit);
    p.open("if changed {");
    p.line(format!("{any} = true;"));
    let value = read_delta(g, p, &ectx, (elem, elem_node), &Val::reference(&slot));
    p.line(format!("*{slot} = {value};"));
    p.close("}");
    p.close("}");
    p.open(format!("if !{any} {{"));
    unchanged_error(p, ctx);
    p.close("}");
    arr
}
