//! Values outside runs: lone scalars, varints, optionals, arrays, lists, strings,
//! bytes and nested types, each read into its place (`Mode::Read`) or checked
//! (`Mode::Check`, storing nothing) with the same reads and errors. Every length is
//! checked against its bound (where the plan says the prefix can exceed it), the
//! input left and the decode budget before anything is allocated (spec §5.6, §11).

use super::super::expr::{atom, bin, call};
use super::super::printer::Printer;
use super::super::scalars::{at_most_error, constant, value_from_bits};
use super::super::{Ctx, Gen, Locals};
use super::Mode;
use crate::ir::FloatRepr;
use crate::plan::{Array, DecodeCheck, Form, Length, List, Node, Op, Prefix, Scalar, ScalarKind};

/// Prints the reading of one value of any node into the place `dest`, or its check.
/// `hint` names the locals that hold the value on its way.
#[allow(clippy::too_many_arguments)]
pub fn decode_value(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    node: &Node,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    if node.is_zero_width() && mode == Mode::Check {
        return;
    }
    let wrap = ctx.wrap("err");
    match &node.op {
        Op::Scalar(s) => lone_scalar(g, p, loc, ctx, s, dest, hint, mode),
        Op::Varint(v) => {
            let read = format!("r.ReadVarint({})", v.bits);
            if mode == Mode::Check {
                return p.if_init_err(&format!("_, err := {read}"), &wrap);
            }
            let x = loc.fresh(hint);
            p.line(format!("{x}, err := {read}"));
            p.if_err(&wrap);
            let value = if v.signed {
                let z = call("bitwire.ZigzagDecode", vec![atom(&x)]);
                super::super::scalars::from_i64(z, v.repr)
            } else {
                super::super::scalars::from_u64(atom(&x), v.repr)
            };
            p.line(format!("{dest} = {}", value.text()));
        }
        Op::Optional(inner) => {
            if mode == Mode::Check && inner.is_zero_width() {
                return p.if_init_err("_, err := r.ReadBool()", &wrap);
            }
            // A hint escaped with `_` (`b_`) loses it before a suffix (`bSet`, not
            // `b_Set`: Go names have no underscores).
            let set = loc.fresh(&format!("{}Set", hint.trim_end_matches('_')));
            p.line(format!("{set}, err := r.ReadBool()"));
            p.if_err(&wrap);
            p.open(format!("if {set} {{"));
            if mode == Mode::Read {
                p.line(format!("{dest}.Set = true"));
            }
            decode_value(g, p, loc, ctx, inner, &format!("{dest}.Value"), "v", mode);
            if mode == Mode::Read {
                p.middle("} else {");
                p.line(format!("{dest} = {}{{}}", g.go_type(node)));
            }
            p.close("}");
        }
        Op::Array(a) => decode_array(g, p, loc, ctx, a, dest, mode),
        Op::List(l) => decode_list(g, p, loc, ctx, l, dest, hint, mode),
        Op::String(len) if mode == Mode::Read && string_in_one_call(len).is_some() => {
            let (bits, max) = string_in_one_call(len).unwrap_or_default();
            let v = loc.fresh(hint);
            p.line(format!(
                "{v}, err := r.ReadStringMax({bits}, {max}, {dest})"
            ));
            p.if_err(&wrap);
            p.line(format!("{dest} = {v}"));
        }
        Op::String(len) => {
            let start = loc.fresh("start");
            p.line(format!("{start} := r.BitPos()"));
            let n = read_length(p, loc, ctx, len, hint);
            match mode {
                Mode::Read => {
                    let v = loc.fresh(hint);
                    p.line(format!("{v}, err := r.ReadString({n}, {start}, {dest})"));
                    p.if_err(&wrap);
                    p.line(format!("{dest} = {v}"));
                }
                Mode::Check => {
                    p.if_init_err(&format!("err := r.SkipString({n}, {start})"), &wrap);
                }
            }
        }
        Op::Bytes(len) => {
            let n = read_length(p, loc, ctx, len, hint);
            read_bytes(p, loc, ctx, &n, dest, hint, mode);
        }
        Op::Named(id) => match mode {
            Mode::Read => p.if_init_err(&format!("err := {dest}.ReadPacked(r)"), &wrap),
            Mode::Check => {
                let f = &g.consts[*id].verify_packed;
                p.if_init_err(&format!("err := {f}(r)"), &wrap);
            }
        },
    }
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
    let wrap = ctx.wrap("err");
    match mode {
        Mode::Read => {
            let v = loc.fresh(hint);
            p.line(format!("{v}, err := r.ReadRawBytes({n}, {dest}[:0])"));
            p.if_err(&wrap);
            p.line(format!("{dest} = {v}"));
        }
        Mode::Check => p.if_init_err(&format!("err := r.SkipBytes({n})"), &wrap),
    }
}

/// A scalar on its own: plain ones with the reader's own calls (which check
/// truncation), floats with their NaN check, bounded and quantized ones from a chunk
/// of their width, enums through their own methods.
#[allow(clippy::too_many_arguments)]
fn lone_scalar(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    s: &Scalar,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    let bits = s.bits;
    let wrap = ctx.wrap("err");
    if bits == 0 {
        if mode == Mode::Read {
            p.line(format!("{dest} = {}", constant(g, s)));
        }
        return;
    }
    if let ScalarKind::Enum { id, .. } = s.kind {
        return match mode {
            Mode::Read => p.if_init_err(&format!("err := {dest}.ReadPacked(r)"), &wrap),
            Mode::Check => {
                let f = &g.consts[id].verify_packed;
                p.if_init_err(&format!("err := {f}(r)"), &wrap)
            }
        };
    }
    match s.decode {
        DecodeCheck::None => {
            if mode == Mode::Check {
                return p.if_init_err(&format!("err := r.Skip({bits})"), &wrap);
            }
            let x = loc.fresh(hint);
            p.line(format!("{x}, err := r.ReadBits({bits})"));
            p.if_err(&wrap);
            let v = value_from_bits(g, s, atom(&x));
            p.line(format!("{dest} = {}", v.text()));
        }
        DecodeCheck::CanonicalNan { .. } => {
            let read = match s.kind {
                ScalarKind::Float {
                    repr: FloatRepr::F32,
                } => "r.ReadF32()",
                _ => "r.ReadF64()",
            };
            if mode == Mode::Check {
                return p.if_init_err(&format!("_, err := {read}"), &wrap);
            }
            let x = loc.fresh(hint);
            p.line(format!("{x}, err := {read}"));
            p.if_err(&wrap);
            p.line(format!("{dest} = {x}"));
        }
        DecodeCheck::AtMost { max, .. } => {
            let c = loc.fresh("c");
            let x = loc.fresh(hint);
            p.line(format!("{c} := r.ReadChunk({bits})"));
            p.line(format!("{x}, err := {c}.Get(0, {bits})"));
            p.if_err(&wrap);
            p.open(format!("if {x} > {max} {{"));
            p.line(format!("return {}", ctx.wrap(&at_most_error(s, &c, 0, &x))));
            p.close("}");
            if mode == Mode::Read {
                let v = value_from_bits(g, s, atom(&x));
                p.line(format!("{dest} = {}", v.text()));
            }
        }
        DecodeCheck::Declared { .. } => unreachable!("only enums are declared-checked"),
    }
}

/// Reads a length prefix and checks it (spec §5.6, §11): the bound when the plan says
/// the prefix can exceed it, then room in the input for `len × elem_min_bits` bits,
/// then the decode budget for `len × charge_per_elem` bytes. Returns the local
/// holding the checked `int` length.
/// The prefix width and bound of a string that `ReadStringMax` reads in one call —
/// ReadLenMax (or ReadLen, whose bound is the prefix's largest value) and
/// ReadString with the same checks in the same order: a fixed-width prefix, bytes
/// of 8 bits charged 1 byte each.
fn string_in_one_call(len: &Length) -> Option<(u32, u64)> {
    let Prefix::Fixed { bits } = len.prefix else {
        return None;
    };
    if bits == 0 || bits >= 64 || len.elem_min_bits != 8 || len.charge_per_elem != 1 {
        return None;
    }
    let max = len
        .max
        .filter(|_| len.check_max)
        .unwrap_or((1u64 << bits) - 1);
    Some((bits, max))
}

fn read_length(p: &mut Printer, loc: &mut Locals, ctx: &Ctx, len: &Length, hint: &str) -> String {
    let (min_bits, charge) = (len.elem_min_bits, len.charge_per_elem);
    let max = len.max.filter(|_| len.check_max);
    let read = match (len.prefix, max) {
        (Prefix::Fixed { bits }, Some(m)) => {
            format!("r.ReadLenMax({bits}, {m}, {min_bits}, {charge})")
        }
        (Prefix::Fixed { bits }, None) => format!("r.ReadLen({bits}, {min_bits}, {charge})"),
        (Prefix::Varint, None) => format!("r.ReadVarLen({min_bits}, {charge})"),
        // The schema language gives a bounded length a fixed-width prefix (spec §5.6).
        (Prefix::Varint, Some(_)) => unreachable!("a varint length prefix with a bound"),
    };
    let n = loc.fresh(&format!("{}Len", hint.trim_end_matches('_')));
    p.line(format!("{n}, err := {read}"));
    p.if_err(&ctx.wrap("err"));
    n
}

/// `[T; N]`: byte arrays as one block (failing at the first incomplete byte), other
/// arrays element by element.
fn decode_array(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    a: &Array,
    dest: &str,
    mode: Mode,
) {
    let wrap = ctx.wrap("err");
    match (a.form, mode) {
        (Form::Bytes, Mode::Read) => {
            p.if_init_err(&format!("err := r.ReadByteArray({dest}[:])"), &wrap);
        }
        (Form::Bytes, Mode::Check) => {
            p.if_init_err(&format!("err := r.SkipByteArray({})", a.len), &wrap);
        }
        _ => {
            let i = loc.fresh("i");
            match mode {
                Mode::Read => p.open(format!("for {i} := range {dest} {{")),
                Mode::Check => p.open(format!("for {i} := 0; {i} < {}; {i}++ {{", a.len)),
            }
            let item = format!("{dest}[{i}]");
            decode_value(g, p, loc, &ctx.index(&i), &a.elem, &item, "item", mode);
            p.close("}");
        }
    }
}

/// `list<T>`: the checked length, then the elements (bytes as one block; plain
/// numbers checked as one skip, since the length check made sure they are there;
/// others element by element, into the destination resized in place).
#[allow(clippy::too_many_arguments)]
fn decode_list(
    g: &Gen,
    p: &mut Printer,
    loc: &mut Locals,
    ctx: &Ctx,
    l: &List,
    dest: &str,
    hint: &str,
    mode: Mode,
) {
    let n = read_length(p, loc, ctx, &l.length, hint);
    match (l.form, mode) {
        (Form::Bytes, _) => return read_bytes(p, loc, ctx, &n, dest, hint, mode),
        (Form::Lanes { lane }, Mode::Check) if !lane.is_float() => {
            let bits = bin(
                call("uint", vec![atom(&n)]),
                "*",
                atom(lane.bits().to_string()),
            );
            let skip = call("r.Skip", vec![bits]).text();
            return p.if_init_err(&format!("err := {skip}"), &ctx.wrap("err"));
        }
        _ => {}
    }
    let i = loc.fresh("i");
    match mode {
        Mode::Read => {
            p.line(format!("{dest} = bitwire.Resize({dest}, {n})"));
            p.open(format!("for {i} := range {dest} {{"));
        }
        Mode::Check => p.open(format!("for {i} := 0; {i} < {n}; {i}++ {{")),
    }
    let item = format!("{dest}[{i}]");
    decode_value(g, p, loc, &ctx.index(&i), &l.elem, &item, "item", mode);
    p.close("}");
}
