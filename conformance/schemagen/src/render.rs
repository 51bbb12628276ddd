//! Renders a [`Schema`] model as `.bw` text in the canonical layout of
//! docs/schema-language.md ("Formatting"): one member per line, trailing commas,
//! doc comments above what they document.

use std::fmt::Write as _;

use crate::model::{
    Const, DeclKind, Field, Item, Quant, Schema, TypeDecl, TypeExpr, Value, Variant,
};

/// The schema as source text.
pub fn render(schema: &Schema) -> String {
    let mut out = String::new();
    for line in &schema.header {
        writeln!(out, "// {line}").unwrap();
    }
    for (i, item) in schema.items.iter().enumerate() {
        if i > 0 || !schema.header.is_empty() {
            out.push('\n');
        }
        match item {
            Item::Const(c) => render_const(&mut out, c),
            Item::Type(t) => render_decl(&mut out, t),
        }
    }
    out
}

fn docs(out: &mut String, indent: &str, doc: &[String]) {
    for line in doc {
        if line.is_empty() {
            writeln!(out, "{indent}///").unwrap();
        } else {
            writeln!(out, "{indent}/// {line}").unwrap();
        }
    }
}

fn render_const(out: &mut String, c: &Const) {
    docs(out, "", &c.doc);
    writeln!(out, "const {}: {} = {};", c.name, c.ty, value(&c.value)).unwrap();
}

fn render_decl(out: &mut String, t: &TypeDecl) {
    docs(out, "", &t.doc);
    let (head, body): (String, Vec<String>) = match &t.kind {
        DeclKind::Struct { message_id, fields } => {
            let head = match message_id {
                Some(id) => format!("message {} = {}", t.name, value(id)),
                None => format!("struct {}", t.name),
            };
            (head, fields.iter().map(field).collect())
        }
        DeclKind::Enum { tag_bits, variants } => (
            format!("enum {}{}", t.name, tag(*tag_bits)),
            variants.iter().map(variant).collect(),
        ),
        DeclKind::Union { tag_bits, variants } => (
            format!("union {}{}", t.name, tag(*tag_bits)),
            variants.iter().map(variant).collect(),
        ),
    };
    if body.is_empty() {
        writeln!(out, "{head} {{}}").unwrap();
        return;
    }
    writeln!(out, "{head} {{").unwrap();
    for member in body {
        out.push_str(&member);
    }
    out.push_str("}\n");
}

fn tag(bits: Option<u32>) -> String {
    bits.map(|b| format!(": u{b}")).unwrap_or_default()
}

fn field(f: &Field) -> String {
    let mut s = String::new();
    docs(&mut s, "    ", &f.doc);
    writeln!(s, "    {}: {},", f.name, type_expr(&f.ty)).unwrap();
    s
}

fn variant(v: &Variant) -> String {
    let mut s = String::new();
    docs(&mut s, "    ", &v.doc);
    s.push_str("    ");
    s.push_str(&v.name);
    if let Some(p) = &v.payload {
        write!(s, "({})", type_expr(p)).unwrap();
    }
    if let Some(v) = &v.value {
        write!(s, " = {}", value(v)).unwrap();
    }
    s.push_str(",\n");
    s
}

/// A value as written.
pub fn value(v: &Value) -> String {
    match v {
        Value::Lit(text) => text.clone(),
        Value::Const { neg, name } => format!("{}{name}", if *neg { "-" } else { "" }),
    }
}

/// A type expression as written.
pub fn type_expr(t: &TypeExpr) -> String {
    let int = |signed: bool, bits: u32| format!("{}{bits}", if signed { 'i' } else { 'u' });
    let max = |m: &Option<Value>| m.as_ref().map(|m| format!("max {}", value(m)));
    match t {
        TypeExpr::Bool => "bool".into(),
        TypeExpr::Int { signed, bits } => int(*signed, *bits),
        TypeExpr::Float { wide } => if *wide { "f64" } else { "f32" }.into(),
        TypeExpr::Var { signed, bits } => format!("var{}", int(*signed, *bits)),
        TypeExpr::Bounded {
            signed,
            bits,
            min,
            max,
        } => format!("{} in {}..={}", int(*signed, *bits), value(min), value(max)),
        TypeExpr::Quantized {
            wide,
            min,
            max,
            quant,
        } => {
            let q = match quant {
                Quant::Bits(b) => format!("bits {}", value(b)),
                Quant::Step(s) => format!("step {}", value(s)),
            };
            let f = if *wide { "f64" } else { "f32" };
            format!("{f} in {}..={} {q}", value(min), value(max))
        }
        TypeExpr::Optional(inner) => format!("optional<{}>", type_expr(inner)),
        TypeExpr::Array(elem, len) => format!("[{}; {}]", type_expr(elem), value(len)),
        TypeExpr::List(elem, m) => match max(m) {
            Some(m) => format!("list<{}, {m}>", type_expr(elem)),
            None => format!("list<{}>", type_expr(elem)),
        },
        TypeExpr::String(m) => match max(m) {
            Some(m) => format!("string<{m}>"),
            None => "string".into(),
        },
        TypeExpr::Bytes(m) => match max(m) {
            Some(m) => format!("bytes<{m}>"),
            None => "bytes".into(),
        },
        TypeExpr::Named(n) => n.clone(),
    }
}
