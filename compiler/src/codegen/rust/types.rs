//! Type declarations, constants and impls of every named type: the struct / enum /
//! union items, the schema's constants, per-type size and bound constants, and the
//! `::bitwire::Packed` impl (whose provided methods are `encode`, `decode`, `verify`).

use super::printer::Printer;
use super::{decode, encode, f64_lit, float_type, int_type, json, naming, Gen};
use crate::codegen::describe;
use crate::ir::{ConstValue, Field, Type, TypeDefKind, TypeId};

/// Prints the schema's constants.
pub fn constants(g: &Gen, p: &mut Printer) {
    for (c, ident) in g.schema.constants.iter().zip(&g.names.constants) {
        p.blank();
        p.doc(&c.doc);
        p.line(format!(
            "/// Schema: `{}`.",
            describe::const_text(&c.name, &c.value)
        ));
        let (ty, value) = match &c.value {
            ConstValue::Int { ty, value } => (int_type(*ty).to_string(), value.to_string()),
            ConstValue::Float { ty, value } => {
                let lit = match ty {
                    // Printed as the f32 it is, so the literal is the shortest exact one.
                    crate::ir::FloatRepr::F32 => {
                        super::float_lit(format!("{:?}", *value as f32), true)
                    }
                    crate::ir::FloatRepr::F64 => f64_lit(*value),
                };
                (float_type(*ty).to_string(), lit)
            }
            ConstValue::Bool { value } => ("bool".into(), value.to_string()),
            ConstValue::String { value } => ("&str".into(), format!("{value:?}")),
        };
        p.line(format!("pub const {ident}: {ty} = {value};"));
    }
}

/// The derive list of a named type.
fn derives(g: &Gen, id: TypeId) -> String {
    let is_enum = matches!(g.schema.types[id].kind, TypeDefKind::Enum { .. });
    let mut d = vec!["Debug", "Clone"];
    if is_enum || g.is_copy(id) {
        d.push("Copy");
    }
    d.push("PartialEq");
    if is_enum || g.is_eq(id) {
        d.extend(["Eq", "Hash"]);
    }
    if g.is_default(id) {
        d.push("Default");
    }
    format!("#[derive({})]", d.join(", "))
}

/// Prints the item that declares a named type.
pub fn declaration(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let ident = g.ident(id);
    let names = &g.names.types[id];
    p.doc(&def.doc);
    let decl = match (&def.kind, def.message_id) {
        (TypeDefKind::Struct { .. }, Some(mid)) => format!("message {} = {mid}", def.name),
        (TypeDefKind::Struct { .. }, None) => format!("struct {}", def.name),
        (TypeDefKind::Enum { .. }, _) => format!("enum {}", def.name),
        (TypeDefKind::Union { .. }, _) => format!("union {}", def.name),
    };
    p.line(format!(
        "/// Schema: `{decl}` ({}:{}), {}.",
        def.origin.file,
        def.origin.line,
        describe::size_text(&def.packed)
    ));
    p.line(derives(g, id));
    match &def.kind {
        TypeDefKind::Struct { fields } if fields.is_empty() => {
            p.line(format!("pub struct {ident} {{}}"));
        }
        TypeDefKind::Struct { fields } => {
            let plan = g.plan.struct_plan(id).expect("a struct");
            p.open(format!("pub struct {ident} {{"));
            for ((f, fname), fp) in fields.iter().zip(&names.members).zip(&plan.fields) {
                p.doc(&f.doc);
                p.line(format!("/// {}", describe::field_doc_text(f)));
                p.line(format!("pub {fname}: {},", g.rust_type(&fp.node)));
            }
            p.close("}");
        }
        TypeDefKind::Enum {
            repr,
            packed_tag_bits,
            variants,
        } => {
            p.line(format!("#[repr({})]", int_type(*repr)));
            p.open(format!("pub enum {ident} {{"));
            let default = g.default_variant(id);
            for (i, (v, vname)) in variants.iter().zip(&names.members).enumerate() {
                p.doc(&v.doc);
                p.line(format!(
                    "/// Schema: `{} = {}`, {packed_tag_bits}-bit tag.",
                    v.name, v.value
                ));
                if default == Some(i) {
                    p.line("#[default]");
                }
                p.line(format!("{vname} = {},", v.value));
            }
            p.close("}");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            let crate::plan::Body::Union(plan) = &g.plan.get(id).body else {
                unreachable!("a union")
            };
            p.open(format!("pub enum {ident} {{"));
            for ((v, vname), arm) in variants.iter().zip(&names.members).zip(&plan.arms) {
                p.doc(&v.doc);
                match (&v.payload, &arm.payload) {
                    (Some(ty), Some(node)) => {
                        p.line(format!(
                            "/// Schema: `{}({})`, tag {} in {packed_tag_bits} bits, payload {}.",
                            v.name,
                            describe::type_text(ty),
                            v.tag,
                            describe::size_text(&v.packed)
                        ));
                        let ty = g.rust_type(node);
                        if arm.out_of_line {
                            p.line(format!("{vname}(Box<{ty}>),"));
                        } else {
                            p.line(format!("{vname}({ty}),"));
                        }
                    }
                    _ => {
                        p.line(format!(
                            "/// Schema: `{}`, tag {} in {packed_tag_bits} bits.",
                            v.name, v.tag
                        ));
                        if v.tag == 0 && g.is_default(id) {
                            p.line("#[default]");
                        }
                        p.line(format!("{vname},"));
                    }
                }
            }
            p.close("}");
        }
    }
}

/// Prints `impl T { constants, enum helpers, JSON }` with `helpers` (the private
/// functions the `Packed` impl calls, printed by [`encode::write_fn`]) after the
/// enum helpers.
pub fn inherent_impl(g: &Gen, p: &mut Printer, id: TypeId, helpers: Printer) {
    let def = &g.schema.types[id];
    p.open(format!("impl {} {{", g.ident(id)));
    p.line("/// Fewest bits a value encodes to (spec §6.1).");
    p.line(format!(
        "pub const MIN_ENCODED_BITS: u64 = {};",
        def.packed.min_bits
    ));
    if let Some(max) = def.packed.max_bits {
        p.line("/// Most bits a value encodes to (spec §6.1).");
        p.line(format!("pub const MAX_ENCODED_BITS: u64 = {max};"));
        p.line("/// Largest top-level encoding in bytes (padding included).");
        p.line(format!(
            "pub const MAX_ENCODED_SIZE: usize = {};",
            max.div_ceil(8)
        ));
    }
    if let Some(mid) = def.message_id {
        p.line("/// Dispatch id of this message on a connection (spec §2.3).");
        p.line(format!("pub const MESSAGE_ID: u32 = {mid};"));
    }
    p.line("/// Fingerprint of this type's packed wire, referenced types included.");
    p.line(format!(
        "pub const FINGERPRINT: u64 = 0x{};",
        crate::fingerprint::hex(g.fingerprints.types[id])
    ));
    if let TypeDefKind::Struct { fields } = &def.kind {
        // Fields whose names differ only in case (`ordra_umpa`, `OrdraUmpa`) get
        // distinct prefixes.
        let mut prefixes = std::collections::HashSet::new();
        for f in fields {
            let prefix =
                crate::codegen::words::unique(naming::const_ident(&f.name), &mut prefixes, "_");
            field_constants(p, f, &prefix);
        }
    }
    if let TypeDefKind::Enum { variants, .. } = &def.kind {
        p.blank();
        enum_helpers(g, p, id, variants);
    }
    if !helpers.is_empty() {
        p.blank();
        p.append(helpers);
    }
    if g.opts.json {
        p.blank();
        json::to_json_fn(g, p, id);
        p.blank();
        json::from_json_fn(g, p, id);
        p.blank();
        json::from_json_text_fn(p);
    }
    p.close("}");
}

/// Named bounds of a field: `HEALTH_MIN` / `HEALTH_MAX` for narrowed integers,
/// bounded and quantized values, `NAME_MAX_LEN` for bounded lengths, `NAME_LEN` for
/// arrays. Optional fields expose the bounds of their payload.
fn field_constants(p: &mut Printer, f: &Field, prefix: &str) {
    let ty = match &f.ty {
        Type::Optional { inner } => inner.as_ref(),
        ty => ty,
    };
    let mut range = |repr: &str, min: String, max: String| {
        p.line(format!("/// Smallest value of `{}`.", f.name));
        p.line(format!("pub const {prefix}_MIN: {repr} = {min};"));
        p.line(format!("/// Largest value of `{}`.", f.name));
        p.line(format!("pub const {prefix}_MAX: {repr} = {max};"));
    };
    match ty {
        Type::UInt { bits, repr } if *bits < repr.bits() => range(
            int_type(*repr),
            "0".into(),
            ((1u128 << bits) - 1).to_string(),
        ),
        Type::SInt { bits, repr } if *bits < repr.bits() => {
            let half = 1i128 << (bits - 1);
            range(int_type(*repr), (-half).to_string(), (half - 1).to_string())
        }
        Type::Bounded { repr, min, max, .. } => {
            range(int_type(*repr), min.to_string(), max.to_string())
        }
        Type::Quantized {
            min, max, steps, ..
        } => {
            // f64 even for f32 fields: these are the exact bounds the codec computes with.
            range("f64", f64_lit(*min), f64_lit(*max));
            p.line(format!("/// Number of quantization steps of `{}`.", f.name));
            p.line(format!("pub const {prefix}_STEPS: u64 = {steps};"));
        }
        Type::List { max: Some(m), .. }
        | Type::String { max: Some(m), .. }
        | Type::Bytes { max: Some(m), .. } => {
            p.line(format!("/// Longest `{}` the schema allows.", f.name));
            p.line(format!("pub const {prefix}_MAX_LEN: usize = {m};"));
        }
        Type::Array { len, .. } => {
            p.line(format!("/// Length of `{}`.", f.name));
            p.line(format!("pub const {prefix}_LEN: usize = {len};"));
        }
        _ => {}
    }
}

/// `from_value` and `name` of a C-like enum.
fn enum_helpers(g: &Gen, p: &mut Printer, id: TypeId, variants: &[crate::ir::EnumVariant]) {
    let names = &g.names.types[id];
    p.line("/// The variant whose tag is `value`, if one is declared.");
    p.open("pub const fn from_value(value: u64) -> Option<Self> {");
    p.open("match value {");
    for (v, vname) in variants.iter().zip(&names.members) {
        p.line(format!("{} => Some(Self::{vname}),", v.value));
    }
    p.line("_ => None,");
    p.close("}");
    p.close("}");
    p.blank();
    let crate::plan::Body::Enum(plan) = &g.plan.get(id).body else {
        unreachable!("an enum")
    };
    if plan.all_patterns_declared() {
        // Every tag pattern is a variant: decoders convert without a check.
        let bits = plan.tag_bits;
        p.line(format!(
            "/// The variant whose tag is the low {bits} bits of `bits` (every pattern is one)."
        ));
        let mut order: Vec<usize> = (0..variants.len()).collect();
        order.sort_by_key(|&i| variants[i].value);
        let (last, rest) = order.split_last().expect("a variant");
        if bits == 0 {
            p.open("pub const fn from_bits(_bits: u64) -> Self {");
            p.line(format!("Self::{}", names.members[*last]));
        } else {
            p.open("pub const fn from_bits(bits: u64) -> Self {");
            p.open(format!("match bits & {} {{", (1u64 << bits) - 1));
            for &i in rest {
                p.line(format!(
                    "{} => Self::{},",
                    variants[i].value, names.members[i]
                ));
            }
            p.line(format!("_ => Self::{},", names.members[*last]));
            p.close("}");
        }
        p.close("}");
        p.blank();
    }
    p.line("/// The variant's schema name (its JSON form).");
    p.open("pub const fn name(self) -> &'static str {");
    p.open("match self {");
    for (v, vname) in variants.iter().zip(&names.members) {
        p.line(format!("Self::{vname} => {},", naming::str_lit(&v.name)));
    }
    p.close("}");
    p.close("}");
}

/// Prints `impl ::bitwire::Packed for T`: the size constants and the three
/// building blocks, `write`, `read` and `check`. Everything callers use (`encode`,
/// `decode`, `verify`, ...) is provided by the trait. The private helpers `write`
/// calls go to `helpers`, for the inherent impl.
pub fn packed_impl(g: &Gen, p: &mut Printer, helpers: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    p.open(format!("impl ::bitwire::Packed for {ident} {{"));
    p.line("const MIN_BITS: u64 = Self::MIN_ENCODED_BITS;");
    if g.schema.types[id].packed.max_bits.is_some() {
        p.line("const MAX_BITS: Option<u64> = Some(Self::MAX_ENCODED_BITS);");
    } else {
        p.line("const MAX_BITS: Option<u64> = None;");
    }
    p.blank();
    encode::write_fn(g, p, helpers, id);
    p.blank();
    decode::decode_fn(g, p, id, decode::Mode::Read);
    p.blank();
    decode::decode_fn(g, p, id, decode::Mode::Check);
    p.close("}");
}
