//! The delta decoder (spec §12.3–§12.8): `decodeDeltaX` for each `delta message` and
//! one row reader per planned struct delta (`readDeltaX`: the new value, or `null` when
//! no field changed). It reads in stream order and rejects, at the bits and paths of
//! §12.4–§12.8, everything an encoder does not write. What did not change is the
//! baseline's own value (shared, not copied), as in the reference codec.

use super::encode::{array_check, string_check};
use super::wire::{self, fail, ErrorAt, Wire};
use super::{scratch_block, Gen};
use crate::codegen::ts::decode::{decode_value, field_init, Mode};
use crate::codegen::ts::encode::{object_check, write_value};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{int_lit, naming, wrapped, Locals, MAX_SAFE};
use crate::ir::TypeId;
use crate::plan::delta::{Delta, KeyedDelta, StructDelta};
use crate::plan::{Node, Op};

/// Errors of the baseline's checks: at bit 0 (they are not in the input), the path
/// added by the enclosing `try`.
const BASELINE: ErrorAt = ErrorAt {
    bit: "0",
    path: &[],
};

/// Prints `decodeDeltaX`: a whole input as a delta against `baseline`.
pub fn top_level(g: &Gen, p: &mut Printer, id: TypeId, row: usize) {
    let ident = g.ident(id);
    let names = &g.delta_names.rows[row];
    p.doc(&[
        vec![
            format!(
                "Decodes a delta written by `{}` against the same `baseline`",
                names.encode
            ),
            "(spec §12): the padding must be zero and no bytes may follow. Allocations are".into(),
            "charged against the decode budget of `limits` (spec §12.8). Throws".into(),
            "{@link bw.BitwireError} for input an encoder never writes.".into(),
        ],
        vec![
            "The value shares what did not change with `baseline` (the same objects, arrays".into(),
            "and strings; the baseline itself when nothing changed): treat both as immutable."
                .into(),
        ],
    ]);
    p.list_open(
        &format!("export function {}(", names.decode),
        &[
            format!("baseline: {ident}"),
            "bytes: Uint8Array".into(),
            "limits?: bw.Limits".into(),
        ],
        &format!("): {ident} {{"),
    );
    p.line("const r = new bw.BitReader(bytes, limits);");
    p.line(format!("const value = {}(r, baseline);", names.read));
    p.line("r.finish();");
    p.line("return value ?? baseline;");
    p.close("}");
}

/// Prints the row reader `readDeltaX` of a planned struct delta.
pub fn row_fn(g: &Gen, p: &mut Printer, row: usize, s: &StructDelta) {
    let ident = g.ident(s.id);
    let names = &g.delta_names.rows[row];
    let plan = g.plan.struct_plan(s.id).expect("a struct");
    p.doc(&[vec![
        "Reads a delta against the baseline `b` (spec §12.3): the new value, or `null`".into(),
        format!(
            "when no field changed. Of `{ident}`{}.",
            match s.without {
                None => String::new(),
                Some(k) => format!(", an element of a list keyed by `{}`", plan.fields[k].name),
            }
        ),
    ]]);
    // A row with nothing that can change (a keyed element of only its key) reads nothing.
    let reads = s.fields.iter().any(|f| f.delta != Delta::Never);
    let r = if reads { "r" } else { "_r" };
    p.open(format!(
        "function {}({r}: bw.BitReader, b: {ident}): {ident} | null {{",
        names.read
    ));
    let mut locals = Locals::default();
    for x in ["r", "b", "changed", "e"] {
        locals.reserve(x);
    }
    let members = &g.names.types[s.id].members;
    let field_locals: Vec<String> = members
        .iter()
        .map(|m| {
            // Not the parameter or the flag this function declares.
            let mut l = g.local(m);
            while l == "b" || l == "changed" {
                l.push('_');
            }
            locals.reserve(&l);
            l
        })
        .collect();
    let kind = g.plan.get(s.id).body.wrong_type_kind();
    object_check(p, "b", "0", kind, &g.schema.types[s.id].name, "struct", &[]);
    p.line("let changed = false;");
    for (i, field) in plan.fields.iter().enumerate() {
        let l = &field_locals[i];
        let prop = &members[i];
        let Some(f) = s.fields.iter().find(|f| f.index == i) else {
            p.line(format!("const {l} = b.{prop};"));
            continue;
        };
        if f.delta == Delta::Never {
            p.line(format!("const {l} = b.{prop};"));
            continue;
        }
        p.line(format!("let {l}: {} = b.{prop};", g.ts_type(&field.node)));
        let seg = naming::str_lit(&f.name);
        wrapped(p, "inField", &seg, |p| {
            p.open("if (r.readBool()) {");
            let e = delta_value(
                g,
                p,
                &mut locals,
                &f.delta,
                &field.node,
                &format!("b.{prop}"),
            );
            p.line(format!("{l} = {e};"));
            p.line("changed = true;");
            p.close("}");
        });
    }
    let items: Vec<String> = members
        .iter()
        .zip(&field_locals)
        .map(|(m, l)| field_init(m, l))
        .collect();
    if items.is_empty() {
        p.line("return changed ? {} : null;");
    } else {
        p.list("return changed ? { ", &items, " } : null;");
    }
    p.close("}");
}

/// Prints the reading of `D(b, v)` (§12.3) of a value of `node` whose changed bit was
/// set, against the baseline's value `b`, and returns the new value's expression.
fn delta_value(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    delta: &Delta,
    node: &Node,
    b: &str,
) -> String {
    match delta {
        Delta::Never => unreachable!("zero-width values have no delta"),
        Delta::Diff {
            width, prefix_bits, ..
        } => {
            // The bit of the code, where the full decoder's checks fail (§12.4).
            let at = locals.fresh("at");
            if wire::checks_wire(node) {
                p.line(format!("const {at} = r.bitPos;"));
            }
            let u = if *width <= 32 {
                let z = locals.fresh("z");
                p.line(format!(
                    "const {z} = bw.readDiff(r, {width}, {prefix_bits});"
                ));
                let Wire::N32(ub) = wire::wire_value(g, p, locals, node, (b, "base"), BASELINE)
                else {
                    unreachable!("a narrow wire value")
                };
                let u = locals.fresh("u");
                p.line(format!("const {u} = bw.applyDiff({ub}, {z}, {width});"));
                Wire::N32(u)
            } else {
                let (zl, zh) = (locals.fresh("zLo"), locals.fresh("zHi"));
                p.line(format!(
                    "const {zl} = bw.readDiff64(r, {width}, {prefix_bits});"
                ));
                p.line(format!("const {zh} = bw.diffHi();"));
                let Wire::Halves(bl, bh) =
                    wire::wire_value(g, p, locals, node, (b, "base"), BASELINE)
                else {
                    unreachable!("a wide wire value")
                };
                let (lo, hi) = (locals.fresh("lo"), locals.fresh("hi"));
                p.line(format!(
                    "const {lo} = bw.applyDiff64({bl}, {bh}, {zl}, {zh}, {width});"
                ));
                p.line(format!("const {hi} = bw.diffHi();"));
                Wire::Halves(lo, hi)
            };
            wire::from_wire(g, p, locals, node, &u, &at)
        }
        Delta::Struct { id } => {
            let callee = &g.delta_names.rows[g.delta_row(*id, None)];
            let x = locals.fresh("row");
            p.line(format!("const {x} = {}(r, {b});", callee.read));
            non_canonical_if(p, &format!("{x} === null"));
            x
        }
        Delta::Array { len, elem } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array")
            };
            let lb = locals.fresh("listB");
            p.line(format!("const {lb} = {b};"));
            let kind = (node.wrong_type_kind(&g.plan), g.typed_array(node));
            array_check(p, &lb, kind, Some(*len), None, "0");
            let [items, any, i, item] = ["items", "any", "i", "item"].map(|x| locals.fresh(x));
            p.line(format!("const {items}: {}[] = [];", g.elem_type(&a.elem)));
            p.line(format!("let {any} = false;"));
            p.open(format!("for (let {i} = 0; {i} < {len}; {i}++) {{"));
            p.line(format!("let {item} = {lb}[{i}];"));
            wrapped(p, "atIndex", &i.clone(), |p| {
                p.open("if (r.readBool()) {");
                let e = delta_value(g, p, locals, elem, &a.elem, &format!("{lb}[{i}]"));
                p.line(format!("{item} = {e};"));
                p.line(format!("{any} = true;"));
                p.close("}");
            });
            p.line(format!("{items}.push({item});"));
            p.close("}");
            non_canonical_if(p, &format!("!{any}"));
            match g.typed_array(node) {
                Some(t) => format!("{t}.from({items})"),
                None => items,
            }
        }
        Delta::Keyed(k) => keyed(g, p, locals, k, node, b),
        Delta::Replace => replace(g, p, locals, node, b),
    }
}

/// Prints `if (cond) { throw bw.error("NonCanonical", r.bitPos); }` (§12.6: at the bit
/// after the value's delta).
fn non_canonical_if(p: &mut Printer, cond: &str) {
    fail(p, cond, "bw.error(\"NonCanonical\", r.bitPos)");
}

/// A value that travels whole (§12.3's last row): its full encoding, which must not
/// equal the baseline's (§12.6). Strings compare as strings once the baseline's is
/// checked; anything else is encoded into the scratch writers and compared.
fn replace(g: &Gen, p: &mut Printer, locals: &mut Locals, node: &Node, b: &str) -> String {
    let e = decode_value(g, p, locals, node, Mode::Read).expect("a value");
    let x = locals.fresh("whole");
    p.line(format!("const {x} = {e};"));
    if let Op::String(len) = &node.op {
        let sb = locals.fresh("text");
        p.line(format!("const {sb} = {b};"));
        string_check(p, locals, &sb, len.max, "0");
        non_canonical_if(p, &format!("{x} === {sb}"));
        return x;
    }
    let (s0, s1) = (locals.fresh("full"), locals.fresh("fullV"));
    p.line(format!("const {s0} = bw.deltaScratch(0);"));
    scratch_block(p, &s0, |p| write_value(g, p, locals, node, b));
    p.line(format!("const {s1} = bw.deltaScratch(1);"));
    scratch_block(p, &s1, |p| write_value(g, p, locals, node, &x));
    non_canonical_if(p, &format!("{s0}.sameBits({s1})"));
    x
}

/// The keyed list delta (§12.5): the baseline's keys ascending (else `InvalidKey` at
/// bit 0), the events (gaps of kept elements, changed rows, removals), the added count
/// with its checks (§12.8), then the added elements in ascending key order, none in
/// the baseline; kept and added elements merged by key.
fn keyed(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    k: &KeyedDelta,
    node: &Node,
    b: &str,
) -> String {
    let row = &g.delta_names.rows[g.delta_row(k.elem, Some(k.key))];
    let elem = g.ident(k.elem);
    let key = &row.key;
    let [lb, nb, i, kept, events, pos, gap, end] =
        ["listB", "nB", "i", "kept", "events", "p", "gap", "end"].map(|x| locals.fresh(x));
    p.line(format!("const {lb} = {b};"));
    array_check(
        p,
        &lb,
        (node.wrong_type_kind(&g.plan), None),
        None,
        None,
        "0",
    );
    p.line(format!("const {nb} = {lb}.length;"));
    p.line("// The baseline's keys must ascend (spec §12.7).");
    p.open(format!("for (let {i} = 0; {i} < {nb}; {i}++) {{"));
    let kind = g.plan.get(k.elem).body.wrong_type_kind();
    object_check(
        p,
        &format!("{lb}[{i}]"),
        "0",
        kind,
        &g.schema.types[k.elem].name,
        "struct",
        &[],
    );
    fail(
        p,
        &format!("{i} > 0 && !({key}({lb}[{i} - 1]) < {key}({lb}[{i}]))"),
        "bw.error(\"InvalidKey\", 0)",
    );
    p.close("}");
    p.line(format!("const {kept}: {elem}[] = [];"));
    p.line(format!("let {events} = 0;"));
    p.line(format!("let {pos} = 0;"));
    p.open(format!("while ({pos} < {nb}) {{"));
    p.line(format!("const {gap} = bw.readGap(r, {nb} - {pos});"));
    p.open(format!(
        "for (const {end} = {pos} + {gap}; {pos} < {end}; {pos}++) {{"
    ));
    p.line(format!("{kept}.push({lb}[{pos}]);"));
    p.close("}");
    p.open(format!("if ({pos} === {nb}) {{"));
    p.line("break;");
    p.close("}");
    p.line(format!("{events}++;"));
    wrapped(p, "atIndex", &pos.clone(), |p| {
        p.line("// Op bit 0: changed, its row follows; 1: removed.");
        p.open("if (!r.readBool()) {");
        let e = locals.fresh("row");
        p.line(format!("const {e} = {}(r, {lb}[{pos}]);", row.read));
        non_canonical_if(p, &format!("{e} === null"));
        p.line(format!("{kept}.push({e});"));
        p.close("}");
    });
    p.line(format!("{pos}++;"));
    p.close("}");
    let added = locals.fresh("added");
    let max = match k.max {
        None => "Infinity".to_string(),
        Some(m) if u128::from(m) < MAX_SAFE => m.to_string(),
        Some(m) => format!("{m}n"),
    };
    p.list(
        &format!("const {added} = bw.readAdded("),
        &[
            "r".into(),
            format!("{kept}.length"),
            max,
            k.elem_min_bits.to_string(),
            int_lit(i128::from(k.charge_per_elem), false),
        ],
        ");",
    );
    non_canonical_if(p, &format!("{events} === 0 && {added} === 0"));
    let list = locals.fresh("list");
    p.line(format!("let {list} = {kept};"));
    p.open(format!("if ({added} > 0) {{"));
    let news = added_elements(g, p, locals, k, (&lb, &added));
    p.line(format!("{list} = bw.mergeByKey({kept}, {news}, {key});"));
    p.close("}");
    list
}

/// The added elements (§12.5), each above the last and not a key of the baseline
/// `lb` (else `InvalidKey` at the element): returns the local of their list.
fn added_elements(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    k: &KeyedDelta,
    (lb, added): (&str, &str),
) -> String {
    let key = &g.delta_names.rows[g.delta_row(k.elem, Some(k.key))].key;
    let elem = g.ident(k.elem);
    let [news, j, at, e, kk] = ["news", "j", "at", "elem", "k"].map(|x| locals.fresh(x));
    p.line(format!("const {news}: {elem}[] = [];"));
    p.open(format!("for (let {j} = 0; {j} < {added}; {j}++) {{"));
    wrapped(p, "atIndex", &j.clone(), |p| {
        p.line(format!("const {at} = r.bitPos;"));
        p.line(format!("const {e} = read{elem}(r);"));
        p.line(format!("const {kk} = {key}({e});"));
        p.line("// Above the last added key, and not a key of the baseline (spec §12.5).");
        fail(
            p,
            &format!(
                "({j} > 0 && !({key}({news}[{j} - 1]) < {kk})) || bw.hasKey({lb}, {kk}, {key})"
            ),
            &format!("bw.error(\"InvalidKey\", {at})"),
        );
        p.line(format!("{news}.push({e});"));
    });
    p.close("}");
    news
}
