//! Values outside runs: lone scalars, varints, optionals, arrays, lists, strings,
//! bytes and nested types, each read (`Mode::Read`, into a local) or checked
//! (`Mode::Check`, building nothing) with the same reads and errors. Lengths are checked
//! against their bound, the input left and the decode budget before anything is
//! allocated (spec §5.6, §11).

use super::runs::enum_ident;
use crate::codegen::rust::exprs::{bounded_from_raw, cast, let_quantized, lit, plain_value};
use crate::codegen::rust::printer::{Printer, SHORT_WIDTH};
use crate::codegen::rust::{let_stmt, return_error, try_expr, Call, Ctx, Gen};
use crate::ir::FloatRepr;
use crate::plan::{Array, DecodeCheck, Form, Length, List, Node, Op, Prefix, Scalar, ScalarKind};

/// Which half of the decoder is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `read`: validate and build the value.
    Read,
    /// `check`: validate only, build and allocate nothing.
    Check,
}

impl Mode {
    /// The method's signature line, with the reader parameter named `reader`.
    pub(crate) fn signature(self, reader: &str) -> String {
        match self {
            Mode::Read => format!(
                "fn read({reader}: &mut ::bitwire::BitReader<'_>) -> Result<Self, ::bitwire::Error> {{"
            ),
            Mode::Check => format!(
                "fn check({reader}: &mut ::bitwire::BitReader<'_>) -> Result<(), ::bitwire::Error> {{"
            ),
        }
    }
}

/// The one value of a zero-width scalar (a literal with its type's suffix, so that
/// `let x = 5u16;` has the field's type).
pub(crate) fn constant(g: &Gen, s: &Scalar) -> String {
    match s.kind {
        ScalarKind::Bounded { repr, min, .. } => match lit(min, repr) {
            l if l.starts_with("i64::") => l,
            l => format!("{l}{}", crate::codegen::rust::int_type(repr)),
        },
        ScalarKind::Enum { id, .. } => format!("{}::from_bits(0)", g.ident(id)),
        ref other => unreachable!("not a zero-width scalar: {other:?}"),
    }
}

/// A checked scalar's bits: where they are and where its value goes.
pub(crate) struct Checked<'a> {
    pub ctx: &'a Ctx,
    pub scalar: &'a Scalar,
    /// The bits as a `u64` expression.
    pub raw: &'a str,
    /// The chunk the bits came from, and their offset in it (for the error's bit).
    pub chunk: &'a str,
    pub offset: u32,
    /// The local that holds the value (`read`) or the bits (`check`).
    pub local: &'a str,
}

/// Prints the validating extraction of a checked scalar: the decode check the plan
/// asks for, its error at the scalar's bit with its path, and in `read` the value in
/// the local.
pub(crate) fn scalar_check(g: &Gen, p: &mut Printer, at: &Checked, mode: Mode) {
    let Checked {
        ctx,
        scalar: s,
        raw,
        chunk: c,
        offset,
        local,
    } = *at;
    match s.decode {
        DecodeCheck::CanonicalNan { .. } => {
            let f = match s.kind {
                ScalarKind::Float {
                    repr: FloatRepr::F32,
                } => "f32",
                _ => "f64",
            };
            let at = match offset {
                0 => format!("{c}.start()"),
                o => format!("{c}.start() + {o}"),
            };
            let e = try_expr(p, ctx, &format!("::bitwire::{f}_from_wire({raw}, {at})"));
            match mode {
                Mode::Read => let_stmt(p, local, &e),
                Mode::Check => p.line(format!("{e};")),
            }
        }
        DecodeCheck::AtMost { max, .. } => {
            if raw != local {
                let_stmt(p, local, raw);
            }
            p.open(format!("if {local} > {max} {{"));
            let make = match s.kind {
                ScalarKind::Bounded { min, max, .. } => Call::new(
                    format!("{c}.bounded_error"),
                    [
                        offset.to_string(),
                        local.to_string(),
                        min.to_string(),
                        max.to_string(),
                    ],
                ),
                _ => Call::new(
                    format!("{c}.steps_error"),
                    [offset.to_string(), local.to_string(), max.to_string()],
                ),
            };
            return_error(p, ctx, &make);
            p.close("}");
            if mode == Mode::Read {
                match s.kind {
                    ScalarKind::Bounded { repr, min, .. } => {
                        let_stmt(p, local, &bounded_from_raw(local, repr, min));
                    }
                    _ => {
                        let_quantized(p, local, s, local);
                    }
                }
            }
        }
        DecodeCheck::Declared { .. } => {
            let ident = enum_ident(g, &s.kind).expect("an enum");
            if raw != local {
                let_stmt(p, local, raw);
            }
            let make = Call::new(
                format!("{c}.enum_error"),
                [offset.to_string(), local.to_string()],
            );
            match mode {
                Mode::Read => {
                    p.open(format!(
                        "let Some({local}) = {ident}::from_value({local}) else {{"
                    ));
                    return_error(p, ctx, &make);
                    p.close("};");
                }
                Mode::Check => {
                    p.open(format!("if {ident}::from_value({local}).is_none() {{"));
                    return_error(p, ctx, &make);
                    p.close("}");
                }
            }
        }
        DecodeCheck::None => unreachable!("a checked scalar has a check"),
    }
}

/// Prints the reading (`let {dest} = ...;`) or checking of one value of any node.
pub(crate) fn decode_value(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    node: &Node,
    dest: &str,
    mode: Mode,
) {
    if node.is_zero_width() && mode == Mode::Check {
        return;
    }
    match &node.op {
        Op::Scalar(s) => lone_scalar(g, p, ctx, s, dest, mode),
        Op::Varint(v) => {
            let e = try_expr(p, ctx, &format!("r.read_varint({})", v.bits));
            match (mode, v.signed) {
                (Mode::Check, _) => p.line(format!("{e};")),
                (Mode::Read, false) => let_stmt(p, dest, &cast(e, true, v.repr)),
                (Mode::Read, true) => {
                    let_stmt(p, dest, &e);
                    let x = cast(format!("::bitwire::zigzag_decode({dest})"), false, v.repr);
                    let_stmt(p, dest, &x);
                }
            }
        }
        Op::Optional(inner) => decode_optional(g, p, ctx, inner, dest, mode),
        Op::Array(a) => decode_array(g, p, ctx, node, a, dest, mode),
        Op::List(l) => decode_list(g, p, ctx, l, dest, mode),
        Op::String(len) => {
            let (n, start) = decode_length(p, ctx, len);
            match mode {
                Mode::Read => read_call(p, ctx, dest, &format!("r.read_string({n}, {start})")),
                Mode::Check => check_call(p, ctx, &format!("r.skip_string({n}, {start})")),
            }
        }
        Op::Bytes(len) => {
            let (n, _) = decode_length(p, ctx, len);
            match mode {
                Mode::Read => read_call(p, ctx, dest, &format!("r.read_bytes({n})")),
                Mode::Check => check_call(p, ctx, &format!("r.skip_bytes({n})")),
            }
        }
        Op::Named(id) => match mode {
            Mode::Read => read_call(p, ctx, dest, &format!("{}::read(r)", g.ident(*id))),
            Mode::Check => check_call(p, ctx, &format!("{}::check(r)", g.ident(*id))),
        },
    }
}

/// A presence bit, then the value if present (§5.3).
fn decode_optional(g: &Gen, p: &mut Printer, ctx: &Ctx, inner: &Node, dest: &str, mode: Mode) {
    let present = try_expr(p, ctx, "r.read_bool()");
    let v = ctx.deeper().var("v");
    match mode {
        Mode::Read => {
            p.open(format!("let {dest} = if {present} {{"));
            decode_value(g, p, &ctx.deeper(), inner, &v, mode);
            p.line(format!("Some({v})"));
            p.middle("} else {");
            p.line("None");
            p.close("};");
        }
        Mode::Check if inner.is_zero_width() => p.line(format!("{present};")),
        Mode::Check => {
            p.open(format!("if {present} {{"));
            decode_value(g, p, &ctx.deeper(), inner, &v, mode);
            p.close("}");
        }
    }
}

/// A list: its checked length, then its elements in the plan's form (§5.6).
fn decode_list(g: &Gen, p: &mut Printer, ctx: &Ctx, l: &List, dest: &str, mode: Mode) {
    let (len, _) = decode_length(p, ctx, &l.length);
    match (l.form, mode) {
        (Form::Bytes, Mode::Read) => read_call(p, ctx, dest, &format!("r.read_bytes({len})")),
        (Form::Bytes, Mode::Check) => check_call(p, ctx, &format!("r.skip_bytes({len})")),
        (Form::Lanes { lane }, Mode::Read) => {
            read_call(p, ctx, dest, &format!("r.read_{}_vec({len})", lane.name()));
        }
        // The length check (§5.6) already made sure every element is there.
        (Form::Lanes { lane }, Mode::Check) if lane.is_float() => {
            check_call(p, ctx, &format!("r.skip_{}s({len})", lane.name()));
        }
        (Form::Lanes { lane }, Mode::Check) => {
            let call = format!("r.skip_bits({len} as u64 * {})", lane.bits());
            check_call(p, ctx, &call);
        }
        (Form::Items, _) => {
            let i = ctx.deeper().var("i");
            let item = ctx.deeper().var("item");
            if mode == Mode::Read {
                p.line(format!("let mut {dest} = Vec::with_capacity({len});"));
            }
            p.open(format!("for {i} in 0..{len} {{"));
            decode_value(g, p, &ctx.index(&i), &l.elem, &item, mode);
            if mode == Mode::Read {
                p.line(format!("{dest}.push({item});"));
            }
            p.close("}");
        }
    }
}

/// `let {dest} = {call}{path}?;`
fn read_call(p: &mut Printer, ctx: &Ctx, dest: &str, call: &str) {
    let e = try_expr(p, ctx, call);
    let_stmt(p, dest, &e);
}

/// `{call}{path}?;`
fn check_call(p: &mut Printer, ctx: &Ctx, call: &str) {
    let e = try_expr(p, ctx, call);
    p.line(format!("{e};"));
}

/// A scalar on its own: plain ones with the reader's own calls (which check
/// truncation), checked ones from a chunk of their width.
fn lone_scalar(g: &Gen, p: &mut Printer, ctx: &Ctx, s: &Scalar, dest: &str, mode: Mode) {
    let bits = s.bits;
    if bits == 0 {
        if mode == Mode::Read {
            let_stmt(p, dest, &constant(g, s));
        }
        return;
    }
    if let ScalarKind::Enum { id, .. } = s.kind {
        // Enums have their own `read` and `check`.
        return match mode {
            Mode::Read => read_call(p, ctx, dest, &format!("{}::read(r)", g.ident(id))),
            Mode::Check => check_call(p, ctx, &format!("{}::check(r)", g.ident(id))),
        };
    }
    if let ScalarKind::Float { repr } = s.kind {
        // The reader's own call checks truncation and the canonical NaN (§3.2).
        let call = match repr {
            FloatRepr::F32 => "r.read_f32()",
            FloatRepr::F64 => "r.read_f64()",
        };
        return match mode {
            Mode::Read => read_call(p, ctx, dest, call),
            Mode::Check => check_call(p, ctx, call),
        };
    }
    if s.decode.is_none() {
        let call = match s.kind {
            ScalarKind::Bool => "r.read_bool()".to_string(),
            ScalarKind::SInt { .. } => format!("r.read_int({bits})"),
            _ => format!("r.read_bits({bits})"),
        };
        if mode == Mode::Check {
            return check_call(p, ctx, &format!("r.skip_bits({bits})"));
        }
        let e = try_expr(p, ctx, &call);
        let value = match s.kind {
            ScalarKind::Bool => e,
            ScalarKind::UInt { repr } => cast(e, true, repr),
            ScalarKind::SInt { repr } => cast(e, false, repr),
            ScalarKind::Quantized { .. } => {
                let_stmt(p, dest, &e);
                return let_quantized(p, dest, s, dest);
            }
            _ => {
                let_stmt(p, dest, &e);
                plain_value(s, dest, None)
            }
        };
        let_stmt(p, dest, &value);
        return;
    }
    let c = ctx.var("c");
    p.line(format!("let {c} = r.read_chunk({bits});"));
    let local = match mode {
        Mode::Read => dest.to_string(),
        Mode::Check => ctx.var("v"),
    };
    let raw = try_expr(p, ctx, &format!("{c}.get(0, {bits})"));
    let_stmt(p, &local, &raw);
    let at = Checked {
        ctx,
        scalar: s,
        raw: &local,
        chunk: &c,
        offset: 0,
        local: &local,
    };
    scalar_check(g, p, &at, mode);
}

/// Reads a length prefix and validates it (spec §5.6, §11): the bound first, then
/// that the elements can fit in what is left of the input, then the decode budget.
/// Returns the locals holding the checked `usize` length and the value's start bit.
pub(crate) fn decode_length(p: &mut Printer, ctx: &Ctx, len: &Length) -> (String, String) {
    let start = ctx.var("start");
    let n = ctx.var("len");
    p.line(format!("let {start} = r.bit_pos();"));
    let read = match len.prefix {
        Prefix::Fixed { bits } => format!("r.read_bits({bits})"),
        Prefix::Varint => "r.read_varint(64)".to_string(),
    };
    let e = try_expr(p, ctx, &read);
    let_stmt(p, &n, &e);
    if let (true, Some(m)) = (len.check_max, len.max) {
        p.open(format!("if {n} > {m} {{"));
        let make = Call::new(
            "::bitwire::Error::invalid_length",
            [start.clone(), n.clone(), m.to_string()],
        );
        return_error(p, ctx, &make);
        p.close("}");
    }
    let check = format!(
        "r.check_len({n}, {}, {}, {start})",
        len.elem_min_bits, len.charge_per_elem
    );
    let e = try_expr(p, ctx, &check);
    let_stmt(p, &n, &e);
    (n, start)
}

/// The zero value an array of scalars can be pre-filled with, if the element has one.
fn zero_value(node: &Node) -> Option<&'static str> {
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Bool => Some("false"),
            ScalarKind::UInt { .. } | ScalarKind::SInt { .. } | ScalarKind::Bounded { .. } => {
                Some("0")
            }
            ScalarKind::Float { .. } | ScalarKind::Quantized { .. } => Some("0.0"),
            ScalarKind::Enum { .. } => None,
        },
        Op::Varint(_) => Some("0"),
        _ => None,
    }
}

/// Reads `[T; N]`: filling a zeroed array in place for scalars (in a box when the plan
/// holds the array out of line), collecting otherwise; or checks its elements.
fn decode_array(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    node: &Node,
    a: &Array,
    dest: &str,
    mode: Mode,
) {
    let len = a.len;
    if mode == Mode::Check {
        match a.form {
            Form::Bytes => check_call(p, ctx, &format!("r.skip_byte_array({len})")),
            Form::Lanes { lane } if lane.is_float() => {
                check_call(p, ctx, &format!("r.skip_{}s({len})", lane.name()));
            }
            // Element by element, so that the first truncated element is the error.
            Form::Lanes { lane } => {
                check_call(p, ctx, &format!("r.skip_elements({len}, {})", lane.bits()));
            }
            Form::Items => {
                let i = ctx.deeper().var("i");
                p.open(format!("for {i} in 0..{len} {{"));
                decode_value(g, p, &ctx.index(&i), &a.elem, "_", mode);
                p.close("}");
            }
        }
        return;
    }
    // An element that reads nothing needs no index for its errors.
    let i = if a.elem.needs_reader(mode == Mode::Read) {
        ctx.deeper().var("i")
    } else {
        "_".to_string()
    };
    let item = ctx.deeper().var("item");
    let rust = g.rust_type(node);
    if let Op::Scalar(s) = &a.elem.op {
        if s.bits == 0 {
            // Every element is the type's one value.
            let one = constant(g, s);
            let init = if a.out_of_line {
                format!("::bitwire::boxed_array({one})")
            } else {
                format!("[{one}; {len}]")
            };
            let_stmt(p, &format!("{dest}: {rust}"), &init);
            return;
        }
    }
    if let Some(zero) = zero_value(&a.elem) {
        let init = if a.out_of_line {
            format!("::bitwire::boxed_array({zero})")
        } else {
            format!("[{zero}; {len}]")
        };
        let_stmt(p, &format!("mut {dest}: {rust}"), &init);
        let fill = match a.form {
            Form::Bytes => Some(format!("r.read_byte_array(&mut {dest}[..])")),
            Form::Lanes { lane } => Some(format!("r.read_{}s(&mut {dest}[..])", lane.name())),
            Form::Items => None,
        };
        if let Some(call) = fill {
            check_call(p, ctx, &call);
            return;
        }
        let slot = ctx.deeper().var("slot");
        p.open(format!(
            "for ({i}, {slot}) in {dest}.iter_mut().enumerate() {{"
        ));
        decode_value(g, p, &ctx.index(&i), &a.elem, &item, mode);
        p.line(format!("*{slot} = {item};"));
        p.close("}");
        return;
    }
    let items = ctx.deeper().var("items");
    p.line(format!("let mut {items} = Vec::with_capacity({len});"));
    p.open(format!("for {i} in 0..{len} {{"));
    decode_value(g, p, &ctx.index(&i), &a.elem, &item, mode);
    p.line(format!("{items}.push({item});"));
    p.close("}");
    let conv = if a.out_of_line {
        format!("::bitwire::boxed_array_from_vec({items})")
    } else {
        format!("::bitwire::array_from_vec({items})")
    };
    let line = format!("let {dest}: {rust} = {conv};");
    if line.len() + p.indent_width() <= 100 && conv.len() <= SHORT_WIDTH {
        p.line(line);
    } else {
        let_stmt(p, &format!("{dest}: {rust}"), &conv);
    }
}
