//! Values outside runs: lone scalars (a run of one), varints, optionals, arrays, lists,
//! strings, bytes and nested types. Errors carry no path of their own here (the
//! enclosing `try` adds it); a value of the wrong JavaScript type fails with the kind
//! the plan gives for it (`Node::wrong_type_kind`).

use super::runs::{write_run, Member};
use crate::codegen::ts::exprs::{range_violation, varint_range};
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{int_lit, wrapped, Gen, Locals, MAX_SAFE};
use crate::plan::{Lang, Length, Node, Op, Prefix, ScalarKind};

/// Prints the writing of one value of any node outside a run.
pub(crate) fn write_value(g: &Gen, p: &mut Printer, locals: &mut Locals, node: &Node, x: &str) {
    let wrong = node.wrong_type_kind(&g.plan).name();
    match &node.op {
        Op::Scalar(s) => match s.kind {
            // Enums have their own write function, which checks the name.
            ScalarKind::Enum { id, .. } => p.line(format!("write{}(w, {x});", g.ident(id))),
            _ => {
                let m = Member {
                    value: x.to_string(),
                    local: Some(locals.fresh("value")),
                    scalar: s,
                    offset: 0,
                    names: Vec::new(),
                    origin: "w.bitPos",
                };
                write_run(g, p, locals, &[m], s.bits, None, false);
            }
        },
        Op::Varint(v) => {
            let (min, max) = varint_range(v);
            let x = bind(p, locals, x, "value");
            p.open_if(&range_violation(&x, min, max, v.json_wide));
            p.line(format!(
                "throw bw.rangeError(w.bitPos, {x}, {}, {});",
                int_lit(min, v.json_wide),
                int_lit(max, v.json_wide)
            ));
            p.close("}");
            match (v.bits, v.signed) {
                (64, false) => p.line(format!("w.writeVaru64({x});")),
                (64, true) => p.line(format!("w.writeVaru64(bw.zigzag64({x}));")),
                (bits, false) => p.line(format!("w.writeVaruint({x}, {bits});")),
                (bits, true) => p.line(format!("w.writeVaruint(bw.zigzag32({x}), {bits});")),
            }
        }
        Op::Optional(inner) => {
            let o = locals.fresh("o");
            p.line(format!("const {o} = {x};"));
            p.open(format!("if ({o} === null) {{"));
            p.line("w.writeBool(false);");
            p.middle("} else {");
            p.line("w.writeBool(true);");
            write_value(g, p, locals, inner, &o);
            p.close("}");
        }
        Op::Array(a) => {
            let expected = format!("an array of {} elements", a.len);
            let list = array(p, locals, x, wrong, &expected, g.typed_array(node));
            p.open(format!("if ({list}.length !== {}) {{", a.len));
            p.line(format!(
                "throw bw.lengthError(w.bitPos, {list}.length, {});",
                a.len
            ));
            p.close("}");
            write_elements(g, p, locals, &a.elem, &list);
        }
        Op::List(l) => {
            let expected = bounded("an array", l.length.max, "elements");
            let list = array(p, locals, x, wrong, &expected, g.typed_array(node));
            write_length(p, &format!("{list}.length"), &l.length);
            write_elements(g, p, locals, &l.elem, &list);
        }
        Op::String(len) => {
            // The UTF-8 length first (no allocation; -1 for a value that is not a
            // string or has no UTF-8 form), then the bytes straight into the buffer.
            let s = bind(p, locals, x, "str");
            // A bounded string with a fixed prefix that is ASCII (names, tags) in one
            // pass over its characters; anything else, errors included, below.
            let ascii = match (len.prefix, len.max) {
                (Prefix::Fixed { bits }, Some(m)) if bits <= 32 && u128::from(m) < MAX_SAFE => {
                    Some((bits, m))
                }
                _ => None,
            };
            if let Some((bits, m)) = ascii {
                p.open(format!("if (!w.writeAscii({s}, {bits}, {m})) {{"));
            }
            let n = locals.fresh("len");
            p.line(format!("const {n} = bw.utf8Length({s});"));
            p.open(format!("if ({n} < 0) {{"));
            p.line(format!("throw bw.utf8Error(w.bitPos, {s});"));
            p.close("}");
            write_length(p, &n, len);
            p.line(format!("w.writeUtf8({s}, {n});"));
            if ascii.is_some() {
                p.close("}");
            }
        }
        Op::Bytes(len) => {
            let b = bind(p, locals, x, "blob");
            let cond = format!("!({b} instanceof Uint8Array)");
            let expected = bounded("a Uint8Array", len.max, "bytes");
            type_check(p, &cond, wrong, &b, &expected);
            write_length(p, &format!("{b}.length"), len);
            p.line(format!("w.writeBytes({b});"));
        }
        Op::Named(id) => p.line(format!("write{}(w, {x});", g.ident(*id))),
    }
}

/// Binds an array's or list's value to a local and checks that it is an `Array` (or,
/// with typed arrays, its typed array: either will do from untyped JavaScript).
fn array(
    p: &mut Printer,
    locals: &mut Locals,
    x: &str,
    kind: &str,
    expected: &str,
    typed: Option<&str>,
) -> String {
    let list = bind(p, locals, x, "list");
    let cond = match typed {
        Some(t) => format!("!({list} instanceof {t}) && !Array.isArray({list})"),
        None => format!("!Array.isArray({list})"),
    };
    type_check(p, &cond, kind, &list, expected);
    list
}

/// What a sequence of the wrong type should have been, with its bound when it has one
/// (`an array of at most 8 elements`), for the message.
fn bounded(what: &str, max: Option<u64>, unit: &str) -> String {
    match max {
        Some(m) if u128::from(m) < MAX_SAFE => format!("{what} of at most {m} {unit}"),
        _ => what.to_string(),
    }
}

/// Prints the check that a value is of the JavaScript type a sequence or string needs.
fn type_check(p: &mut Printer, cond: &str, kind: &str, x: &str, expected: &str) {
    p.open_if(cond);
    p.line(format!(
        "throw bw.typeError(\"{kind}\", w.bitPos, {x}, \"{expected}\");"
    ));
    p.close("}");
}

/// `x` itself when it is a local, else a new local bound to it.
fn bind(p: &mut Printer, locals: &mut Locals, x: &str, base: &str) -> String {
    if !x.contains('.') {
        return x.to_string();
    }
    let l = locals.fresh(base);
    p.line(format!("const {l} = {x};"));
    l
}

/// Checks a length against its bound and writes the length prefix (spec §5.6). A
/// bound at or above 2^53 − 1 needs no check: JavaScript lengths are below it.
fn write_length(p: &mut Printer, len: &str, l: &Length) {
    if let Some(m) = l.max.filter(|&m| u128::from(m) < MAX_SAFE) {
        p.open(format!("if ({len} > {m}) {{"));
        p.line(format!("throw bw.lengthError(w.bitPos, {len}, {m});"));
        p.close("}");
    }
    match l.prefix {
        Prefix::Fixed { bits } if bits <= 32 => p.line(format!("w.writeBits({len}, {bits});")),
        Prefix::Fixed { bits } => p.line(format!("w.writeUint({len}, {bits});")),
        Prefix::Varint => p.line(format!("w.writeVaruint({len}, 64);")),
    }
}

/// Writes every element of an array or list, adding the index to errors' paths.
fn write_elements(g: &Gen, p: &mut Printer, locals: &mut Locals, elem: &Node, list: &str) {
    let item = locals.fresh("item");
    if !elem.encode_can_fail(Lang::TS) {
        p.open(format!("for (const {item} of {list}) {{"));
        write_value(g, p, locals, elem, &item);
        p.close("}");
        return;
    }
    let i = locals.fresh("i");
    p.line(format!("let {i} = 0;"));
    p.open(format!("for (const {item} of {list}) {{"));
    let seg = i.clone();
    wrapped(p, "atIndex", &seg, |p| {
        write_value(g, p, locals, elem, &item)
    });
    p.line(format!("{i}++;"));
    p.close("}");
}
