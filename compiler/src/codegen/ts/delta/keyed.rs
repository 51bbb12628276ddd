//! The keyed list delta's encoder (spec §12.5): both lists' keys checked and strictly
//! ascending (else `InvalidKey`, unless the lists are the same), then the events over the
//! baseline (the gap of unchanged elements, op bit 0 and the row of a changed one, op
//! bit 1 for a removed one), then the added elements' count and full encodings in key
//! order. Kept elements are compared first (`eqDeltaX`): most are unchanged, and an
//! unchanged one is only counted.

use super::encode::{array_check, at_index, unchanged_unless_rewind};
use super::wire::{self, fail};
use super::Gen;
use crate::codegen::ts::encode::{checked_raw, object_check, write_value, Member};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::Locals;
use crate::plan::delta::{KeyedDelta, StructDelta};
use crate::plan::{Node, Op};

/// The locals of a keyed list's encoder.
struct Walk {
    /// The baseline's and the value's lists, and their lengths.
    lb: String,
    lv: String,
    nb: String,
    nv: String,
    /// The unchanged elements since the last event, the events, the added elements.
    gap: String,
    events: String,
    added: String,
}

/// Prints the changed bit and keyed list delta of `b` against `v`, setting `flag` when
/// the list changed.
pub(super) fn keyed(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    k: &KeyedDelta,
    node: &Node,
    (b, v): (&str, &str),
    flag: &str,
) {
    let row = &g.delta_names.rows[g.delta_row(k.elem, Some(k.key))];
    let lb = wire::bind(p, locals, b, "listB");
    let lv = wire::bind(p, locals, v, "listV");
    for l in [&lb, &lv] {
        array_check(
            p,
            l,
            (node.wrong_type_kind(&g.plan), None),
            None,
            k.max,
            "w.bitPos",
        );
    }
    let at = locals.fresh("at");
    p.line(format!("const {at} = w.bitPos;"));
    p.line("w.writeBits(1, 1);");
    p.open(format!(
        "if (!{asc}({lb}) || !{asc}({lv})) {{",
        asc = row.ascending
    ));
    p.line("// Keys out of order are an error unless the lists are the same (spec §12.7).");
    let (s0, s1, x) = (
        locals.fresh("full"),
        locals.fresh("fullV"),
        locals.fresh("x"),
    );
    p.line(format!("const {s0} = bw.deltaScratch(0);"));
    p.line(format!("const {s1} = bw.deltaScratch(1);"));
    p.open(format!(
        "for (const [w, {x}] of [[{s0}, {lb}], [{s1}, {lv}]] as const) {{"
    ));
    write_value(g, p, locals, node, &x);
    p.close("}");
    fail(
        p,
        &format!("!{s0}.sameBits({s1})"),
        &format!("bw.error(\"InvalidKey\", {at})"),
    );
    p.line(format!("w.rewind({at});"));
    p.line("w.writeBits(0, 1);");
    p.middle("} else {");
    let [gap, events, added, nb, nv] =
        ["gap", "events", "added", "nB", "nV"].map(|n| locals.fresh(n));
    let walk = Walk {
        lb,
        lv,
        nb,
        nv,
        gap,
        events,
        added,
    };
    events_over_baseline(g, p, locals, k, &walk);
    let Walk {
        gap, events, added, ..
    } = &walk;
    p.open(format!("if ({gap} > 0) {{"));
    p.line(format!("bw.writeGolomb(w, {gap});"));
    p.close("}");
    p.line(format!("bw.writeGolomb(w, {added});"));
    let cond = format!("{events} > 0 || {added} > 0");
    unchanged_unless_rewind(p, &cond, &at, flag, |p| {
        added_elements(g, p, locals, k, &walk)
    });
    p.close("}");
}

/// The events: walking the baseline, each element kept (unchanged, or changed: its
/// event and row) or removed (its event), counting the added elements on the way.
fn events_over_baseline(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    k: &KeyedDelta,
    walk: &Walk,
) {
    let row = &g.delta_names.rows[g.delta_row(k.elem, Some(k.key))];
    let key = &row.key;
    let Walk {
        lb,
        lv,
        nb,
        nv,
        gap,
        events,
        added,
    } = walk;
    let [j, pos, eb, kb, ev, same, mark] =
        ["j", "p", "eB", "kB", "eV", "same", "mark"].map(|n| locals.fresh(n));
    for l in [gap, events, added, &j] {
        p.line(format!("let {l} = 0;"));
    }
    p.line(format!("const {nb} = {lb}.length;"));
    p.line(format!("const {nv} = {lv}.length;"));
    p.open(format!("for (let {pos} = 0; {pos} < {nb}; {pos}++) {{"));
    p.line(format!("const {eb} = {lb}[{pos}];"));
    p.line(format!("const {kb} = {key}({eb});"));
    p.open(format!("while ({j} < {nv} && {key}({lv}[{j}]) < {kb}) {{"));
    p.line(format!("{added}++;"));
    p.line(format!("{j}++;"));
    p.close("}");
    p.open(format!("if ({j} < {nv} && {key}({lv}[{j}]) === {kb}) {{"));
    p.line("// Kept: unchanged, or its gap, op bit 0 and row.");
    p.line(format!("const {ev} = {lv}[{j}];"));
    p.line(format!("let {same}: boolean;"));
    at_index(p, &pos, |p| {
        p.line(format!("{same} = {}({eb}, {ev});", row.eq));
        p.open(format!("if (!{same}) {{"));
        p.line(format!("const {mark} = w.bitPos;"));
        p.line(format!("bw.writeEvent(w, {gap}, 0);"));
        p.line("// The row and the comparison agree; were they not to, no event is better.");
        p.open(format!("if (!{}(w, {eb}, {ev})) {{", row.write));
        p.line(format!("w.rewind({mark});"));
        p.line(format!("{same} = true;"));
        p.close("}");
        p.close("}");
    });
    p.open(format!("if ({same}) {{"));
    p.line(format!("{gap}++;"));
    p.middle("} else {");
    p.line(format!("{gap} = 0;"));
    p.line(format!("{events}++;"));
    p.close("}");
    p.line(format!("{j}++;"));
    p.middle("} else {");
    p.line("// Removed: op bit 1, after the full encoder's checks of the element.");
    at_index(p, &pos, |p| {
        p.line(format!(
            "write{}(bw.deltaScratch(0), {eb});",
            g.ident(k.elem)
        ));
    });
    p.line(format!("bw.writeEvent(w, {gap}, 1);"));
    p.line(format!("{gap} = 0;"));
    p.line(format!("{events}++;"));
    p.close("}");
    p.close("}");
    p.line(format!("{added} += {nv} - {j};"));
}

/// The added elements' full encodings, in key order (a second walk, to write no list),
/// indexed among themselves (§12.7).
fn added_elements(g: &Gen, p: &mut Printer, locals: &mut Locals, k: &KeyedDelta, walk: &Walk) {
    let key = &g.delta_names.rows[g.delta_row(k.elem, Some(k.key))].key;
    let Walk { lb, lv, nb, nv, .. } = walk;
    p.line("// The added elements in key order, indexed among themselves (spec §12.7).");
    let [n, q, i, ev, kv] = ["n", "q", "i", "eV", "kV"].map(|x| locals.fresh(x));
    p.line(format!("let {n} = 0;"));
    p.line(format!("let {q} = 0;"));
    p.open(format!("for (let {i} = 0; {i} < {nv}; {i}++) {{"));
    p.line(format!("const {ev} = {lv}[{i}];"));
    p.line(format!("const {kv} = {key}({ev});"));
    p.open(format!("while ({q} < {nb} && {key}({lb}[{q}]) < {kv}) {{"));
    p.line(format!("{q}++;"));
    p.close("}");
    p.open(format!("if ({q} < {nb} && {key}({lb}[{q}]) === {kv}) {{"));
    p.line("continue;");
    p.close("}");
    at_index(p, &n.clone(), |p| {
        p.line(format!("write{}(w, {ev});", g.ident(k.elem)));
    });
    p.line(format!("{n}++;"));
    p.close("}");
}

/// Prints `xAscending`: whether a keyed list's keys are strictly ascending (§12.1),
/// after the full encoder's checks of each element's key (and that each element is an
/// object), with the element's index in the path.
pub(super) fn ascending_fn(g: &Gen, p: &mut Printer, row: usize, s: &StructDelta, key: usize) {
    let ident = g.ident(s.id);
    let names = &g.delta_names.rows[row];
    let plan = g.plan.struct_plan(s.id).expect("a struct");
    let field = &plan.fields[key];
    p.doc(&[vec![
        format!(
            "Whether the keys of a list of `{ident}` keyed by `{}` are strictly",
            field.name
        ),
        "ascending (spec §12.1), each key checked as the full encoder checks it.".into(),
    ]]);
    p.open(format!(
        "function {}(list: {ident}[]): boolean {{",
        names.ascending
    ));
    let mut locals = Locals::default();
    for r in ["list", "ascending", "i", "e", "k", "key", "last", "err"] {
        locals.reserve(r);
    }
    let (key_ty, _) = wire::key_expr(g, &field.node, "k");
    let zero = if key_ty == "bigint" { "0n" } else { "0" };
    p.line("let ascending = true;");
    p.line(format!("let last: {key_ty} = {zero};"));
    p.line("let i = 0;");
    // One `try` around the loop: the index is the element being checked.
    p.open("try {");
    p.open("for (; i < list.length; i++) {");
    p.line("const e = list[i];");
    let kind = g.plan.get(s.id).body.wrong_type_kind();
    object_check(p, "e", "0", kind, &g.schema.types[s.id].name, "struct", &[]);
    let prop = &g.names.types[s.id].members[key];
    let Op::Scalar(scalar) = &field.node.op else {
        unreachable!("keys are scalars (E0319)")
    };
    p.line(format!("const k = e.{prop};"));
    let m = Member {
        value: "k".into(),
        local: None,
        scalar,
        offset: 0,
        names: vec![field.name.clone()],
        origin: "0",
    };
    checked_raw(g, p, &mut locals, &m, "k", false);
    p.line(format!("const key = {}(e);", names.key));
    p.open("if (i > 0 && !(last < key)) {");
    p.line("ascending = false;");
    p.close("}");
    p.line("last = key;");
    p.close("}");
    p.middle("} catch (err) {");
    p.line("throw bw.atIndex(err, i);");
    p.close("}");
    p.line("return ascending;");
    p.close("}");
}
