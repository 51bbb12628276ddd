//! The delta codecs of `delta message`s (spec §12), printed from the delta plan
//! ([`crate::plan::delta`]) next to each field's codec plan: per struct row of the plan
//! (a struct, or a keyed list's element without its key) a `write_delta_row` that
//! writes the changed bits and deltas and says whether anything changed, and a
//! `read_delta_row` that reads them against the baseline; per message the
//! `::bitwire::Delta` impl over them. The difference code, the Exp-Golomb code and the
//! keyed list walk are the runtime's (`bitwire::delta`); nothing here decides a wire rule.
//!
//! Unchanged detection compares wire values (§12.2): scalars by their wire integer,
//! struct and array fields by writing their rows and taking them back when nothing
//! changed (a writer mark), other values by writing both full encodings and comparing
//! the bits. The encoder checks every value of both sides the way the full encoder
//! does; when it fails, the cold `delta_error` re-runs the full encoder on the failing
//! top-level field of the baseline, then of the value, so that the error reported is
//! the first one in the order of §12.7 (the order the reference codec checks in).

mod decode;
mod encode;

use super::encode::{write_value, Val};
use super::exprs::{range_error, range_violation, to_i64, to_u64, wire_bits};
use super::printer::Printer;
use super::{f64_lit, let_call, naming, return_error, try_expr, Ctx, Gen};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::delta::{Delta, StructDelta};
use crate::plan::{Form, Lang, Node, Op, ScalarKind};

/// Prints the private delta helpers of named type `id` into `helpers` (its inherent
/// impl): the rows of every struct delta of the plan for `id`, and for a `delta
/// message` the error path of its encoder.
pub fn helpers(g: &Gen, helpers: &mut Printer, id: TypeId) {
    for s in g.delta.structs.iter().filter(|s| s.id == id) {
        helpers.blank();
        encode::row_fn(g, helpers, s);
        helpers.blank();
        decode::row_fn(g, helpers, s);
    }
    if g.delta.messages.contains(&id) {
        helpers.blank();
        error_fns(g, helpers, id);
    }
}

/// Prints `impl ::bitwire::Delta for T` for a `delta message` (nothing for other
/// types): `write_delta` and `read_delta` over the message's rows.
pub fn delta_impl(g: &Gen, p: &mut Printer, id: TypeId) {
    if !g.delta.messages.contains(&id) {
        return;
    }
    p.blank();
    p.open(format!("impl ::bitwire::Delta for {} {{", g.ident(id)));
    p.line("#[inline]");
    fn_sig(
        p,
        "fn write_delta",
        &[
            "&self",
            "baseline: &Self",
            "w: &mut ::bitwire::BitWriter<'_>",
        ],
        "Result<(), ::bitwire::Error>",
    );
    p.open("match Self::write_delta_row(baseline, self, w) {");
    p.line("Ok(_) => Ok(()),");
    p.line("Err(e) => Err(Self::delta_error(baseline, self, e)),");
    p.close("}");
    p.close("}");
    p.blank();
    p.line("#[inline]");
    fn_sig(
        p,
        "fn read_delta",
        &["baseline: &Self", "r: &mut ::bitwire::BitReader<'_>"],
        "Result<Self, ::bitwire::Error>",
    );
    p.line("let (v, _) = Self::read_delta_row(baseline, r)?;");
    p.line("Ok(v)");
    p.close("}");
    p.close("}");
}

/// The name of the row functions of a struct delta: `write_delta_row` /
/// `read_delta_row`, or `write_delta_by_{key}` for a keyed list's element without key.
pub(crate) fn row_name(g: &Gen, s: &StructDelta, side: &str) -> String {
    match s.without {
        None => format!("{side}_delta_row"),
        Some(k) => {
            let key = g.names.types[s.id].members[k].trim_start_matches("r#");
            format!("{side}_delta_by_{key}")
        }
    }
}

/// Prints a function signature as rustfmt lays it out: on one line when it fits,
/// else one parameter per line.
pub(crate) fn fn_sig(p: &mut Printer, head: &str, params: &[&str], ret: &str) {
    let one = format!("{head}({}) -> {ret} {{", params.join(", "));
    if p.fits(&one) {
        p.open(one);
        return;
    }
    p.open(format!("{head}("));
    for param in params {
        p.line(format!("{param},"));
    }
    p.middle(format!(") -> {ret} {{"));
}

/// Whether printing the full encoding or decoding of `node` (`write_value`,
/// `decode_value`) calls a `Packed` method by name (`v.write(w)`, `Vec2::read(r)`),
/// which needs the trait in scope outside a `Packed` impl.
pub(crate) fn needs_packed(node: &Node) -> bool {
    match &node.op {
        Op::Named(_) => true,
        Op::Scalar(s) => matches!(s.kind, ScalarKind::Enum { .. }),
        Op::Optional(inner) => needs_packed(inner),
        Op::Array(a) => a.form == Form::Items && needs_packed(&a.elem),
        Op::List(l) => l.form == Form::Items && needs_packed(&l.elem),
        Op::Varint(_) | Op::String(_) | Op::Bytes(_) => false,
    }
}

/// Prints the full encoder's writing of `v` (checks included), with the `Packed` trait
/// in scope when it is called by name.
pub(crate) fn full_write(g: &Gen, p: &mut Printer, ctx: &Ctx, node: &Node, v: &Val) {
    if needs_packed(node) {
        p.use_packed();
    }
    write_value(g, p, ctx, node, v);
}

/// Prints the encoder's checks of the scalar or varint `x` (errors at bit 0, with the
/// path of `ctx`) and returns the expression of its wire value `u` (§12.2); a quantized
/// float's grid index goes through local `dest` first.
pub(crate) fn wire_value(p: &mut Printer, ctx: &Ctx, node: &Node, x: &Val, dest: &str) -> String {
    let s = match &node.op {
        Op::Scalar(s) => s,
        Op::Varint(v) => {
            return if v.signed {
                format!("::bitwire::zigzag_encode({})", to_i64(&x.value(), v.repr))
            } else {
                to_u64(&x.value(), v.repr)
            };
        }
        other => unreachable!("not a scalar: {other:?}"),
    };
    if let ScalarKind::Quantized {
        repr,
        min,
        max,
        steps,
        ..
    } = s.kind
    {
        let v = match repr {
            FloatRepr::F32 => format!("f64::from({})", x.value()),
            FloatRepr::F64 => x.value(),
        };
        let args = [v, f64_lit(min), f64_lit(max), steps.to_string(), "0".into()];
        let_call(p, dest, "::bitwire::quantize", &args, "");
        return try_expr(p, ctx, dest);
    }
    if s.encode_can_fail(Lang::RUST) {
        let value = x.value();
        if let Some(cond) = range_violation(s, &value, &x.as_ref()) {
            p.open(format!("if {cond} {{"));
            return_error(p, ctx, &range_error(s, &value, Err("0")));
            p.close("}");
        }
    }
    wire_bits(s, &x.value(), None)
}

/// Locals of the generated delta code; a field whose decoded value would be held in
/// one of these (with or without a numeric suffix) gets a `_` appended.
const LOCALS: &[&str] = &[
    "any", "base", "cur", "changed", "ub", "uc", "from", "scratch", "mark", "mid", "same", "arr",
    "bs", "cs", "b", "bits", "baseline", "writer",
];

/// The local that holds field `member` while a row is decoded.
pub(crate) fn field_local(member: &str) -> String {
    let local = naming::local_ident(member);
    let bare = local.trim_start_matches("r#");
    let stem = bare.trim_end_matches(|c: char| c.is_ascii_digit());
    if LOCALS.contains(&stem) {
        format!("{bare}_")
    } else {
        local
    }
}

/// The delta of each field of a struct delta with its codec plan node.
pub(crate) fn fields<'a>(
    g: &'a Gen,
    s: &'a StructDelta,
) -> impl Iterator<Item = (usize, &'a str, &'a Delta, &'a Node)> + 'a {
    let plan = g.plan.struct_plan(s.id).expect("a struct");
    s.fields.iter().map(move |f| {
        (
            f.index,
            f.name.as_str(),
            &f.delta,
            &plan.fields[f.index].node,
        )
    })
}

/// Prints the cold error path of a message's delta encoder: `delta_error`, which
/// reports the first error in the order of §12.7 at bit 0, and `delta_validate`, the
/// full encoder over one top-level field of the baseline and then of the value.
fn error_fns(g: &Gen, p: &mut Printer, id: TypeId) {
    let s = g.delta.get(id, None);
    let checked: Vec<_> = fields(g, s)
        .filter(|(_, _, d, node)| **d != Delta::Never && node.encode_can_fail(Lang::RUST))
        .collect();
    p.line("/// The error of a failed delta encoding (spec §12.7), found from the first one");
    p.line("/// met (`e`): the full encoder's first error in the top-level field it is in, on");
    p.line("/// the baseline and then on the value, else `e` itself; at bit 0.");
    p.line("#[cold]");
    p.line("#[inline(never)]");
    fn_sig(
        p,
        "fn delta_error",
        &[
            if checked.is_empty() {
                "_baseline: &Self"
            } else {
                "baseline: &Self"
            },
            if checked.is_empty() {
                "_cur: &Self"
            } else {
                "cur: &Self"
            },
            "e: ::bitwire::Error",
        ],
        "::bitwire::Error",
    );
    if checked.is_empty() {
        p.line("e.with_bit(0)");
        p.close("}");
        return;
    }
    p.open("let field = match e.path().next() {");
    p.line("Some(::bitwire::PathSegment::Field(name)) => *name,");
    p.line("_ => \"\",");
    p.close("};");
    p.line("let mut scratch = Vec::new();");
    p.line("let mut w = ::bitwire::BitWriter::new(&mut scratch);");
    p.open("match Self::delta_validate(baseline, cur, field, &mut w) {");
    p.line("Err(first) => first.with_bit(0),");
    p.line("Ok(()) => e.with_bit(0),");
    p.close("}");
    p.close("}");
    p.blank();
    p.line("/// The full encoder's checks of top-level field `field` of the baseline, then of");
    p.line("/// the value.");
    fn_sig(
        p,
        "fn delta_validate",
        &[
            "baseline: &Self",
            "cur: &Self",
            "field: &str",
            "w: &mut ::bitwire::BitWriter<'_>",
        ],
        "Result<(), ::bitwire::Error>",
    );
    // One field is an `if` (clippy's `single_match`), more a `match`.
    let single = checked.len() == 1;
    if !single {
        p.open("match field {");
    }
    let names = &g.names.types[id].members;
    for (index, name, _, node) in checked {
        let lit = naming::str_lit(name);
        p.open(if single {
            format!("if field == {lit} {{")
        } else {
            format!("{lit} => {{")
        });
        let ctx = Ctx::default().field(name);
        for side in ["baseline", "cur"] {
            let v = Val::place(format!("{side}.{}", names[index]));
            full_write(g, p, &ctx, node, &v);
        }
        p.close("}");
    }
    if !single {
        p.line("_ => {}");
        p.close("}");
    }
    p.line("Ok(())");
    p.close("}");
}
