//! Which constructs of the schema language a generated schema uses: read from the
//! model (spellings: constants, declared tag widths, doc comments, names) and from
//! the compiled IR (evaluated numbers: bounds, tag values, lengths). The test in
//! `tests/compile.rs` requires every [`FEATURES`] entry over a few hundred schemas,
//! and `schemagen coverage` prints the counts.

use std::collections::BTreeSet;

use bitwire_compiler::ir::{self, FloatRepr, Type, TypeDefKind};

use crate::model::{self, DeclKind, Item, TypeExpr, Value};

/// Every feature the generator must produce.
pub const FEATURES: &[&str] = &[
    "bool",
    "u1",
    "u64",
    "i1",
    "i64",
    "uN odd width",
    "f32",
    "f64",
    "bounded zero-width",
    "bounded negative range",
    "bounded u64 full range",
    "bounded i64 full range",
    "quantized f32 bits",
    "quantized f64 bits",
    "quantized f32 step",
    "quantized f64 step",
    // E0309 caps `bits` at 22 (f32) and 51 (f64), below E0307's 24 and 52.
    "quantized f32 bits 22",
    "quantized f64 bits 51",
    "varu16",
    "varu32",
    "varu64",
    "vari16",
    "vari32",
    "vari64",
    "enum implicit values",
    "enum explicit values",
    "enum sparse values",
    "enum declared width",
    "enum one variant zero-width",
    "enum value 2^64-1",
    "struct empty",
    "struct nested",
    "message",
    "message id 0",
    "message id 2147483647",
    "union unit variant",
    "union payload variant",
    "union explicit tag",
    "union one variant",
    "union declared width",
    "optional",
    "array [u8; N]",
    "array of arrays",
    "array of optionals",
    "array of zero-width",
    "list",
    "list max",
    "string",
    "string max",
    "bytes",
    "bytes max",
    "max 1",
    "max 2^k-1",
    "max 2^k",
    "max >= 2^53",
    "max 2^64-1",
    "const in bound",
    "const in length",
    "const in message id",
    "const in quantization",
    "const in enum value",
    "const referencing const",
    "negated const",
    "bool const",
    "string const",
    "float const",
    "doc comment",
    "list nesting 20",
    "type chain 20",
    "identifier >= 100 chars",
    "struct >= 40 fields",
    "keyword name",
    "case-conversion twins",
];

/// The features of one schema (`m` its model, `s` its IR).
pub fn features(m: &model::Schema, s: &ir::Schema) -> BTreeSet<&'static str> {
    let mut f = BTreeSet::new();
    for item in &m.items {
        syntax(item, &mut f);
    }
    if longest_chain(s) >= 20 {
        f.insert("type chain 20");
    }
    for t in &s.types {
        if t.name.len() >= 100 {
            f.insert("identifier >= 100 chars");
        }
        if let Some(id) = t.message_id {
            f.insert("message");
            match id {
                0 => f.insert("message id 0"),
                2_147_483_647 => f.insert("message id 2147483647"),
                _ => false,
            };
        }
        match &t.kind {
            TypeDefKind::Struct { fields } => {
                if fields.is_empty() {
                    f.insert("struct empty");
                }
                if fields.len() >= 40 {
                    f.insert("struct >= 40 fields");
                }
                if fields.iter().any(|x| x.name.len() >= 100) {
                    f.insert("identifier >= 100 chars");
                }
                fields.iter().for_each(|x| types(&x.ty, 0, s, &mut f));
            }
            TypeDefKind::Enum { variants, .. } => {
                if variants.len() == 1 && t.packed.max_bits == Some(0) {
                    f.insert("enum one variant zero-width");
                }
                if variants.iter().any(|v| v.value == u64::MAX) {
                    f.insert("enum value 2^64-1");
                }
                let mut vals: Vec<u64> = variants.iter().map(|v| v.value).collect();
                vals.sort_unstable();
                if vals.windows(2).any(|w| w[1] - w[0] > 1) {
                    f.insert("enum sparse values");
                }
            }
            TypeDefKind::Union { variants, .. } => {
                if variants.len() == 1 {
                    f.insert("union one variant");
                }
                for v in variants {
                    match &v.payload {
                        Some(p) => {
                            f.insert("union payload variant");
                            types(p, 0, s, &mut f);
                        }
                        None => {
                            f.insert("union unit variant");
                        }
                    }
                }
            }
        }
    }
    f
}

/// Features visible only in the source: spellings, constants, docs, names.
fn syntax(item: &Item, f: &mut BTreeSet<&'static str>) {
    let is_const = |v: &Option<Value>| matches!(v, Some(Value::Const { .. }));
    let mut names = vec![item.name().to_string()];
    match item {
        Item::Const(c) => {
            if !c.doc.is_empty() {
                f.insert("doc comment");
            }
            match c.ty.as_str() {
                "bool" => f.insert("bool const"),
                "string" => f.insert("string const"),
                "f32" | "f64" => f.insert("float const"),
                _ => false,
            };
            if matches!(c.value, Value::Const { .. }) {
                f.insert("const referencing const");
            }
        }
        Item::Type(t) => {
            if !t.doc.is_empty() {
                f.insert("doc comment");
            }
            match &t.kind {
                DeclKind::Struct { message_id, fields } => {
                    if is_const(message_id) {
                        f.insert("const in message id");
                    }
                    names.extend(fields.iter().map(|x| x.name.clone()));
                    for x in fields {
                        expr(&x.ty, f);
                        if x.name.len() >= 100 {
                            f.insert("identifier >= 100 chars");
                        }
                    }
                }
                DeclKind::Enum { tag_bits, variants } | DeclKind::Union { tag_bits, variants } => {
                    let union = matches!(t.kind, DeclKind::Union { .. });
                    if tag_bits.is_some() {
                        f.insert(if union {
                            "union declared width"
                        } else {
                            "enum declared width"
                        });
                    }
                    if variants.iter().any(|v| v.value.is_some()) {
                        f.insert(if union {
                            "union explicit tag"
                        } else {
                            "enum explicit values"
                        });
                    }
                    if !union && variants.len() > 1 && variants.iter().all(|v| v.value.is_none()) {
                        f.insert("enum implicit values");
                    }
                    if variants.iter().any(|v| is_const(&v.value)) {
                        f.insert("const in enum value");
                    }
                    names.extend(variants.iter().map(|v| v.name.clone()));
                    variants
                        .iter()
                        .filter_map(|v| v.payload.as_ref())
                        .for_each(|p| expr(p, f));
                }
            }
        }
    }
    if names
        .iter()
        .any(|n| crate::gen::names::KEYWORDS.contains(&n.as_str()))
    {
        f.insert("keyword name");
    }
    let folded: BTreeSet<String> = names
        .iter()
        .map(|n| n.replace('_', "").to_lowercase())
        .collect();
    if folded.len() < names.len() {
        f.insert("case-conversion twins");
    }
}

/// Constants in type expressions, and nesting.
fn expr(t: &TypeExpr, f: &mut BTreeSet<&'static str>) {
    let c = |v: &Value| matches!(v, Value::Const { .. });
    let neg = |v: &Value| matches!(v, Value::Const { neg: true, .. });
    match t {
        TypeExpr::Bounded { min, max, .. } => {
            if c(min) || c(max) {
                f.insert("const in bound");
            }
            if neg(min) || neg(max) {
                f.insert("negated const");
            }
        }
        TypeExpr::Quantized {
            min, max, quant, ..
        } => {
            let q = match quant {
                model::Quant::Bits(v) | model::Quant::Step(v) => v,
            };
            if c(min) || c(max) || c(q) {
                f.insert("const in quantization");
            }
        }
        TypeExpr::Array(e, len) => {
            if c(len) {
                f.insert("const in length");
            }
            expr(e, f);
        }
        TypeExpr::List(e, max) => {
            if max.as_ref().is_some_and(c) {
                f.insert("const in length");
            }
            expr(e, f);
        }
        TypeExpr::String(Some(m)) | TypeExpr::Bytes(Some(m)) if c(m) => {
            f.insert("const in length");
        }
        TypeExpr::Optional(e) => expr(e, f),
        _ => {}
    }
}

/// Features of an IR type expression inside `lists` lists.
fn types(t: &Type, lists: u32, s: &ir::Schema, f: &mut BTreeSet<&'static str>) {
    let max = |m: &Option<u64>, f: &mut BTreeSet<&'static str>| {
        let Some(m) = *m else { return };
        f.insert(match m {
            1 => "max 1",
            u64::MAX => "max 2^64-1",
            m if m >= 1 << 53 => "max >= 2^53",
            m if m.is_power_of_two() => "max 2^k",
            m if (m + 1).is_power_of_two() => "max 2^k-1",
            _ => return,
        });
    };
    let name: &'static str = match t {
        Type::Bool => "bool",
        Type::UInt { bits: 1, .. } => "u1",
        Type::UInt { bits: 64, .. } => "u64",
        Type::SInt { bits: 1, .. } => "i1",
        Type::SInt { bits: 64, .. } => "i64",
        Type::UInt { bits, .. } | Type::SInt { bits, .. } if bits % 8 != 0 => "uN odd width",
        Type::Float {
            repr: FloatRepr::F32,
        } => "f32",
        Type::Float {
            repr: FloatRepr::F64,
        } => "f64",
        Type::Bounded {
            min,
            max,
            base_bits,
            ..
        } => match (min, max) {
            (a, b) if a == b => "bounded zero-width",
            (0, b) if *b == i128::from(u64::MAX) => "bounded u64 full range",
            (a, b)
                if *a == i128::from(i64::MIN) && *b == i128::from(i64::MAX) && *base_bits == 64 =>
            {
                "bounded i64 full range"
            }
            (_, b) if *b < 0 => "bounded negative range",
            _ => "bool",
        },
        Type::Quantized { repr, steps, .. } => match (repr, *steps) {
            (FloatRepr::F32, s) if s == (1 << 22) - 1 => "quantized f32 bits 22",
            (FloatRepr::F64, s) if s == (1 << 51) - 1 => "quantized f64 bits 51",
            (FloatRepr::F32, s) if (s + 1).is_power_of_two() => "quantized f32 bits",
            (FloatRepr::F64, s) if (s + 1).is_power_of_two() => "quantized f64 bits",
            (FloatRepr::F32, _) => "quantized f32 step",
            (FloatRepr::F64, _) => "quantized f64 step",
        },
        Type::VarUInt { bits, .. } => ["varu16", "varu32", "varu64"][(bits / 32) as usize],
        Type::VarSInt { bits, .. } => ["vari16", "vari32", "vari64"][(bits / 32) as usize],
        Type::Optional { inner } => {
            types(inner, lists, s, f);
            "optional"
        }
        Type::Array { elem, .. } => {
            f.insert(array_feature(s, elem));
            types(elem, lists, s, f);
            "bool"
        }
        Type::List { elem, max: m, .. } => {
            if lists + 1 >= 20 {
                f.insert("list nesting 20");
            }
            max(m, f);
            types(elem, lists + 1, s, f);
            if m.is_some() {
                "list max"
            } else {
                "list"
            }
        }
        Type::String { max: m, .. } => {
            max(m, f);
            if m.is_some() {
                "string max"
            } else {
                "string"
            }
        }
        Type::Bytes { max: m, .. } => {
            max(m, f);
            if m.is_some() {
                "bytes max"
            } else {
                "bytes"
            }
        }
        Type::Named { id, .. } => {
            if matches!(s.types[*id].kind, TypeDefKind::Struct { .. }) {
                f.insert("struct nested");
            }
            "bool"
        }
        _ => "bool",
    };
    f.insert(name);
}

/// What an array's element type makes the array.
fn array_feature(s: &ir::Schema, elem: &Type) -> &'static str {
    match elem {
        Type::UInt { bits: 8, .. } => "array [u8; N]",
        Type::Array { .. } => "array of arrays",
        Type::Optional { .. } => "array of optionals",
        e if bitwire_compiler::codec::min_bits(s, e) == 0 => "array of zero-width",
        _ => "bool",
    }
}

/// The longest chain of named types in the schema (types refer only to types
/// declared before them in the IR's dependency order, so one pass in reverse
/// topological order would do; a memo keeps this linear).
fn longest_chain(s: &ir::Schema) -> u32 {
    fn depth(s: &ir::Schema, id: usize, memo: &mut Vec<Option<u32>>) -> u32 {
        if let Some(d) = memo[id] {
            return d;
        }
        memo[id] = Some(1); // cut cycles, which the compiler rejects anyway
        let mut inner = 0;
        let mut visit = |t: &Type, memo: &mut Vec<Option<u32>>| {
            let mut t = t;
            loop {
                match t {
                    Type::Optional { inner } => t = inner,
                    Type::Array { elem, .. } | Type::List { elem, .. } => t = elem,
                    Type::Named { id, .. } => break inner = inner.max(depth(s, *id, memo)),
                    _ => break,
                }
            }
        };
        match &s.types[id].kind {
            TypeDefKind::Struct { fields } => fields.iter().for_each(|x| visit(&x.ty, memo)),
            TypeDefKind::Union { variants, .. } => variants
                .iter()
                .filter_map(|v| v.payload.as_ref())
                .for_each(|p| visit(p, memo)),
            TypeDefKind::Enum { .. } => {}
        }
        memo[id] = Some(1 + inner);
        1 + inner
    }
    let mut memo = vec![None; s.types.len()];
    (0..s.types.len())
        .map(|id| depth(s, id, &mut memo))
        .max()
        .unwrap_or(0)
}
