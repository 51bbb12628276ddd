//! `WritePacked`: the packed encoder of each named type, printed from its codec plan
//! (spec §3–§5).
//!
//! A run is checked and then written as one word built with constant shifts; other
//! fields are written one by one ([`runs`]). Every check returns the error at the
//! bit where the value would start, with the value and its limit in the detail and
//! the field path added while the error unwinds. Go values can hold what the schema
//! cannot (an undeclared enum value, a string that is not UTF-8); the plan's checks
//! for [`Lang::GO`] say which the encoder makes.

mod runs;

use super::expr::{atom, call};
use super::printer::Printer;
use super::scalars::{to_i64, to_u64};
use super::{types, Ctx, Gen, Locals};
use crate::ir::TypeId;
use crate::plan::{Body, EnumPlan, Form, Lang, Length, Node, Op, Prefix, ScalarKind, UnionPlan};
pub use runs::append_fast;
use runs::{write_run, Member, Sink};

/// Prints the `WritePacked` method of a named type (and a struct's
/// `writeRangeError`).
pub fn write_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let (recv, r) = types::receiver(g, id);
    p.blank();
    p.line(format!(
        "// WritePacked writes {r}'s bit stream (no padding) at w's position."
    ));
    p.open(format!(
        "func ({recv}) WritePacked(w *bitwire.BitWriter) error {{"
    ));
    match &g.plan.get(id).body {
        Body::Struct(s) => {
            let mut loc = Locals::new(&["m", "w"]);
            let mut checks = Vec::new();
            for step in &s.steps {
                match step {
                    crate::plan::Step::Run(run) => {
                        let members = runs::members(g, id, run);
                        write_run(
                            g,
                            p,
                            &mut loc,
                            &members,
                            run.bits,
                            Some(&mut checks),
                            Sink::Writer,
                        );
                    }
                    crate::plan::Step::Field(i) => {
                        let f = &s.fields[*i];
                        let v = format!("m.{}", g.names.types[id].members[*i]);
                        write_value(g, p, &mut loc, &Ctx::default().field(&f.name), &f.node, &v);
                    }
                }
            }
            p.line("return nil");
            p.close("}");
            if !checks.is_empty() {
                runs::range_error_fn(g, p, id, &checks);
            }
            return;
        }
        Body::Enum(e) => write_enum(p, e),
        Body::Union(u) => write_union(g, p, id, u),
    }
    p.line("return nil");
    p.close("}");
}

/// An enum: an undeclared value (which a Go value can hold) is InvalidEnum, then
/// the tag.
fn write_enum(p: &mut Printer, e: &EnumPlan) {
    p.open("if !v.Valid() {");
    p.line("return bitwire.EnumError(w.BitPos(), uint64(v))");
    p.close("}");
    if e.tag_bits > 0 {
        p.line(format!("w.WriteBits(uint64(v), {})", e.tag_bits));
    }
}

/// A union: the tag, then the payload of the variant `Tag` names; a tag the schema
/// does not declare is InvalidEnum.
fn write_union(g: &Gen, p: &mut Printer, id: TypeId, u: &UnionPlan) {
    let names = &g.names.types[id];
    let mut loc = Locals::new(&["m", "w"]);
    p.open("switch m.Tag {");
    for ((arm, field), tag) in u.arms.iter().zip(&names.members).zip(&names.tags) {
        p.middle(format!("case {tag}:"));
        if u.tag_bits > 0 {
            p.line(format!("w.WriteBits({}, {})", arm.tag, u.tag_bits));
        }
        if let Some(node) = &arm.payload {
            let ctx = Ctx::default().field(&arm.name);
            write_value(g, p, &mut loc, &ctx, node, &format!("m.{field}"));
        }
    }
    p.middle("default:");
    p.line("return bitwire.EnumError(w.BitPos(), uint64(m.Tag))");
    p.close("}");
}

/// Prints `if err := {call}; err != nil { return <err with path> }`.
fn try_call(p: &mut Printer, ctx: &Ctx, call: &str) {
    p.open(format!("if err := {call}; err != nil {{"));
    p.line(format!("return {}", ctx.wrap("err")));
    p.close("}");
}

/// Prints the writing of one value of any node (not part of a struct's run).
pub(super) fn write_value(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &Node,
    v: &str,
) {
    match &node.op {
        // Enums have their own WritePacked, which checks the value.
        Op::Scalar(s) if matches!(s.kind, ScalarKind::Enum { .. }) => {
            try_call(p, ctx, &format!("{v}.WritePacked(w)"));
        }
        Op::Scalar(s) => {
            let m = Member {
                val: v.to_string(),
                scalar: s,
                offset: 0,
                hint: "q".into(),
                ctx: ctx.clone(),
            };
            write_run(g, p, loc, &[m], s.bits, None, Sink::Writer);
        }
        Op::Varint(vi) => {
            let x = if vi.signed {
                call("bitwire.ZigzagEncode", vec![to_i64(atom(v), vi.repr)])
            } else {
                to_u64(atom(v), vi.repr)
            };
            p.line(format!("w.WriteVarint({}, {})", x.text(), vi.bits));
        }
        Op::Optional(inner) => {
            p.line(format!("w.WriteBool({v}.Set)"));
            p.open(format!("if {v}.Set {{"));
            write_value(g, p, loc, ctx, inner, &format!("{v}.Value"));
            p.close("}");
        }
        Op::Array(a) => match a.form {
            Form::Bytes => p.line(format!("w.WriteBytes({v}[:])")),
            _ => write_elements(g, p, loc, ctx, &a.elem, v),
        },
        Op::List(l) => {
            write_length(p, ctx, v, &l.length);
            match l.form {
                Form::Bytes => p.line(format!("w.WriteBytes({v})")),
                _ => write_elements(g, p, loc, ctx, &l.elem, v),
            }
        }
        Op::String(len) => {
            length_check(p, ctx, v, len);
            if let (false, Prefix::Fixed { bits }) = (Lang::GO.valid_strings, len.prefix) {
                // The UTF-8 check, the prefix and the bytes in one call (one write
                // for a short string).
                return try_call(p, ctx, &format!("w.WriteLenString({v}, {bits})"));
            }
            if !Lang::GO.valid_strings {
                // A Go string may hold any bytes; the wire carries only UTF-8.
                try_call(p, ctx, &format!("w.CheckString({v}, 0)"));
            }
            write_prefix(p, v, len.prefix);
            p.line(format!("w.WriteString({v})"));
        }
        Op::Bytes(len) => {
            write_length(p, ctx, v, len);
            p.line(format!("w.WriteBytes({v})"));
        }
        Op::Named(_) => try_call(p, ctx, &format!("{v}.WritePacked(w)")),
    }
}

/// Checks a length against the schema's bound (spec §5.6): InvalidLength with the
/// length and the bound.
fn length_check(p: &mut Printer, ctx: &Ctx, v: &str, len: &Length) {
    if let Some(m) = len.max {
        // Go's int may be 32 bits: a bound past int32 is compared as uint64.
        if m > i32::MAX as u64 {
            p.open(format!("if uint64(len({v})) > {m} {{"));
        } else {
            p.open(format!("if len({v}) > {m} {{"));
        }
        let n = call("uint64", vec![call("len", vec![atom(v)])]);
        let e = call(
            "bitwire.LengthError",
            vec![atom("w.BitPos()"), n, atom(m.to_string())],
        );
        p.line(format!("return {}", ctx.wrap(&e.text())));
        p.close("}");
    }
}

/// Writes a length prefix (spec §5.6).
fn write_prefix(p: &mut Printer, v: &str, prefix: Prefix) {
    match prefix {
        Prefix::Fixed { bits } => p.line(format!("w.WriteBits(uint64(len({v})), {bits})")),
        Prefix::Varint => p.line(format!("w.WriteVarint(uint64(len({v})), 64)")),
    }
}

/// Checks a length against its bound and writes the length prefix.
fn write_length(p: &mut Printer, ctx: &Ctx, v: &str, len: &Length) {
    length_check(p, ctx, v, len);
    write_prefix(p, v, len.prefix);
}

/// Writes every element of an array or list, by index (ranging over an array by
/// value would copy it). The index joins the path only where an element can fail.
fn write_elements(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, elem: &Node, v: &str) {
    let i = loc.fresh("i");
    p.open(format!("for {i} := range {v} {{"));
    let inner = if elem.encode_can_fail(Lang::GO) {
        ctx.index(&i)
    } else {
        ctx.clone()
    };
    write_value(g, p, loc, &inner, elem, &format!("{v}[{i}]"));
    p.close("}");
}
