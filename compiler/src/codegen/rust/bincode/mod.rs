//! The bincode encoding of generated Rust (docs/spec.md §13): with
//! `RustOptions::bincode`, an `impl ::bitwire::Bincode` for every named type, printed
//! from the bincode plan ([`crate::plan::bincode`]) alone — widths, checks, bounds,
//! byte sizes and which sequences move in bulk all come from it; the runtime's
//! `ByteWriter` / `ByteReader` do the byte work.
//!
//! Four walks over the same plan nodes: [`write`] (encode), [`read`] (`read_bincode`,
//! and `check_bincode`, which builds and allocates nothing), and [`into`]
//! (`read_bincode_into`, which decodes into an existing value and reuses its vectors'
//! and strings' capacity). `read`, `check` and `into` make the same reads in the same
//! order, so they fail alike.

mod into;
mod read;
mod write;

use super::printer::{Printer, SHORT_WIDTH};
use super::{let_call, let_stmt, try_expr, Ctx, Gen};
use crate::ir::{IntRepr, TypeId};
use crate::plan::bincode::{BinBody, BinLength, BinNode, Size};
use crate::plan::{Body, Op};

/// Prints `impl ::bitwire::Bincode for T` for the named type `id`.
pub(crate) fn bincode_impl(g: &Gen, p: &mut Printer, id: TypeId) {
    let plan = g.bincode.as_ref().expect("the bincode plan").get(id);
    p.open(format!("impl ::bitwire::Bincode for {} {{", g.ident(id)));
    sizes(p, plan.size);
    p.blank();
    write::write_fn(g, p, id, &plan.body);
    p.blank();
    read::read_fn(g, p, id, &plan.body, read::Mode::Read);
    if let BinBody::Struct { fields } = &plan.body {
        if !fields.is_empty() {
            p.blank();
            into::into_fn(g, p, id, fields);
        }
    }
    p.blank();
    read::read_fn(g, p, id, &plan.body, read::Mode::Check);
    p.close("}");
}

/// The trait's size constants.
fn sizes(p: &mut Printer, size: Size) {
    p.line(format!("const MIN_BYTES: u64 = {};", size.min));
    match size.max {
        Some(max) => p.line(format!("const MAX_BYTES: Option<u64> = Some({max});")),
        None => p.line("const MAX_BYTES: Option<u64> = None;"),
    }
}

/// Opens `#[inline] fn {name}({params}) -> {ret} {` as rustfmt lays it out: on one
/// line when it fits, else one parameter per line.
fn open_fn(p: &mut Printer, name: &str, params: &[&str], ret: &str) {
    p.line("#[inline]");
    let one = format!("fn {name}({}) -> {ret} {{", params.join(", "));
    if p.fits(&one) {
        p.open(one);
        return;
    }
    p.open(format!("fn {name}("));
    for param in params {
        p.line(format!("{param},"));
    }
    p.middle(format!(") -> {ret} {{"));
}

/// The writer parameter, `_w` when the body writes nothing.
fn writer_param(used: bool) -> String {
    let name = if used { "w" } else { "_w" };
    format!("{name}: &mut ::bitwire::bincode::ByteWriter<'_>")
}

/// The reader parameter, `_r` when the body reads nothing.
fn reader_param(used: bool) -> String {
    let name = if used { "r" } else { "_r" };
    format!("{name}: &mut ::bitwire::bincode::ByteReader<'_>")
}

/// Where the result of a fallible runtime call goes.
#[derive(Clone, Copy)]
enum Dest<'a> {
    /// Nowhere: `call?;`.
    Stmt,
    /// A new local (`x` or `x: T`): `let x = call?;`.
    Let(&'a str),
    /// An existing place: `self.x = call?;`.
    Assign(&'a str),
}

/// Prints a fallible runtime call with the context's path on its error and `?`,
/// its result going to `dest`. A call too long for one line with its path is bound
/// to a local first (`let t = r.read_f64_in(..);`), then the path goes on that local,
/// the layout rustfmt would otherwise have to break.
fn fallible(p: &mut Printer, ctx: &Ctx, dest: Dest, func: &str, args: &[String]) {
    let joined = args.join(", ");
    let call = format!("{func}({joined})");
    let tmp = ctx.var("t");
    let e = if joined.len() <= SHORT_WIDTH && p.fits(&format!("let {tmp} = {call};")) {
        try_expr(p, ctx, &call)
    } else {
        let_call(p, &tmp, func, args, "");
        try_expr(p, ctx, &tmp)
    };
    match dest {
        Dest::Stmt => p.line(format!("{e};")),
        Dest::Let(x) => let_stmt(p, x, &e),
        Dest::Assign(place) => {
            let line = format!("{place} = {e};");
            if p.fits(&line) {
                p.line(line);
            } else {
                let_stmt(p, &tmp, &e);
                p.line(format!("{place} = {tmp};"));
            }
        }
    }
}

/// A length's bound as a literal (`u64::MAX` for none).
fn max_lit(length: &BinLength) -> String {
    length.max.map_or("u64::MAX".into(), |m| m.to_string())
}

/// The runtime's name of an integer representation (`u16`).
fn repr_name(repr: IntRepr) -> &'static str {
    super::int_type(repr)
}

/// The Rust type of a bincode node (the type generated Rust declares for the value).
fn rust_type(g: &Gen, node: &BinNode) -> String {
    g.rust_type(&crate::plan::node(g.schema, &node.ty))
}

/// Whether the Rust type of an array node is boxed (held out of line).
fn boxed_array(g: &Gen, node: &BinNode) -> bool {
    matches!(crate::plan::node(g.schema, &node.ty).op, Op::Array(a) if a.out_of_line)
}

/// Whether the payload of arm `index` of union `id` is boxed.
fn boxed_payload(g: &Gen, id: TypeId, index: usize) -> bool {
    match &g.plan.get(id).body {
        Body::Union(u) => u.arms[index].out_of_line,
        _ => false,
    }
}

#[cfg(test)]
mod tests;
