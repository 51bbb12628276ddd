//! `to_json` / `from_json` (with `--json`): the JSON mapping of `docs/json-mapping.md`,
//! through the helpers in the runtime's `json` module. The mapping follows the schema
//! type, not the Rust type: a `u64` field of type `u40` is a JSON number, one of type
//! `u64` a decimal string; `bytes` is hex while `list<u8>` is an array.

use super::encode::Val;
use super::printer::{Printer, SHORT_WIDTH};
use super::{let_stmt, naming, try_expr, Ctx, Gen};
use crate::codegen::plan;
use crate::ir::{FloatRepr, Type, TypeDefKind, TypeId};

const J: &str = "::bitwire::json";

/// Prints `to_json`. `Copy` types take `self` by value (Rust's `to_*` convention).
pub fn to_json_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    let is_enum = matches!(def.kind, TypeDefKind::Enum { .. });
    let recv = if is_enum || g.is_copy(id) {
        "self"
    } else {
        "&self"
    };
    p.line("/// The value in the JSON mapping (`docs/json-mapping.md`).");
    p.open(format!("pub fn to_json({recv}) -> {J}::Value {{"));
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            if fields.is_empty() {
                p.line(format!("{J}::Value::Object({J}::Map::new())"));
            } else {
                p.line(format!("let mut m = {J}::Map::new();"));
                for (f, ident) in fields.iter().zip(&names.members) {
                    let v = Val::place(format!("self.{ident}"));
                    let e = value_expr(p, &Ctx::default(), &f.ty, &v);
                    let key = format!("{}.into()", naming::str_lit(&f.name));
                    insert_line(p, &key, &e);
                }
                p.line(format!("{J}::Value::Object(m)"));
            }
        }
        TypeDefKind::Enum { .. } => p.line(format!("{J}::Value::from(self.name())")),
        TypeDefKind::Union { variants, .. } => {
            p.open("match self {");
            for (v, vname) in variants.iter().zip(&names.members) {
                let name = naming::str_lit(&v.name);
                match &v.payload {
                    None => p.line(format!("Self::{vname} => {J}::Value::from({name}),")),
                    Some(ty) => {
                        let mut body = p.child(1);
                        // `self` by value binds the payload by value.
                        let v = if recv == "self" {
                            Val::place("v")
                        } else {
                            Val::reference("v")
                        };
                        let e = value_expr(&mut body, &Ctx::default(), ty, &v);
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
fn value_expr(p: &mut Printer, ctx: &Ctx, ty: &Type, v: &Val) -> String {
    let x = v.value();
    match ty {
        Type::Bool => format!("{J}::Value::Bool({x})"),
        Type::UInt { .. }
        | Type::SInt { .. }
        | Type::Bounded { .. }
        | Type::VarUInt { .. }
        | Type::VarSInt { .. } => {
            if plan::json_wide_int(ty) {
                format!("{J}::wide({x})")
            } else {
                format!("{J}::Value::from({x})")
            }
        }
        Type::Float { repr } | Type::Quantized { repr, .. } => match repr {
            FloatRepr::F32 => format!("{J}::float32({x})"),
            FloatRepr::F64 => format!("{J}::float64({x})"),
        },
        Type::String { .. } => format!("{J}::Value::String({}.clone())", v.recv()),
        Type::Bytes { .. } => format!("{J}::hex({})", v.as_ref()),
        Type::Named { .. } => format!("{}.to_json()", v.recv()),
        Type::Optional { inner } => {
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
        Type::Array { elem, .. } | Type::List { elem, .. } => {
            let items = ctx.deeper().var("items");
            let item = ctx.deeper().var("item");
            p.line(format!(
                "let mut {items} = Vec::with_capacity({}.len());",
                v.recv()
            ));
            p.open(format!("for {item} in {} {{", v.as_ref()));
            let e = value_expr(p, &ctx.deeper(), elem, &Val::reference(&item));
            p.call(&format!("{items}.push("), &[e], ");");
            p.close("}");
            format!("{J}::Value::Array({items})")
        }
    }
}

/// Prints `from_json`.
pub fn from_json_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    p.line("/// Reads a value from the JSON mapping. Numbers that fit the Rust type but not");
    p.line("/// the schema type pass, so that `encode` reports them as wire errors.");
    p.open(format!(
        "pub fn from_json(v: &{J}::Value) -> Result<Self, {J}::JsonError> {{"
    ));
    match &def.kind {
        TypeDefKind::Struct { fields } => {
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
                if matches!(f.ty, Type::Optional { .. }) {
                    p.line(format!("let j = o.optional({key});"));
                } else {
                    p.line(format!("let j = o.field({key})?;"));
                }
                read_into(g, p, &Ctx::default().field(&f.name), &f.ty, "j", local);
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
        TypeDefKind::Enum { variants, .. } => {
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
        TypeDefKind::Union { variants, .. } => {
            p.line(format!("let (name, payload) = {J}::to_variant(v)?;"));
            p.open("match name {");
            for (v, vname) in variants.iter().zip(&names.members) {
                let name = naming::str_lit(&v.name);
                let ctx = Ctx::default().field(&v.name);
                p.open(format!("{name} => {{"));
                match &v.payload {
                    Some(ty) => {
                        let e = try_expr(p, &ctx, &format!("{J}::payload(payload)"));
                        p.line(format!("let j = {e};"));
                        read_into(g, p, &ctx, ty, "j", "v");
                        p.line(format!("Ok(Self::{vname}(v))"));
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
fn read_into(g: &Gen, p: &mut Printer, ctx: &Ctx, ty: &Type, src: &str, dest: &str) {
    let simple = |p: &mut Printer, call: String| {
        let e = try_expr(p, ctx, &call);
        let_stmt(p, dest, &e);
    };
    match ty {
        Type::Bool => simple(p, format!("{J}::to_bool({src})")),
        Type::UInt { .. }
        | Type::SInt { .. }
        | Type::Bounded { .. }
        | Type::VarUInt { .. }
        | Type::VarSInt { .. } => {
            let f = if plan::json_wide_int(ty) {
                "to_wide_int"
            } else {
                "to_int"
            };
            simple(p, format!("{J}::{f}::<{}>({src})", g.rust_type(ty)));
        }
        Type::Float { repr } | Type::Quantized { repr, .. } => match repr {
            FloatRepr::F32 => simple(p, format!("{J}::to_f32({src})")),
            FloatRepr::F64 => simple(p, format!("{J}::to_f64({src})")),
        },
        Type::String { .. } => simple(p, format!("{J}::to_string({src})")),
        Type::Bytes { .. } => simple(p, format!("{J}::to_bytes({src})")),
        Type::Named { id, .. } => simple(p, format!("{}::from_json({src})", g.ident(*id))),
        Type::Optional { inner } => {
            let v = ctx.deeper().var("v");
            p.open(format!("let {dest} = if {src}.is_null() {{"));
            p.line("None");
            p.middle("} else {");
            read_into(g, p, &ctx.deeper(), inner, src, &v);
            p.line(format!("Some({v})"));
            p.close("};");
        }
        Type::Array { elem, .. } | Type::List { elem, .. } => {
            let elems = ctx.deeper().var("elems");
            let i = ctx.deeper().var("i");
            let j = ctx.deeper().var("j");
            let item = ctx.deeper().var("item");
            let list = if matches!(ty, Type::Array { .. }) {
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
            if matches!(ty, Type::Array { .. }) {
                simple(p, format!("{J}::to_fixed({list})"));
            }
        }
    }
}
