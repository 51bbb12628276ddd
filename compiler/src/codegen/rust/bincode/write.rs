//! `write_bincode`: each value's bytes in declaration order, with the encoder's checks
//! of spec §13.2–§13.3 (ranges, length bounds) as the runtime's `_in` / `max` calls.

use super::{fallible, max_lit, open_fn, repr_name, writer_param, Dest};
use crate::codegen::rust::exprs::lit;
use crate::codegen::rust::printer::Printer;
use crate::codegen::rust::{f64_lit, Ctx, Gen};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::bincode::{BinBody, BinNode, BinOp};
use crate::plan::Form;

/// How generated code reaches a value being written.
#[derive(Debug, Clone)]
pub(super) enum Val {
    /// A place holding the value (`self.level`).
    Place(String),
    /// A local holding a reference to it (`item1: &T`).
    Ref(String),
    /// A local holding a reference to its box (`v: &Box<T>`, an out-of-line payload).
    Boxed(String),
}

impl Val {
    /// The value itself (for `Copy` scalars).
    fn value(&self) -> String {
        match self {
            Val::Place(x) => x.clone(),
            Val::Ref(x) => format!("*{x}"),
            Val::Boxed(x) => format!("**{x}"),
        }
    }

    /// The value as a method receiver (auto-dereferenced).
    fn recv(&self) -> &str {
        match self {
            Val::Place(x) | Val::Ref(x) | Val::Boxed(x) => x,
        }
    }

    /// A reference to the value.
    fn reference(&self) -> String {
        match self {
            Val::Place(x) => format!("&{x}"),
            Val::Ref(x) => x.clone(),
            Val::Boxed(x) => format!("&**{x}"),
        }
    }
}

/// Prints `fn write_bincode`.
pub(super) fn write_fn(g: &Gen, p: &mut Printer, id: TypeId, body: &BinBody) {
    let used = !matches!(body, BinBody::Struct { fields } if fields.is_empty());
    let w = writer_param(used);
    open_fn(
        p,
        "write_bincode",
        &["&self", &w],
        "Result<(), ::bitwire::Error>",
    );
    let names = &g.names.types[id].members;
    match body {
        BinBody::Struct { fields } => {
            for (f, member) in fields.iter().zip(names) {
                let ctx = Ctx::default().field(&f.name);
                write_value(g, p, &ctx, &f.node, &Val::Place(format!("self.{member}")));
            }
        }
        BinBody::Enum { values, .. } if values.len() == 1 => p.line("w.write_index(0);"),
        BinBody::Enum { .. } => {
            p.open("let index = match self {");
            for (i, member) in names.iter().enumerate() {
                p.line(format!("Self::{member} => {i},"));
            }
            p.close("};");
            p.line("w.write_index(index);");
        }
        BinBody::Union { arms, .. } => {
            p.open("match self {");
            for (i, (arm, member)) in arms.iter().zip(names).enumerate() {
                let Some(payload) = &arm.payload else {
                    p.line(format!("Self::{member} => w.write_index({i}),"));
                    continue;
                };
                p.open(format!("Self::{member}(v) => {{"));
                p.line(format!("w.write_index({i});"));
                let v = match super::boxed_payload(g, id, i) {
                    true => Val::Boxed("v".into()),
                    false => Val::Ref("v".into()),
                };
                write_value(g, p, &Ctx::default().field(&arm.name), payload, &v);
                p.close("}");
            }
            p.close("}");
        }
    }
    p.line("Ok(())");
    p.close("}");
}

/// Whether writing a value of `node` prints a call whose error carries a path (a
/// range or length check, or a nested struct or union): a loop over such elements
/// needs their index.
fn writes_path(node: &BinNode) -> bool {
    match &node.op {
        BinOp::Int { range, .. } => range.is_some(),
        BinOp::Float { range, .. } => range.is_some(),
        BinOp::Bool { .. } | BinOp::Enum { .. } => false,
        BinOp::Optional { inner, .. } => writes_path(inner),
        BinOp::Array { form, elem, .. } => *form == Form::Items && writes_path(elem),
        BinOp::List { .. } | BinOp::String { .. } | BinOp::Bytes { .. } | BinOp::Named { .. } => {
            true
        }
    }
}

/// Prints the writing of one value.
fn write_value(g: &Gen, p: &mut Printer, ctx: &Ctx, node: &BinNode, v: &Val) {
    match &node.op {
        BinOp::Bool { .. } => p.line(format!("w.write_bool({});", v.value())),
        BinOp::Int { repr, range } => {
            let t = repr_name(*repr);
            match range {
                None => p.line(format!("w.write_{t}({});", v.value())),
                Some(r) => {
                    let args = [v.value(), lit(r.min, *repr), lit(r.max, *repr)];
                    fallible(p, ctx, Dest::Stmt, &format!("w.write_{t}_in"), &args);
                }
            }
        }
        BinOp::Float { repr, range } => {
            let t = match repr {
                FloatRepr::F32 => "f32",
                FloatRepr::F64 => "f64",
            };
            match range {
                None => p.line(format!("w.write_{t}({});", v.value())),
                Some(r) => {
                    let args = [v.value(), f64_lit(r.min), f64_lit(r.max)];
                    fallible(p, ctx, Dest::Stmt, &format!("w.write_{t}_in"), &args);
                }
            }
        }
        // An enum value is always declared: its write cannot fail.
        BinOp::Enum { .. } => p.line(format!("{}.write_bincode(w)?;", v.recv())),
        BinOp::Named { .. } => {
            let call = format!("{}.write_bincode", v.recv());
            fallible(p, ctx, Dest::Stmt, &call, &["w".to_string()]);
        }
        BinOp::Optional { inner, .. } => {
            let inner_v = ctx.deeper().var("v");
            p.open(format!("if let Some({inner_v}) = {} {{", v.reference()));
            p.line("w.write_option_tag(true);");
            write_value(g, p, &ctx.deeper(), inner, &Val::Ref(inner_v));
            p.middle("} else {");
            p.line("w.write_option_tag(false);");
            p.close("}");
        }
        BinOp::Array { form, elem, .. } => match form {
            Form::Bytes | Form::Lanes { .. } => {
                p.line(format!("w.write_lanes(&{}[..]);", v.recv()));
            }
            Form::Items => write_items(g, p, ctx, elem, v),
        },
        BinOp::List { length, form, elem } => {
            let max = max_lit(length);
            match form {
                Form::Bytes | Form::Lanes { .. } => {
                    let args = [v.reference(), max];
                    fallible(p, ctx, Dest::Stmt, "w.write_lane_list", &args);
                }
                Form::Items => {
                    let v = bind_long(p, ctx, v);
                    let args = [format!("{}.len()", v.recv()), max];
                    fallible(p, ctx, Dest::Stmt, "w.write_len", &args);
                    write_items(g, p, ctx, elem, &v);
                }
            }
        }
        BinOp::String { length, .. } => {
            let args = [v.reference(), max_lit(length)];
            fallible(p, ctx, Dest::Stmt, "w.write_string", &args);
        }
        BinOp::Bytes { length } => {
            let args = [v.reference(), max_lit(length)];
            fallible(p, ctx, Dest::Stmt, "w.write_bytes", &args);
        }
    }
}

/// A place whose `.iter().enumerate()` chain would be long, bound to a local
/// reference first (`let list = &self.a_long_field;`).
fn bind_long(p: &mut Printer, ctx: &Ctx, v: &Val) -> Val {
    match v {
        Val::Place(x) if x.len() > 24 => {
            let list = ctx.var("list");
            p.line(format!("let {list} = &{x};"));
            Val::Ref(list)
        }
        other => other.clone(),
    }
}

/// Prints the loop writing the elements of an array or list.
fn write_items(g: &Gen, p: &mut Printer, ctx: &Ctx, elem: &BinNode, v: &Val) {
    let v = bind_long(p, ctx, v);
    let item = ctx.deeper().var("item");
    if writes_path(elem) {
        let i = ctx.deeper().var("i");
        p.open(format!(
            "for ({i}, {item}) in {}.iter().enumerate() {{",
            v.recv()
        ));
        write_value(g, p, &ctx.index(&i), elem, &Val::Ref(item));
    } else {
        p.open(format!("for {item} in {}.iter() {{", v.recv()));
        write_value(g, p, &ctx.deeper(), elem, &Val::Ref(item));
    }
    p.close("}");
}
