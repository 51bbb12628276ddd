//! Declarations and constants: the schema's constants, one `interface` per struct, a
//! `const` object plus a string-literal union type per enum, a discriminated union type
//! per union, per-type size and bound constants, and the enum tag tables the codec
//! uses.

use super::printer::Printer;
use super::{const_value, f64_lit, int_lit, naming, Gen, MAX_SAFE};
use crate::codegen::describe;
use crate::ir::{ConstValue, Field, FloatRepr, Type, TypeDefKind, TypeId};
use crate::plan::{Node, Op};

/// Prints the schema's constants.
pub fn constants(g: &Gen, p: &mut Printer) {
    for (c, ident) in g.schema.constants.iter().zip(&g.names.constants) {
        p.blank();
        p.doc(&[
            c.doc.clone(),
            vec![format!(
                "Schema: `{}`.",
                describe::const_text(&c.name, &c.value)
            )],
        ]);
        let value = match &c.value {
            // The exact binary32 value, written as the short decimal it came from.
            ConstValue::Float {
                ty: FloatRepr::F32,
                value,
            } => format!("Math.fround({})", f64_lit(f64::from(*value as f32))),
            v => const_value(v),
        };
        p.line(format!("export const {ident} = {value};"));
    }
}

/// The schema declaration line of a named type.
fn schema_line(g: &Gen, id: TypeId) -> String {
    let def = &g.schema.types[id];
    let decl = match (&def.kind, def.message_id) {
        (TypeDefKind::Struct { .. }, Some(mid)) => format!("message {} = {mid}", def.name),
        (TypeDefKind::Struct { .. }, None) => format!("struct {}", def.name),
        (TypeDefKind::Enum { .. }, _) => format!("enum {}", def.name),
        (TypeDefKind::Union { .. }, _) => format!("union {}", def.name),
    };
    format!(
        "Schema: `{decl}` ({}:{}), {}.",
        def.origin.file,
        def.origin.line,
        describe::size_text(&def.packed)
    )
}

/// Prints the declaration of a named type (and, for enums, its tag tables).
pub fn declaration(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let names = &g.names.types[id];
    let doc = [def.doc.clone(), vec![schema_line(g, id)]];
    match &def.kind {
        TypeDefKind::Struct { fields } if fields.is_empty() => {
            p.doc(&doc);
            p.line(format!("export type {ident} = Record<string, never>;"));
        }
        TypeDefKind::Struct { fields } => {
            p.doc(&doc);
            p.open(format!("export interface {ident} {{"));
            let nodes = g.plan.struct_plan(id).expect("a struct").fields.iter();
            for ((f, prop), node) in fields.iter().zip(&names.members).zip(nodes) {
                p.doc(&[f.doc.clone(), vec![describe::field_doc_text(f)]]);
                p.line(format!("{prop}: {};", g.ts_type(&node.node)));
            }
            p.close("}");
        }
        TypeDefKind::Enum {
            packed_tag_bits,
            variants,
            ..
        } => {
            p.doc(&doc);
            p.open(format!("export const {ident} = {{"));
            for (v, key) in variants.iter().zip(&names.members) {
                p.doc(&[
                    v.doc.clone(),
                    vec![format!(
                        "Schema: `{} = {}`, {packed_tag_bits}-bit tag.",
                        v.name, v.value
                    )],
                ]);
                p.line(format!("{key}: {},", naming::str_lit(&v.name)));
            }
            p.close("} as const;");
            p.blank();
            p.doc(&[vec![format!(
                "A `{}` value: the variant's schema name (see the `{ident}` object).",
                def.name
            )]]);
            p.line(format!(
                "export type {ident} = (typeof {ident})[keyof typeof {ident}];"
            ));
            p.blank();
            enum_tables(g, p, id, variants, *packed_tag_bits > 0);
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            p.doc(&doc);
            let crate::plan::Body::Union(u) = &g.plan.get(id).body else {
                unreachable!("a union")
            };
            let arms: Vec<String> = u
                .arms
                .iter()
                .map(|a| {
                    let kind = naming::str_lit(&a.name);
                    match &a.payload {
                        Some(node) => format!("{{ kind: {kind}; value: {} }}", g.ts_type(node)),
                        None => format!("{{ kind: {kind} }}"),
                    }
                })
                .collect();
            let one = format!("export type {ident} = {};", arms.join(" | "));
            let documented = variants.iter().any(|v| !v.doc.is_empty());
            if p.fits(&one) && !documented && variants.len() <= 3 {
                p.line(one);
                return;
            }
            p.open(format!("export type {ident} ="));
            for (v, arm) in variants.iter().zip(&arms) {
                let wire = match &v.payload {
                    Some(ty) => format!(
                        "Schema: `{}({})`, tag {} in {packed_tag_bits} bits, payload {}.",
                        v.name,
                        describe::type_text(ty),
                        v.tag,
                        describe::size_text(&v.packed)
                    ),
                    None => format!(
                        "Schema: `{}`, tag {} in {packed_tag_bits} bits.",
                        v.name, v.tag
                    ),
                };
                p.doc(&[v.doc.clone(), vec![wire]]);
                let last = std::ptr::eq(v, variants.last().expect("a variant"));
                p.line(format!("| {arm}{}", if last { ";" } else { "" }));
            }
            p.dedent();
        }
    }
}

/// `xTag` and `xFromTag`: between an enum value (its name) and its wire tag.
fn enum_tables(
    g: &Gen,
    p: &mut Printer,
    id: TypeId,
    variants: &[crate::ir::EnumVariant],
    with_from_tag: bool,
) {
    let ident = g.ident(id);
    let lower = &g.names.types[id].lower;
    let big = g.enum_big(id);
    let tag_ty = if big { "bigint" } else { "number" };
    p.doc(&[vec![format!(
        "The wire tag of a `{ident}` value; -1 for a string that is not a variant."
    )]]);
    p.open(format!("function {lower}Tag(value: string): {tag_ty} {{"));
    p.open("switch (value) {");
    for v in variants {
        p.line(format!(
            "case {}: return {};",
            naming::str_lit(&v.name),
            int_lit(i128::from(v.value), big)
        ));
    }
    p.line(format!("default: return {};", int_lit(-1, big)));
    p.close("}");
    p.close("}");
    if !with_from_tag {
        // A zero-bit tag is never read: the one variant is a constant.
        return;
    }
    p.blank();
    p.doc(&[vec![format!(
        "The `{ident}` whose wire tag is `tag`; `undefined` for an undeclared tag."
    )]]);
    let dense = !big
        && variants
            .iter()
            .enumerate()
            .all(|(i, v)| v.value == i as u64);
    if dense {
        let table = format!("{}_BY_TAG", g.names.types[id].constant);
        let items: Vec<String> = variants.iter().map(|v| naming::str_lit(&v.name)).collect();
        p.open(format!(
            "function {lower}FromTag(tag: number): {ident} | undefined {{"
        ));
        p.line(format!("return {table}[tag];"));
        p.close("}");
        p.blank();
        p.list(
            &format!("const {table}: readonly ({ident} | undefined)[] = ["),
            &items,
            "];",
        );
        return;
    }
    p.open(format!(
        "function {lower}FromTag(tag: {tag_ty}): {ident} | undefined {{"
    ));
    p.open("switch (tag) {");
    for v in variants {
        p.line(format!(
            "case {}: return {};",
            int_lit(i128::from(v.value), big),
            naming::str_lit(&v.name)
        ));
    }
    p.line("default: return undefined;");
    p.close("}");
    p.close("}");
}

/// Prints the size and bound constants of a named type.
pub fn type_constants(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let prefix = &g.names.types[id].constant;
    let name = &def.name;
    p.line(format!(
        "/** Fewest bits a `{name}` encodes to (spec §6.1). */"
    ));
    p.line(format!(
        "export const {prefix}_MIN_ENCODED_BITS = {};",
        def.packed.min_bits
    ));
    if let Some(max) = def.packed.max_bits {
        p.line(format!(
            "/** Most bits a `{name}` encodes to (spec §6.1). */"
        ));
        p.line(format!("export const {prefix}_MAX_ENCODED_BITS = {max};"));
        p.line(format!(
            "/** Largest top-level encoding of a `{name}` in bytes (padding included). */"
        ));
        p.line(format!(
            "export const {prefix}_MAX_ENCODED_SIZE = {};",
            max.div_ceil(8)
        ));
    }
    if let Some(mid) = def.message_id {
        p.line(format!(
            "/** Dispatch id of the `{name}` message on a connection (spec §2.3). */"
        ));
        p.line(format!("export const {prefix}_MESSAGE_ID = {mid};"));
    }
    p.line(format!(
        "/** Fingerprint of the packed wire of `{name}`, referenced types included. */"
    ));
    p.line(format!(
        "export const {prefix}_FINGERPRINT = 0x{}n;",
        crate::fingerprint::hex(g.fingerprints.types[id])
    ));
    if let TypeDefKind::Struct { fields } = &def.kind {
        let nodes = &g.plan.struct_plan(id).expect("a struct").fields;
        for ((f, c), node) in fields
            .iter()
            .zip(&g.names.types[id].member_constants)
            .zip(nodes)
        {
            field_constants(p, f, &node.node, c);
        }
    }
}

/// Named bounds of a field, the values the encoder checks: `_MIN` / `_MAX` for integers
/// and quantized floats (plus `_STEPS`), `_MAX_LEN` for bounded lists, strings and bytes,
/// `_LEN` for arrays. Optional fields expose the bounds of their payload. Integers are
/// `bigint`s where the field's values are (and bounds and step counts beyond 2^53 − 1,
/// which no `number` holds exactly).
fn field_constants(p: &mut Printer, f: &Field, node: &Node, prefix: &str) {
    let (ty, node) = match (&f.ty, &node.op) {
        (Type::Optional { inner }, Op::Optional(n)) => (inner.as_ref(), n.as_ref()),
        (ty, _) => (ty, node),
    };
    let name = &f.name;
    let mut range = |min: String, max: String| {
        p.line(format!("/** Smallest value of `{name}`. */"));
        p.line(format!("export const {prefix}_MIN = {min};"));
        p.line(format!("/** Largest value of `{name}`. */"));
        p.line(format!("export const {prefix}_MAX = {max};"));
    };
    let exact = |v: u64| int_lit(i128::from(v), u128::from(v) > MAX_SAFE);
    match ty {
        Type::UInt { .. } | Type::SInt { .. } | Type::Bounded { .. } => {
            let (min, max) = crate::plan::scalar::int_range(ty).expect("an integer type");
            let wide = matches!(&node.op, Op::Scalar(s) if s.json_wide);
            range(int_lit(min, wide), int_lit(max, wide));
        }
        Type::Quantized {
            min, max, steps, ..
        } => {
            range(f64_lit(*min), f64_lit(*max));
            p.line(format!("/** Number of quantization steps of `{name}`. */"));
            p.line(format!("export const {prefix}_STEPS = {};", exact(*steps)));
        }
        Type::List { max: Some(m), .. }
        | Type::String { max: Some(m), .. }
        | Type::Bytes { max: Some(m), .. } => {
            p.line(format!("/** Longest `{name}` the schema allows. */"));
            p.line(format!("export const {prefix}_MAX_LEN = {};", exact(*m)));
        }
        Type::Array { len, .. } => {
            p.line(format!("/** Length of `{name}`. */"));
            p.line(format!("export const {prefix}_LEN = {};", exact(*len)));
        }
        _ => {}
    }
}
