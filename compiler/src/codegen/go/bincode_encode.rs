//! `WriteBincode`: the bincode encoder of each named type, printed from its
//! bincode plan (docs/spec.md §13).
//!
//! Every value is written whole, in declaration order, through the runtime's
//! `ByteWriter`; sequences the plan moves in bulk are one `WriteBytes`, `WriteRaw`
//! or `bitwire.WriteLanes`. The checks the plan lists (narrow and bounded integers,
//! quantized floats, list bounds) return their error at the byte where the value
//! would start, and so do those for what only a Go value can hold (an undeclared
//! enum value or union tag, a string that is not UTF-8); the field path is added
//! while the error unwinds.

use super::bincode::values_are_indices;
use super::expr::{atom, call};
use super::printer::Printer;
use super::scalars::{to_i64, to_u64};
use super::{f64_lit, types, Ctx, Gen, Locals};
use crate::ir::{FloatRepr, IntRepr, TypeId};
use crate::plan::bincode::{BinArm, BinBody, BinLength, BinNode, BinOp, FloatRange, Range};
use crate::plan::{Form, Kind};

/// Prints the `WriteBincode` method of a named type.
pub fn write_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let (recv, r) = types::receiver(g, id);
    p.blank();
    p.line(format!(
        "// WriteBincode writes {r}'s bincode bytes (spec §13) at w's position."
    ));
    p.open(format!(
        "func ({recv}) WriteBincode(w *bitwire.ByteWriter) error {{"
    ));
    let mut loc = Locals::new(&["m", "v", "w"]);
    match &g.bin().plan.get(id).body {
        BinBody::Struct { fields } => {
            for (f, member) in fields.iter().zip(&g.names.types[id].members) {
                let ctx = Ctx::default().field(&f.name);
                write_value(g, p, &mut loc, &ctx, &f.node, &format!("m.{member}"));
            }
        }
        BinBody::Enum { values, undeclared } => write_enum(g, p, id, values, *undeclared),
        BinBody::Union { arms, undeclared } => {
            write_union(g, p, &mut loc, id, arms, *undeclared);
        }
    }
    p.line("return nil");
    p.close("}");
}

/// The runtime function that builds the error of an undeclared enum value or union
/// tag, of the plan's kind.
pub(super) fn undeclared_error(kind: Kind) -> &'static str {
    match kind {
        Kind::InvalidEnum => "bitwire.EnumError",
        other => unreachable!("no Go error function for an undeclared value of kind {other:?}"),
    }
}

/// An enum: its index as a `u32` (spec §13.2); a value the schema does not declare
/// (which a Go value can hold) is the plan's `undeclared` error.
fn write_enum(g: &Gen, p: &mut Printer, id: TypeId, values: &[u64], undeclared: Kind) {
    let error = format!(
        "return {}(w.BitPos(), uint64(v))",
        undeclared_error(undeclared)
    );
    if values_are_indices(values) {
        p.open("if !v.Valid() {");
        p.line(error);
        p.close("}");
        p.line("w.WriteU32(uint32(v))");
        return;
    }
    p.open("switch v {");
    for (index, variant) in g.names.types[id].members.iter().enumerate() {
        p.middle(format!("case {variant}:"));
        p.line(format!("w.WriteU32({index})"));
    }
    p.middle("default:");
    p.line(error);
    p.close("}");
}

/// A union: the arm's index as a `u32`, then its payload (spec §13.4); a tag the
/// schema does not declare is the plan's `undeclared` error.
fn write_union(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    id: TypeId,
    arms: &[BinArm],
    undeclared: Kind,
) {
    let names = &g.names.types[id];
    p.open("switch m.Tag {");
    for (index, ((arm, field), tag)) in arms.iter().zip(&names.members).zip(&names.tags).enumerate()
    {
        p.middle(format!("case {tag}:"));
        p.line(format!("w.WriteU32({index})"));
        if let Some(node) = &arm.payload {
            let ctx = Ctx::default().field(&arm.name);
            write_value(g, p, loc, &ctx, node, &format!("m.{field}"));
        }
    }
    p.middle("default:");
    p.line(format!(
        "return {}(w.BitPos(), uint64(m.Tag))",
        undeclared_error(undeclared)
    ));
    p.close("}");
}

/// Prints `if err := {call}; err != nil { return <err with path> }`.
fn try_call(p: &mut Printer, ctx: &Ctx, call: &str) {
    p.if_init_err(&format!("err := {call}"), &ctx.wrap("err"));
}

/// The `ByteWriter` method that writes an integer of `repr`.
pub(super) fn int_method(repr: IntRepr) -> &'static str {
    match repr {
        IntRepr::U8 => "U8",
        IntRepr::U16 => "U16",
        IntRepr::U32 => "U32",
        IntRepr::U64 => "U64",
        IntRepr::I8 => "I8",
        IntRepr::I16 => "I16",
        IntRepr::I32 => "I32",
        IntRepr::I64 => "I64",
    }
}

/// The `ByteWriter` / `ByteReader` method suffix of a float of `repr`.
pub(super) fn float_method(repr: FloatRepr) -> &'static str {
    match repr {
        FloatRepr::F32 => "F32",
        FloatRepr::F64 => "F64",
    }
}

/// Checks an integer against its range: `CheckUint` or `CheckInt` with the bounds.
fn int_check(p: &mut Printer, ctx: &Ctx, v: &str, repr: IntRepr, range: &Range) {
    expect(range.kind, Kind::OutOfRange);
    let call = if repr.signed() {
        format!(
            "w.CheckInt({}, {}, {})",
            to_i64(atom(v), repr).text(),
            range.min,
            range.max
        )
    } else {
        format!(
            "w.CheckUint({}, {}, {})",
            to_u64(atom(v), repr).text(),
            range.min,
            range.max
        )
    };
    try_call(p, ctx, &call);
}

/// Checks a quantized float against its range (NaN is outside).
fn float_check(p: &mut Printer, ctx: &Ctx, v: &str, repr: FloatRepr, range: &FloatRange) {
    expect(range.kind, Kind::OutOfRange);
    let x = match repr {
        FloatRepr::F32 => call("float64", vec![atom(v)]).text(),
        FloatRepr::F64 => v.to_string(),
    };
    let check = format!(
        "w.CheckFloat({x}, {}, {})",
        f64_lit(range.min),
        f64_lit(range.max)
    );
    try_call(p, ctx, &check);
}

/// Panics when the plan asks for an error kind the runtime call printed for it does
/// not return: the plan changed, and this backend must follow.
pub(super) fn expect(kind: Kind, runtime: Kind) {
    assert_eq!(
        kind, runtime,
        "the Go runtime reports this check as {runtime:?}"
    );
}

/// Checks a length against the schema's bound (spec §13.3): InvalidLength.
fn length_check(p: &mut Printer, ctx: &Ctx, v: &str, len: &BinLength) {
    if let Some(max) = len.max {
        expect(len.too_long, Kind::InvalidLength);
        try_call(p, ctx, &format!("w.CheckLen(len({v}), {max})"));
    }
}

/// Prints the writing of one value of any node.
pub(super) fn write_value(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &BinNode,
    v: &str,
) {
    match &node.op {
        BinOp::Bool { .. } => p.line(format!("w.WriteBool({v})")),
        BinOp::Int { repr, range } => {
            if let Some(range) = range {
                int_check(p, ctx, v, *repr, range);
            }
            p.line(format!("w.Write{}({v})", int_method(*repr)));
        }
        BinOp::Float { repr, range } => {
            if let Some(range) = range {
                float_check(p, ctx, v, *repr, range);
            }
            p.line(format!("w.Write{}({v})", float_method(*repr)));
        }
        BinOp::Enum { .. } | BinOp::Named { .. } => {
            try_call(p, ctx, &format!("{v}.WriteBincode(w)"));
        }
        BinOp::Optional { inner, .. } => {
            p.line(format!("w.WriteBool({v}.Set)"));
            p.open(format!("if {v}.Set {{"));
            write_value(g, p, loc, ctx, inner, &format!("{v}.Value"));
            p.close("}");
        }
        BinOp::Array { form, elem, .. } => match form {
            Form::Bytes => p.line(format!("w.WriteRaw({v}[:])")),
            Form::Lanes { .. } => write_lanes(p, &format!("{v}[:]")),
            Form::Items => write_elements(g, p, loc, ctx, elem, v),
        },
        BinOp::List { length, form, elem } => {
            length_check(p, ctx, v, length);
            match form {
                Form::Bytes => p.line(format!("w.WriteBytes({v})")),
                Form::Lanes { .. } => {
                    p.line(format!("w.WriteLen(len({v}))"));
                    write_lanes(p, v);
                }
                Form::Items => {
                    p.line(format!("w.WriteLen(len({v}))"));
                    write_elements(g, p, loc, ctx, elem, v);
                }
            }
        }
        BinOp::String { length, invalid } => {
            length_check(p, ctx, v, length);
            // A Go string may hold any bytes; the wire carries only UTF-8.
            expect(*invalid, Kind::InvalidUtf8);
            try_call(p, ctx, &format!("w.CheckString({v})"));
            p.line(format!("w.WriteString({v})"));
        }
        BinOp::Bytes { length } => {
            length_check(p, ctx, v, length);
            p.line(format!("w.WriteBytes({v})"));
        }
    }
}

/// One bulk write of a slice of plain numbers (its Go element type is the lane's).
fn write_lanes(p: &mut Printer, slice: &str) {
    p.line(format!("bitwire.WriteLanes(w, {slice})"));
}

/// Writes every element of an array or list, by index (ranging over an array by
/// value would copy it).
fn write_elements(g: &Gen, p: &mut Printer, loc: &mut Locals, ctx: &Ctx, elem: &BinNode, v: &str) {
    let i = loc.fresh("i");
    p.open(format!("for {i} := range {v} {{"));
    write_value(g, p, loc, &ctx.index(&i), elem, &format!("{v}[{i}]"));
    p.close("}");
}
