//! Wire equality of rows (spec §12.2), `eqDeltaX`: whether two values of a row's struct
//! have the same wire value in every field of the row, computed with the full
//! encoder's checks and without writing anything. The keyed list encoder asks it for
//! each kept element before writing the element's event: most elements of a snapshot
//! are unchanged, and for them comparing is all the work (no gap, op bit or row written
//! and taken back).
//!
//! The answer `true` means every field of both values passed the full encoder's checks
//! (a field that differs stops the comparison, and the row writer, which runs next,
//! checks everything). Errors carry no path of their own below the keyed list element:
//! the encoder's fast path only needs the top-level field an error is in (§12.7).

use super::encode::{array_check, string_check};
use super::wire::{self, bind, ErrorAt, Wire};
use super::{scratch_block, Gen};
use crate::codegen::ts::encode::{checked_raw, object_check, write_value, Member};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::Locals;
use crate::plan::delta::{Delta, DeltaPlan, KeyedDelta, StructDelta};
use crate::plan::{Node, Op, Scalar, ScalarKind};

/// Errors of the checks here: at bit 0, with no path (see the module's comment).
const NOWHERE: ErrorAt = ErrorAt {
    bit: "0",
    path: &[],
};

/// By index of [`DeltaPlan::structs`]: whether the row needs an `eqX` — keyed list
/// elements' rows, and every row they reach.
pub fn needed(plan: &DeltaPlan) -> Vec<bool> {
    let mut need: Vec<bool> = plan.structs.iter().map(|s| s.without.is_some()).collect();
    // Callees come before callers in the plan: walk it backwards until nothing changes
    // (a few passes at most, types being at most 64 deep).
    loop {
        let mut more = false;
        for (i, s) in plan.structs.iter().enumerate() {
            if !need[i] {
                continue;
            }
            for f in &s.fields {
                for (id, without) in callees(&f.delta) {
                    let k = super::row_index(plan, id, without);
                    if !need[k] {
                        need[k] = true;
                        more = true;
                    }
                }
            }
        }
        if !more {
            return need;
        }
    }
}

fn callees(d: &Delta) -> Vec<(usize, Option<usize>)> {
    match d {
        Delta::Struct { id } => vec![(*id, None)],
        Delta::Array { elem, .. } => callees(elem),
        Delta::Keyed(k) => vec![(k.elem, Some(k.key))],
        _ => Vec::new(),
    }
}

/// Prints `eqDeltaX` of a planned struct delta.
pub fn eq_fn(g: &Gen, p: &mut Printer, row: usize, s: &StructDelta) {
    let ident = g.ident(s.id);
    let names = &g.delta_names.rows[row];
    let plan = g.plan.struct_plan(s.id).expect("a struct");
    let what = match s.without {
        None => String::new(),
        Some(k) => format!(" but `{}`", plan.fields[k].name),
    };
    p.doc(&[vec![
        format!(
            "Whether every field{what} of two `{ident}`s has the same wire value (spec §12.2),"
        ),
        "each checked as the full encoder checks it; on `true`, all of them were.".into(),
    ]]);
    p.open(format!(
        "function {}(b: {ident}, v: {ident}): boolean {{",
        names.eq
    ));
    let mut locals = Locals::default();
    for r in ["b", "v", "e", "w"] {
        locals.reserve(r);
    }
    let kind = g.plan.get(s.id).body.wrong_type_kind();
    let name = &g.schema.types[s.id].name;
    object_check(p, "b", "0", kind, name, "struct", &[]);
    object_check(p, "v", "0", kind, name, "struct", &[]);
    for f in &s.fields {
        let node = &plan.fields[f.index].node;
        let prop = &g.names.types[s.id].members[f.index];
        let (b, v) = (format!("b.{prop}"), format!("v.{prop}"));
        let hint = g.local(prop).trim_end_matches('_').to_string();
        if f.delta == Delta::Never {
            p.line("// Zero bits: the same, once checked as the full encoder does.");
            scratch_block(p, "bw.deltaScratch(0)", |p| {
                write_value(g, p, &mut locals, node, &b);
                write_value(g, p, &mut locals, node, &v);
            });
            continue;
        }
        unequal(g, p, &mut locals, (&f.delta, node), (&b, &v), &hint);
    }
    p.line("return true;");
    p.close("}");
}

/// Prints the comparison of one value of `node`, `b` against `v`: `return false;` when
/// their wire values differ.
fn unequal(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    (delta, node): (&Delta, &Node),
    (b, v): (&str, &str),
    hint: &str,
) {
    match delta {
        Delta::Never => unreachable!("zero-width fields are handled by the row"),
        Delta::Diff { .. } => {
            let (hb, hv) = (format!("{hint}B"), format!("{hint}V"));
            let xb = bind(p, locals, b, &hb);
            let wb = wire::wire_value(g, p, locals, node, (&xb, &hb), NOWHERE);
            let xv = bind(p, locals, v, &hv);
            let other = match &node.op {
                Op::Scalar(Scalar {
                    kind: ScalarKind::Float { .. },
                    ..
                }) => format!("!Object.is({xv}, {xb})"),
                _ => format!("{xv} !== {xb}"),
            };
            p.open(format!("if ({other}) {{"));
            let differ = match (
                wb,
                wire::wire_value(g, p, locals, node, (&xv, &hv), NOWHERE),
            ) {
                (Wire::N32(x), Wire::N32(y)) => format!("{x} !== {y}"),
                (Wire::Halves(bl, bh), Wire::Halves(vl, vh)) => {
                    format!("{bl} !== {vl} || {bh} !== {vh}")
                }
                _ => unreachable!("both sides of a scalar have one width"),
            };
            differ_if(p, &differ);
            p.close("}");
        }
        Delta::Struct { id } => {
            let callee = &g.delta_names.rows[g.delta_row(*id, None)];
            differ_if(p, &format!("!{}({b}, {v})", callee.eq));
        }
        Delta::Array { len, elem } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array")
            };
            let lb = bind(p, locals, b, "listB");
            let lv = bind(p, locals, v, "listV");
            for l in [&lb, &lv] {
                let kind = (node.wrong_type_kind(&g.plan), g.typed_array(node));
                array_check(p, l, kind, Some(*len), None, "0");
            }
            let i = locals.fresh("i");
            p.open(format!("for (let {i} = 0; {i} < {len}; {i}++) {{"));
            let (eb, ev) = (format!("{lb}[{i}]"), format!("{lv}[{i}]"));
            unequal(g, p, locals, (elem, &a.elem), (&eb, &ev), "item");
            p.close("}");
        }
        Delta::Keyed(k) => keyed(g, p, locals, k, node, (b, v)),
        Delta::Replace => {
            if let Op::String(len) = &node.op {
                let sb = bind(p, locals, b, &format!("{hint}B"));
                string_check(p, locals, &sb, len.max, "0");
                differ_if(p, &format!("{v} !== {sb}"));
                return;
            }
            let (s0, s1) = (locals.fresh("full"), locals.fresh("fullV"));
            p.line(format!("const {s0} = bw.deltaScratch(0);"));
            scratch_block(p, &s0, |p| write_value(g, p, locals, node, b));
            p.line(format!("const {s1} = bw.deltaScratch(1);"));
            scratch_block(p, &s1, |p| write_value(g, p, locals, node, v));
            differ_if(p, &format!("!{s0}.sameBits({s1})"));
        }
    }
}

/// Two keyed lists are the same when they have the same keys in the same order and
/// the same rows: then both lists' keys and rows were checked (their order need not
/// be ascending: lists that are the same are unchanged, whatever their order, §12.7).
fn keyed(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    k: &KeyedDelta,
    node: &Node,
    (b, v): (&str, &str),
) {
    let row = &g.delta_names.rows[g.delta_row(k.elem, Some(k.key))];
    let lb = bind(p, locals, b, "listB");
    let lv = bind(p, locals, v, "listV");
    for l in [&lb, &lv] {
        array_check(
            p,
            l,
            (node.wrong_type_kind(&g.plan), None),
            None,
            k.max,
            "0",
        );
    }
    differ_if(p, &format!("{lb}.length !== {lv}.length"));
    let [i, eb, ev] = ["i", "eB", "eV"].map(|x| locals.fresh(x));
    p.open(format!("for (let {i} = 0; {i} < {lb}.length; {i}++) {{"));
    p.line(format!("const {eb} = {lb}[{i}];"));
    p.line(format!("const {ev} = {lv}[{i}];"));
    let kind = g.plan.get(k.elem).body.wrong_type_kind();
    let name = &g.schema.types[k.elem].name;
    let field = &g.plan.struct_plan(k.elem).expect("a struct").fields[k.key];
    let Op::Scalar(scalar) = &field.node.op else {
        unreachable!("keys are scalars (E0319)")
    };
    let prop = &g.names.types[k.elem].members[k.key];
    for e in [&eb, &ev] {
        object_check(p, e, "0", kind, name, "struct", &[]);
        let key = locals.fresh("key");
        p.line(format!("const {key} = {e}.{prop};"));
        let m = Member {
            value: key.clone(),
            local: None,
            scalar,
            offset: 0,
            names: Vec::new(),
            origin: "0",
        };
        checked_raw(g, p, locals, &m, &key, false);
    }
    differ_if(
        p,
        &format!(
            "{k}({eb}) !== {k}({ev}) || !{}({eb}, {ev})",
            row.eq,
            k = row.key
        ),
    );
    p.close("}");
}

/// Prints `if (cond) { return false; }`.
fn differ_if(p: &mut Printer, cond: &str) {
    p.open_if(cond);
    p.line("return false;");
    p.close("}");
}
