//! The delta encoding of every `delta message` (spec §12), printed from the delta
//! plan ([`crate::plan::delta`]) and the codec plan: per struct delta of the plan a
//! `writeDelta` (each field's changed bit and delta) and a `readDelta` (the inverse,
//! with the canonical-form checks of §12.6), a `bitwire.Keyed` value per keyed list
//! (the runtime walks keyed lists, `keyed.go`), and on each delta message `AppendDelta`, `EncodeDelta`, `DecodeDelta`,
//! `DecodeDeltaWithLimits` and `VerifyXDelta`. The checks, wire equality and copies
//! these call are in [`super::delta_eq`]. Nothing is printed for a schema
//! without a delta message.

use super::decode::{decode_value, Mode};
use super::delta_eq::{check_value, copy_value, eq_and_copy, eq_expr, raw_wire, Place};
use super::encode::write_value;
use super::expr::{atom, call};
use super::printer::Printer;
use super::scalars::{at_most_error, encode_error, quantizer_input, value_from_bits, violation};
use super::scalars::{to_i64, to_u64, wire_bits};
use super::{f64_lit, Ctx, Gen, Locals};
use crate::ir::{FloatRepr, TypeDefKind, TypeId};
use crate::plan::delta::{Delta, KeyedDelta, StructDelta};
use crate::plan::{DecodeCheck, EncodeCheck, Node, Op, ScalarKind};

/// Prints every delta function of named type `id` (nothing when no delta message
/// reaches it).
pub fn methods(g: &Gen, p: &mut Printer, id: TypeId) {
    if !g.delta_reach[id] {
        return;
    }
    eq_and_copy(g, p, id);
    for s in g.delta.structs.iter().filter(|s| s.id == id) {
        write_fn(g, p, s);
        read_fn(g, p, s);
    }
    super::delta_keyed::keyed_descs(g, p, id);
    if g.schema.types[id].delta {
        top_level(g, p, id);
    }
}

/// The suffix of a struct delta's functions: `""`, or `WithoutID` for a keyed list
/// element without its key field `id`.
fn suffix(g: &Gen, s: &StructDelta) -> String {
    match s.without {
        None => String::new(),
        Some(k) => format!("Without{}", g.names.types[s.id].members[k]),
    }
}

/// The node of field `index` of struct `id`.
pub(super) fn field_node<'g>(g: &'g Gen, id: TypeId, index: usize) -> &'g Node {
    &g.plan.struct_plan(id).expect("a struct").fields[index].node
}

/// The name of the `bitwire.Keyed` value of the keyed list in field `index` of
/// struct `id` (or in the arrays of that field).
pub(super) fn desc_name(g: &Gen, id: TypeId, index: usize) -> String {
    let names = &g.names.types[id];
    format!("{}{}Keyed", names.lower, names.members[index])
}

/// `WorldEntities`: the owner and field of a keyed list, naming the functions that
/// write and read its delta (`writeWorldEntitiesDelta`, `readWorldEntitiesDelta`).
pub(super) fn site_name(g: &Gen, id: TypeId, index: usize) -> String {
    format!("{}{}", g.ident(id), g.names.types[id].members[index])
}

/// The keyed list inside a field's delta, if any.
pub(super) fn keyed_of(d: &Delta) -> Option<&KeyedDelta> {
    match d {
        Delta::Keyed(k) => Some(k),
        Delta::Array { elem, .. } => keyed_of(elem),
        _ => None,
    }
}

/// Prints `writeDelta` of a struct delta: each field's changed bit and delta.
fn write_fn(g: &Gen, p: &mut Printer, s: &StructDelta) {
    let ident = g.ident(s.id);
    let sfx = suffix(g, s);
    p.blank();
    let what = match s.without {
        None => "then its delta if it changed",
        Some(_) => "then its delta if it changed; not the key field (§12.5)",
    };
    p.doc(format!(
        "writeDelta{sfx} writes the delta of m against base (spec §12.3): each field's \
         changed bit, {what}. Each field of base, then of m, is checked as the full \
         encoder checks it first (§12.7)."
    ));
    p.open(format!(
        "func (m *{ident}) writeDelta{sfx}(w *bitwire.BitWriter, base *{ident}) error {{"
    ));
    let mut loc = Locals::new(&["m", "w", "base"]);
    for f in &s.fields {
        let node = field_node(g, s.id, f.index);
        let member = &g.names.types[s.id].members[f.index];
        let site = keyed_of(&f.delta).map(|_| site_name(g, s.id, f.index));
        let w = WriteSite {
            ctx: Ctx::default().field(&f.name),
            cur: format!("m.{member}"),
            base: format!("base.{member}"),
            hint: g.names.types[s.id].locals[f.index].clone(),
            desc: site.unwrap_or_default(),
        };
        write_delta(g, p, &mut loc, &w, &f.delta, node, true);
    }
    p.line("return nil");
    p.close("}");
}

/// Where a value's delta is written: its path, the current and baseline places, a
/// name hint for locals, and the keyed list's `bitwire.Keyed` value when it holds one.
struct WriteSite {
    ctx: Ctx,
    cur: String,
    base: String,
    hint: String,
    desc: String,
}

impl WriteSite {
    fn elem(&self, i: &str) -> WriteSite {
        WriteSite {
            ctx: self.ctx.index(i),
            cur: format!("{}[{i}]", self.cur),
            base: format!("{}[{i}]", self.base),
            hint: "item".into(),
            desc: self.desc.clone(),
        }
    }
}

/// Prints the changed bit of a value and, if it changed, its delta. With `check`,
/// first the full encoder's checks of the baseline's value, then of the current one
/// (§12.7, the reference codec's order); the elements of an array are checked with
/// the array.
fn write_delta(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    w: &WriteSite,
    d: &Delta,
    node: &Node,
    check: bool,
) {
    let (cur, base) = (&w.cur, &w.base);
    match d {
        Delta::Never => {}
        Delta::Diff {
            width, prefix_bits, ..
        } => {
            let (ub, uv) = if check {
                let ub = checked_wire(p, loc, &w.ctx, node, base, &format!("{}Base", w.hint));
                (ub, checked_wire(p, loc, &w.ctx, node, cur, &w.hint))
            } else {
                (unchecked_wire(node, base), unchecked_wire(node, cur))
            };
            let args = vec![
                ub,
                uv,
                atom(width.to_string()),
                atom(prefix_bits.to_string()),
            ];
            p.line(call("w.WriteScalarDelta", args).text());
        }
        _ => {
            if check {
                check_value(g, p, loc, &w.ctx, node, base);
                check_value(g, p, loc, &w.ctx, node, cur);
            }
            let eq = eq_expr(g, node, &Place::Val(cur.clone()), &Place::Val(base.clone()));
            p.open(format!("if {} {{", eq.text()));
            p.line("w.WriteBits(0, 1)");
            p.middle("} else {");
            p.line("w.WriteBits(1, 1)");
            write_changed(g, p, loc, w, d, node);
            p.close("}");
        }
    }
}

/// Prints the delta of a value that changed (after its changed bit).
fn write_changed(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    w: &WriteSite,
    d: &Delta,
    node: &Node,
) {
    let (cur, base) = (&w.cur, &w.base);
    let try_call = |p: &mut Printer, call: String| {
        p.open(format!("if err := {call}; err != nil {{"));
        p.line(format!("return {}", w.ctx.wrap("err")));
        p.close("}");
    };
    match d {
        Delta::Struct { .. } => try_call(p, format!("{cur}.writeDelta(w, &{base})")),
        Delta::Array { elem, .. } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array delta of an array")
            };
            let i = loc.fresh("i");
            p.open(format!("for {i} := range {cur} {{"));
            write_delta(g, p, loc, &w.elem(&i), elem, &a.elem, false);
            p.close("}");
        }
        Delta::Keyed(_) => try_call(p, format!("write{}Delta(w, {cur}, {base})", w.desc)),
        Delta::Replace => write_value(g, p, loc, &w.ctx, node, cur),
        Delta::Never | Delta::Diff { .. } => unreachable!("written by write_delta"),
    }
}

/// The wire value of a scalar or varint at `x` already checked.
fn unchecked_wire(node: &Node, x: &str) -> super::expr::E {
    match &node.op {
        Op::Varint(v) if v.signed => call("bitwire.ZigzagEncode", vec![to_i64(atom(x), v.repr)]),
        Op::Varint(v) => to_u64(atom(x), v.repr),
        Op::Scalar(s) => raw_wire(s, x),
        other => unreachable!("a difference code of {other:?}"),
    }
}

/// Prints the checks of a scalar or varint at `x` (the full encoder's, §12.7) and
/// returns the expression of its wire value.
fn checked_wire(
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &Node,
    x: &str,
    hint: &str,
) -> super::expr::E {
    let s = match &node.op {
        Op::Varint(v) if v.signed => {
            return call("bitwire.ZigzagEncode", vec![to_i64(atom(x), v.repr)]);
        }
        Op::Varint(v) => return to_u64(atom(x), v.repr),
        Op::Scalar(s) => s,
        other => unreachable!("a difference code of {other:?}"),
    };
    // Encoder errors of a delta have no bit offset (§12.7): bit 0.
    let at = atom("0");
    match (s.encode, &s.kind) {
        (EncodeCheck::FloatRange { min, max, .. }, ScalarKind::Quantized { repr, steps, .. }) => {
            let v = quantizer_input(*repr, x);
            let (lo, hi) = (f64_lit(min), f64_lit(max));
            p.open(format!("if !({lo} <= {v} && {v} <= {hi}) {{"));
            let e = call(
                "bitwire.FloatRangeError",
                vec![at, atom(&v), atom(&lo), atom(&hi)],
            );
            p.line(format!("return {}", ctx.wrap(&e.text())));
            p.close("}");
            let q = loc.fresh(&super::naming::local(hint));
            p.line(format!("{q} := bitwire.Quantize({v}, {lo}, {hi}, {steps})"));
            return atom(q);
        }
        _ => {
            if let Some(cond) = violation(s, atom(x)) {
                p.open(format!("if {} {{", cond.text()));
                p.line(format!(
                    "return {}",
                    ctx.wrap(&encode_error(s, atom(x), at).text())
                ));
                p.close("}");
            }
        }
    }
    wire_bits(s, atom(x), None)
}

/// Prints `readDelta` of a struct delta.
fn read_fn(g: &Gen, p: &mut Printer, s: &StructDelta) {
    let ident = g.ident(s.id);
    let sfx = suffix(g, s);
    p.blank();
    p.doc(format!(
        "readDelta{sfx} sets m to base with the delta at r's position applied (spec \
         §12.3), reusing m's slices (not those it shares with base). A nested struct's \
         delta that changes nothing is NonCanonical (§12.6)."
    ));
    p.open(format!(
        "func (m *{ident}) readDelta{sfx}(r *bitwire.BitReader, base *{ident}, nested bool) error {{"
    ));
    let mut loc = Locals::new(&["m", "r", "base", "nested"]);
    let changing = s.fields.iter().any(|f| f.delta != Delta::Never);
    let any = changing.then(|| loc.fresh("anyChanged"));
    if let Some(any) = &any {
        p.line(format!("{any} := false"));
    }
    let names = &g.names.types[s.id];
    if let Some(k) = s.without {
        // The key of a kept element is the baseline's.
        let node = field_node(g, s.id, k);
        let (d, b) = (
            format!("m.{}", names.members[k]),
            format!("base.{}", names.members[k]),
        );
        copy_value(g, p, &mut loc, node, &d, &b);
    }
    for f in &s.fields {
        let node = field_node(g, s.id, f.index);
        let member = &names.members[f.index];
        let site = ReadSite {
            ctx: Ctx::default().field(&f.name),
            dst: format!("m.{member}"),
            base: format!("base.{member}"),
            hint: names.locals[f.index].clone(),
            desc: keyed_of(&f.delta)
                .map(|_| site_name(g, s.id, f.index))
                .unwrap_or_default(),
        };
        read_delta(g, p, &mut loc, &site, &f.delta, node, any.as_deref());
    }
    if let Some(any) = &any {
        p.open(format!("if nested && !{any} {{"));
        p.line("return bitwire.UnchangedError(r.BitPos(), \"struct\")");
        p.close("}");
    }
    p.line("return nil");
    p.close("}");
}

/// Where a value's delta is read: its path, the destination and baseline places, a
/// name hint, and the keyed list's `bitwire.Keyed` value when it holds one.
struct ReadSite {
    ctx: Ctx,
    dst: String,
    base: String,
    hint: String,
    desc: String,
}

impl ReadSite {
    fn elem(&self, i: &str) -> ReadSite {
        ReadSite {
            ctx: self.ctx.index(i),
            dst: format!("{}[{i}]", self.dst),
            base: format!("{}[{i}]", self.base),
            hint: "item".into(),
            desc: self.desc.clone(),
        }
    }
}

/// Prints the reading of a value's changed bit and, if set, its delta into `dst`
/// (setting `any`); otherwise the copy of the baseline's value.
fn read_delta(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    s: &ReadSite,
    d: &Delta,
    node: &Node,
    any: Option<&str>,
) {
    if *d == Delta::Never {
        // Zero bits: the type's one value.
        return decode_value(g, p, loc, &s.ctx, node, &s.dst, &s.hint, Mode::Read);
    }
    let changed = loc.fresh(&format!("{}Changed", s.hint.trim_end_matches('_')));
    p.line(format!("{changed}, err := r.ReadBool()"));
    p.if_err(&s.ctx.wrap("err"));
    p.open(format!("if {changed} {{"));
    read_changed(g, p, loc, s, d, node);
    if let Some(any) = any {
        p.line(format!("{any} = true"));
    }
    p.middle("} else {");
    copy_value(g, p, loc, node, &s.dst, &s.base);
    p.close("}");
}

/// Prints the reading of the delta of a value whose changed bit is set.
fn read_changed(g: &Gen, p: &mut Printer, loc: &mut Locals, s: &ReadSite, d: &Delta, node: &Node) {
    let (dst, base) = (&s.dst, &s.base);
    let wrap = s.ctx.wrap("err");
    match d {
        Delta::Diff {
            width, prefix_bits, ..
        } => read_diff(g, p, loc, s, node, *width, *prefix_bits),
        Delta::Struct { .. } => {
            p.if_init_err(&format!("err := {dst}.readDelta(r, &{base}, true)"), &wrap);
        }
        Delta::Array { elem, .. } => {
            let Op::Array(a) = &node.op else {
                unreachable!("an array delta of an array")
            };
            let any = loc.fresh("anyElem");
            p.line(format!("{any} := false"));
            let i = loc.fresh("i");
            p.open(format!("for {i} := range {dst} {{"));
            read_delta(g, p, loc, &s.elem(&i), elem, &a.elem, Some(&any));
            p.close("}");
            p.open(format!("if !{any} {{"));
            let e = "bitwire.UnchangedError(r.BitPos(), \"array\")";
            p.line(format!("return {}", s.ctx.wrap(e)));
            p.close("}");
        }
        Delta::Keyed(_) => {
            let list = loc.fresh("list");
            p.line(format!(
                "{list}, err := read{}Delta(r, {dst}, {base})",
                s.desc
            ));
            p.line(format!("{dst} = {list}"));
            p.if_err(&wrap);
        }
        Delta::Replace => {
            if matches!(node.op, Op::List(_) | Op::Bytes(_)) {
                // Decoding into the baseline's own array would overwrite what the
                // NonCanonical check below compares with.
                p.line(format!("{dst} = bitwire.Unshare({dst}, {base})"));
            }
            decode_value(g, p, loc, &s.ctx, node, dst, &s.hint, Mode::Read);
            let eq = eq_expr(g, node, &Place::Val(dst.clone()), &Place::Val(base.clone()));
            p.open(format!("if {} {{", eq.text()));
            let e = "bitwire.UnchangedError(r.BitPos(), \"replacement\")";
            p.line(format!("return {}", s.ctx.wrap(e)));
            p.close("}");
        }
        Delta::Never => unreachable!("read by read_delta"),
    }
}

/// Prints the reading of a difference code (§12.4) against the baseline's wire
/// value, the checks the full decoder makes on the new wire value (at the code's
/// first bit), and the store of its value.
fn read_diff(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    s: &ReadSite,
    node: &Node,
    width: u32,
    prefix_bits: u32,
) {
    let wrap = s.ctx.wrap("err");
    let c = loc.fresh("c");
    let scalar = match &node.op {
        Op::Scalar(sc) => Some(sc),
        _ => None,
    };
    let ub = unchecked_wire(node, &s.base);
    let read = call(
        "r.ReadDiff",
        vec![ub, atom(width.to_string()), atom(prefix_bits.to_string())],
    );
    p.line(format!("{c}, err := {}", read.text()));
    p.if_err(&wrap);
    let raw = format!("{c}.Word");
    let Some(sc) = scalar else {
        let Op::Varint(v) = &node.op else {
            unreachable!()
        };
        let value = if v.signed {
            super::scalars::from_i64(call("bitwire.ZigzagDecode", vec![atom(&raw)]), v.repr)
        } else {
            super::scalars::from_u64(atom(&raw), v.repr)
        };
        return p.line(format!("{} = {}", s.dst, value.text()));
    };
    let fail = |p: &mut Printer, cond: String, err: String| {
        p.open(format!("if {cond} {{"));
        p.line(format!("return {}", s.ctx.wrap(&err)));
        p.close("}");
    };
    match sc.decode {
        DecodeCheck::CanonicalNan { .. } => {
            let f = match sc.kind {
                ScalarKind::Float {
                    repr: FloatRepr::F32,
                } => "bitwire.F32FromWire",
                _ => "bitwire.F64FromWire",
            };
            let x = loc.fresh(&s.hint);
            p.line(format!("{x}, err := {f}({raw}, {c}.Start)"));
            p.if_err(&wrap);
            return p.line(format!("{} = {x}", s.dst));
        }
        DecodeCheck::AtMost { max, .. } => {
            fail(p, format!("{raw} > {max}"), at_most_error(sc, &c, 0, &raw))
        }
        DecodeCheck::Declared { .. } => {
            let ScalarKind::Enum { id, .. } = sc.kind else {
                unreachable!("a declared check is an enum's")
            };
            fail(
                p,
                format!("!{}({raw}).Valid()", g.ident(id)),
                format!("{c}.EnumError(0, {raw})"),
            );
        }
        DecodeCheck::None => {}
    }
    p.line(format!(
        "{} = {}",
        s.dst,
        value_from_bits(g, sc, atom(&raw)).text()
    ));
}

/// Prints the delta API of a delta message: `AppendDelta`, `EncodeDelta`,
/// `DecodeDelta`, `DecodeDeltaWithLimits` and `VerifyXDelta`.
fn top_level(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.blank();
    p.doc(
        "AppendDelta appends the delta encoding of m against baseline (spec §12: each \
         field's changed bit, then the delta of each changed one, padded with zero bits to \
         a byte) to dst. Unchanged fields cost one bit, unchanged elements of a keyed list \
         about one bit. The peer decodes it with DecodeDelta against the same baseline. \
         Keyed lists must be strictly ascending by key (else InvalidKey); values are \
         checked as AppendTo checks them. On error it returns dst unchanged.",
    );
    p.open(format!(
        "func (m *{ident}) AppendDelta(dst []byte, baseline *{ident}) ([]byte, error) {{"
    ));
    p.line("w := bitwire.NewBitWriter(dst)");
    p.open("if err := m.writeDelta(&w, baseline); err != nil {");
    p.line("return dst, err");
    p.close("}");
    p.line("return w.Finish(), nil");
    p.close("}");
    p.blank();
    p.doc("EncodeDelta returns the delta encoding of m against baseline in a new slice.");
    p.open(format!(
        "func (m *{ident}) EncodeDelta(baseline *{ident}) ([]byte, error) {{"
    ));
    p.line("b, err := m.AppendDelta(make([]byte, 0, 64), baseline)");
    p.if_err("nil, err");
    p.line("return b, nil");
    p.close("}");
    p.blank();
    p.doc(
        "DecodeDelta sets m to the value encoded in the delta b (all of it: zero padding, \
         no trailing bytes) against baseline, with the default decode budget (spec §12.8). \
         The result is what decoding the full encoding of the value gives. m reuses the \
         capacity of its slices and shares no memory with baseline afterwards; m may be \
         baseline itself. On error m holds a partly decoded value.",
    );
    p.open(format!(
        "func (m *{ident}) DecodeDelta(baseline *{ident}, b []byte) error {{"
    ));
    p.line("return m.DecodeDeltaWithLimits(baseline, b, bitwire.DefaultLimits())");
    p.close("}");
    p.blank();
    p.doc(
        "DecodeDeltaWithLimits is DecodeDelta with the decode budget of limits (spec §11, \
         §12.8) instead of the default one. A keyed list of baseline that is not strictly \
         ascending by key is InvalidKey at bit 0.",
    );
    let sig = format!(
        "func (m *{ident}) DecodeDeltaWithLimits(baseline *{ident}, b []byte, limits bitwire.Limits) error {{"
    );
    if sig.chars().count() <= super::printer::MAX_WIDTH {
        p.open(sig);
    } else {
        // Broken after the parenthesis, as gofmt keeps it.
        p.open(format!("func (m *{ident}) DecodeDeltaWithLimits("));
        p.line(format!(
            "baseline *{ident}, b []byte, limits bitwire.Limits,"
        ));
        p.middle(") error {");
    }
    p.open("if m == baseline {");
    p.line("// Decoding over the baseline would overwrite what is still to be read.");
    p.line(format!("held := new({ident})"));
    p.line("held.copyFrom(baseline)");
    p.line("baseline = held");
    p.close("}");
    p.line("r := bitwire.NewBitReaderWithLimits(b, limits)");
    p.if_init_err("err := m.readDelta(&r, baseline, false)", "err");
    p.line("return r.Finish()");
    p.close("}");
    let verify = g.consts[id].verify_delta.as_ref().expect("a delta message");
    p.blank();
    p.doc(format!(
        "{verify} checks that b is exactly one valid delta of {} against baseline and \
         returns the error DecodeDelta would return. It decodes into a value it drops: a \
         delta's checks need the values it changes.",
        a_an(ident)
    ));
    p.open(format!(
        "func {verify}(baseline *{ident}, b []byte) error {{"
    ));
    p.line(format!("var m {ident}"));
    p.line("return m.DecodeDelta(baseline, b)");
    p.close("}");
}

fn a_an(name: &str) -> String {
    super::types::a(name)
}

/// Which named types a delta message reaches (through any field: they get
/// `copyFrom`), and which of them the delta code checks or compares (they get
/// `checkWire` and, unless zero-width, `wireEqual`): those inside a field with bits
/// of a type it reaches (a zero-width field is never checked nor compared, §12.2),
/// and those inside any field of a type it checks (whose `checkWire` checks every
/// field, as the full encoder does).
pub fn reach(schema: &crate::ir::Schema, plan: &crate::plan::CodecPlan) -> (Vec<bool>, Vec<bool>) {
    let mut reach = vec![false; schema.types.len()];
    let mut referred = vec![false; schema.types.len()];
    let mut checked: Vec<TypeId> = Vec::new();
    let mut stack: Vec<TypeId> = (0..schema.types.len())
        .filter(|&i| schema.types[i].delta)
        .collect();
    while let Some(id) = stack.pop() {
        if reach[id] || matches!(schema.types[id].kind, TypeDefKind::Enum { .. }) {
            continue;
        }
        reach[id] = true;
        for field in field_nodes(plan, id) {
            for t in named_in(field) {
                stack.push(t);
                if !field.is_zero_width() && !referred[t] {
                    referred[t] = true;
                    checked.push(t);
                }
            }
        }
    }
    while let Some(id) = checked.pop() {
        for t in field_nodes(plan, id).into_iter().flat_map(named_in) {
            if !referred[t] {
                referred[t] = true;
                checked.push(t);
            }
        }
    }
    (reach, referred)
}

/// The nodes of the fields (or union payloads) of type `id`.
fn field_nodes(plan: &crate::plan::CodecPlan, id: TypeId) -> Vec<&Node> {
    match &plan.get(id).body {
        crate::plan::Body::Struct(s) => s.fields.iter().map(|f| &f.node).collect(),
        crate::plan::Body::Union(u) => u.arms.iter().filter_map(|a| a.payload.as_ref()).collect(),
        crate::plan::Body::Enum(_) => Vec::new(),
    }
}

/// The named types in `node`, through optionals, arrays and lists.
fn named_in(node: &Node) -> Vec<TypeId> {
    let mut out = Vec::new();
    let mut nodes = vec![node];
    while let Some(n) = nodes.pop() {
        match &n.op {
            Op::Named(t) => out.push(*t),
            Op::Optional(inner) => nodes.push(inner),
            Op::Array(a) => nodes.push(&a.elem),
            Op::List(l) => nodes.push(&l.elem),
            _ => {}
        }
    }
    out
}
