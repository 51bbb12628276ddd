//! Type declarations, constants and the glue methods of every named type: the
//! struct / enum / union declarations, the schema's constants, per-type size and
//! bound constants, `AppendTo` / `Encode` / `Decode`, and the enum helpers.

use super::decode::{self, Mode};
use super::printer::Printer;
use super::{encode, f64_lit, int_type, json, naming, Gen};
use crate::codegen::describe;
use crate::ir::{ConstValue, FloatRepr, IntRepr, Type, TypeDefKind, TypeId};
use crate::plan::{Body, Run};

/// Prints the schema's constants.
pub fn constants(g: &Gen, p: &mut Printer) {
    for (c, ident) in g.schema.constants.iter().zip(&g.names.constants) {
        p.blank();
        p.doc(format!(
            "{ident} is the schema's `{}`.",
            describe::const_text(&c.name, &c.value)
        ));
        doc_paragraph(p, &c.doc);
        let (ty, value) = match &c.value {
            ConstValue::Int { ty, value } => (int_type(*ty).to_string(), value.to_string()),
            ConstValue::Float { ty, value } => match ty {
                // Printed as the f32 it is, so the literal is the shortest exact one.
                FloatRepr::F32 => ("float32".into(), format!("{:?}", *value as f32)),
                FloatRepr::F64 => ("float64".into(), f64_lit(*value)),
            },
            ConstValue::Bool { value } => ("bool".into(), value.to_string()),
            ConstValue::String { value } => ("string".into(), naming::str_lit(value)),
        };
        p.line(format!("const {ident} {ty} = {value}"));
    }
}

/// The first sentence of a named type's doc comment, which names its declaration
/// and its size: `Packet64 is the schema's `message Packet64 = 1` (game.bw:30), 64
/// bits.` Go doc comments start with the name they document (go vet, staticcheck
/// ST1021), so the schema's own doc comment follows as the next paragraph.
fn schema_sentence(g: &Gen, id: TypeId) -> String {
    let def = &g.schema.types[id];
    let decl = match (&def.kind, def.message_id) {
        (TypeDefKind::Struct { .. }, Some(mid)) => format!("message {} = {mid}", def.name),
        (TypeDefKind::Struct { .. }, None) => format!("struct {}", def.name),
        (TypeDefKind::Enum { .. }, _) => format!("enum {}", def.name),
        (TypeDefKind::Union { .. }, _) => format!("union {}", def.name),
    };
    format!(
        "{} is the schema's `{decl}` ({}:{}), {}.",
        g.ident(id),
        def.origin.file,
        def.origin.line,
        describe::size_text(&def.packed)
    )
}

/// Prints a schema doc comment as a further paragraph of a top-level declaration's
/// doc comment (after `//`), if there is one.
fn doc_paragraph(p: &mut Printer, doc: &[String]) {
    if doc.iter().any(|l| !l.trim().is_empty()) {
        p.line("//");
        p.doc_comment(doc);
    }
}

/// The Go type of a union's tag: wide enough for the tag's packed width, so that a
/// tag read from the wire converts without losing bits.
pub fn union_tag_repr(packed_tag_bits: u32) -> IntRepr {
    IntRepr::for_width(false, packed_tag_bits)
}

/// Prints the declaration of a named type (and, for enums and unions, the
/// constants of its variants).
pub fn declaration(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let names = &g.names.types[id];
    let ident = &names.ident;
    p.blank();
    p.doc(schema_sentence(g, id));
    doc_paragraph(p, &def.doc);
    match &def.kind {
        TypeDefKind::Struct { fields } if fields.is_empty() => {
            p.line(format!("type {ident} struct{{}}"));
        }
        TypeDefKind::Struct { fields } => {
            let plan = g.plan.struct_plan(id).expect("a struct");
            p.open(format!("type {ident} struct {{"));
            for ((f, fname), fp) in fields.iter().zip(&names.members).zip(&plan.fields) {
                p.doc(format!(
                    "{fname} is `{}: {}`, {}.",
                    f.name,
                    describe::type_text(&f.ty),
                    describe::field_position_text(f)
                ));
                p.comment(&f.doc);
                p.line(format!("{fname} {}", g.go_type(&fp.node)));
            }
            p.close("}");
        }
        TypeDefKind::Enum {
            repr,
            packed_tag_bits,
            variants,
        } => {
            p.line(format!("type {ident} {}", int_type(*repr)));
            p.blank();
            p.line(format!("// The variants of {ident}."));
            p.open("const (");
            for (v, vname) in variants.iter().zip(&names.members) {
                p.doc(format!(
                    "{vname} is the variant `{} = {}` of {ident}, a {packed_tag_bits}-bit tag.",
                    v.name, v.value
                ));
                p.comment(&v.doc);
                p.line(format!("{vname} {ident} = {}", v.value));
            }
            p.close(")");
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => union_declaration(g, p, id, *packed_tag_bits, variants),
    }
}

/// Prints a union's declaration: the tagged struct, its tag type and constants, and
/// the tag's `String`.
fn union_declaration(
    g: &Gen,
    p: &mut Printer,
    id: TypeId,
    packed_tag_bits: u32,
    variants: &[crate::ir::UnionVariant],
) {
    let names = &g.names.types[id];
    let ident = &names.ident;
    let tag_type = &names.tag_type;
    let Body::Union(plan) = &g.plan.get(id).body else {
        unreachable!("a union")
    };
    p.open(format!("type {ident} struct {{"));
    p.line("// Tag says which variant the value holds; only that variant's field is");
    p.line("// meaningful (decoders leave the others zero).");
    p.line(format!("Tag {tag_type}"));
    for ((v, fname), arm) in variants.iter().zip(&names.members).zip(&plan.arms) {
        if let (Some(ty), Some(node)) = (&v.payload, &arm.payload) {
            p.doc(format!(
                "{fname} is the payload of `{}({})`, {}.",
                v.name,
                describe::type_text(ty),
                describe::size_text(&v.packed)
            ));
            p.comment(&v.doc);
            p.line(format!("{fname} {}", g.go_type(node)));
        }
    }
    p.close("}");
    p.blank();
    p.doc(format!("{tag_type} says which variant {} holds.", a(ident)));
    p.line(format!(
        "type {tag_type} {}",
        int_type(union_tag_repr(packed_tag_bits))
    ));
    p.blank();
    p.line(format!("// The variants of {ident}."));
    p.open("const (");
    for (v, tname) in variants.iter().zip(&names.tags) {
        let decl = match &v.payload {
            Some(ty) => format!("{}({})", v.name, describe::type_text(ty)),
            None => v.name.clone(),
        };
        p.doc(format!(
            "{tname} is the tag of `{decl}`, {} in {packed_tag_bits} bits.",
            v.tag
        ));
        p.comment(&v.doc);
        p.line(format!("{tname} {tag_type} = {}", v.tag));
    }
    p.close(")");
    p.blank();
    p.doc(format!(
        "String returns the variant's schema name, or \"{tag_type}(N)\" for a tag {ident} \
         does not declare."
    ));
    p.open(format!("func (t {tag_type}) String() string {{"));
    p.open("switch t {");
    for (v, tname) in variants.iter().zip(&names.tags) {
        p.middle(format!("case {tname}:"));
        p.line(format!("return {}", naming::str_lit(&v.name)));
    }
    p.close("}");
    p.line(format!(
        "return bitwire.UnknownName({}, uint64(t))",
        naming::str_lit(tag_type)
    ));
    p.close("}");
}

/// Prints the per-type constants and every method of a named type.
pub fn methods(g: &Gen, p: &mut Printer, id: TypeId) {
    type_constants(g, p, id);
    let def = &g.schema.types[id];
    if let TypeDefKind::Enum { .. } = def.kind {
        enum_helpers(g, p, id);
    }
    top_level_methods(g, p, id);
    super::binary::binary_fns(g, p, id);
    if let Some(c) = &g.consts[id].message_id {
        let ident = g.ident(id);
        p.blank();
        p.line(format!(
            "// MessageID returns the dispatch id of {ident} (spec §2.3)."
        ));
        p.open(format!("func (m *{ident}) MessageID() uint32 {{"));
        p.line(format!("return {c}"));
        p.close("}");
    }
    encode::write_fn(g, p, id);
    decode::decode_fn(g, p, id, Mode::Read);
    verify_fn(g, p, id);
    decode::decode_fn(g, p, id, Mode::Check);
    if g.opts.json {
        json::json_fns(g, p, id);
    }
    super::delta::methods(g, p, id);
}

/// The size constants of a type (spec §6.1), its message id and its fields' bounds.
fn type_constants(g: &Gen, p: &mut Printer, id: TypeId) {
    let def = &g.schema.types[id];
    let c = &g.consts[id];
    let ident = g.ident(id);
    p.blank();
    p.line(format!(
        "// Size bounds (spec §6.1) and named bounds of {ident}."
    ));
    p.open("const (");
    p.doc(format!(
        "{} is the fewest bits {} encodes to.",
        c.min_bits,
        a(ident)
    ));
    p.line(format!("{} = {}", c.min_bits, def.packed.min_bits));
    if let (Some(mb), Some(ms), Some(max)) = (&c.max_bits, &c.max_size, def.packed.max_bits) {
        p.doc(format!("{mb} is the most bits {} encodes to.", a(ident)));
        p.line(format!("{mb} = {max}"));
        p.doc(format!(
            "{ms} is the largest top-level encoding of {} in bytes, padding included.",
            a(ident)
        ));
        p.line(format!("{ms} = {}", max.div_ceil(8)));
    }
    if let (Some(name), Some(mid)) = (&c.message_id, def.message_id) {
        p.doc(format!(
            "{name} is the dispatch id of {ident} on a connection (spec §2.3)."
        ));
        p.line(format!("{name} uint32 = {mid}"));
    }
    p.doc(format!(
        "{} is the fingerprint of the packed wire of {ident}, referenced types included.",
        c.fingerprint
    ));
    p.line(format!(
        "{} uint64 = 0x{}",
        c.fingerprint,
        crate::fingerprint::hex(g.fingerprints.types[id])
    ));
    if let TypeDefKind::Struct { fields } = &def.kind {
        for (f, fc) in fields.iter().zip(&c.fields) {
            let ty = match &f.ty {
                Type::Optional { inner } => inner.as_ref(),
                ty => ty,
            };
            let mut range = |go: &str, min: String, max: String| {
                let (cmin, cmax) = (fc.min.as_ref().unwrap(), fc.max.as_ref().unwrap());
                p.doc(format!("{cmin} is the smallest value of {}.", f.name));
                p.line(format!("{cmin} {go} = {min}"));
                p.doc(format!("{cmax} is the largest value of {}.", f.name));
                p.line(format!("{cmax} {go} = {max}"));
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
                    // float64 even for f32 fields: the exact bounds the codec computes with.
                    range("float64", f64_lit(*min), f64_lit(*max));
                    let s = fc.steps.as_ref().unwrap();
                    p.doc(format!(
                        "{s} is the number of quantization steps of {}.",
                        f.name
                    ));
                    p.line(format!("{s} uint64 = {steps}"));
                }
                Type::List { max: Some(m), .. }
                | Type::String { max: Some(m), .. }
                | Type::Bytes { max: Some(m), .. } => {
                    let n = fc.max_len.as_ref().unwrap();
                    p.doc(format!("{n} is the longest {} the schema allows.", f.name));
                    p.line(format!("{n} = {m}"));
                }
                Type::Array { len, .. } => {
                    let n = fc.len.as_ref().unwrap();
                    p.doc(format!("{n} is the length of {}.", f.name));
                    p.line(format!("{n} = {len}"));
                }
                _ => {}
            }
        }
    }
    p.close(")");
}

/// The receiver of a type's methods: enums are small values, so their read-only
/// methods take the value; everything else takes a pointer.
pub fn receiver(g: &Gen, id: TypeId) -> (String, &'static str) {
    let ident = g.ident(id);
    match g.schema.types[id].kind {
        TypeDefKind::Enum { .. } => (format!("v {ident}"), "v"),
        _ => (format!("m *{ident}"), "m"),
    }
}

/// The mutating receiver (always a pointer).
pub fn mut_receiver(g: &Gen, id: TypeId) -> (String, &'static str) {
    let ident = g.ident(id);
    match g.schema.types[id].kind {
        TypeDefKind::Enum { .. } => (format!("v *{ident}"), "v"),
        _ => (format!("m *{ident}"), "m"),
    }
}

/// The run of a single-run type (the plan's `single_run`: one run of 1 to 64 bits
/// holds the whole struct, nested fixed-width structs included), when its size is
/// bounded. Such types get top-level fast paths (`AppendTo`, `Decode` and `VerifyX`
/// without a writer or reader), because for messages this small the calls into the
/// runtime would cost more than the work.
fn single_run<'g>(g: &'g Gen, id: TypeId) -> Option<(&'g Run, &'g str)> {
    let run = g.plan.struct_plan(id)?.single_run()?;
    Some((run, g.consts[id].max_size.as_deref()?))
}

/// `AppendTo`, `Encode`, `Decode` and `DecodeWithLimits`.
fn top_level_methods(g: &Gen, p: &mut Printer, id: TypeId) {
    let (recv, r) = receiver(g, id);
    let (mrecv, mr) = mut_receiver(g, id);
    let fast = single_run(g, id);
    p.blank();
    p.line(format!(
        "// AppendTo appends the top-level encoding of {r} (spec §2.1: its bit stream,"
    ));
    p.line("// padded with zero bits to a byte) to dst. On error it returns dst unchanged.");
    p.open(format!(
        "func ({recv}) AppendTo(dst []byte) ([]byte, error) {{"
    ));
    match fast {
        Some((run, _)) => {
            p.line("// One run of fixed-width fields: one word, appended without a writer.");
            encode::append_fast(g, p, id, run);
        }
        None => {
            p.line("w := bitwire.NewBitWriter(dst)");
            p.open(format!("if err := {r}.WritePacked(&w); err != nil {{"));
            p.line("return dst, err");
            p.close("}");
            p.line("return w.Finish(), nil");
        }
    }
    p.close("}");
    encode_fn(g, p, id);
    p.blank();
    p.line(format!(
        "// Decode sets {mr} to the value encoded in all of b (spec §2.2: zero padding,"
    ));
    p.line(format!(
        "// no trailing bytes), reusing the capacity of {mr}'s slices, with the default"
    ));
    p.line(format!(
        "// decode budget (spec §11). On error {mr} holds a partly decoded value."
    ));
    p.open(format!("func ({mrecv}) Decode(b []byte) error {{"));
    if let Some((run, size)) = fast {
        p.open(format!("if len(b) != {size} {{"));
        p.line("// Not one encoding long: the general path says why (spec §2.2).");
        p.line(format!("return {mr}.decode(b)"));
        p.close("}");
        decode::decode_fast(g, p, id, run, Mode::Read);
        p.close("}");
        p.blank();
        p.line("// decode is Decode's general path, for input that is not exactly one");
        p.line("// encoding long.");
        p.open(format!("func ({mrecv}) decode(b []byte) error {{"));
    }
    read_top_level(p, mr, "bitwire.NewBitReader(b)");
    p.close("}");
    p.blank();
    p.line("// DecodeWithLimits is Decode with the decode budget of limits (spec §11)");
    p.line("// instead of the default one.");
    p.open(format!(
        "func ({mrecv}) DecodeWithLimits(b []byte, limits bitwire.Limits) error {{"
    ));
    read_top_level(p, mr, "bitwire.NewBitReaderWithLimits(b, limits)");
    p.close("}");
}

/// The body of a top-level decode through a reader made by `reader`.
fn read_top_level(p: &mut Printer, mr: &str, reader: &str) {
    p.line(format!("r := {reader}"));
    p.open(format!("if err := {mr}.ReadPacked(&r); err != nil {{"));
    p.line("return err");
    p.close("}");
    p.line("return r.Finish()");
}

/// `Encode`: `AppendTo` into a new slice. A type whose every value has the same
/// size reserves exactly that; any other starts small and grows with the value, so
/// that a large bound (`list<u64, max 100000000>`) reserves nothing up front.
fn encode_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let (recv, r) = receiver(g, id);
    let packed = &g.plan.get(id).bits;
    let init = match (&g.consts[id].max_size, packed.max_bits) {
        (_, Some(0)) => "nil".to_string(),
        (Some(size), Some(max)) if max == packed.min_bits => format!("make([]byte, 0, {size})"),
        (_, max) => {
            let small = max.map_or(START_BYTES, |m| m.div_ceil(8).min(START_BYTES));
            format!("make([]byte, 0, {small})")
        }
    };
    p.blank();
    p.line(format!(
        "// Encode returns the top-level encoding of {r} in a new slice."
    ));
    p.open(format!("func ({recv}) Encode() ([]byte, error) {{"));
    p.line(format!("b, err := {r}.AppendTo({init})"));
    p.if_err("nil, err");
    p.line("return b, nil");
    p.close("}");
}

/// The capacity `Encode` starts with for a type whose size varies: one small
/// allocation, doubled by `append` as the value needs.
const START_BYTES: u64 = 64;

/// `VerifyX`: `VerifyXPacked` over the whole input, then the top-level checks; a
/// single-run type first tries the fast path `Decode` takes.
fn verify_fn(g: &Gen, p: &mut Printer, id: TypeId) {
    let ident = g.ident(id);
    let (top, packed) = (&g.consts[id].verify, &g.consts[id].verify_packed);
    p.blank();
    p.doc(format!(
        "{top} checks that b is exactly one valid top-level encoding of {} and returns \
         the error Decode would return for b (same kind, bit, path and detail), without \
         building the value and without allocating unless b is invalid. It charges the \
         default decode budget as Decode does; for other limits, call {packed} on a \
         reader made with bitwire.NewBitReaderWithLimits.",
        a(ident)
    ));
    p.open(format!("func {top}(b []byte) error {{"));
    let fast = single_run(g, id);
    if let Some((_, size)) = fast {
        p.open(format!("if len(b) != {size} {{"));
        p.line("// Not one encoding long: the general path says why (spec §2.2).");
    }
    p.line("r := bitwire.NewBitReader(b)");
    p.open(format!("if err := {packed}(&r); err != nil {{"));
    p.line("return err");
    p.close("}");
    p.line("return r.Finish()");
    if let Some((run, _)) = fast {
        p.close("}");
        decode::decode_fast(g, p, id, run, Mode::Check);
    }
    p.close("}");
}

/// `Valid` and `String` of an enum.
fn enum_helpers(g: &Gen, p: &mut Printer, id: TypeId) {
    let TypeDefKind::Enum { variants, .. } = &g.schema.types[id].kind else {
        unreachable!()
    };
    let names = &g.names.types[id];
    let ident = &names.ident;
    p.blank();
    p.doc(format!(
        "Valid reports whether v is a variant {ident} declares."
    ));
    p.open(format!("func (v {ident}) Valid() bool {{"));
    let e = g.enum_plan(id);
    let (_, repr_max) = crate::plan::scalar::repr_range(e.repr);
    match e.contiguous_to() {
        Some(last) if i128::from(last) == repr_max => p.line("return true"),
        Some(0) => p.line("return v == 0"),
        Some(last) => p.line(format!("return v <= {last}")),
        None => {
            p.open("switch v {");
            p.middle(format!("case {}:", names.members.join(", ")));
            p.line("return true");
            p.close("}");
            p.line("return false");
        }
    }
    p.close("}");
    p.blank();
    p.doc(format!(
        "String returns the variant's schema name (its JSON form), or \"{ident}(N)\" for a \
         value {ident} does not declare."
    ));
    p.open(format!("func (v {ident}) String() string {{"));
    p.open("switch v {");
    for (v, vname) in variants.iter().zip(&names.members) {
        p.middle(format!("case {vname}:"));
        p.line(format!("return {}", naming::str_lit(&v.name)));
    }
    p.close("}");
    p.line(format!(
        "return bitwire.UnknownName({}, uint64(v))",
        naming::str_lit(ident)
    ));
    p.close("}");
}

/// `name` with its indefinite article, for doc comments: "a Packet64", "an Event".
pub(super) fn a(name: &str) -> String {
    let article = match name.chars().next() {
        Some('A' | 'E' | 'I' | 'O' | 'U') => "an",
        _ => "a",
    };
    format!("{article} {name}")
}
