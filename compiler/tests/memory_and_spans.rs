//! What the layout pass adds to the IR besides packed sizes: the in-memory model
//! of spec §11 for every kind of type, and the source spans of declarations,
//! fields, variants and constants (left out of the JSON dump).

use bitwire_compiler::ir::*;
use bitwire_compiler::{compile_source, MemLoader};

fn compile(src: &str) -> Schema {
    match compile_source("test.bw", src) {
        Ok(s) => s,
        Err(d) => panic!("unexpected errors:\n{}", d.render()),
    }
}

fn def<'a>(s: &'a Schema, name: &str) -> &'a TypeDef {
    &s.types[s
        .type_by_name(name)
        .unwrap_or_else(|| panic!("no type {name}"))]
}

fn field<'a>(s: &'a Schema, ty: &str, name: &str) -> &'a Field {
    let TypeDefKind::Struct { fields } = &def(s, ty).kind else {
        panic!("{ty} is not a struct")
    };
    fields.iter().find(|f| f.name == name).unwrap()
}

fn memory(size: u64, align: u64, footprint: u64, depth: u32) -> MemoryLayout {
    MemoryLayout {
        size,
        align,
        footprint,
        depth,
    }
}

/// The in-memory model of spec §11 for every kind of type.
#[test]
fn memory_layouts() {
    let s = compile(
        "struct Empty {}
         enum Small { A, B }
         enum Wide: u12 { A }
         union U { A(u64), B, C(u8) }
         union Unit { A }
         struct Mixed { a: u8, b: u32, c: bool }
         struct Inner { x: optional<f64>, n: list<u16>, s: string }
         struct Arrays { small: [u32; 1024], big: [u8; 4097], empties: [Empty; 3] }
         struct Deep { a: list<list<optional<Inner>>> }
         struct Scalars { a: u16 in 0..=9, b: f32 in 0.0..=1.0 bits 8, c: vari64, d: varu16 }",
    );
    let m = |name| def(&s, name).memory;
    assert_eq!(m("Empty"), memory(1, 1, 1, 1));
    assert_eq!(m("Small"), memory(1, 1, 1, 1));
    assert_eq!(m("Wide"), memory(2, 2, 2, 1));
    // Tag (u8 for 2 bits), then every payload: 0, 8..16, 16 → 17 → 24.
    assert_eq!(m("U"), memory(24, 8, 24, 2));
    // A zero-bit tag is still held in a byte.
    assert_eq!(m("Unit"), memory(1, 1, 1, 1));
    assert_eq!(m("Mixed"), memory(12, 4, 12, 2));
    // {bool, f64} = 16, then two 24-byte headers.
    assert_eq!(m("Inner"), memory(64, 8, 64, 3));
    // 4096 inline bytes, an 8-byte pointer to 4097 bytes (+32), three 1-byte
    // empties: 4107 bytes, rounded up to the pointer's alignment.
    assert_eq!(m("Arrays"), memory(4112, 8, 4112 + 4097 + 32, 3));
    assert_eq!(m("Deep").depth, 1 + 1 + 1 + 1 + 3);
    assert_eq!(m("Scalars"), memory(24, 8, 24, 2));
    // Anonymous types use the stored layouts of the named ones they mention.
    let elem = match &field(&s, "Deep", "a").ty {
        Type::List { elem, .. } => elem.as_ref().clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        bitwire_compiler::layout::memory_of(&elem, &s.types),
        memory(24, 8, 24, 5)
    );
}

/// Declarations, fields, variants and constants carry the spans of their names and
/// types, which the JSON dump leaves out.
#[test]
fn spans_point_at_names_and_types() {
    let src = "const MAX: u8 = 3;\nstruct P { id: list<u8, max MAX> }\nunion E: u4 { A(P), B }\n";
    let (schema, diags) =
        bitwire_compiler::sema::compile("t.bw", &MemLoader::new().with("t.bw", src));
    let s = schema.expect("compiles");
    let text = |span: Span| diags.sources.snippet(span).to_string();
    assert_eq!(text(s.constants[0].spans.name), "MAX");
    assert_eq!(text(s.constants[0].spans.ty.unwrap()), "u8");
    let f = field(&s, "P", "id");
    assert_eq!(text(f.spans.name), "id");
    assert_eq!(text(f.spans.ty.unwrap()), "list<u8, max MAX>");
    let e = def(&s, "E");
    assert_eq!(text(e.spans.name), "E");
    assert_eq!(text(e.spans.ty.unwrap()), "u4");
    let TypeDefKind::Union { variants, .. } = &e.kind else {
        panic!("not a union")
    };
    assert_eq!(text(variants[0].spans.ty.unwrap()), "P");
    assert_eq!(variants[1].spans.ty, None);
    let json = serde_json::to_string(&s).unwrap();
    assert!(
        !json.contains("spans") && json.contains("\"memory\""),
        "{json}"
    );
}
