//! `write_delta_row`: the delta encoder of one struct row (spec §12.3), printed from the
//! delta plan. Each field writes its changed bit and, when changed, its delta; nested
//! rows, arrays and keyed lists are written optimistically after a changed bit of 1 and
//! taken back (a writer mark) when nothing in them changed.

use super::{fields, fn_sig, full_write, row_name, wire_value};
use crate::codegen::rust::encode::Val;
use crate::codegen::rust::printer::Printer;
use crate::codegen::rust::{let_call, return_error, try_expr, Call, Ctx, Gen};
use crate::plan::delta::{Delta, KeyedDelta, StructDelta};
use crate::plan::{Form, Lang, Node, Op, ScalarKind};

/// Prints the row encoder of struct delta `s` (a method of the struct's inherent impl).
pub fn row_fn(g: &Gen, p: &mut Printer, s: &StructDelta) {
    let names = &g.names.types[s.id].members;
    let mut body = p.child(1);
    let mut uses_base = false;
    let mut uses_w = false;
    let mut uses_cur = false;
    if let Some(k) = s.without {
        // The key is not written, but it is checked as the full encoder would.
        let plan = g.plan.struct_plan(s.id).expect("a struct");
        let node = &plan.fields[k].node;
        if node.encode_can_fail(Lang::RUST) {
            let ctx = Ctx::default().field(&plan.fields[k].name);
            let key = Val::place(format!("cur.{}", names[k]));
            wire_value(&mut body, &ctx, node, &key, "uc");
            uses_cur = true;
        }
    }
    // A `delta message`'s own fields that never change are not checked (the reference
    // codec checks no zero-width top-level field); nested ones are, as part of the
    // full encoding of the top-level field they are in.
    let top = g.delta.messages.contains(&s.id);
    let changing = s.fields.iter().any(|f| f.delta != Delta::Never);
    if changing {
        body.line("let mut any = false;");
    }
    for (index, name, delta, node) in fields(g, s) {
        let ctx = Ctx::default().field(name);
        let base = Val::place(format!("base.{}", names[index]));
        let cur = Val::place(format!("cur.{}", names[index]));
        if *delta == Delta::Never {
            if top || !node.encode_can_fail(Lang::RUST) {
                continue;
            }
            full_write(g, &mut body, &ctx, node, &base);
            full_write(g, &mut body, &ctx, node, &cur);
        } else {
            changed(g, &mut body, &ctx, delta, node, (&base, &cur), "any");
        }
        (uses_base, uses_cur, uses_w) = (true, true, true);
    }
    body.line(if changing { "Ok(any)" } else { "Ok(false)" });
    let doc = match s.without {
        None => "/// The delta row of `cur` against `base` (spec §12.3): per field a changed bit,",
        Some(_) => {
            "/// The delta row of `cur` against `base` without the key (spec §12.5): per field"
        }
    };
    p.line(doc);
    p.line(match s.without {
        None => "/// and the field's delta when set. Returns whether any field changed.",
        Some(_) => {
            "/// a changed bit, and the field's delta when set. Returns whether any changed."
        }
    });
    let unused = |used: bool| if used { "" } else { "_" };
    let params = [
        format!("{}base: &Self", unused(uses_base)),
        format!("{}cur: &Self", unused(uses_cur)),
        format!("{}w: &mut ::bitwire::BitWriter<'_>", unused(uses_w)),
    ];
    let params: Vec<&str> = params.iter().map(String::as_str).collect();
    fn_sig(
        p,
        &format!("fn {}", row_name(g, s, "write")),
        &params,
        "Result<bool, ::bitwire::Error>",
    );
    p.append(body);
    p.close("}");
}

/// Whether the delta of a value can fail to encode (a check, or a nested row or list,
/// whose encoder returns a result).
fn can_fail(delta: &Delta, node: &Node) -> bool {
    match delta {
        Delta::Never => false,
        Delta::Diff { .. } => node.encode_can_fail(Lang::RUST),
        Delta::Struct { .. } | Delta::Keyed(_) => true,
        Delta::Array { elem, .. } => match &node.op {
            Op::Array(a) => can_fail(elem, &a.elem),
            other => unreachable!("an array delta of {other:?}"),
        },
        Delta::Replace => node.encode_can_fail(Lang::RUST),
    }
}

/// Prints the changed bit of a value (`cur` against `base`) and, when set, its delta;
/// sets `any` when it changed.
fn changed(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    delta: &Delta,
    node: &Node,
    (base, cur): (&Val, &Val),
    any: &str,
) {
    match delta {
        Delta::Never => {}
        Delta::Diff {
            width, prefix_bits, ..
        } if is_quantized(node) => {
            // Quantizing divides: a float with the same bits as the baseline's is
            // quantized (and checked) once.
            let uc = wire_value(p, ctx, node, cur, "uc");
            crate::codegen::rust::let_stmt(p, "uc", &uc);
            let same = format!("{}.to_bits() == {}.to_bits()", base.value(), cur.value());
            let mut then = p.child(1);
            let ub = wire_value(&mut then, ctx, node, base, "ub");
            p.open(format!("let ub = if {same} {{"));
            p.line("uc");
            p.middle("} else {");
            p.append(then);
            p.line(ub);
            p.close("};");
            p.line(format!(
                "{any} |= w.write_scalar_delta(ub, uc, {width}, {prefix_bits});"
            ));
        }
        Delta::Diff {
            width, prefix_bits, ..
        } => {
            let ub = wire_value(p, ctx, node, base, "ub");
            crate::codegen::rust::let_stmt(p, "ub", &ub);
            let uc = wire_value(p, ctx, node, cur, "uc");
            crate::codegen::rust::let_stmt(p, "uc", &uc);
            p.line(format!(
                "{any} |= w.write_scalar_delta(ub, uc, {width}, {prefix_bits});"
            ));
        }
        Delta::Struct { id } => {
            let func = format!("{}::write_delta_row", g.ident(*id));
            nested(p, ctx, any, |p| {
                let_call(
                    p,
                    "changed",
                    &func,
                    &[base.as_ref(), cur.as_ref(), "w".into()],
                    "",
                );
            });
        }
        Delta::Array { elem, .. } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array delta of {:?}", node.op)
            };
            array(g, p, ctx, (elem, &a.elem), (base, cur), any);
        }
        Delta::Keyed(k) => {
            let args = keyed_args(g, k, "write", [base.as_ref(), cur.as_ref()]);
            nested(p, ctx, any, |p| {
                let_call(p, "changed", "::bitwire::write_keyed_delta", &args, "");
            });
        }
        Delta::Replace if bytes_like(node).is_some() => {
            // A string or bytes: the length bound is its only check, and equal bytes
            // are equal encodings.
            let max = bytes_like(node).flatten();
            for v in [base, cur] {
                if let Some(m) = max {
                    let len = format!("{}.len() as u64", v.recv());
                    p.open(format!("if {len} > {m} {{"));
                    let make = Call::new(
                        "::bitwire::Error::invalid_length",
                        ["0", &len, &m.to_string()],
                    );
                    return_error(p, ctx, &make);
                    p.close("}");
                }
            }
            p.open(format!("if {} == {} {{", base.recv(), cur.recv()));
            p.line("w.write_bool(false);");
            p.middle("} else {");
            p.line("w.write_bool(true);");
            full_write(g, p, ctx, node, cur);
            p.line(format!("{any} = true;"));
            p.close("}");
        }
        Delta::Replace => {
            p.line("let mark = w.mark();");
            full_write(g, p, ctx, node, base);
            p.line("let mid = w.mark();");
            full_write(g, p, ctx, node, cur);
            p.line("let same = w.same_bits(mark, mid);");
            p.line("w.rewind(mark);");
            p.open("if same {");
            p.line("w.write_bool(false);");
            p.middle("} else {");
            p.line("w.write_bool(true);");
            full_write(g, p, ctx, node, cur);
            p.line(format!("{any} = true;"));
            p.close("}");
        }
    }
}

/// Whether `node` is a quantized float.
fn is_quantized(node: &Node) -> bool {
    matches!(&node.op, Op::Scalar(s) if matches!(s.kind, ScalarKind::Quantized { .. }))
}

/// For a string, bytes or `list<u8>` (whose in-memory equality is wire equality), its
/// `max`; `None` for other values.
fn bytes_like(node: &Node) -> Option<Option<u64>> {
    match &node.op {
        Op::String(len) | Op::Bytes(len) => Some(len.max),
        Op::List(l) if l.form == Form::Bytes => Some(l.length.max),
        _ => None,
    }
}

/// A changed bit of 1 and a nested delta that `call` prints into local `changed`
/// (whether anything in it changed); taken back and written as 0 when nothing did.
fn nested(p: &mut Printer, ctx: &Ctx, any: &str, call: impl FnOnce(&mut Printer)) {
    p.line("let mark = w.mark();");
    p.line("w.write_bool(true);");
    call(p);
    let changed = try_expr(p, ctx, "changed");
    p.open(format!("if {changed} {{"));
    p.line(format!("{any} = true;"));
    p.middle("} else {");
    p.line("w.rewind(mark);");
    p.line("w.write_bool(false);");
    p.close("}");
}

/// `[T; N]`: a changed bit, then per element a changed bit and its delta.
fn array(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    (elem, elem_node): (&Delta, &Node),
    (base, cur): (&Val, &Val),
    any: &str,
) {
    let inner = ctx.deeper();
    let (bs, cs) = (inner.var("bs"), inner.var("cs"));
    let (b, c) = (inner.var("b"), inner.var("c"));
    let any_elem = inner.var("any");
    p.line("let mark = w.mark();");
    p.line("w.write_bool(true);");
    p.line(format!("let mut {any_elem} = false;"));
    p.line(format!("let {bs} = {};", base.as_ref()));
    p.line(format!("let {cs} = {};", cur.as_ref()));
    let pairs = format!("{bs}.iter().zip({cs}.iter())");
    let ectx = if can_fail(elem, elem_node) {
        let i = inner.var("i");
        p.open(format!("for ({i}, ({b}, {c})) in {pairs}.enumerate() {{"));
        ctx.index(&i)
    } else {
        p.open(format!("for ({b}, {c}) in {pairs} {{"));
        inner
    };
    let (bv, cv) = (Val::reference(b), Val::reference(c));
    changed(g, p, &ectx, elem, elem_node, (&bv, &cv), &any_elem);
    p.close("}");
    p.open(format!("if {any_elem} {{"));
    p.line(format!("{any} = true;"));
    p.middle("} else {");
    p.line("w.rewind(mark);");
    p.line("w.write_bool(false);");
    p.close("}");
}

/// The arguments of `::bitwire::write_keyed_delta` (`side` "write") or
/// `read_keyed_delta` ("read") after the writer or reader: the lists, the list's plan,
/// the key, the element's row and its full codec.
pub(crate) fn keyed_args<const N: usize>(
    g: &Gen,
    k: &KeyedDelta,
    side: &str,
    lists: [String; N],
) -> Vec<String> {
    let elem = g.ident(k.elem);
    let row = g.delta.get(k.elem, Some(k.key));
    let max = match k.max {
        Some(m) => format!("Some({m})"),
        None => "None".into(),
    };
    let plan = g.plan.struct_plan(k.elem).expect("a struct");
    let key = &g.names.types[k.elem].members[k.key];
    let key = match &plan.fields[k.key].node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Enum { repr, .. } => {
                format!("|e| e.{key} as {}", crate::codegen::rust::int_type(repr))
            }
            _ => format!("|e| e.{key}"),
        },
        other => unreachable!("a keyed list's key is a scalar: {other:?}"),
    };
    let mut args = vec![if side == "write" { "w" } else { "r" }.to_string()];
    args.extend(lists);
    args.push(format!(
        "&::bitwire::KeyedList::new({max}, {}, {})",
        k.elem_min_bits, k.charge_per_elem
    ));
    args.push(key);
    args.push(format!("{elem}::{}", row_name(g, row, side)));
    args.push(format!("<{elem} as ::bitwire::Packed>::{side}"));
    args
}
