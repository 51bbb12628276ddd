//! Walks over a [`Schema`] model that edit it in place: every value (to inline
//! constants) and every name (to rename declarations, fields and variants), for the
//! minimizer.

use std::collections::BTreeMap;

use crate::model::{DeclKind, Item, Quant, Schema, TypeExpr, Value};

/// Calls `f` on every type expression of the schema, outermost first.
fn type_exprs(s: &mut Schema, f: &mut dyn FnMut(&mut TypeExpr)) {
    fn walk(t: &mut TypeExpr, f: &mut dyn FnMut(&mut TypeExpr)) {
        f(t);
        match t {
            TypeExpr::Optional(inner) => walk(inner, f),
            TypeExpr::Array(elem, _) | TypeExpr::List(elem, _) => walk(elem, f),
            _ => {}
        }
    }
    for item in &mut s.items {
        let Item::Type(t) = item else {
            continue;
        };
        match &mut t.kind {
            DeclKind::Struct { fields, .. } => fields.iter_mut().for_each(|x| walk(&mut x.ty, f)),
            DeclKind::Enum { variants, .. } | DeclKind::Union { variants, .. } => {
                for v in variants {
                    if let Some(p) = &mut v.payload {
                        walk(p, f);
                    }
                }
            }
        }
    }
}

/// Calls `f` on every value of the schema: constant values, message ids, tag
/// values, bounds, lengths and quantization parameters.
pub fn visit_values(s: &mut Schema, f: &mut dyn FnMut(&mut Value)) {
    for item in &mut s.items {
        match item {
            Item::Const(c) => f(&mut c.value),
            Item::Type(t) => match &mut t.kind {
                DeclKind::Struct { message_id, .. } => message_id.iter_mut().for_each(&mut *f),
                DeclKind::Enum { variants, .. } | DeclKind::Union { variants, .. } => variants
                    .iter_mut()
                    .filter_map(|v| v.value.as_mut())
                    .for_each(&mut *f),
            },
        }
    }
    type_exprs(s, &mut |t| match t {
        TypeExpr::Bounded { min, max, .. } => {
            f(min);
            f(max);
        }
        TypeExpr::Quantized {
            min, max, quant, ..
        } => {
            f(min);
            f(max);
            match quant {
                Quant::Bits(v) | Quant::Step(v) => f(v),
            }
        }
        TypeExpr::Array(_, len) => f(len),
        TypeExpr::List(_, Some(m)) | TypeExpr::String(Some(m)) | TypeExpr::Bytes(Some(m)) => f(m),
        _ => {}
    });
}

/// Renames declarations by `names` (and every use of them), fields to `f0, f1, …`
/// and variants to `V0, V1, …` within each declaration.
pub fn rename_all(s: &mut Schema, names: &BTreeMap<String, String>) {
    let new = |n: &mut String| {
        if let Some(x) = names.get(n.as_str()) {
            *n = x.clone();
        }
    };
    for item in &mut s.items {
        match item {
            Item::Const(c) => new(&mut c.name),
            Item::Type(t) => {
                new(&mut t.name);
                match &mut t.kind {
                    DeclKind::Struct { fields, .. } => {
                        for (i, f) in fields.iter_mut().enumerate() {
                            f.name = format!("f{i}");
                        }
                    }
                    DeclKind::Enum { variants, .. } | DeclKind::Union { variants, .. } => {
                        for (i, v) in variants.iter_mut().enumerate() {
                            v.name = format!("V{i}");
                        }
                    }
                }
            }
        }
    }
    visit_values(s, &mut |v| {
        if let Value::Const { name, .. } = v {
            new(name);
        }
    });
    type_exprs(s, &mut |t| {
        if let TypeExpr::Named(n) = t {
            new(n);
        }
    });
}
