//! `readBincodeX` and `skipBincodeX`: the bincode decoder of each named type and its
//! validating half, printed by one walk over the bincode plan (spec §13, lengths
//! §13.3, budget §11.5). Both halves make the same reads and checks in the same
//! order; `readBincodeX` also builds the value. So `verifyBincodeX(bytes)` fails
//! exactly when `decodeBincodeX(bytes)` does, with the same error, by construction.

use super::{
    lane_bytes, lane_stem, max_arg, repr_bytes, repr_method, ts_type, wide, zero_size, Bincode,
};
use crate::codegen::ts::decode::field_init;
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{f64_lit, int_lit, naming, wrapped, Gen, Locals};
use crate::ir::{FloatRepr, TypeDefKind, TypeId};
use crate::plan::bincode::{BinArm, BinBody, BinField, BinLength, BinNode, BinOp};
use crate::plan::Form;

/// Which half of the decoder is printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `readBincodeX`: validate and build the value.
    Read,
    /// `skipBincodeX`: validate only, build nothing.
    Skip,
}

/// Prints `readBincodeX` or `skipBincodeX`.
pub fn read_fn(g: &Gen, b: &Bincode, p: &mut Printer, id: TypeId, mode: Mode) {
    let ident = g.ident(id);
    let n = &b.names[id];
    let body = super::body(b, id);
    // The reader goes unused only by a struct that reads nothing.
    let used = match body {
        BinBody::Struct { fields } => match mode {
            Mode::Read => !fields.is_empty(),
            Mode::Skip => fields.iter().any(|f| !zero_size(&f.node)),
        },
        _ => true,
    };
    let r = if used { "r" } else { "_r" };
    match mode {
        Mode::Read => {
            p.doc(&[vec![
                "Reads a value's bincode bytes (spec §13) at the reader's position.".into(),
            ]]);
            p.open(format!(
                "export function {}({r}: bw.ByteReader): {ident} {{",
                n.read
            ));
        }
        Mode::Skip => {
            p.doc(&[vec![
                "Moves past a value's bincode bytes, checking them as the read does.".into(),
            ]]);
            p.open(format!(
                "export function {}({r}: bw.ByteReader): void {{",
                n.skip
            ));
            if !used {
                p.line("// Every value takes no bytes: nothing to read or check.");
            }
        }
    }
    let mut locals = Locals::default();
    locals.reserve("r");
    match body {
        BinBody::Struct { fields } => read_struct(g, b, p, id, fields, &mut locals, mode),
        BinBody::Enum { values, .. } => read_enum(g, p, id, values.len(), mode),
        BinBody::Union { arms, .. } => read_union(g, b, p, arms, &mut locals, mode),
    }
    p.close("}");
}

fn read_struct(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    id: TypeId,
    fields: &[BinField],
    locals: &mut Locals,
    mode: Mode,
) {
    let members = &g.names.types[id].members;
    let field_locals: Vec<String> = members
        .iter()
        .map(|m| {
            let l = g.local(m);
            locals.reserve(&l);
            l
        })
        .collect();
    for (f, l) in fields.iter().zip(&field_locals) {
        let seg = naming::str_lit(&f.name);
        match mode {
            // Nothing to read: nothing can fail.
            Mode::Read if zero_size(&f.node) => {
                let e = read_value(g, b, p, locals, &f.node, mode).expect("a value");
                p.line(format!("const {l} = {e};"));
            }
            Mode::Read => {
                p.line(format!("let {l}: {};", ts_type(g, &f.node)));
                wrapped(p, "inField", &seg, |p| {
                    let e = read_value(g, b, p, locals, &f.node, mode).expect("a value");
                    p.line(format!("{l} = {e};"));
                });
            }
            Mode::Skip if zero_size(&f.node) => {}
            Mode::Skip => wrapped(p, "inField", &seg, |p| {
                read_value(g, b, p, locals, &f.node, mode);
            }),
        }
    }
    if mode == Mode::Skip {
        return;
    }
    let items: Vec<String> = members
        .iter()
        .zip(&field_locals)
        .map(|(m, l)| field_init(m, l))
        .collect();
    if items.is_empty() {
        p.line("return {};");
    } else {
        p.list("return { ", &items, " };");
    }
}

/// An enum: a `u32` index below the number of variants, the variant's name.
fn read_enum(g: &Gen, p: &mut Printer, id: TypeId, count: usize, mode: Mode) {
    if mode == Mode::Skip {
        p.line(format!("r.variant({count});"));
        return;
    }
    let TypeDefKind::Enum { variants, .. } = &g.schema.types[id].kind else {
        unreachable!("an enum")
    };
    p.line("const at = r.bitPos;");
    p.line("const index = r.u32();");
    p.open("switch (index) {");
    for (i, v) in variants.iter().enumerate() {
        p.line(format!("case {i}: return {};", naming::str_lit(&v.name)));
    }
    p.line("default: throw bw.enumError(at, index);");
    p.close("}");
}

/// A union: a `u32` index below the number of arms, then the arm's payload.
fn read_union(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    arms: &[BinArm],
    locals: &mut Locals,
    mode: Mode,
) {
    locals.reserve("at");
    locals.reserve("index");
    if mode == Mode::Skip
        && arms
            .iter()
            .all(|a| a.payload.as_ref().is_none_or(zero_size))
    {
        // Nothing but the index to check.
        p.line(format!("r.variant({});", arms.len()));
        return;
    }
    p.line("const at = r.bitPos;");
    p.line("const index = r.u32();");
    p.open("switch (index) {");
    for (i, arm) in arms.iter().enumerate() {
        p.open(format!("case {i}: {{"));
        union_arm(g, b, p, locals, arm, mode);
        if mode == Mode::Skip {
            p.line("return;");
        }
        p.close("}");
    }
    p.open("default:");
    p.line("throw bw.enumError(at, index);");
    p.dedent();
    p.close("}");
}

/// The body of a union arm: read the payload and return the value, or check it.
fn union_arm(g: &Gen, b: &Bincode, p: &mut Printer, locals: &mut Locals, arm: &BinArm, mode: Mode) {
    let kind = naming::str_lit(&arm.name);
    let Some(node) = &arm.payload else {
        if mode == Mode::Read {
            p.line(format!("return {{ kind: {kind} }};"));
        }
        return;
    };
    match mode {
        Mode::Read if zero_size(node) => {
            let e = read_value(g, b, p, locals, node, mode).expect("a value");
            p.line(format!("return {{ kind: {kind}, value: {e} }};"));
        }
        Mode::Read => {
            let value = locals.fresh("value");
            p.line(format!("let {value}: {};", ts_type(g, node)));
            wrapped(p, "inField", &kind, |p| {
                let e = read_value(g, b, p, locals, node, mode).expect("a value");
                p.line(format!("{value} = {e};"));
            });
            let value = field_init("value", &value);
            p.line(format!("return {{ kind: {kind}, {value} }};"));
        }
        Mode::Skip if zero_size(node) => {}
        Mode::Skip => wrapped(p, "inField", &kind, |p| {
            read_value(g, b, p, locals, node, mode);
        }),
    }
}

/// Prints the reading or skipping of one value of any node and returns, in
/// [`Mode::Read`], the expression of its value (evaluated right after what was
/// printed). Errors carry no path of their own here: the caller's `try` adds it.
fn read_value(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    locals: &mut Locals,
    node: &BinNode,
    mode: Mode,
) -> Option<String> {
    // A read whose value is not needed in `Mode::Skip`, for its checks.
    let call = |p: &mut Printer, e: String| match mode {
        Mode::Read => Some(e),
        Mode::Skip => {
            p.line(format!("{e};"));
            None
        }
    };
    match &node.op {
        BinOp::Bool { .. } => call(p, "r.bool()".into()),
        BinOp::Int { repr, range } => match range {
            None if mode == Mode::Skip => call(p, format!("r.skip({})", repr_bytes(*repr))),
            None => call(p, format!("r.{}()", repr_method(*repr))),
            Some(r) if wide(*repr, *range) => call(
                p,
                format!("r.big({}, {}n, {}n)", repr.signed(), r.min, r.max),
            ),
            Some(r) => call(
                p,
                format!(
                    "r.{}In({}, {})",
                    repr_method(*repr),
                    int_lit(r.min, false),
                    int_lit(r.max, false)
                ),
            ),
        },
        BinOp::Float { repr, range } => {
            let (f, bytes) = match repr {
                FloatRepr::F32 => ("f32", 4),
                FloatRepr::F64 => ("f64", 8),
            };
            match range {
                None if mode == Mode::Skip => call(p, format!("r.skip({bytes})")),
                None => call(p, format!("r.{f}()")),
                Some(r) => call(
                    p,
                    format!("r.{f}In({}, {})", f64_lit(r.min), f64_lit(r.max)),
                ),
            }
        }
        BinOp::Enum { id } | BinOp::Named { id } => {
            let n = &b.names[*id];
            match mode {
                Mode::Read => call(p, format!("{}(r)", n.read)),
                Mode::Skip => call(p, format!("{}(r)", n.skip)),
            }
        }
        BinOp::Optional { inner, .. } => optional(g, b, p, locals, inner, mode),
        BinOp::Array { len, form, elem } => {
            let count = len.to_string();
            elements(g, b, p, locals, *form, elem, &count, false, mode)
        }
        BinOp::List { length, form, elem } => {
            let (n, _) = read_length(p, locals, length, false);
            elements(g, b, p, locals, *form, elem, &n, true, mode)
        }
        BinOp::String { length, .. } => {
            let (n, start) = read_length(p, locals, length, true);
            let start = start.expect("a start");
            match mode {
                Mode::Read => call(p, format!("r.string({n}, {start})")),
                Mode::Skip => call(p, format!("r.skipString({n}, {start})")),
            }
        }
        BinOp::Bytes { length } => {
            let (n, _) = read_length(p, locals, length, false);
            match mode {
                Mode::Read => call(p, format!("r.bytes({n})")),
                Mode::Skip => call(p, format!("r.skip({n})")),
            }
        }
    }
}

/// An option tag, then the value if present (spec §13.4).
fn optional(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    locals: &mut Locals,
    inner: &BinNode,
    mode: Mode,
) -> Option<String> {
    match mode {
        Mode::Read => {
            let o = locals.fresh("o");
            p.line(format!("let {o}: {} | null = null;", ts_type(g, inner)));
            p.open("if (r.option()) {");
            let e = read_value(g, b, p, locals, inner, mode).expect("a value");
            p.line(format!("{o} = {e};"));
            p.close("}");
            Some(o)
        }
        Mode::Skip if zero_size(inner) => {
            p.line("r.option();");
            None
        }
        Mode::Skip => {
            p.open("if (r.option()) {");
            read_value(g, b, p, locals, inner, mode);
            p.close("}");
            None
        }
    }
}

/// Reads and checks a `u64` length (spec §13.3) into a local; with `start`, also the
/// local of the value's first bit (a string's UTF-8 error is reported there).
fn read_length(
    p: &mut Printer,
    locals: &mut Locals,
    length: &BinLength,
    start: bool,
) -> (String, Option<String>) {
    let at = start.then(|| {
        let s = locals.fresh("start");
        p.line(format!("const {s} = r.bitPos;"));
        s
    });
    let n = locals.fresh("len");
    p.line(format!(
        "const {n} = r.len({}, {}, {});",
        max_arg(length.max),
        length.elem_min_bytes,
        int_lit(i128::from(length.charge_per_elem), false)
    ));
    (n, at)
}

/// The `count` elements of an array or list: plain numbers in one runtime call (an
/// array's, which has no length check, fails at its first missing element), others
/// one by one with their index added to errors' paths. `counted`: a list, whose
/// length check made room for every element, so skipping plain numbers is one move.
#[allow(clippy::too_many_arguments)]
fn elements(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    locals: &mut Locals,
    form: Form,
    elem: &BinNode,
    count: &str,
    counted: bool,
    mode: Mode,
) -> Option<String> {
    if let Some(stem) = lane_stem(form) {
        let size = lane_bytes(form);
        return match mode {
            Mode::Read if super::typed_array(g, elem).is_some() => {
                Some(format!("r.{stem}Array({count})"))
            }
            Mode::Read => Some(format!("r.{stem}s({count})")),
            Mode::Skip if counted && size == 1 => skip(p, format!("r.skip({count})")),
            Mode::Skip if counted => skip(p, format!("r.skip({count} * {size})")),
            Mode::Skip => skip(p, format!("r.skipElements({count}, {size})")),
        };
    }
    if mode == Mode::Skip && zero_size(elem) {
        return None;
    }
    let items = locals.fresh("items");
    let i = locals.fresh("i");
    if mode == Mode::Read {
        p.line(format!(
            "const {items}: {}[] = [];",
            super::elem_type(g, elem)
        ));
    }
    p.open(format!("for (let {i} = 0; {i} < {count}; {i}++) {{"));
    let body = |p: &mut Printer, locals: &mut Locals| {
        if let Some(e) = read_value(g, b, p, locals, elem, mode) {
            p.line(format!("{items}.push({e});"));
        }
    };
    if zero_size(elem) {
        body(p, locals);
    } else {
        wrapped(p, "atIndex", &i.clone(), |p| body(p, locals));
    }
    p.close("}");
    (mode == Mode::Read).then_some(items)
}

/// Prints `call;` (a skip) and returns no value.
fn skip(p: &mut Printer, call: String) -> Option<String> {
    p.line(format!("{call};"));
    None
}
