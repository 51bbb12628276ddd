//! `read_bincode` and `check_bincode`: one walk printing the same reads and checks in
//! the same order (spec §13, lengths checked before anything is allocated, §13.3);
//! `read` builds the value, `check` builds and allocates nothing.

use super::into::{into_value, Place};
use super::{boxed_array, fallible, max_lit, open_fn, reader_param, repr_name, rust_type, Dest};
use crate::codegen::rust::decode::field_init;
use crate::codegen::rust::exprs::lit;
use crate::codegen::rust::printer::Printer;
use crate::codegen::rust::{f64_lit, let_stmt, naming, try_expr, Ctx, Gen};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::bincode::{BinArm, BinBody, BinLength, BinNode, BinOp};
use crate::plan::Form;

/// Which of the two functions is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// `read_bincode`: validate and build.
    Read,
    /// `check_bincode`: validate only.
    Check,
}

/// Prints `fn read_bincode` or `fn check_bincode`.
pub(super) fn read_fn(g: &Gen, p: &mut Printer, id: TypeId, body: &BinBody, mode: Mode) {
    let used = !matches!(body, BinBody::Struct { fields } if fields.is_empty());
    let r = reader_param(used);
    match mode {
        Mode::Read => open_fn(p, "read_bincode", &[&r], "Result<Self, ::bitwire::Error>"),
        Mode::Check => open_fn(p, "check_bincode", &[&r], "Result<(), ::bitwire::Error>"),
    }
    let names = &g.names.types[id].members;
    match body {
        BinBody::Struct { fields } => {
            let locals: Vec<String> = names.iter().map(|m| naming::local_ident(m)).collect();
            for (f, local) in fields.iter().zip(&locals) {
                let ctx = Ctx::default().field(&f.name);
                read_value(g, p, &ctx, &f.node, local, mode);
            }
            match mode {
                Mode::Read => {
                    let items: Vec<String> = names
                        .iter()
                        .zip(&locals)
                        .map(|(m, l)| field_init(m, l))
                        .collect();
                    crate::codegen::rust::decode::struct_literal(p, "Ok(Self {", &items, "})");
                }
                Mode::Check => p.line("Ok(())"),
            }
        }
        BinBody::Enum { values, .. } => read_enum(p, names, values.len(), mode),
        BinBody::Union { arms, .. } => read_union(g, p, id, arms, mode),
    }
    p.close("}");
}

/// An enum: the checked index, then the variant at it.
fn read_enum(p: &mut Printer, names: &[String], count: usize, mode: Mode) {
    if mode == Mode::Check || count == 1 {
        p.line(format!("r.read_index({count})?;"));
        match mode {
            Mode::Read => p.line(format!("Ok(Self::{})", names[0])),
            Mode::Check => p.line("Ok(())"),
        }
        return;
    }
    p.open(format!("match r.read_index({count})? {{"));
    let (last, rest) = names.split_last().expect("a variant");
    for (i, member) in rest.iter().enumerate() {
        p.line(format!("{i} => Ok(Self::{member}),"));
    }
    p.line(format!("_ => Ok(Self::{last}),"));
    p.close("}");
}

/// A union: the checked index, then the arm's payload; the `match` on the index is
/// the function's value, each arm ending in its result.
fn read_union(g: &Gen, p: &mut Printer, id: TypeId, arms: &[BinArm], mode: Mode) {
    let names = &g.names.types[id].members;
    let count = arms.len();
    // The result of arm `i` without a payload.
    let unit = |i: usize| match mode {
        Mode::Read => format!("Ok(Self::{})", names[i]),
        Mode::Check => "Ok(())".to_string(),
    };
    // The statements of arm `i` with a payload, and its result.
    let arm = |p: &mut Printer, i: usize, node: &BinNode| {
        read_value(g, p, &Ctx::default().field(&arms[i].name), node, "v", mode);
        let member = &names[i];
        match (mode, super::boxed_payload(g, id, i)) {
            (Mode::Check, _) => p.line("Ok(())"),
            (Mode::Read, true) => p.line(format!("Ok(Self::{member}(Box::new(v)))")),
            (Mode::Read, false) => p.line(format!("Ok(Self::{member}(v))")),
        }
    };
    if count == 1 || arms.iter().all(|a| a.payload.is_none()) && mode == Mode::Check {
        p.line(format!("r.read_index({count})?;"));
        match &arms[0].payload {
            Some(node) if count == 1 => arm(p, 0, node),
            _ => p.line(unit(0)),
        }
        return;
    }
    p.open(format!("match r.read_index({count})? {{"));
    for (i, a) in arms.iter().enumerate() {
        let pattern = match i + 1 == count {
            true => "_".to_string(),
            false => i.to_string(),
        };
        match &a.payload {
            None => p.line(format!("{pattern} => {},", unit(i))),
            Some(node) => {
                p.open(format!("{pattern} => {{"));
                arm(p, i, node);
                p.close("}");
            }
        }
    }
    p.close("}");
}

/// The runtime call reading a bool, integer or float node: `(function, arguments)`.
pub(super) fn scalar_call(node: &BinNode) -> Option<(String, Vec<String>)> {
    Some(match &node.op {
        BinOp::Bool { .. } => ("r.read_bool".into(), Vec::new()),
        BinOp::Int { repr, range } => {
            let t = repr_name(*repr);
            match range {
                None => (format!("r.read_{t}"), Vec::new()),
                Some(rg) => (
                    format!("r.read_{t}_in"),
                    vec![lit(rg.min, *repr), lit(rg.max, *repr)],
                ),
            }
        }
        BinOp::Float { repr, range } => {
            let t = match repr {
                FloatRepr::F32 => "f32",
                FloatRepr::F64 => "f64",
            };
            match range {
                None => (format!("r.read_{t}"), Vec::new()),
                Some(rg) => (
                    format!("r.read_{t}_in"),
                    vec![f64_lit(rg.min), f64_lit(rg.max)],
                ),
            }
        }
        _ => return None,
    })
}

/// Prints the checked length of a list, string or bytes value (spec §13.3) into a new
/// local, returning it.
pub(super) fn read_len(p: &mut Printer, ctx: &Ctx, length: &BinLength) -> String {
    let len = ctx.var("len");
    let args = [
        max_lit(length),
        length.elem_min_bytes.to_string(),
        length.charge_per_elem.to_string(),
    ];
    fallible(p, ctx, Dest::Let(&len), "r.read_len", &args);
    len
}

/// Prints `let {start} = r.pos();` for a string's errors, returning the local.
pub(super) fn string_start(p: &mut Printer, ctx: &Ctx) -> String {
    let start = ctx.var("start");
    p.line(format!("let {start} = r.pos();"));
    start
}

/// The zero of an array element that arrays can be pre-filled with (then read in
/// place), if it has one.
fn zero(node: &BinNode) -> Option<&'static str> {
    match &node.op {
        BinOp::Bool { .. } => Some("false"),
        BinOp::Int { .. } => Some("0"),
        BinOp::Float { .. } => Some("0.0"),
        _ => None,
    }
}

/// Prints the reading (`let {dest} = ...;`) or checking of one value.
pub(super) fn read_value(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    node: &BinNode,
    dest: &str,
    mode: Mode,
) {
    let to = match mode {
        Mode::Read => Dest::Let(dest),
        Mode::Check => Dest::Stmt,
    };
    if let Some((func, args)) = scalar_call(node) {
        return fallible(p, ctx, to, &func, &args);
    }
    match &node.op {
        BinOp::Enum { .. } | BinOp::Named { .. } => {
            let ty = rust_type(g, node);
            let func = match mode {
                Mode::Read => format!("{ty}::read_bincode"),
                Mode::Check => format!("{ty}::check_bincode"),
            };
            fallible(p, ctx, to, &func, &["r".to_string()]);
        }
        BinOp::Optional { inner, .. } => {
            let tag = try_expr(p, ctx, "r.read_option_tag()");
            let v = ctx.deeper().var("v");
            match mode {
                Mode::Read => {
                    p.open(format!("let {dest} = if {tag} {{"));
                    read_value(g, p, &ctx.deeper(), inner, &v, mode);
                    p.line(format!("Some({v})"));
                    p.middle("} else {");
                    p.line("None");
                    p.close("};");
                }
                Mode::Check => {
                    p.open(format!("if {tag} {{"));
                    read_value(g, p, &ctx.deeper(), inner, &v, mode);
                    p.close("}");
                }
            }
        }
        BinOp::Array { len, form, elem } => {
            read_array(g, p, ctx, node, (*len, *form, elem), dest, mode)
        }
        BinOp::List { length, form, elem } => {
            let len = read_len(p, ctx, length);
            match (form, mode) {
                (Form::Bytes | Form::Lanes { .. }, Mode::Read) => {
                    let ty = format!("{dest}: {}", rust_type(g, node));
                    fallible(p, ctx, Dest::Let(&ty), "r.read_lanes", &[len]);
                }
                (Form::Bytes, Mode::Check) => fallible(p, ctx, to, "r.skip", &[len]),
                (Form::Lanes { lane }, Mode::Check) => {
                    let func = format!("r.skip_lanes::<{}>", lane.name());
                    fallible(p, ctx, to, &func, &[len]);
                }
                (Form::Items, _) => {
                    let i = ctx.deeper().var("i");
                    let item = ctx.deeper().var("item");
                    if mode == Mode::Read {
                        p.line(format!("let mut {dest} = Vec::with_capacity({len});"));
                    }
                    p.open(format!("for {i} in 0..{len} {{"));
                    read_value(g, p, &ctx.index(&i), elem, &item, mode);
                    if mode == Mode::Read {
                        p.line(format!("{dest}.push({item});"));
                    }
                    p.close("}");
                }
            }
        }
        BinOp::String { length, .. } => {
            let start = string_start(p, ctx);
            let len = read_len(p, ctx, length);
            let func = match mode {
                Mode::Read => "r.read_string",
                Mode::Check => "r.skip_string",
            };
            fallible(p, ctx, to, func, &[len, start]);
        }
        BinOp::Bytes { length } => {
            let len = read_len(p, ctx, length);
            match mode {
                Mode::Read => {
                    let ty = format!("{dest}: Vec<u8>");
                    fallible(p, ctx, Dest::Let(&ty), "r.read_lanes", &[len]);
                }
                Mode::Check => fallible(p, ctx, to, "r.skip", &[len]),
            }
        }
        BinOp::Bool { .. } | BinOp::Int { .. } | BinOp::Float { .. } => unreachable!("scalars"),
    }
}

/// `[T; N]`: a zero-filled array read in place (numbers in bulk) when the element has
/// a zero, else the elements collected and converted; or checked.
fn read_array(
    g: &Gen,
    p: &mut Printer,
    ctx: &Ctx,
    node: &BinNode,
    (len, form, elem): (u64, Form, &BinNode),
    dest: &str,
    mode: Mode,
) {
    let to = Dest::Stmt;
    if mode == Mode::Check {
        match form {
            Form::Bytes => fallible(p, ctx, to, "r.skip_lanes::<u8>", &[len.to_string()]),
            Form::Lanes { lane } => {
                let func = format!("r.skip_lanes::<{}>", lane.name());
                fallible(p, ctx, to, &func, &[len.to_string()]);
            }
            Form::Items => {
                let i = ctx.deeper().var("i");
                p.open(format!("for {i} in 0..{len} {{"));
                read_value(g, p, &ctx.index(&i), elem, "_", mode);
                p.close("}");
            }
        }
        return;
    }
    let rust = rust_type(g, node);
    let boxed = boxed_array(g, node);
    if let Some(z) = zero(elem) {
        let init = match boxed {
            true => format!("::bitwire::boxed_array({z})"),
            false => format!("[{z}; {len}]"),
        };
        let_stmt(p, &format!("mut {dest}: {rust}"), &init);
        into_value(g, p, ctx, node, &Place::Owned(dest.to_string()));
        return;
    }
    let i = ctx.deeper().var("i");
    let item = ctx.deeper().var("item");
    let items = ctx.deeper().var("items");
    p.line(format!("let mut {items} = Vec::with_capacity({len});"));
    p.open(format!("for {i} in 0..{len} {{"));
    read_value(g, p, &ctx.index(&i), elem, &item, mode);
    p.line(format!("{items}.push({item});"));
    p.close("}");
    let conv = match boxed {
        true => format!("::bitwire::boxed_array_from_vec({items})"),
        false => format!("::bitwire::array_from_vec({items})"),
    };
    let_stmt(p, &format!("{dest}: {rust}"), &conv);
}
