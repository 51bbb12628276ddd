//! `writeBincodeX`: the bincode encoder of each named type, printed from its bincode
//! plan (spec §13). Each value is one `bw.ByteWriter` call that checks the JavaScript
//! value (its type, and the range the plan gives) before writing it; every field is
//! written inside a `try` that adds its name to the path of any error, every element
//! inside one that adds its index.

use super::{lane_array, lane_stem, max_arg, repr_method, wide, Bincode};
use crate::codegen::ts::encode::object_check;
use crate::codegen::ts::printer::Printer;
use crate::codegen::ts::{f64_lit, int_lit, naming, wrapped, Gen, Locals, MAX_SAFE};
use crate::ir::{FloatRepr, TypeDefKind, TypeId};
use crate::plan::bincode::{BinArm, BinBody, BinField, BinNode, BinOp};
use crate::plan::Form;

/// Prints `writeBincodeX`: the value's bincode bytes at the writer's position.
pub fn write_fn(g: &Gen, b: &Bincode, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.doc(&[vec![
        "Writes the value's bincode bytes (spec §13) at the writer's position.".into(),
    ]]);
    p.open(format!(
        "export function {}(w: bw.ByteWriter, v: {ident}): void {{",
        b.names[id].write
    ));
    let mut locals = Locals::default();
    locals.reserve("w");
    locals.reserve("v");
    match super::body(b, id) {
        BinBody::Struct { fields } => write_struct(g, b, p, id, fields, &mut locals),
        BinBody::Enum { .. } => write_enum(g, p, id),
        BinBody::Union { arms, .. } => write_union(g, b, p, id, arms, &mut locals),
    }
    p.close("}");
}

fn write_struct(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    id: TypeId,
    fields: &[BinField],
    locals: &mut Locals,
) {
    let kind = super::body(b, id).wrong_type_kind();
    let name = &g.schema.types[id].name;
    object_check(p, "v", "w.bitPos", kind, name, "struct", &[]);
    for (f, member) in fields.iter().zip(&g.names.types[id].members) {
        let value = format!("v.{member}");
        wrapped(p, "inField", &naming::str_lit(&f.name), |p| {
            write_value(g, b, p, locals, &f.node, &value);
        });
    }
}

/// An enum: the declaration index of the value's name (spec §13.2).
fn write_enum(g: &Gen, p: &mut Printer, id: TypeId) {
    let TypeDefKind::Enum { variants, .. } = &g.schema.types[id].kind else {
        unreachable!("an enum")
    };
    p.open("switch (v) {");
    for (i, v) in variants.iter().enumerate() {
        p.line(format!(
            "case {}: return w.index({i});",
            naming::str_lit(&v.name)
        ));
    }
    p.line("default: throw bw.enumError(w.bitPos, v);");
    p.close("}");
}

/// A union: the arm's declaration index, then its payload (spec §13.4).
fn write_union(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    id: TypeId,
    arms: &[BinArm],
    locals: &mut Locals,
) {
    let kind = super::body(b, id).wrong_type_kind();
    let name = &g.schema.types[id].name;
    object_check(p, "v", "w.bitPos", kind, name, "union", &[]);
    p.open("switch (v.kind) {");
    for (i, arm) in arms.iter().enumerate() {
        let seg = naming::str_lit(&arm.name);
        p.open(format!("case {seg}: {{"));
        p.line(format!("w.index({i});"));
        if let Some(node) = &arm.payload {
            wrapped(p, "inField", &seg, |p| {
                write_value(g, b, p, locals, node, "v.value");
            });
        }
        p.line("return;");
        p.close("}");
    }
    p.close("}");
    p.line("// Only reachable from untyped JavaScript: a kind the union does not declare.");
    p.line("throw bw.enumError(w.bitPos, (v as { kind: unknown }).kind);");
}

/// Prints the writing of one value `x` of any node (its path is added by the caller).
fn write_value(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    locals: &mut Locals,
    node: &BinNode,
    x: &str,
) {
    match &node.op {
        BinOp::Bool { .. } => p.line(format!("w.bool({x});")),
        BinOp::Int { repr, range } => match range {
            None => p.line(format!("w.{}({x});", repr_method(*repr))),
            Some(r) if wide(*repr, *range) => {
                p.line(format!("w.big({x}, {}n, {}n);", r.min, r.max));
            }
            Some(r) => p.line(format!(
                "w.int{}({x}, {}, {});",
                repr.bits(),
                int_lit(r.min, false),
                int_lit(r.max, false)
            )),
        },
        BinOp::Float { repr, range } => {
            let f = match repr {
                FloatRepr::F32 => "f32",
                FloatRepr::F64 => "f64",
            };
            match range {
                None => p.line(format!("w.{f}({x});")),
                Some(r) => p.line(format!(
                    "w.{f}In({x}, {}, {});",
                    f64_lit(r.min),
                    f64_lit(r.max)
                )),
            }
        }
        BinOp::Enum { id } | BinOp::Named { id } => {
            p.line(format!("{}(w, {x});", b.names[*id].write));
        }
        BinOp::Optional { inner, .. } => {
            let o = if x.contains('.') {
                let o = locals.fresh("o");
                p.line(format!("const {o} = {x};"));
                o
            } else {
                x.to_string()
            };
            p.open(format!("if ({o} === null) {{"));
            p.line("w.option(false);");
            p.middle("} else {");
            p.line("w.option(true);");
            write_value(g, b, p, locals, inner, &o);
            p.close("}");
        }
        BinOp::Array { len, form, elem } => {
            let kind = node.wrong_type_kind(&b.plan).name();
            let expected = format!("an array of {len} elements");
            let list = sequence(p, locals, x, *form, kind, &expected);
            p.open(format!("if ({list}.length !== {len}) {{"));
            p.line(format!(
                "throw bw.lengthError(w.bitPos, {list}.length, {len});"
            ));
            p.close("}");
            write_elements(g, b, p, locals, *form, elem, &list);
        }
        BinOp::List { length, form, elem } => {
            let kind = node.wrong_type_kind(&b.plan).name();
            let expected = match length.max {
                Some(m) if u128::from(m) < MAX_SAFE => format!("an array of at most {m} elements"),
                _ => "an array".to_string(),
            };
            let list = sequence(p, locals, x, *form, kind, &expected);
            p.line(format!("w.len({list}.length, {});", encode_max(length.max)));
            write_elements(g, b, p, locals, *form, elem, &list);
        }
        BinOp::String { length, .. } => {
            p.line(format!("w.string({x}, {});", encode_max(length.max)));
        }
        BinOp::Bytes { length } => {
            p.line(format!("w.bytes({x}, {});", encode_max(length.max)));
        }
    }
}

/// A length bound for the writer: JavaScript lengths stay below 2^53, so a bound at
/// or above it is no bound.
fn encode_max(max: Option<u64>) -> String {
    match max {
        Some(m) if u128::from(m) < MAX_SAFE => max_arg(max),
        _ => max_arg(None),
    }
}

/// Binds an array's or list's value to a local and checks that it is an `Array` (or,
/// for plain numbers, the typed array of their lane).
fn sequence(
    p: &mut Printer,
    locals: &mut Locals,
    x: &str,
    form: Form,
    kind: &str,
    expected: &str,
) -> String {
    let list = if x.contains('.') {
        let l = locals.fresh("list");
        p.line(format!("const {l} = {x};"));
        l
    } else {
        x.to_string()
    };
    let cond = match lane_array(form) {
        Some(typed) => format!("!({list} instanceof {typed}) && !Array.isArray({list})"),
        None => format!("!Array.isArray({list})"),
    };
    p.open_if(&cond);
    p.line(format!(
        "throw bw.typeError(\"{kind}\", w.bitPos, {list}, \"{expected}\");"
    ));
    p.close("}");
    list
}

/// Writes the elements of an array or list: plain numbers in one runtime call (which
/// puts the index of a bad element in its error's path), others one by one.
fn write_elements(
    g: &Gen,
    b: &Bincode,
    p: &mut Printer,
    locals: &mut Locals,
    form: Form,
    elem: &BinNode,
    list: &str,
) {
    if let Some(stem) = lane_stem(form) {
        p.line(format!("w.{stem}s({list});"));
        return;
    }
    let item = locals.fresh("item");
    let i = locals.fresh("i");
    p.line(format!("let {i} = 0;"));
    p.open(format!("for (const {item} of {list}) {{"));
    wrapped(p, "atIndex", &i.clone(), |p| {
        write_value(g, b, p, locals, elem, &item)
    });
    p.line(format!("{i}++;"));
    p.close("}");
}
