//! `read_bincode_into`: a struct decoded into an existing value, the same reads in the
//! same order as `read_bincode`, but vectors and strings are refilled in place
//! (`read_lanes_into`, `read_string_into`, element by element into the elements
//! already there), so decoding a stream into one value stops allocating once its
//! vectors have grown. Nested structs and unions decode into themselves.

use super::read::{read_len, read_value, scalar_call, string_start, Mode};
use super::{fallible, open_fn, reader_param, Dest};
use crate::codegen::rust::printer::Printer;
use crate::codegen::rust::{Ctx, Gen};
use crate::ir::TypeId;
use crate::plan::bincode::{BinField, BinNode, BinOp};
use crate::plan::Form;

/// Where a decoded value goes.
#[derive(Debug, Clone)]
pub(super) enum Place {
    /// A place of the value's type (`self.tags`, a local array).
    Owned(String),
    /// A local holding `&mut T` (`slot1`).
    Slot(String),
}

impl Place {
    /// The place as a method receiver (auto-dereferenced).
    fn recv(&self) -> &str {
        match self {
            Place::Owned(x) | Place::Slot(x) => x,
        }
    }

    /// `&mut` the place.
    fn mut_ref(&self) -> String {
        match self {
            Place::Owned(x) => format!("&mut {x}"),
            Place::Slot(x) => x.clone(),
        }
    }

    /// The left-hand side of an assignment to the place.
    fn target(&self) -> String {
        match self {
            Place::Owned(x) => x.clone(),
            Place::Slot(x) => format!("*{x}"),
        }
    }
}

/// Prints `fn read_bincode_into` of a struct with fields.
pub(super) fn into_fn(g: &Gen, p: &mut Printer, id: TypeId, fields: &[BinField]) {
    let r = reader_param(true);
    open_fn(
        p,
        "read_bincode_into",
        &["&mut self", &r],
        "Result<(), ::bitwire::Error>",
    );
    let names = &g.names.types[id].members;
    for (f, member) in fields.iter().zip(names) {
        let ctx = Ctx::default().field(&f.name);
        into_value(g, p, &ctx, &f.node, &Place::Owned(format!("self.{member}")));
    }
    p.line("Ok(())");
    p.close("}");
}

/// Prints the decoding of one value into `place`.
pub(super) fn into_value(g: &Gen, p: &mut Printer, ctx: &Ctx, node: &BinNode, place: &Place) {
    if let Some((func, args)) = scalar_call(node) {
        return fallible(p, ctx, Dest::Assign(&place.target()), &func, &args);
    }
    match &node.op {
        BinOp::Enum { .. } | BinOp::Named { .. } => {
            let func = format!("{}.read_bincode_into", place.recv());
            fallible(p, ctx, Dest::Stmt, &func, &["r".to_string()]);
        }
        BinOp::Optional { .. } => {
            let val = ctx.var("val");
            read_value(g, p, ctx, node, &val, Mode::Read);
            p.line(format!("{} = {val};", place.target()));
        }
        BinOp::Array { form, elem, .. } => match form {
            Form::Bytes | Form::Lanes { .. } => {
                let arg = format!("&mut {}[..]", place.recv());
                fallible(p, ctx, Dest::Stmt, "r.fill_lanes", &[arg]);
            }
            Form::Items => {
                let i = ctx.deeper().var("i");
                let slot = ctx.deeper().var("slot");
                p.open(format!(
                    "for ({i}, {slot}) in {}.iter_mut().enumerate() {{",
                    place.recv()
                ));
                into_value(g, p, &ctx.index(&i), elem, &Place::Slot(slot));
                p.close("}");
            }
        },
        BinOp::List { length, form, elem } => {
            let len = read_len(p, ctx, length);
            match form {
                Form::Bytes | Form::Lanes { .. } => {
                    let args = [place.mut_ref(), len];
                    fallible(p, ctx, Dest::Stmt, "r.read_lanes_into", &args);
                }
                Form::Items => into_items(g, p, ctx, elem, place, &len),
            }
        }
        BinOp::String { length, .. } => {
            let start = string_start(p, ctx);
            let len = read_len(p, ctx, length);
            let args = [place.mut_ref(), len, start];
            fallible(p, ctx, Dest::Stmt, "r.read_string_into", &args);
        }
        BinOp::Bytes { length } => {
            let len = read_len(p, ctx, length);
            let args = [place.mut_ref(), len];
            fallible(p, ctx, Dest::Stmt, "r.read_lanes_into", &args);
        }
        BinOp::Bool { .. } | BinOp::Int { .. } | BinOp::Float { .. } => unreachable!("scalars"),
    }
}

/// The `len` elements of a list decoded into `place`, a `Vec`: the elements it keeps
/// decode into themselves, the rest are read and pushed into capacity reserved for
/// exactly them.
fn into_items(g: &Gen, p: &mut Printer, ctx: &Ctx, elem: &BinNode, place: &Place, len: &str) {
    let list = match place {
        Place::Owned(x) if x.len() > 24 => {
            let list = ctx.var("list");
            p.line(format!("let {list} = &mut {x};"));
            Place::Slot(list)
        }
        other => other.clone(),
    };
    let v = list.recv();
    let i = ctx.deeper().var("i");
    let slot = ctx.deeper().var("slot");
    let item = ctx.deeper().var("item");
    p.line(format!("{v}.truncate({len});"));
    p.open(format!(
        "for ({i}, {slot}) in {v}.iter_mut().enumerate() {{"
    ));
    into_value(g, p, &ctx.index(&i), elem, &Place::Slot(slot));
    p.close("}");
    // Grown to exactly `len` (a push would double it): what the budget charged.
    p.line(format!("{v}.reserve_exact({len} - {v}.len());"));
    p.open(format!("for {i} in {v}.len()..{len} {{"));
    read_value(g, p, &ctx.index(&i), elem, &item, Mode::Read);
    p.line(format!("{v}.push({item});"));
    p.close("}");
}
