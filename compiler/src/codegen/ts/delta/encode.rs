//! The delta encoder (spec §12.3–§12.5): `encodeDeltaX` for each `delta message`, one
//! row writer per planned struct delta (`writeDeltaX`: a changed bit per field, then
//! the field's delta; returns whether any field changed), and the error search
//! `deltaXError` (§12.7).

use super::wire::{self, bind, fail, ErrorAt, Wire};
use super::{scratch_block, Gen};
use crate::codegen::ts::encode::{object_check, write_value};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{naming, Locals, MAX_SAFE};
use crate::ir::TypeId;
use crate::plan::delta::{Delta, StructDelta};
use crate::plan::{Kind, Node, Op, Scalar, ScalarKind};

/// Prints `encodeDeltaX`: the delta of `value` against `baseline`, padded to a byte.
pub fn top_level(g: &Gen, p: &mut Printer, id: TypeId, row: usize) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let names = &g.delta_names.rows[row];
    let capacity = def.packed.max_bytes().map_or(64, |b| b.clamp(8, 1024));
    p.doc(&[
        vec![format!(
            "Encodes `value` as a delta against `baseline` (spec §12): a changed bit per field,"
        )],
        vec![
            "and for each changed field its difference, its own changes or its full encoding;"
                .into(),
            "an unchanged value is a few zero bytes. The receiver decodes it against the same"
                .into(),
            format!("baseline with `{}`.", names.decode),
        ],
        vec![
            "Returns a view of the writer's buffer, valid until the writer is used again (as"
                .into(),
            format!(
                "`encode{ident}` does). Throws {{@link bw.BitwireError}} for a value or a baseline"
            ),
            "the schema cannot hold, and `InvalidKey` for a keyed list whose keys are not".into(),
            "strictly ascending; encoder errors carry a kind and a path, their bit is not".into(),
            "meaningful.".into(),
        ],
    ]);
    p.list_open(
        &format!("export function {}(", names.encode),
        &[
            format!("baseline: {ident}"),
            format!("value: {ident}"),
            format!("w: bw.BitWriter = new bw.BitWriter({capacity})"),
        ],
        "): Uint8Array {",
    );
    p.line("w.reset();");
    let top = if names.top { ", true" } else { "" };
    p.open("try {");
    p.line(format!("{}(w, baseline, value{top});", names.write));
    p.middle("} catch (e) {");
    p.line(format!("throw {}(baseline, value, e);", names.error));
    p.close("}");
    p.line("return w.finish();");
    p.close("}");
}

/// Prints `deltaXError`: the error `encodeDeltaX` reports once its fast path failed
/// with `first`. The reference order (§12.7) checks each field in full, the baseline's
/// then the value's, and then the field's delta (whose only errors left are
/// `InvalidKey`): so the first field whose full check fails, up to the field `first`
/// is in, has the error; else it is `first`.
pub fn error_fn(g: &Gen, p: &mut Printer, id: TypeId, row: usize) {
    let ident = g.ident(id);
    let names = &g.delta_names.rows[row];
    let s = g.delta.get(id, None);
    let plan = g.plan.struct_plan(id).expect("a struct");
    p.doc(&[vec![
        format!(
            "The error `{}` reports (spec §12.7) when its fast path",
            names.encode
        ),
        "failed with `first`: the first field whose baseline or value the full encoder".into(),
        "rejects, up to the field `first` is in; else `first` (a key out of order).".into(),
    ]]);
    p.open(format!(
        "function {}(b: {ident}, v: {ident}, first: unknown): unknown {{",
        names.error
    ));
    let mut locals = Locals::default();
    for r in ["b", "v", "first", "top", "w", "e"] {
        locals.reserve(r);
    }
    // A message of zero-width fields only has nothing to check but its objects.
    if s.fields.iter().any(|f| f.delta != Delta::Never) {
        p.line("const top = bw.firstField(first);");
    }
    p.open("try {");
    let kind = g.plan.get(id).body.wrong_type_kind();
    let name = &def_name(g, id);
    object_check(p, "b", "0", kind, name, "struct", &[]);
    object_check(p, "v", "0", kind, name, "struct", &[]);
    for f in &s.fields {
        if f.delta == Delta::Never {
            continue;
        }
        let node = &plan.fields[f.index].node;
        let prop = &g.names.types[id].members[f.index];
        let seg = naming::str_lit(&f.name);
        scratch_block(p, "bw.deltaScratch(0)", |p| {
            in_field(p, &seg, |p| {
                let x = locals.fresh("x");
                p.open(format!("for (const {x} of [b.{prop}, v.{prop}]) {{"));
                write_value(g, p, &mut locals, node, &x);
                p.close("}");
            });
        });
        p.open(format!("if (top === {seg}) {{"));
        p.line("return first;");
        p.close("}");
    }
    p.middle("} catch (e) {");
    p.line("return e;");
    p.close("}");
    p.line("return first;");
    p.close("}");
}

fn def_name(g: &Gen, id: TypeId) -> String {
    g.schema.types[id].name.clone()
}

/// Prints `try { body } catch (e) { throw bw.inField(e, seg); }`.
fn in_field(p: &mut Printer, seg: &str, body: impl FnOnce(&mut Printer)) {
    crate::codegen::ts::wrapped(p, "inField", seg, body);
}

/// Prints `try { body } catch (e) { throw bw.atIndex(e, i); }`.
pub(super) fn at_index(p: &mut Printer, i: &str, body: impl FnOnce(&mut Printer)) {
    crate::codegen::ts::wrapped(p, "atIndex", i, body);
}

/// Prints the row writer `writeDeltaX` of a planned struct delta.
pub fn row_fn(g: &Gen, p: &mut Printer, row: usize, s: &StructDelta) {
    let ident = g.ident(s.id);
    let names = &g.delta_names.rows[row];
    let plan = g.plan.struct_plan(s.id).expect("a struct");
    let whose = match s.without {
        None => format!("`{ident}`"),
        Some(k) => format!(
            "`{ident}`, an element of a list keyed by `{}` (the key left out)",
            plan.fields[k].name
        ),
    };
    p.doc(&[vec![
        "Writes the delta of `v` against its baseline `b` (spec §12.3): a changed bit per".into(),
        "field, then the field's delta. Returns whether a field changed.".into(),
        format!("Of {whose}."),
    ]]);
    let top = if names.top { ", top: boolean" } else { "" };
    p.open(format!(
        "function {}(w: bw.BitWriter, b: {ident}, v: {ident}{top}): boolean {{",
        names.write
    ));
    let mut locals = Locals::default();
    for r in ["w", "b", "v", "top", "changed", "e"] {
        locals.reserve(r);
    }
    let kind = g.plan.get(s.id).body.wrong_type_kind();
    let name = def_name(g, s.id);
    object_check(p, "b", "w.bitPos", kind, &name, "struct", &[]);
    object_check(p, "v", "w.bitPos", kind, &name, "struct", &[]);
    p.line("let changed = false;");
    for f in &s.fields {
        let node = &plan.fields[f.index].node;
        let prop = &g.names.types[s.id].members[f.index];
        let (b, v) = (format!("b.{prop}"), format!("v.{prop}"));
        let seg = naming::str_lit(&f.name);
        let hint = g.local(prop).trim_end_matches('_').to_string();
        match &f.delta {
            Delta::Diff { .. } => {
                let path = [f.name.clone()];
                let to = Target {
                    path: &path,
                    hint: &hint,
                    flag: "changed",
                };
                change(g, p, &mut locals, (&f.delta, node), (&b, &v), to);
            }
            Delta::Never if names.top => {
                p.open("if (!top) {");
                never(g, p, &mut locals, node, (&b, &v), &seg);
                p.close("}");
            }
            Delta::Never => never(g, p, &mut locals, node, (&b, &v), &seg),
            _ => in_field(p, &seg, |p| {
                let to = Target {
                    path: &[],
                    hint: &hint,
                    flag: "changed",
                };
                change(g, p, &mut locals, (&f.delta, node), (&b, &v), to);
            }),
        }
    }
    p.line("return changed;");
    p.close("}");
}

/// A zero-width field inside a value that changed: nothing is written, but the full
/// encoder's checks of both (§12.7: the full encodings are what is compared).
fn never(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    node: &Node,
    (b, v): (&str, &str),
    seg: &str,
) {
    p.line("// Zero bits: checked as the full encoder does, never written (spec §12.2).");
    scratch_block(p, "bw.deltaScratch(0)", |p| {
        in_field(p, seg, |p| {
            write_value(g, p, locals, node, b);
            write_value(g, p, locals, node, v);
        });
    });
}

/// What [`change`] reports to: the path of a scalar's check errors (empty when a
/// `try` adds it), the stem of its locals, and the local it sets when the value changed.
#[derive(Debug, Clone, Copy)]
struct Target<'a> {
    path: &'a [String],
    hint: &'a str,
    flag: &'a str,
}

/// Prints the changed bit and the delta of one value of `node` (§12.3), the baseline's
/// `b` against the value's `v`, and sets the target's flag when it changed.
fn change(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    (delta, node): (&Delta, &Node),
    (b, v): (&str, &str),
    to: Target,
) {
    let (hint, flag) = (to.hint, to.flag);
    match delta {
        Delta::Never => unreachable!("zero-width fields are handled by the row"),
        Delta::Diff {
            width, prefix_bits, ..
        } => diff(g, p, locals, node, (b, v), (*width, *prefix_bits), to),
        Delta::Struct { id } => {
            let callee = &g.delta_names.rows[g.delta_row(*id, None)];
            let top = if callee.top { ", false" } else { "" };
            let at = locals.fresh("at");
            p.line(format!("const {at} = w.bitPos;"));
            p.line("w.writeBits(1, 1);");
            let call = format!("{}(w, {b}, {v}{top})", callee.write);
            unchanged_unless(p, &call, &at, flag);
        }
        Delta::Array { len, elem } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array")
            };
            let lb = bind(p, locals, b, "listB");
            let lv = bind(p, locals, v, "listV");
            for l in [&lb, &lv] {
                let kind = (node.wrong_type_kind(&g.plan), g.typed_array(node));
                array_check(p, l, kind, Some(*len), None, "w.bitPos");
            }
            let at = locals.fresh("at");
            let any = locals.fresh("any");
            let i = locals.fresh("i");
            p.line(format!("const {at} = w.bitPos;"));
            p.line("w.writeBits(1, 1);");
            p.line(format!("let {any} = false;"));
            p.open(format!("for (let {i} = 0; {i} < {len}; {i}++) {{"));
            let (eb, ev) = (format!("{lb}[{i}]"), format!("{lv}[{i}]"));
            at_index(p, &i.clone(), |p| {
                let to = Target {
                    path: &[],
                    hint: "item",
                    flag: &any,
                };
                change(g, p, locals, (elem, &a.elem), (&eb, &ev), to);
            });
            p.close("}");
            unchanged_unless(p, &any, &at, flag);
        }
        Delta::Keyed(k) => super::keyed::keyed(g, p, locals, k, node, (b, v), flag),
        Delta::Replace => replace(g, p, locals, node, (b, v), hint, flag),
    }
}

/// Prints the end of a speculative delta that started with a changed bit of 1 at `at`:
/// when `cond` holds, `flag` is set; otherwise the writer goes back to `at` and writes
/// a changed bit of 0 instead (§12.3: nothing changed is one zero bit).
fn unchanged_unless(p: &mut Printer, cond: &str, at: &str, flag: &str) {
    unchanged_unless_rewind(p, cond, at, flag, |_| {});
}

/// [`unchanged_unless`] that also prints `body` (more of the delta) when `cond` holds.
pub(super) fn unchanged_unless_rewind(
    p: &mut Printer,
    cond: &str,
    at: &str,
    flag: &str,
    body: impl FnOnce(&mut Printer),
) {
    p.open(format!("if ({cond}) {{"));
    p.line(format!("{flag} = true;"));
    body(p);
    p.middle("} else {");
    p.line(format!("w.rewind({at});"));
    p.line("w.writeBits(0, 1);");
    p.close("}");
}

/// Prints the checks that `x` is an array (else `kind`; with typed arrays, its typed
/// array `typed` will do too), of exactly `len` elements or of at most `max`
/// (`InvalidLength`), at bit `at`.
pub(super) fn array_check(
    p: &mut Printer,
    x: &str,
    (kind, typed): (Kind, Option<&str>),
    len: Option<u64>,
    max: Option<u64>,
    at: &str,
) {
    let expected = match (len, max) {
        (Some(n), _) => format!("an array of {n} elements"),
        (None, Some(m)) if u128::from(m) < MAX_SAFE => format!("an array of at most {m} elements"),
        _ => "an array".to_string(),
    };
    let not_array = match typed {
        Some(t) => format!("!({x} instanceof {t}) && !Array.isArray({x})"),
        None => format!("!Array.isArray({x})"),
    };
    fail(
        p,
        &not_array,
        &format!(
            "bw.typeError(\"{}\", {at}, {x}, \"{expected}\")",
            kind.name()
        ),
    );
    if let Some(n) = len {
        fail(
            p,
            &format!("{x}.length !== {n}"),
            &format!("bw.lengthError({at}, {x}.length, {n})"),
        );
    }
    if let Some(m) = max.filter(|&m| u128::from(m) < MAX_SAFE) {
        fail(
            p,
            &format!("{x}.length > {m}"),
            &format!("bw.lengthError({at}, {x}.length, {m})"),
        );
    }
}

/// A value that travels whole when it changed (§12.3's last row): a changed bit, then
/// its full encoding. Strings compare as strings once both are checked; anything else
/// is encoded into the two scratch writers and compared bit for bit.
fn replace(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    node: &Node,
    (b, v): (&str, &str),
    hint: &str,
    flag: &str,
) {
    if let Op::String(len) = &node.op {
        let sb = bind(p, locals, b, &format!("{hint}B"));
        let sv = bind(p, locals, v, &format!("{hint}V"));
        string_check(p, locals, &sb, len.max, "w.bitPos");
        p.open(format!("if ({sb} === {sv}) {{"));
        p.line("w.writeBits(0, 1);");
        p.middle("} else {");
        string_check(p, locals, &sv, len.max, "w.bitPos");
        p.line("w.writeBits(1, 1);");
        write_value(g, p, locals, node, &sv);
        p.line(format!("{flag} = true;"));
        p.close("}");
        return;
    }
    let (s0, s1) = (locals.fresh("full"), locals.fresh("fullV"));
    p.line(format!("const {s0} = bw.deltaScratch(0);"));
    scratch_block(p, &s0, |p| write_value(g, p, locals, node, b));
    p.line(format!("const {s1} = bw.deltaScratch(1);"));
    scratch_block(p, &s1, |p| write_value(g, p, locals, node, v));
    p.open(format!("if ({s0}.sameBits({s1})) {{"));
    p.line("w.writeBits(0, 1);");
    p.middle("} else {");
    p.line("w.writeBits(1, 1);");
    p.line(format!("w.append({s1});"));
    p.line(format!("{flag} = true;"));
    p.close("}");
}

/// Prints the full encoder's checks of a string `s` (a string with a UTF-8 form, of at
/// most `max` bytes) at bit `at`.
pub(super) fn string_check(
    p: &mut Printer,
    locals: &mut Locals,
    s: &str,
    max: Option<u64>,
    at: &str,
) {
    let n = locals.fresh(&format!("{s}Len"));
    p.line(format!("const {n} = bw.utf8Length({s});"));
    fail(p, &format!("{n} < 0"), &format!("bw.utf8Error({at}, {s})"));
    if let Some(m) = max.filter(|&m| u128::from(m) < MAX_SAFE) {
        fail(
            p,
            &format!("{n} > {m}"),
            &format!("bw.lengthError({at}, {n}, {m})"),
        );
    }
}

/// A scalar's changed bit and difference code (§12.4), after the full encoder's checks
/// of both values; the same value (`===`, or `Object.is` for floats, for which -0 is
/// not 0 and NaN is NaN, as on the wire) has the same wire value and is checked once.
fn diff(
    g: &Gen,
    p: &mut Printer,
    locals: &mut Locals,
    node: &Node,
    (b, v): (&str, &str),
    (width, prefix_bits): (u32, u32),
    to: Target,
) {
    let (names, hint, flag) = (to.path, to.hint, to.flag);
    let at = ErrorAt {
        bit: "w.bitPos",
        path: names,
    };
    let (hb, hv) = (format!("{hint}B"), format!("{hint}V"));
    let xb = bind(p, locals, b, &hb);
    let wb = wire::wire_value(g, p, locals, node, (&xb, &hb), at);
    // The same value has the same wire value (and is as valid): one check. Floats
    // compare with `Object.is`, for which -0 is not 0 and NaN is NaN, as on the wire.
    let xv = bind(p, locals, v, &hv);
    let same = match &node.op {
        Op::Scalar(Scalar {
            kind: ScalarKind::Float { .. },
            ..
        }) => format!("Object.is({xv}, {xb})"),
        _ => format!("{xv} === {xb}"),
    };
    p.open(format!("if ({same}) {{"));
    p.line("w.writeBits(0, 1);");
    p.middle("} else {");
    let wv = wire::wire_value(g, p, locals, node, (&xv, &hv), at);
    let args = match (wb, wv) {
        (Wire::N32(x), Wire::N32(y)) => vec!["w".into(), x, y],
        (Wire::Halves(bl, bh), Wire::Halves(vl, vh)) => vec!["w".into(), bl, bh, vl, vh],
        _ => unreachable!("both sides of a scalar have one width"),
    };
    let call = if args.len() == 3 {
        "writeChange"
    } else {
        "writeChange64"
    };
    let mut args = args;
    args.push(width.to_string());
    args.push(prefix_bits.to_string());
    let one = format!("if (bw.{call}({})) {{", args.join(", "));
    if p.fits(&one) {
        p.open(one);
    } else {
        let c = locals.fresh(&format!("{hint}Changed"));
        p.list(&format!("const {c} = bw.{call}("), &args, ");");
        p.open(format!("if ({c}) {{"));
    }
    p.line(format!("{flag} = true;"));
    p.close("}");
    p.close("}");
}
