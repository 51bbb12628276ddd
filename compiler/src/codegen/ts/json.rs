//! `xToJson` / `xFromJson` (with `--json`): the JSON mapping of docs/json-mapping.md,
//! through the runtime's JSON helpers, and the `codecs` table that finds a type's
//! functions by schema name. The mapping follows the schema type, not the TypeScript
//! type: a `u40` is a JSON number, a `u64` (a `bigint`) a decimal string; `bytes` is
//! hex while `list<u8>` is an array. JSON keys are the schema's field names.

use super::printer::Printer;
use super::{int_lit, naming, Gen};
use crate::ir::{FloatRepr, TypeDefKind, TypeId};
use crate::plan::{Body, Node, Op, ScalarKind};

/// Prints `xToJson`.
pub fn to_json_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let lower = &g.names.types[id].lower;
    p.doc(&[vec![
        "The value in the JSON mapping (docs/json-mapping.md).".into(),
    ]]);
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let param = if fields.is_empty() { "_value" } else { "value" };
            p.open(format!(
                "export function {lower}ToJson({param}: {ident}): unknown {{"
            ));
            if fields.is_empty() {
                p.line("return {};");
            } else {
                p.open("return {");
                let nodes = &g.plan.struct_plan(id).expect("a struct").fields;
                for ((f, prop), node) in fields.iter().zip(&g.names.types[id].members).zip(nodes) {
                    let e = value_expr(g, &node.node, &format!("value.{prop}"), 0);
                    p.line(format!("{}: {e},", naming::prop_key(&f.name)));
                }
                p.close("};");
            }
            p.close("}");
        }
        TypeDefKind::Enum { .. } => {
            p.open(format!(
                "export function {lower}ToJson(value: {ident}): unknown {{"
            ));
            p.line("return value;");
            p.close("}");
        }
        TypeDefKind::Union { .. } => {
            p.open(format!(
                "export function {lower}ToJson(value: {ident}): unknown {{"
            ));
            p.open("switch (value.kind) {");
            for v in union_arms(g, id) {
                let name = naming::str_lit(&v.name);
                match &v.payload {
                    None => p.line(format!("case {name}: return {name};")),
                    Some(node) => {
                        let e = value_expr(g, node, "value.value", 0);
                        p.line(format!("case {name}:"));
                        p.line(format!("  return bw.variantToJson({name}, {e});"));
                    }
                }
            }
            p.close("}");
            p.close("}");
        }
    }
}

/// The arms of union `id`'s plan.
fn union_arms<'g>(g: &'g Gen, id: TypeId) -> &'g [crate::plan::Arm] {
    match &g.plan.get(id).body {
        Body::Union(u) => &u.arms,
        _ => unreachable!("a union"),
    }
}

/// The JSON value of `x`, a value of `node`: wide integers (the plan's `json_wide`,
/// the `bigint`s) as decimal strings.
fn value_expr(g: &Gen, node: &Node, x: &str, depth: usize) -> String {
    let int = |wide: bool| {
        if wide {
            format!("String({x})")
        } else {
            x.to_string()
        }
    };
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Bool | ScalarKind::Enum { .. } => x.to_string(),
            ScalarKind::UInt { .. } | ScalarKind::SInt { .. } | ScalarKind::Bounded { .. } => {
                int(s.json_wide)
            }
            ScalarKind::Float { repr } | ScalarKind::Quantized { repr, .. } => match repr {
                FloatRepr::F32 => format!("bw.f32ToJson({x})"),
                FloatRepr::F64 => format!("bw.f64ToJson({x})"),
            },
        },
        Op::Varint(v) => int(v.json_wide),
        Op::String(_) => x.to_string(),
        Op::Bytes(_) => format!("bw.toHex({x})"),
        Op::Optional(inner) => {
            format!("{x} === null ? null : {}", value_expr(g, inner, x, depth))
        }
        Op::Array(crate::plan::Array { elem, .. }) | Op::List(crate::plan::List { elem, .. }) => {
            let e = if depth == 0 {
                "e".to_string()
            } else {
                format!("e{depth}")
            };
            let inner = value_expr(g, elem, &e, depth + 1);
            match (g.typed_array(node).is_some(), inner == e) {
                // A typed array's own `slice` and `map` give typed arrays.
                (true, true) => format!("Array.from({x})"),
                (true, false) => format!("Array.from({x}, ({e}) => {inner})"),
                (false, true) => format!("{x}.slice()"),
                (false, false) => format!("{x}.map(({e}) => {inner})"),
            }
        }
        Op::Named(id) => format!("{}ToJson({x})", g.names.types[*id].lower),
    }
}

/// A converter from JSON to a value of `node`: a function of one `unknown` argument.
fn converter(g: &Gen, node: &Node, depth: usize) -> String {
    let int = |wide: bool| {
        if wide {
            "bw.jsonBigInt".to_string()
        } else {
            "bw.jsonInt".to_string()
        }
    };
    match &node.op {
        Op::Scalar(s) => match s.kind {
            ScalarKind::Bool => "bw.jsonBool".into(),
            ScalarKind::UInt { .. } | ScalarKind::SInt { .. } | ScalarKind::Bounded { .. } => {
                int(s.json_wide)
            }
            ScalarKind::Float { repr } | ScalarKind::Quantized { repr, .. } => match repr {
                FloatRepr::F32 => "bw.jsonF32".into(),
                FloatRepr::F64 => "bw.jsonF64".into(),
            },
            ScalarKind::Enum { id, .. } => format!("{}FromJson", g.names.types[id].lower),
        },
        Op::Varint(v) => int(v.json_wide),
        Op::String(_) => "bw.jsonString".into(),
        Op::Bytes(_) => "bw.jsonBytes".into(),
        Op::Optional(inner) => {
            let j = param(depth);
            format!(
                "({j}) => bw.jsonOptional({j}, {})",
                converter(g, inner, depth + 1)
            )
        }
        Op::Array(crate::plan::Array { elem, .. }) | Op::List(crate::plan::List { elem, .. }) => {
            let j = param(depth);
            let array = format!("bw.jsonArray({j}, {})", converter(g, elem, depth + 1));
            match g.typed_array(node) {
                Some(t) => format!("({j}) => bw.jsonTyped({array}, (n) => new {t}(n))"),
                None => format!("({j}) => {array}"),
            }
        }
        Op::Named(id) => format!("{}FromJson", g.names.types[*id].lower),
    }
}

fn param(depth: usize) -> String {
    if depth == 0 {
        "j".into()
    } else {
        format!("j{depth}")
    }
}

/// Prints `xFromJson` (and, for structs, the list of field names it accepts).
pub fn from_json_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let names = &g.names.types[id];
    let lower = &names.lower;
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            let list = format!("{}_JSON_FIELDS", names.constant);
            let items: Vec<String> = fields.iter().map(|f| naming::str_lit(&f.name)).collect();
            p.line(format!(
                "// The JSON keys of `{}`, in declaration order.",
                def.name
            ));
            p.list(&format!("const {list} = ["), &items, "] as const;");
            p.blank();
            from_json_doc(p);
            p.open(format!(
                "export function {lower}FromJson(json: unknown): {ident} {{"
            ));
            if fields.is_empty() {
                p.line(format!("bw.jsonObject(json, {list});"));
                p.line("return {};");
            } else {
                p.line(format!("const o = bw.jsonObject(json, {list});"));
                p.open("return {");
                let nodes = &g.plan.struct_plan(id).expect("a struct").fields;
                for ((f, prop), node) in fields.iter().zip(&names.members).zip(nodes) {
                    let key = naming::str_lit(&f.name);
                    let (func, conv) = match &node.node.op {
                        Op::Optional(inner) => ("optionalField", converter(g, inner, 0)),
                        _ => ("field", converter(g, &node.node, 0)),
                    };
                    let one = format!("{prop}: bw.{func}(o, {key}, {conv}),");
                    if p.fits(&one) {
                        p.line(one);
                    } else {
                        let (f, conv) = (func, conv);
                        p.list(&format!("{prop}: bw.{f}("), &["o".into(), key, conv], "),");
                    }
                }
                p.close("};");
            }
            p.close("}");
        }
        TypeDefKind::Enum { .. } => {
            from_json_doc(p);
            p.open(format!(
                "export function {lower}FromJson(json: unknown): {ident} {{"
            ));
            p.line("const name = bw.jsonName(json);");
            let zero = int_lit(0, g.enum_big(id));
            p.open(format!("if ({lower}Tag(name) < {zero}) {{"));
            p.line("throw bw.unknownVariant(name);");
            p.close("}");
            p.line(format!("return name as {ident};"));
            p.close("}");
        }
        TypeDefKind::Union { .. } => {
            from_json_doc(p);
            p.open(format!(
                "export function {lower}FromJson(json: unknown): {ident} {{"
            ));
            p.line("const [name, payload] = bw.jsonVariant(json);");
            p.open("switch (name) {");
            for v in union_arms(g, id) {
                let kind = naming::str_lit(&v.name);
                p.open(format!("case {kind}:"));
                match &v.payload {
                    Some(node) => {
                        let conv = converter(g, node, 0);
                        let items = [
                            format!("kind: {kind}"),
                            format!("value: bw.jsonPayload({kind}, payload, {conv})"),
                        ];
                        p.list("return { ", &items, " };");
                    }
                    None => {
                        p.line(format!("bw.jsonUnit({kind}, payload);"));
                        p.line(format!("return {{ kind: {kind} }};"));
                    }
                }
                p.dedent();
            }
            p.open("default:");
            p.line("throw bw.unknownVariant(name);");
            p.dedent();
            p.close("}");
            p.close("}");
        }
    }
}

fn from_json_doc(p: &mut Printer) {
    p.doc(&[vec![
        "A value from the JSON mapping (docs/json-mapping.md). Throws {@link bw.JsonError}".into(),
        "for JSON of the wrong shape; range problems are left to the encoder.".into(),
    ]]);
}

/// Prints `codecs`: every named type's functions by schema name.
pub fn codecs_table(g: &Gen, p: &mut Printer) {
    p.doc(&[vec![
        "Every named type of this schema by schema name, for code that picks a type at".into(),
        "run time (tools, test runners).".into(),
    ]]);
    p.open("export const codecs: Readonly<Record<string, bw.TypeCodec<unknown>>> = {");
    for (id, def) in g.schema.types.iter().enumerate() {
        let ident = g.ident(id);
        let lower = &g.names.types[id].lower;
        p.open(format!("{}: {{", naming::prop_key(&def.name)));
        p.line(format!("name: {},", naming::str_lit(&def.name)));
        p.line(format!("encode: encode{ident},"));
        p.line(format!("decode: decode{ident},"));
        p.line(format!("verify: verify{ident},"));
        p.line(format!("toJson: {lower}ToJson,"));
        p.line(format!("fromJson: {lower}FromJson,"));
        p.close("},");
    }
    p.close("};");
}
