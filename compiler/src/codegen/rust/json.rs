//! `to_json` / `from_json` (with `--json`): the JSON mapping of `docs/json-mapping.md`,
//! through the helpers in the runtime's `json` module. The mapping follows the schema
//! type, not the Rust type: a `u64` field of type `u40` is a JSON number, one of type
//! `u64` a decimal string; `bytes` is hex while `list<u8>` is an array.

use super::encode::Val;
use super::printer::{Printer, SHORT_WIDTH};
use super::{let_stmt, naming, try_expr, Ctx, Gen};
use crate::ir::{FloatRepr, TypeId};
use crate::plan::{Body, Node, Op, ScalarKind};

const J: &str = "::bitwire::json";

/// Prints `to_json`. `Copy` types take `self` by value (Rust's `to_*` convention).
pub fn to_json_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let plan = g.plan.get(id);
    let names = &g.names.types[id];
    let is_enum = matches!(plan.body, Body::Enum(_));
    let recv = if is_enum || g.is_copy(id) {
        "self"
    } else {
        "&self"
    };
    p.line("/// The value in the JSON mapping (`docs/json-mapping.md`).");
    p.open(format!("pub fn to_json({recv}) -> {J}::Value {{"));
    match &plan.body {
        Body::Struct(s) => {
            if s.fields.is_empty() {
                p.line(format!("{J}::Value::Object({J}::Map::new())"));
            } else {
                p.line(format!("let mut m = {J}::Map::new();"));
                for (f, ident) in s.fields.iter().zip(&names.members) {
                    let v = Val::place(format!("self.{ident}"));
                    let e = value_expr(p, &Ctx::default(), &f.node, &v);
                    let key = format!("{}.into()", naming::str_lit(&f.name));
                    insert_line(p, &key, &e);
                }
                p.line(format!("{J}::Value::Object(m)"));
            }
        }
        Body::Enum(_) => p.line(format!("{J}::Value::from(self.name())")),
        Body::Union(u) => {
            p.open("match self {");
            for (v, vname) in u.arms.iter().zip(&names.members) {
                let name = naming::str_lit(&v.name);
                match &v.payload {
                    None => p.line(format!("Self::{vname} => {J}::Value::from({name}),")),
                    Some(node) => {
                        let mut body = p.child(1);
                        // `self` by value binds the payload by value; a boxed payload
                        // is a reference through the box.
                        let v = if v.out_of_line {
                            body.line("let v = &**v;");
                            Val::reference("v")
                        } else if recv == "self" {
                            Val::place("v")
                        } else {
                            Val::reference("v")
                        };
                        let e = value_expr(&mut body, &Ctx::default(), node, &v);
                        let call = format!("{J}::variant({name}, {e})");
                        arm(p, &format!("Self::{vname}(v)"), body, &call, &[name, e]);
                    }
                }
            }
            p.close("}");
        }
    }
    p.close("}");
}

/// A match arm whose body is `{J}::variant(args)` after the statements in `body`: on
/// the arm's line when there are none and it fits (rustfmt unwraps single-expression
/// blocks), else as a block.
fn arm(p: &mut Printer, pattern: &str, body: Printer, call: &str, args: &[String]) {
    let one = format!("{pattern} => {call},");
    if body.is_empty() && p.fits(&one) && args.join(", ").len() <= SHORT_WIDTH {
        p.line(one);
        return;
    }
    p.open(format!("{pattern} => {{"));
    p.append(body);
    p.call(&format!("{J}::variant("), args, ")");
    p.close("}");
}

/// `m.insert(key, value);`, through a local when rustfmt would break the call.
fn insert_line(p: &mut Printer, key: &str, value: &str) {
    let one = format!("m.insert({key}, {value});");
    if key.len() + value.len() + 2 <= SHORT_WIDTH && p.fits(&one) {
        p.line(one);
    } else {
        p.line(format!("let v = {value};"));
        p.line(format!("m.insert({key}, v);"));
    }
}

/// The JSON value of `v` (printing any statements it needs first).
fn value_expr(p: &mut Printer, ctx: &Ctx, node: &Node, v: &Val) -> String {
    let x = v.value();
    let int = |wide: bool| {
        if wide {
            format!("{J}::wide({x})")
        } else {
            format!("{J}::Value::from({x})")
        }
    };
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Bool => format!("{J}::Value::Bool({x})"),
            ScalarKind::UInt { .. } | ScalarKind::SInt { .. } | ScalarKind::Bounded { .. } => {
                int(s.json_wide)
            }
            ScalarKind::Float { repr } | ScalarKind::Quantized { repr, .. } => match repr {
                FloatRepr::F32 => format!("{J}::float32({x})"),
                FloatRepr::F64 => format!("{J}::float64({x})"),
            },
            ScalarKind::Enum { .. } => format!("{}.to_json()", v.recv()),
        },
        Op::Varint(vi) => int(vi.json_wide),
        Op::String(_) => format!("{J}::Value::String({}.clone())", v.recv()),
        Op::Bytes(_) => format!("{J}::hex({})", v.as_ref()),
        Op::Named(_) => format!("{}.to_json()", v.recv()),
        Op::Optional(inner) => {
            let out = ctx.deeper().var("j");
            let inner_v = ctx.deeper().var("v");
            p.open(format!("let {out} = match {} {{", v.as_ref()));
            let mut body = p.child(1);
            let e = value_expr(&mut body, &ctx.deeper(), inner, &Val::reference(&inner_v));
            let pattern = format!("Some({inner_v})");
            if body.is_empty() && p.fits(&format!("{pattern} => {e},")) {
                p.line(format!("{pattern} => {e},"));
            } else {
                p.open(format!("{pattern} => {{"));
                p.append(body);
                p.line(e);
                p.close("}");
            }
            p.line(format!("None => {J}::Value::Null,"));
            p.close("};");
            out
        }
        Op::Array(crate::plan::Array { elem, .. }) | Op::List(crate::plan::List { elem, .. }) => {
            let items = ctx.deeper().var("items");
            let item = ctx.deeper().var("item");
            p.line(format!(
                "let mut {items} = Vec::with_capacity({}.len());",
                v.recv()
            ));
            p.open(format!("for {item} in {}.iter() {{", v.recv()));
            let e = value_expr(p, &ctx.deeper(), elem, &Val::reference(&item));
            p.call(&format!("{items}.push("), &[e], ");");
            p.close("}");
            format!("{J}::Value::Array({items})")
        }
    }
}

/// Prints `from_json_text`: JSON text through the runtime's strict reader
/// (docs/json-mapping.md §6), then `from_json`.
pub fn from_json_text_fn(p: &mut Printer) {
    p.line("/// Reads a value from JSON text with the strict reader of the JSON mapping");
    p.line("/// (`docs/json-mapping.md` §6: UTF-8, no duplicate names, depth 512, numbers");
    p.line("/// exact or rejected), the rules every bitwire language applies.");
    p.open(format!(
        "pub fn from_json_text(text: &[u8]) -> Result<Self, {J}::JsonError> {{"
    ));
    p.line(format!("Self::from_json(&{J}::parse(text)?)"));
    p.close("}");
}

/// Prints `from_json`.
pub fn from_json_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let plan = g.plan.get(id);
    let names = &g.names.types[id];
    p.line("/// Reads a value from the JSON mapping. Numbers that fit the Rust type but not");
    p.line("/// the schema type pass, so that `encode` reports them as wire errors.");
    p.open(format!(
        "pub fn from_json(v: &{J}::Value) -> Result<Self, {J}::JsonError> {{"
    ));
    match &plan.body {
        Body::Struct(s) => {
            let fields = &s.fields;
            let keys: Vec<String> = fields.iter().map(|f| naming::str_lit(&f.name)).collect();
            p.array("const FIELDS: &[&str] = &", &keys, ";");
            if fields.is_empty() {
                p.line(format!("{J}::object(v, FIELDS)?;"));
            } else {
                p.line(format!("let o = {J}::object(v, FIELDS)?;"));
            }
            let locals: Vec<String> = names
                .members
                .iter()
                .map(|m| naming::local_ident(m))
                .collect();
            for ((f, local), key) in fields.iter().zip(&locals).zip(&keys) {
                if matches!(f.node.op, Op::Optional(_)) {
                    p.line(format!("let j = o.optional({key});"));
                } else {
                    p.line(format!("let j = o.field({key})?;"));
                }
                read_into(g, p, &Ctx::default().field(&f.name), &f.node, "j", local);
            }
            let items: Vec<String> = names
                .members
                .iter()
                .zip(&locals)
                .map(|(m, l)| {
                    if m == l {
                        m.clone()
                    } else {
                        format!("{m}: {l}")
                    }
                })
                .collect();
            super::decode::struct_literal(p, "Ok(Self {", &items, "})");
        }
        Body::Enum(_) => {
            let crate::ir::TypeDefKind::Enum { variants, .. } = &g.schema.types[id].kind else {
                unreachable!("an enum")
            };
            p.open(format!("match {J}::to_name(v)? {{"));
            for (v, vname) in variants.iter().zip(&names.members) {
                p.line(format!(
                    "{} => Ok(Self::{vname}),",
                    naming::str_lit(&v.name)
                ));
            }
            p.line(format!(
                "name => Err({J}::JsonError::unknown_variant(name)),"
            ));
            p.close("}");
        }
        Body::Union(u) => {
            p.line(format!("let (name, payload) = {J}::to_variant(v)?;"));
            p.open("match name {");
            for (v, vname) in u.arms.iter().zip(&names.members) {
                let name = naming::str_lit(&v.name);
                let ctx = Ctx::default().field(&v.name);
                p.open(format!("{name} => {{"));
                match &v.payload {
                    Some(node) => {
                        let e = try_expr(p, &ctx, &format!("{J}::payload(payload)"));
                        p.line(format!("let j = {e};"));
                        read_into(g, p, &ctx, node, "j", "v");
                        if v.out_of_line {
                            p.line(format!("Ok(Self::{vname}(Box::new(v)))"));
                        } else {
                            p.line(format!("Ok(Self::{vname}(v))"));
                        }
                    }
                    None => {
                        let e = try_expr(p, &ctx, &format!("{J}::unit(payload)"));
                        p.line(format!("{e};"));
                        p.line(format!("Ok(Self::{vname})"));
                    }
                }
                p.close("}");
            }
            p.line(format!("_ => Err({J}::JsonError::unknown_variant(name)),"));
            p.close("}");
        }
    }
    p.close("}");
}

/// Prints `let {dest} = <value of type ty read from the JSON value in local src>;`.
fn read_into(g: &Gen, p: &mut Printer, ctx: &Ctx, node: &Node, src: &str, dest: &str) {
    let simple = |p: &mut Printer, call: String| {
        let e = try_expr(p, ctx, &call);
        let_stmt(p, dest, &e);
    };
    let int = |p: &mut Printer, wide: bool| {
        let f = if wide { "to_wide_int" } else { "to_int" };
        simple(p, format!("{J}::{f}::<{}>({src})", g.rust_type(node)));
    };
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Bool => simple(p, format!("{J}::to_bool({src})")),
            ScalarKind::UInt { .. } | ScalarKind::SInt { .. } | ScalarKind::Bounded { .. } => {
                int(p, s.json_wide)
            }
            ScalarKind::Float { repr } | ScalarKind::Quantized { repr, .. } => match repr {
                FloatRepr::F32 => simple(p, format!("{J}::to_f32({src})")),
                FloatRepr::F64 => simple(p, format!("{J}::to_f64({src})")),
            },
            ScalarKind::Enum { id, .. } => {
                simple(p, format!("{}::from_json({src})", g.ident(id)));
            }
        },
        Op::Varint(vi) => int(p, vi.json_wide),
        Op::String(_) => simple(p, format!("{J}::to_string({src})")),
        Op::Bytes(_) => simple(p, format!("{J}::to_bytes({src})")),
        Op::Named(id) => simple(p, format!("{}::from_json({src})", g.ident(*id))),
        Op::Optional(inner) => {
            let v = ctx.deeper().var("v");
            p.open(format!("let {dest} = if {src}.is_null() {{"));
            p.line("None");
            p.middle("} else {");
            read_into(g, p, &ctx.deeper(), inner, src, &v);
            p.line(format!("Some({v})"));
            p.close("};");
        }
        Op::Array(crate::plan::Array { elem, .. }) | Op::List(crate::plan::List { elem, .. }) => {
            let array = match &node.op {
                Op::Array(a) => Some(a.out_of_line),
                _ => None,
            };
            let elems = ctx.deeper().var("elems");
            let i = ctx.deeper().var("i");
            let j = ctx.deeper().var("j");
            let item = ctx.deeper().var("item");
            let list = if array.is_some() {
                ctx.deeper().var("list")
            } else {
                dest.to_string()
            };
            let e = try_expr(p, ctx, &format!("{J}::to_array({src})"));
            let_stmt(p, &elems, &e);
            p.line(format!(
                "let mut {list} = Vec::with_capacity({elems}.len());"
            ));
            p.open(format!("for ({i}, {j}) in {elems}.iter().enumerate() {{"));
            read_into(g, p, &ctx.index(&i), elem, &j, &item);
            p.line(format!("{list}.push({item});"));
            p.close("}");
            match array {
                Some(true) => simple(p, format!("{J}::to_fixed_boxed({list})")),
                Some(false) => simple(p, format!("{J}::to_fixed({list})")),
                None => {}
            }
        }
    }
}
