//! One-step reductions of a schema model, for the minimizer: drop a type, a field or
//! a variant, simplify a type expression, inline the constants, strip the doc
//! comments, rename everything to short names. Each candidate keeps the target type
//! (possibly renamed) and drops whatever no longer has a use.

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{ConstVal, DeclKind, Item, Quant, Schema, TypeExpr, Value};

/// A candidate schema and the name its target type has there.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub schema: Schema,
    pub target: String,
}

/// The names a type expression refers to (types and constants).
fn refs_of_type(t: &TypeExpr, out: &mut BTreeSet<String>) {
    let v = |v: &Value, out: &mut BTreeSet<String>| {
        if let Value::Const { name, .. } = v {
            out.insert(name.clone());
        }
    };
    match t {
        TypeExpr::Bounded { min, max, .. } => {
            v(min, out);
            v(max, out);
        }
        TypeExpr::Quantized {
            min, max, quant, ..
        } => {
            v(min, out);
            v(max, out);
            match quant {
                Quant::Bits(b) | Quant::Step(b) => v(b, out),
            }
        }
        TypeExpr::Optional(inner) => refs_of_type(inner, out),
        TypeExpr::Array(elem, len) => {
            refs_of_type(elem, out);
            v(len, out);
        }
        TypeExpr::List(elem, max) => {
            refs_of_type(elem, out);
            if let Some(m) = max {
                v(m, out);
            }
        }
        TypeExpr::String(Some(m)) | TypeExpr::Bytes(Some(m)) => v(m, out),
        TypeExpr::Named(n) => {
            out.insert(n.clone());
        }
        _ => {}
    }
}

/// The names an item refers to.
fn refs_of_item(item: &Item) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let value = |v: &Option<Value>, out: &mut BTreeSet<String>| {
        if let Some(Value::Const { name, .. }) = v {
            out.insert(name.clone());
        }
    };
    match item {
        Item::Const(c) => value(&Some(c.value.clone()), &mut out),
        Item::Type(t) => match &t.kind {
            DeclKind::Struct { message_id, fields } => {
                value(message_id, &mut out);
                for f in fields {
                    refs_of_type(&f.ty, &mut out);
                }
            }
            DeclKind::Enum { variants, .. } | DeclKind::Union { variants, .. } => {
                for v in variants {
                    value(&v.value, &mut out);
                    if let Some(p) = &v.payload {
                        refs_of_type(p, &mut out);
                    }
                }
            }
        },
    }
    out
}

/// `schema` without the items `target` does not need (all of it for `*`, a
/// whole-suite failure, where any type may be the culprit).
pub fn closure(schema: &Schema, target: &str) -> Schema {
    if target == "*" {
        return schema.clone();
    }
    let by_name: BTreeMap<&str, &Item> = schema.items.iter().map(|i| (i.name(), i)).collect();
    let mut keep = BTreeSet::new();
    let mut todo = vec![target.to_string()];
    while let Some(n) = todo.pop() {
        if let Some(item) = by_name.get(n.as_str()) {
            if keep.insert(n.clone()) {
                todo.extend(refs_of_item(item));
            }
        }
    }
    Schema {
        header: schema.header.clone(),
        items: schema
            .items
            .iter()
            .filter(|i| keep.contains(i.name()))
            .cloned()
            .collect(),
    }
}

/// Simpler versions of a type expression, most drastic first.
pub fn simpler(t: &TypeExpr) -> Vec<TypeExpr> {
    let mut out = Vec::new();
    if *t != TypeExpr::Bool {
        out.push(TypeExpr::Bool);
    }
    let wrap = |inner: &TypeExpr, f: &dyn Fn(TypeExpr) -> TypeExpr| {
        simpler(inner).into_iter().map(f).collect::<Vec<_>>()
    };
    match t {
        TypeExpr::Bounded { signed, bits, .. } => out.push(TypeExpr::Int {
            signed: *signed,
            bits: *bits,
        }),
        TypeExpr::Quantized { wide, .. } => out.push(TypeExpr::Float { wide: *wide }),
        TypeExpr::Optional(inner) => {
            out.push((**inner).clone());
            out.extend(wrap(inner, &|x| TypeExpr::Optional(Box::new(x))));
        }
        TypeExpr::Array(elem, len) => {
            out.push((**elem).clone());
            if *len != Value::Lit("1".into()) {
                out.push(TypeExpr::Array(elem.clone(), Value::Lit("1".into())));
            }
            out.extend(wrap(elem, &|x| TypeExpr::Array(Box::new(x), len.clone())));
        }
        TypeExpr::List(elem, max) => {
            out.push((**elem).clone());
            if max.is_some() {
                out.push(TypeExpr::List(elem.clone(), None));
            }
            out.extend(wrap(elem, &|x| TypeExpr::List(Box::new(x), max.clone())));
        }
        TypeExpr::String(Some(_)) => out.push(TypeExpr::String(None)),
        TypeExpr::Bytes(Some(_)) => out.push(TypeExpr::Bytes(None)),
        _ => {}
    }
    out
}

/// The literal a constant reference stands for, if it is a number.
fn literal(v: &Value, consts: &BTreeMap<String, ConstVal>) -> Option<Value> {
    let Value::Const { neg, name } = v else {
        return None;
    };
    match consts.get(name)? {
        ConstVal::Int(i) => Some(Value::Lit(if *neg { -i } else { *i }.to_string())),
        ConstVal::Float(f) => Some(Value::Lit(format!("{:?}", if *neg { -f } else { *f }))),
        ConstVal::Other => None,
    }
}

/// Every one-step reduction of `c` (each followed by [`closure`]).
pub fn reductions(c: &Candidate) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut push = |schema: Schema, target: &str| {
        out.push(Candidate {
            schema: closure(&schema, target),
            target: target.to_string(),
        })
    };
    push(c.schema.clone(), &c.target);
    push(strip_docs(&c.schema), &c.target);
    push(inline_consts(&c.schema), &c.target);
    let (renamed, target) = rename(&c.schema, &c.target);
    push(renamed, &target);
    for range in chunks(c.schema.items.len())
        .into_iter()
        .chain((0..c.schema.items.len()).map(|i| i..i + 1))
    {
        let mut s = c.schema.clone();
        let mut i = 0;
        s.items.retain(|item| {
            i += 1;
            !range.contains(&(i - 1)) || item.name() == c.target
        });
        push(s, &c.target);
    }
    for (i, item) in c.schema.items.iter().enumerate() {
        let Item::Type(t) = item else {
            continue;
        };
        for edit in decl_edits(&t.kind) {
            let mut s = c.schema.clone();
            if let Item::Type(t) = &mut s.items[i] {
                edit(&mut t.kind);
            }
            push(s, &c.target);
        }
    }
    out
}

/// Ranges of `0..n` to drop at once, halves first, then quarters, … down to pairs
/// (delta debugging: a schema of 100 fields shrinks in a few rounds, not 100).
fn chunks(n: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut k = n / 2;
    while k >= 2 {
        out.extend((0..n).step_by(k).map(|start| start..(start + k).min(n)));
        k /= 2;
    }
    out
}

/// An edit of one declaration's body.
type Edit = Box<dyn Fn(&mut DeclKind)>;

/// The variants of an enum or union body.
fn variants_of(k: &mut DeclKind) -> &mut Vec<crate::model::Variant> {
    match k {
        DeclKind::Enum { variants, .. } | DeclKind::Union { variants, .. } => variants,
        DeclKind::Struct { .. } => unreachable!("variant edits apply to enums and unions"),
    }
}

/// The fields of a struct body.
fn fields_of(k: &mut DeclKind) -> &mut Vec<crate::model::Field> {
    match k {
        DeclKind::Struct { fields, .. } => fields,
        _ => unreachable!("field edits apply to structs"),
    }
}

/// Every one-step edit of a declaration: a message made a struct, a field or
/// variant dropped, a tag width or value left implicit, a payload or field type
/// simplified.
fn decl_edits(kind: &DeclKind) -> Vec<Edit> {
    let mut out: Vec<Edit> = Vec::new();
    match kind {
        DeclKind::Struct { message_id, fields } => {
            if message_id.is_some() {
                out.push(Box::new(|k| {
                    if let DeclKind::Struct { message_id, .. } = k {
                        *message_id = None;
                    }
                }));
            }
            for range in chunks(fields.len()) {
                out.push(Box::new(move |k| {
                    fields_of(k).drain(range.clone());
                }));
            }
            for (j, f) in fields.iter().enumerate() {
                out.push(Box::new(move |k| {
                    fields_of(k).remove(j);
                }));
                for ty in simpler(&f.ty) {
                    out.push(Box::new(move |k| fields_of(k)[j].ty = ty.clone()));
                }
            }
        }
        DeclKind::Enum { variants, tag_bits } | DeclKind::Union { variants, tag_bits } => {
            if tag_bits.is_some() {
                out.push(Box::new(|k| {
                    if let DeclKind::Enum { tag_bits, .. } | DeclKind::Union { tag_bits, .. } = k {
                        *tag_bits = None;
                    }
                }));
            }
            for range in chunks(variants.len())
                .into_iter()
                .filter(|r| r.len() < variants.len())
            {
                out.push(Box::new(move |k| {
                    variants_of(k).drain(range.clone());
                }));
            }
            for (j, v) in variants.iter().enumerate() {
                if variants.len() > 1 {
                    out.push(Box::new(move |k| {
                        variants_of(k).remove(j);
                    }));
                }
                if v.value.is_some() {
                    out.push(Box::new(move |k| variants_of(k)[j].value = None));
                }
                if let Some(p) = &v.payload {
                    out.push(Box::new(move |k| variants_of(k)[j].payload = None));
                    for ty in simpler(p) {
                        out.push(Box::new(move |k| {
                            variants_of(k)[j].payload = Some(ty.clone())
                        }));
                    }
                }
            }
        }
    }
    out
}

fn strip_docs(s: &Schema) -> Schema {
    let mut s = s.clone();
    for item in &mut s.items {
        match item {
            Item::Const(c) => c.doc.clear(),
            Item::Type(t) => {
                t.doc.clear();
                match &mut t.kind {
                    DeclKind::Struct { fields, .. } => {
                        fields.iter_mut().for_each(|f| f.doc.clear())
                    }
                    DeclKind::Enum { variants, .. } | DeclKind::Union { variants, .. } => {
                        variants.iter_mut().for_each(|v| v.doc.clear())
                    }
                }
            }
        }
    }
    s
}

/// Every constant reference replaced by its literal.
fn inline_consts(s: &Schema) -> Schema {
    let consts: BTreeMap<String, ConstVal> = s
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Const(c) => Some((c.name.clone(), c.eval)),
            Item::Type(_) => None,
        })
        .collect();
    let mut s = s.clone();
    crate::visit::visit_values(&mut s, &mut |v| {
        if let Some(lit) = literal(v, &consts) {
            *v = lit;
        }
    });
    s
}

/// Types renamed `T0, T1, …`, constants `C0, …`, fields `f0, …`, variants `V0, …`.
fn rename(s: &Schema, target: &str) -> (Schema, String) {
    let mut names = BTreeMap::new();
    let (mut types, mut consts) = (0, 0);
    for item in &s.items {
        let new = match item {
            Item::Const(_) => {
                consts += 1;
                format!("C{}", consts - 1)
            }
            Item::Type(_) => {
                types += 1;
                format!("T{}", types - 1)
            }
        };
        names.insert(item.name().to_string(), new);
    }
    let mut s = s.clone();
    crate::visit::rename_all(&mut s, &names);
    let target = names
        .get(target)
        .cloned()
        .unwrap_or_else(|| target.to_string());
    (s, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::render;

    #[test]
    fn chunks_halve_down_to_pairs() {
        assert_eq!(chunks(8), vec![0..4, 4..8, 0..2, 2..4, 4..6, 6..8]);
        assert_eq!(chunks(5), vec![0..2, 2..4, 4..5]);
        assert!(chunks(3).is_empty());
    }

    #[test]
    fn reductions_keep_the_target_and_compile_to_smaller_schemas() {
        let schema = crate::generate(42, 3);
        let target = schema.type_names().pop().unwrap();
        let c = Candidate { schema, target };
        let size = render(&c.schema).len();
        let cands = reductions(&c);
        assert!(cands.len() > 5);
        let valid: Vec<&Candidate> = cands
            .iter()
            .filter(|x| bitwire_compiler::compile_source("c.bw", &render(&x.schema)).is_ok())
            .collect();
        assert!(!valid.is_empty());
        for x in valid {
            assert!(x.schema.decl(&x.target).is_some(), "the target is kept");
            assert!(render(&x.schema).len() <= size);
        }
    }

    #[test]
    fn closure_keeps_what_the_target_uses() {
        let mut s = Schema {
            header: vec![],
            items: vec![],
        };
        // A schema model by hand: A uses B and N; C uses A.
        use crate::model::{Const, Field, TypeDecl};
        let field = |n: &str, ty: TypeExpr| Field {
            name: n.into(),
            doc: vec![],
            ty,
        };
        let decl = |n: &str, fields| {
            Item::Type(TypeDecl {
                name: n.into(),
                doc: vec![],
                kind: DeclKind::Struct {
                    message_id: None,
                    fields,
                },
            })
        };
        let n = Value::Const {
            neg: false,
            name: "N".into(),
        };
        s.items.push(Item::Const(Const {
            name: "N".into(),
            doc: vec![],
            ty: "u8".into(),
            value: Value::Lit("3".into()),
            eval: ConstVal::Int(3),
        }));
        s.items.push(decl(
            "A",
            vec![field(
                "a",
                TypeExpr::Array(Box::new(TypeExpr::Named("B".into())), n),
            )],
        ));
        s.items.push(decl("B", vec![field("b", TypeExpr::Bool)]));
        s.items
            .push(decl("C", vec![field("c", TypeExpr::Named("A".into()))]));
        assert!(bitwire_compiler::compile_source("s.bw", &render(&s)).is_ok());
        let closed = closure(&s, "A");
        let kept: Vec<&str> = closed.items.iter().map(|i| i.name()).collect();
        assert_eq!(kept, ["N", "A", "B"]);
        assert_eq!(inline_consts(&s).items[1], {
            let mut a = s.items[1].clone();
            if let Item::Type(t) = &mut a {
                if let DeclKind::Struct { fields, .. } = &mut t.kind {
                    fields[0].ty = TypeExpr::Array(
                        Box::new(TypeExpr::Named("B".into())),
                        Value::Lit("3".into()),
                    );
                }
            }
            a
        });
    }
}
