//! `ReadBincode` and `VerifyXBincode`: the bincode decoder of each named type and
//! its validating half, printed by one walk over the bincode plan (docs/spec.md
//! §13, the order of checks of §13.3, the decode budget of §11.5).
//!
//! Both print the same reads, checks, errors and budget charges in the same order;
//! `ReadBincode` also stores the values (in place, reusing the capacity of the
//! destination's slices, bulk sequences with one copy), the verifier stores nothing
//! and allocates nothing. So `VerifyBincodeX(b)` fails exactly when
//! `DecodeBincode(b)` does, with the same error.

use super::bincode::values_are_indices;
use super::bincode_encode::{expect, float_method, int_method};
use super::decode::Mode;
use super::expr::{atom, bin, call};
use super::printer::Printer;
use super::scalars::{from_i64, from_u64};
use super::{f64_lit, types, Ctx, Gen, Locals};
use crate::ir::TypeId;
use crate::plan::bincode::{BinArm, BinBody, BinLength, BinNode, BinOp, INDEX_BYTES};
use crate::plan::{Form, Kind};

/// Prints `ReadBincode` or `VerifyXBincode` of a named type.
pub fn decode_fn(g: &Gen, p: &mut Printer, id: TypeId, mode: Mode) {
    let ident = g.ident(id);
    p.blank();
    match mode {
        Mode::Read => {
            let (recv, r) = types::mut_receiver(g, id);
            p.line(format!(
                "// ReadBincode sets {r} to the bincode value at r's position, reusing the"
            ));
            p.line("// capacity of its slices.");
            p.open(format!(
                "func ({recv}) ReadBincode(r *bitwire.ByteReader) error {{"
            ));
        }
        Mode::Check => {
            let name = &g.bin().consts[id].verify_at;
            p.doc(format!(
                "{name} checks the bincode {ident} at r's position as ReadBincode reads it, \
                 with the same errors and decode budget charges, and advances past it \
                 without building it."
            ));
            p.open(format!("func {name}(r *bitwire.ByteReader) error {{"));
        }
    }
    let mut loc = Locals::new(&["m", "v", "r", "index"]);
    match &g.bin().plan.get(id).body {
        BinBody::Struct { fields } => {
            let names = &g.names.types[id];
            for ((f, member), hint) in fields.iter().zip(&names.members).zip(&names.locals) {
                let ctx = Ctx::default().field(&f.name);
                let dest = format!("m.{member}");
                decode_value(g, p, &mut loc, &ctx, &f.node, &dest, hint, mode);
            }
        }
        BinBody::Enum { values, undeclared } => {
            expect(*undeclared, Kind::InvalidEnum);
            decode_enum(g, p, id, values, mode);
        }
        BinBody::Union { arms, undeclared } => {
            expect(*undeclared, Kind::InvalidEnum);
            decode_union(g, p, &mut loc, id, arms, mode);
        }
    }
    p.line("return nil");
    p.close("}");
}

/// `ReadIndex(count)`: a `u32` below the number of variants, else InvalidEnum.
fn read_index(count: usize) -> String {
    debug_assert_eq!(INDEX_BYTES, 4, "ReadIndex reads a u32");
    format!("r.ReadIndex({count})")
}

/// An enum: the index, then the variant it names.
fn decode_enum(g: &Gen, p: &mut Printer, id: TypeId, values: &[u64], mode: Mode) {
    let read = read_index(values.len());
    if mode == Mode::Check {
        return p.if_init_err(&format!("_, err := {read}"), "err");
    }
    p.line(format!("index, err := {read}"));
    p.if_err("err");
    let ident = g.ident(id);
    if values_are_indices(values) {
        p.line(format!("*v = {ident}(index)"));
        return;
    }
    p.open("switch index {");
    for (index, variant) in g.names.types[id].members.iter().enumerate() {
        p.middle(format!("case {index}:"));
        p.line(format!("*v = {variant}"));
    }
    p.close("}");
}

/// A union: the index, then the arm's payload into the field of its variant (the
/// other variants zeroed, this one's slices kept for reuse).
fn decode_union(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    id: TypeId,
    arms: &[BinArm],
    mode: Mode,
) {
    let names = &g.names.types[id];
    let read = read_index(arms.len());
    if mode == Mode::Check && arms.iter().all(|a| a.payload.is_none()) {
        return p.if_init_err(&format!("_, err := {read}"), "err");
    }
    p.line(format!("index, err := {read}"));
    p.if_err("err");
    p.open("switch index {");
    for (index, arm) in arms.iter().enumerate() {
        let (field, tag) = (&names.members[index], &names.tags[index]);
        let ctx = Ctx::default().field(&arm.name);
        match (&arm.payload, mode) {
            (Some(node), Mode::Read) => {
                p.middle(format!("case {index}:"));
                p.line(format!(
                    "*m = {}{{Tag: {tag}, {field}: m.{field}}}",
                    names.ident
                ));
                decode_value(g, p, loc, &ctx, node, &format!("m.{field}"), "v", mode);
            }
            (Some(node), Mode::Check) => {
                p.middle(format!("case {index}:"));
                decode_value(g, p, loc, &ctx, node, "", "v", mode);
            }
            (None, Mode::Read) => {
                p.middle(format!("case {index}:"));
                p.line(format!("*m = {}{{Tag: {tag}}}", names.ident));
            }
            (None, Mode::Check) => {}
        }
    }
    p.close("}");
}

/// Prints `{x}, err := {read}` and the error check, or (checking) only the read.
/// Returns the local that holds the value read.
fn read_into(
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    read: &str,
    hint: &str,
    mode: Mode,
) -> Option<String> {
    let wrap = ctx.wrap("err");
    match mode {
        Mode::Check => {
            p.if_init_err(&format!("_, err := {read}"), &wrap);
            None
        }
        Mode::Read => {
            let x = loc.fresh(hint);
            p.line(format!("{x}, err := {read}"));
            p.if_err(&wrap);
            Some(x)
        }
    }
}

/// Prints the reading of one value of any node into the place `dest`, or its check.
/// `hint` names the locals that hold the value on its way.
#[allow(clippy::too_many_arguments)]
pub(super) fn decode_value(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &BinNode,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    let wrap = ctx.wrap("err");
    match &node.op {
        BinOp::Bool { .. } | BinOp::Int { .. } | BinOp::Float { .. } => {
            decode_scalar(p, loc, ctx, node, dest, hint, mode);
        }
        BinOp::Enum { id } | BinOp::Named { id } => match mode {
            Mode::Read => p.if_init_err(&format!("err := {dest}.ReadBincode(r)"), &wrap),
            Mode::Check => {
                let f = &g.bin().consts[*id].verify_at;
                p.if_init_err(&format!("err := {f}(r)"), &wrap);
            }
        },
        BinOp::Optional { inner, invalid } => {
            expect(*invalid, Kind::InvalidEnum);
            // A hint escaped with `_` (`b_`) loses it before a suffix (`bSet`).
            let set = loc.fresh(&format!("{}Set", hint.trim_end_matches('_')));
            p.line(format!("{set}, err := r.ReadOptionTag()"));
            p.if_err(&wrap);
            p.open(format!("if {set} {{"));
            if mode == Mode::Read {
                p.line(format!("{dest}.Set = true"));
            }
            decode_value(g, p, loc, ctx, inner, &format!("{dest}.Value"), "v", mode);
            if mode == Mode::Read {
                p.middle("} else {");
                p.line(format!("{dest} = {}{{}}", g.go_type_of(&node.ty)));
            }
            p.close("}");
        }
        BinOp::Array { len, form, elem } => {
            decode_array(g, p, loc, ctx, (*len, *form, elem), dest, mode);
        }
        BinOp::List { length, form, elem } => {
            let n = read_length(p, loc, ctx, length, hint);
            decode_list(g, p, loc, ctx, &n, (*form, elem), dest, hint, mode);
        }
        BinOp::String { length, invalid } => {
            expect(*invalid, Kind::InvalidUtf8);
            decode_string(p, loc, ctx, length, dest, hint, mode);
        }
        BinOp::Bytes { length } => {
            let n = read_length(p, loc, ctx, length, hint);
            read_bytes(p, loc, ctx, &n, dest, hint, mode);
        }
    }
}

/// A bool, integer or float: read with its checks (spec §13.2), or, checking, read
/// or skipped by its width when it has none.
fn decode_scalar(
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &BinNode,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    let wrap = ctx.wrap("err");
    let size = node.size.min;
    match &node.op {
        BinOp::Bool { invalid } => {
            expect(*invalid, Kind::OutOfRange);
            if let Some(x) = read_into(p, loc, ctx, "r.ReadBool()", hint, mode) {
                p.line(format!("{dest} = {x}"));
            }
        }
        BinOp::Int { repr, range: None } => {
            if mode == Mode::Check {
                return p.if_init_err(&format!("err := r.Skip({size})"), &wrap);
            }
            let read = format!("r.Read{}()", int_method(*repr));
            if let Some(x) = read_into(p, loc, ctx, &read, hint, mode) {
                p.line(format!("{dest} = {x}"));
            }
        }
        BinOp::Int {
            repr,
            range: Some(range),
        } => {
            expect(range.kind, Kind::OutOfRange);
            let read = if repr.signed() {
                format!("r.ReadIntIn({size}, {}, {})", range.min, range.max)
            } else {
                format!("r.ReadUintIn({size}, {}, {})", range.min, range.max)
            };
            if let Some(x) = read_into(p, loc, ctx, &read, hint, mode) {
                let v = if repr.signed() {
                    from_i64(atom(&x), *repr)
                } else {
                    from_u64(atom(&x), *repr)
                };
                p.line(format!("{dest} = {}", v.text()));
            }
        }
        BinOp::Float { repr, range } => {
            let m = float_method(*repr);
            let read = match range {
                None if mode == Mode::Check => {
                    return p.if_init_err(&format!("err := r.Skip({size})"), &wrap);
                }
                None => format!("r.Read{m}()"),
                Some(range) => {
                    expect(range.kind, Kind::OutOfRange);
                    let (min, max) = (f64_lit(range.min), f64_lit(range.max));
                    format!("r.Read{m}In({min}, {max})")
                }
            };
            if let Some(x) = read_into(p, loc, ctx, &read, hint, mode) {
                p.line(format!("{dest} = {x}"));
            }
        }
        _ => unreachable!("not a scalar"),
    }
}

/// A string: its start, its checked length, then its bytes checked for UTF-8 (at
/// the start) and stored, reusing the old value when they did not change.
fn decode_string(
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    length: &BinLength,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    let start = loc.fresh("start");
    p.line(format!("{start} := r.BitPos()"));
    let n = read_length(p, loc, ctx, length, hint);
    match mode {
        Mode::Read => {
            let read = format!("r.ReadString({n}, {start}, {dest})");
            let x = read_into(p, loc, ctx, &read, hint, mode).expect("reading");
            p.line(format!("{dest} = {x}"));
        }
        Mode::Check => {
            let skip = format!("err := r.SkipString({n}, {start})");
            p.if_init_err(&skip, &ctx.wrap("err"));
        }
    }
}

/// Reads a `u64` length and checks it in the order of spec §13.3: the bound (when
/// there is one), room in the input for `len × elem_min_bytes` bytes, the decode
/// budget for `len × charge_per_elem` bytes, the platform's `int`. Returns the local
/// holding the checked length.
fn read_length(
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    len: &BinLength,
    hint: &str,
) -> String {
    expect(len.truncated, Kind::Truncated);
    expect(len.over_budget, Kind::LimitExceeded);
    let (min, charge) = (len.elem_min_bytes, len.charge_per_elem);
    let read = match len.max {
        Some(max) => {
            expect(len.too_long, Kind::InvalidLength);
            format!("r.ReadLenMax({max}, {min}, {charge})")
        }
        None => format!("r.ReadLen({min}, {charge})"),
    };
    let n = loc.fresh(&format!("{}Len", hint.trim_end_matches('_')));
    p.line(format!("{n}, err := {read}"));
    p.if_err(&ctx.wrap("err"));
    n
}

/// `n` bytes whose length was checked: appended to the destination's old slice cut
/// to length zero (reusing its capacity), or skipped.
fn read_bytes(
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    n: &str,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    match mode {
        Mode::Read => {
            let read = format!("r.ReadBytes({n}, {dest}[:0])");
            let x = read_into(p, loc, ctx, &read, hint, mode).expect("reading");
            p.line(format!("{dest} = {x}"));
        }
        Mode::Check => p.if_init_err(&format!("err := r.Skip({n})"), &ctx.wrap("err")),
    }
}

/// `[T; N]`: bytes and plain numbers as one block (failing at the first element
/// whose bytes run out), other arrays element by element.
fn decode_array(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    (len, form, elem): (u64, Form, &BinNode),
    dest: &str,
    mode: Mode,
) {
    let wrap = ctx.wrap("err");
    let elem_size = elem.size.min;
    match (form, mode) {
        (Form::Bytes, Mode::Read) => {
            p.if_init_err(&format!("err := r.ReadByteArray({dest}[:])"), &wrap);
        }
        (Form::Lanes { .. }, Mode::Read) => {
            let read = format!("bitwire.ReadLaneArray(r, {dest}[:])");
            p.if_init_err(&format!("err := {read}"), &wrap);
        }
        (Form::Bytes | Form::Lanes { .. }, Mode::Check) => {
            let skip = format!("r.SkipArray({len}, {elem_size})");
            p.if_init_err(&format!("err := {skip}"), &wrap);
        }
        (Form::Items, _) => {
            let i = loc.fresh("i");
            match mode {
                Mode::Read => p.open(format!("for {i} := range {dest} {{")),
                Mode::Check => p.open(format!("for {i} := 0; {i} < {len}; {i}++ {{")),
            }
            let item = format!("{dest}[{i}]");
            decode_value(g, p, loc, &ctx.index(&i), elem, &item, "item", mode);
            p.close("}");
        }
    }
}

/// `list<T>` after its checked length `n`: bytes and plain numbers as one block
/// (the length check made sure they are there), others element by element into the
/// destination resized in place.
#[allow(clippy::too_many_arguments)]
fn decode_list(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    n: &str,
    (form, elem): (Form, &BinNode),
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    match (form, mode) {
        (Form::Bytes, _) => read_bytes(p, loc, ctx, n, dest, hint, mode),
        (Form::Lanes { .. }, Mode::Read) => {
            let read = format!("bitwire.ReadLanes(r, {n}, {dest})");
            let x = read_into(p, loc, ctx, &read, hint, mode).expect("reading");
            p.line(format!("{dest} = {x}"));
        }
        (Form::Lanes { .. }, Mode::Check) => {
            let bytes = bin(atom(n), "*", atom(elem.size.min.to_string()));
            let skip = call("r.Skip", vec![bytes]).text();
            p.if_init_err(&format!("err := {skip}"), &ctx.wrap("err"));
        }
        (Form::Items, _) => {
            let i = loc.fresh("i");
            match mode {
                Mode::Read => {
                    p.line(format!("{dest} = bitwire.Resize({dest}, {n})"));
                    p.open(format!("for {i} := range {dest} {{"));
                }
                Mode::Check => p.open(format!("for {i} := 0; {i} < {n}; {i}++ {{")),
            }
            let item = format!("{dest}[{i}]");
            decode_value(g, p, loc, &ctx.index(&i), elem, &item, "item", mode);
            p.close("}");
        }
    }
}
