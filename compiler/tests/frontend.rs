//! Front-end tests on valid schemas: the IR numbers (widths, offsets, size bounds,
//! tag widths, steps) of every construct, scoping and declaration order across
//! imports, constants, doc comments, origins, and determinism.

use bitwire_compiler::diag::Code;
use bitwire_compiler::ir::*;
use bitwire_compiler::{compile_file, compile_source, compile_with_loader, MemLoader};

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

fn fields<'a>(s: &'a Schema, name: &str) -> &'a [Field] {
    match &def(s, name).kind {
        TypeDefKind::Struct { fields } => fields,
        other => panic!("{name} is not a struct: {other:?}"),
    }
}

fn field<'a>(s: &'a Schema, ty: &str, name: &str) -> &'a Field {
    fields(s, ty)
        .iter()
        .find(|f| f.name == name)
        .unwrap_or_else(|| panic!("no field {ty}.{name}"))
}

fn layout(min: u64, max: Option<u64>) -> PackedLayout {
    PackedLayout {
        min_bits: min,
        max_bits: max,
    }
}

#[test]
fn scalars() {
    let s = compile(
        "struct S { a: bool, b: u1, c: u64, d: i12, e: f32, f: f64, g: u9, h: i64, i: u17, j: i33 }",
    );
    let f = |n| field(&s, "S", n);
    assert_eq!(f("a").ty, Type::Bool);
    assert_eq!(f("a").packed, PackedLayout::fixed(1));
    assert_eq!(
        f("b").ty,
        Type::UInt {
            bits: 1,
            repr: IntRepr::U8
        }
    );
    assert_eq!(
        f("c").ty,
        Type::UInt {
            bits: 64,
            repr: IntRepr::U64
        }
    );
    assert_eq!(f("c").packed, PackedLayout::fixed(64));
    assert_eq!(
        f("d").ty,
        Type::SInt {
            bits: 12,
            repr: IntRepr::I16
        }
    );
    assert_eq!(f("d").packed, PackedLayout::fixed(12));
    assert_eq!(f("e").packed, PackedLayout::fixed(32));
    assert_eq!(f("f").packed, PackedLayout::fixed(64));
    assert_eq!(
        f("g").ty,
        Type::UInt {
            bits: 9,
            repr: IntRepr::U16
        }
    );
    assert_eq!(
        f("h").ty,
        Type::SInt {
            bits: 64,
            repr: IntRepr::I64
        }
    );
    assert_eq!(
        f("i").ty,
        Type::UInt {
            bits: 17,
            repr: IntRepr::U32
        }
    );
    assert_eq!(
        f("j").ty,
        Type::SInt {
            bits: 33,
            repr: IntRepr::I64
        }
    );
    assert_eq!(
        def(&s, "S").packed,
        PackedLayout::fixed(1 + 1 + 64 + 12 + 32 + 64 + 9 + 64 + 17 + 33)
    );
}

/// The spec's nibble/bitproto example: every field at a fixed offset.
#[test]
fn spec_example_offsets() {
    let s = compile("message Packet = 0 { is_alive: bool, weapon: u4, team: u2, health: u9 }");
    let offsets: Vec<Option<u64>> = fields(&s, "Packet")
        .iter()
        .map(|f| f.packed_offset)
        .collect();
    assert_eq!(offsets, [Some(0), Some(1), Some(5), Some(7)]);
    assert_eq!(def(&s, "Packet").packed, PackedLayout::fixed(16));
    assert_eq!(def(&s, "Packet").packed.max_bytes(), Some(2));
}

#[test]
fn bounded_integers() {
    let s = compile(
        "const LO: i32 = -100;
         const HI: i32 = 100;
         struct B { hp: u16 in 0..=1000, d: i8 in -5..=5, one: u12 in 5..=5, c: i32 in LO..=HI,
                    full: u8 in 0..=255, neg: i64 in -9223372036854775808..=9223372036854775807 }",
    );
    assert_eq!(
        field(&s, "B", "hp").ty,
        Type::Bounded {
            repr: IntRepr::U16,
            base_bits: 16,
            min: 0,
            max: 1000,
            packed_bits: 10
        }
    );
    assert_eq!(field(&s, "B", "hp").packed, PackedLayout::fixed(10));
    assert_eq!(
        field(&s, "B", "d").ty,
        Type::Bounded {
            repr: IntRepr::I8,
            base_bits: 8,
            min: -5,
            max: 5,
            packed_bits: 4
        }
    );
    assert_eq!(
        field(&s, "B", "one").ty,
        Type::Bounded {
            repr: IntRepr::U16,
            base_bits: 12,
            min: 5,
            max: 5,
            packed_bits: 0
        }
    );
    assert_eq!(field(&s, "B", "one").packed, PackedLayout::fixed(0));
    assert_eq!(
        field(&s, "B", "c").ty,
        Type::Bounded {
            repr: IntRepr::I32,
            base_bits: 32,
            min: -100,
            max: 100,
            packed_bits: 8
        }
    );
    assert_eq!(field(&s, "B", "full").packed, PackedLayout::fixed(8));
    assert_eq!(field(&s, "B", "neg").packed, PackedLayout::fixed(64));
}

#[test]
fn quantized_floats() {
    let s = compile(
        "const R: f32 = 2.5;
         struct Q { a: f32 in -1.0..=1.0 bits 12, b: f32 in 0.0..=100.0 step 0.5,
                    c: f64 in -1000..=1000 bits 40, d: f32 in -R..=R step 0.25,
                    e: f32 in -0.1..=0.1 bits 8, f: f64 in 0.0..=1.0 step 0.1 }",
    );
    let q = |n| field(&s, "Q", n).ty.clone();
    assert_eq!(
        q("a"),
        Type::Quantized {
            repr: FloatRepr::F32,
            min: -1.0,
            max: 1.0,
            steps: 4095,
            packed_bits: 12
        }
    );
    assert_eq!(
        q("b"),
        Type::Quantized {
            repr: FloatRepr::F32,
            min: 0.0,
            max: 100.0,
            steps: 200,
            packed_bits: 8
        }
    );
    assert_eq!(
        q("c"),
        Type::Quantized {
            repr: FloatRepr::F64,
            min: -1000.0,
            max: 1000.0,
            steps: (1 << 40) - 1,
            packed_bits: 40
        }
    );
    assert_eq!(
        q("d"),
        Type::Quantized {
            repr: FloatRepr::F32,
            min: -2.5,
            max: 2.5,
            steps: 20,
            packed_bits: 5
        }
    );
    // f32 bounds are the nearest f32 values.
    let e_min = f64::from(-0.1f32);
    assert_eq!(
        q("e"),
        Type::Quantized {
            repr: FloatRepr::F32,
            min: e_min,
            max: -e_min,
            steps: 255,
            packed_bits: 8
        }
    );
    // 1.0 / 0.1 is not exactly 10 in binary floating point; within 1e-9 it is.
    assert_eq!(
        q("f"),
        Type::Quantized {
            repr: FloatRepr::F64,
            min: 0.0,
            max: 1.0,
            steps: 10,
            packed_bits: 4
        }
    );
    assert_eq!(field(&s, "Q", "a").packed, PackedLayout::fixed(12));
}

#[test]
fn varints() {
    let s =
        compile("struct V { a: varu16, b: varu32, c: varu64, d: vari16, e: vari32, f: vari64 }");
    let f = |n| field(&s, "V", n);
    assert_eq!(
        f("a").ty,
        Type::VarUInt {
            bits: 16,
            repr: IntRepr::U16
        }
    );
    assert_eq!(
        f("f").ty,
        Type::VarSInt {
            bits: 64,
            repr: IntRepr::I64
        }
    );
    // One 4-bit group plus its terminator; at most GMAX - 1 prefix bits plus W bits.
    assert_eq!(f("a").packed, layout(5, Some(19)));
    assert_eq!(f("b").packed, layout(5, Some(39)));
    assert_eq!(f("c").packed, layout(5, Some(79)));
    assert_eq!(f("d").packed, layout(5, Some(19)));
    assert_eq!(f("e").packed, layout(5, Some(39)));
    assert_eq!(f("f").packed, layout(5, Some(79)));
    // After the first variable-width field there are no fixed offsets.
    let offsets: Vec<Option<u64>> = fields(&s, "V").iter().map(|f| f.packed_offset).collect();
    assert_eq!(offsets, [Some(0), None, None, None, None, None]);
}

#[test]
fn containers() {
    let s = compile(
        "const N: u32 = 3;
         struct C { o: optional<u8>, a: [u8 in 0..=3; 5], an: [i16; N], l: list<u16>, lm: list<u16, max 10>,
                    s: string, sm: string<max 16>, b: bytes, bm: bytes<max 255>, nested: list<optional<[u4; 2]>, max 2>,
                    oo: optional<list<u8>> }",
    );
    let f = |n| field(&s, "C", n);
    assert_eq!(f("o").packed, layout(1, Some(9)));
    assert_eq!(f("a").packed, PackedLayout::fixed(10));
    assert_eq!(
        f("an").ty,
        Type::Array {
            elem: Box::new(Type::SInt {
                bits: 16,
                repr: IntRepr::I16
            }),
            len: 3
        }
    );
    assert_eq!(f("an").packed, PackedLayout::fixed(48));
    assert_eq!(
        f("l").ty,
        Type::List {
            elem: Box::new(Type::UInt {
                bits: 16,
                repr: IntRepr::U16
            }),
            max: None,
            packed_len: LengthEncoding::Varint,
            key: None,
        }
    );
    assert_eq!(f("l").packed, layout(5, None));
    assert_eq!(
        f("lm").ty,
        Type::List {
            elem: Box::new(Type::UInt {
                bits: 16,
                repr: IntRepr::U16
            }),
            max: Some(10),
            packed_len: LengthEncoding::Fixed { bits: 4 },
            key: None,
        }
    );
    assert_eq!(f("lm").packed, layout(4, Some(4 + 160)));
    assert_eq!(
        f("s").ty,
        Type::String {
            max: None,
            packed_len: LengthEncoding::Varint
        }
    );
    assert_eq!(f("s").packed, layout(5, None));
    assert_eq!(
        f("sm").ty,
        Type::String {
            max: Some(16),
            packed_len: LengthEncoding::Fixed { bits: 5 }
        }
    );
    assert_eq!(f("sm").packed, layout(5, Some(5 + 128)));
    assert_eq!(f("b").packed, layout(5, None));
    assert_eq!(
        f("bm").ty,
        Type::Bytes {
            max: Some(255),
            packed_len: LengthEncoding::Fixed { bits: 8 }
        }
    );
    assert_eq!(f("bm").packed, layout(8, Some(8 + 255 * 8)));
    assert_eq!(f("nested").packed, layout(2, Some(2 + 2 * 9)));
    assert_eq!(f("oo").packed, layout(1, None));
    assert_eq!(def(&s, "C").packed.max_bits, None);
}

#[test]
fn enums() {
    let s = compile(
        "enum Team { Red, Blue, Spectator = 7, After }
         enum Weapon: u4 { Fist, Pistol, }
         enum One { Only }
         enum Big { A = 1000 }
         enum Wide: u64 { Max = 18446744073709551615 }",
    );
    let tag = |n: &str| match &def(&s, n).kind {
        TypeDefKind::Enum {
            repr,
            packed_tag_bits,
            variants,
        } => (
            *repr,
            *packed_tag_bits,
            variants.iter().map(|v| v.value).collect::<Vec<_>>(),
        ),
        _ => panic!(),
    };
    assert_eq!(tag("Team"), (IntRepr::U8, 4, vec![0, 1, 7, 8]));
    assert_eq!(def(&s, "Team").packed, PackedLayout::fixed(4));
    assert_eq!(tag("Weapon"), (IntRepr::U8, 4, vec![0, 1]));
    assert_eq!(tag("One"), (IntRepr::U8, 0, vec![0]));
    assert_eq!(def(&s, "One").packed, PackedLayout::fixed(0));
    assert_eq!(tag("Big"), (IntRepr::U16, 10, vec![1000]));
    assert_eq!(tag("Wide"), (IntRepr::U64, 64, vec![u64::MAX]));
}

#[test]
fn unions() {
    let s = compile(
        "struct Kill { killer: u16, victim: u16 }
         union Event { Chat(string<max 200>), Kill(Kill) = 4, Ping, }
         union Small: u3 { A, B(bool) }
         union Open { Text(string), Id(u8) }",
    );
    let (bits, variants) = match &def(&s, "Event").kind {
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => (*packed_tag_bits, variants.clone()),
        _ => panic!(),
    };
    assert_eq!(bits, 3);
    assert_eq!(
        variants.iter().map(|v| v.tag).collect::<Vec<_>>(),
        [0, 4, 5]
    );
    assert_eq!(variants[0].packed, layout(8, Some(8 + 1600)));
    assert_eq!(
        variants[1].payload,
        Some(Type::Named {
            id: 0,
            name: "Kill".into()
        })
    );
    assert_eq!(variants[1].packed, PackedLayout::fixed(32));
    assert_eq!(variants[2].payload, None);
    assert_eq!(variants[2].packed, PackedLayout::fixed(0));
    assert_eq!(def(&s, "Event").packed, layout(3, Some(3 + 1608)));
    assert_eq!(def(&s, "Small").packed, layout(3, Some(4)));
    assert_eq!(def(&s, "Open").packed, layout(1 + 5, None));
}

#[test]
fn structs_nest_and_offsets_stop_at_variable_fields() {
    let s = compile(
        "struct Vec2 { x: f32, y: f32 }
         struct Empty {}
         message Entity = 7 { id: u32, pos: Vec2, nothing: Empty, name: string<max 8>, hp: u8 }",
    );
    let offsets: Vec<Option<u64>> = fields(&s, "Entity")
        .iter()
        .map(|f| f.packed_offset)
        .collect();
    assert_eq!(offsets, [Some(0), Some(32), Some(96), Some(96), None]);
    assert_eq!(def(&s, "Empty").packed, PackedLayout::fixed(0));
    assert_eq!(
        def(&s, "Entity").packed,
        layout(32 + 64 + 4 + 8, Some(32 + 64 + 4 + 64 + 8))
    );
    assert_eq!(def(&s, "Entity").message_id, Some(7));
    assert_eq!(
        field(&s, "Entity", "pos").ty,
        Type::Named {
            id: 0,
            name: "Vec2".into()
        }
    );
    let messages: Vec<&str> = s.messages().map(|(_, t)| t.name.as_str()).collect();
    assert_eq!(messages, ["Entity"]);
}

#[test]
fn declaration_order_does_not_matter() {
    let s = compile(
        "message M = 1 { a: Later, b: [u8; LEN] }
         struct Later { x: u8 }
         const LEN: u8 = 4;",
    );
    assert_eq!(
        field(&s, "M", "a").ty,
        Type::Named {
            id: 1,
            name: "Later".into()
        }
    );
    assert_eq!(def(&s, "M").packed, PackedLayout::fixed(8 + 32));
}

#[test]
fn constants() {
    let s = compile(
        "/// Longest name.
         const MAX_NAME: u32 = 16;
         const SPEED: f64 = -12.5;
         const THIRD: f32 = 0.1;
         const HEX: u16 = 0xFF_FF;
         const BIN: u4 = 0b1010;
         const BIG: u64 = 1_000_000;
         const SMALL: i4 = -8;
         const COPY: u8 = MAX_NAME;
         const NEG: i32 = -COPY;
         const AS_FLOAT: f64 = 3;
         const ON: bool = true;
         const GREETING: string = \"hi \\\"there\\\"\\n\";
         struct S { name: string<max MAX_NAME> }",
    );
    let value = |n: &str| {
        s.constants
            .iter()
            .find(|c| c.name == n)
            .unwrap()
            .value
            .clone()
    };
    let int = |ty, value| ConstValue::Int { ty, value };
    let float = |ty, value| ConstValue::Float { ty, value };
    for (name, expected) in [
        ("MAX_NAME", int(IntRepr::U32, 16)),
        ("SPEED", float(FloatRepr::F64, -12.5)),
        ("THIRD", float(FloatRepr::F32, f64::from(0.1f32))),
        ("HEX", int(IntRepr::U16, 0xFFFF)),
        ("BIN", int(IntRepr::U8, 10)),
        ("BIG", int(IntRepr::U64, 1_000_000)),
        ("SMALL", int(IntRepr::I8, -8)),
        ("COPY", int(IntRepr::U8, 16)),
        ("NEG", int(IntRepr::I32, -16)),
        ("AS_FLOAT", float(FloatRepr::F64, 3.0)),
        ("ON", ConstValue::Bool { value: true }),
        (
            "GREETING",
            ConstValue::String {
                value: "hi \"there\"\n".into(),
            },
        ),
    ] {
        assert_eq!(value(name), expected, "{name}");
    }
    assert_eq!(s.constants[0].doc, ["Longest name."]);
    assert_eq!(s.constants.len(), 12);
    assert_eq!(field(&s, "S", "name").packed, layout(5, Some(5 + 128)));
}

#[test]
fn doc_comments_and_origins() {
    let s = compile(
        "// plain comment
/// A player.
///   indented line
///no space
//// four slashes: a plain comment
struct Player {
    /// The id.
    id: u32,
    name: string,
}

enum Team {
    /// Red team.
    Red,
}
",
    );
    let p = def(&s, "Player");
    assert_eq!(p.doc, ["A player.", "  indented line", "no space"]);
    assert_eq!(
        p.origin,
        Origin {
            file: "test.bw".into(),
            line: 6
        }
    );
    assert_eq!(fields(&s, "Player")[0].doc, ["The id."]);
    assert_eq!(fields(&s, "Player")[0].line, 8);
    assert_eq!(fields(&s, "Player")[1].line, 9);
    match &def(&s, "Team").kind {
        TypeDefKind::Enum { variants, .. } => assert_eq!(variants[0].doc, ["Red team."]),
        _ => panic!(),
    }
    assert_eq!(s.root_file, "test.bw");
}

#[test]
fn contextual_words_are_valid_field_names() {
    let s =
        compile("struct S { max: u8, bits: u8, step: u8, string: string, list: list<u8>, u8: u8 }");
    assert_eq!(fields(&s, "S").len(), 6);
}

fn multi_file() -> MemLoader {
    MemLoader::new()
        .with("game/main.bw", "import \"common.bw\";\nimport \"net/ids.bw\";\nmessage Move = 1 { pos: Vec2, id: EntityId }\n")
        .with("game/common.bw", "import \"math/vec.bw\";\nstruct Vec2 { x: Scalar, y: Scalar }\n")
        .with("game/math/vec.bw", "/// The scalar.\nstruct Scalar { v: f32 }\nconst ONE: f32 = 1.0;\n")
        .with("game/net/ids.bw", "import \"../math/vec.bw\";\nstruct EntityId { id: u32 }\n")
}

#[test]
fn imports_flatten_depth_first_each_file_once() {
    let s = compile_with_loader("game/main.bw", &multi_file())
        .unwrap_or_else(|d| panic!("{}", d.render()));
    let names: Vec<&str> = s.types.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["Scalar", "Vec2", "EntityId", "Move"]);
    let origins: Vec<&str> = s.types.iter().map(|t| t.origin.file.as_str()).collect();
    assert_eq!(
        origins,
        ["math/vec.bw", "common.bw", "net/ids.bw", "main.bw"]
    );
    assert_eq!(
        s.constants[0].origin,
        Origin {
            file: "math/vec.bw".into(),
            line: 3
        }
    );
    assert_eq!(s.root_file, "main.bw");
    assert_eq!(
        field(&s, "Move", "pos").ty,
        Type::Named {
            id: 1,
            name: "Vec2".into()
        }
    );
    assert_eq!(def(&s, "Move").packed, PackedLayout::fixed(64 + 32));
}

#[test]
fn imports_are_not_transitive() {
    let loader = multi_file().with(
        "game/main.bw",
        "import \"common.bw\";\nstruct S { s: Scalar }\n",
    );
    let err = compile_with_loader("game/main.bw", &loader).unwrap_err();
    assert_eq!(err.codes(), [Code::UnknownType]);
    let text = err.render();
    assert!(text.contains("add `import \"math/vec.bw\";`"), "{text}");
}

#[test]
fn compile_source_cannot_import() {
    let err = compile_source("a.bw", "import \"b.bw\";\nstruct A { x: u8 }").unwrap_err();
    assert_eq!(err.codes(), [Code::ImportNotFound]);
}

#[test]
fn compile_file_reads_imports_relative_to_the_file() {
    let dir = std::env::temp_dir().join(format!("bitwire-frontend-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(
        dir.join("root.bw"),
        "import \"sub/lib.bw\";\nstruct R { l: Lib }\n",
    )
    .unwrap();
    std::fs::write(dir.join("sub/lib.bw"), "struct Lib { x: u3 }\n").unwrap();
    let s = compile_file(&dir.join("root.bw")).unwrap_or_else(|d| panic!("{}", d.render()));
    assert_eq!(s.types[0].origin.file, "sub/lib.bw");
    assert_eq!(def(&s, "R").packed, PackedLayout::fixed(3));

    let err = compile_file(&dir.join("missing.bw")).unwrap_err();
    assert_eq!(err.codes(), [Code::ImportNotFound]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The complete example of docs/schema-language.md.
fn reference_example() -> &'static str {
    let doc = include_str!("../../docs/schema-language.md");
    let start = doc
        .find("```bw\n// game.bw")
        .expect("the reference has a complete example");
    let body = &doc[start + 6..];
    &body[..body.find("```").unwrap()]
}

#[test]
fn output_is_deterministic() {
    // The language reference's complete example compiles, twice to the same JSON.
    let example = reference_example();
    let a = serde_json::to_string_pretty(&compile(example)).unwrap();
    let b = serde_json::to_string_pretty(&compile(example)).unwrap();
    assert_eq!(a, b);
    let loader = multi_file();
    let c = serde_json::to_string(&compile_with_loader("game/main.bw", &loader).unwrap()).unwrap();
    let d = serde_json::to_string(&compile_with_loader("game/main.bw", &loader).unwrap()).unwrap();
    assert_eq!(c, d);
}

#[test]
fn several_errors_in_one_run() {
    let err = compile_source(
        "bad.bw",
        "struct A { x: Nope, y: u0 }\nenum E {}\nconst C: u8 = 256;",
    )
    .unwrap_err();
    assert_eq!(
        err.codes(),
        [
            Code::UnknownType,
            Code::InvalidWidth,
            Code::NoVariants,
            Code::ValueOutOfRange
        ]
    );
    assert_eq!(err.error_count(), 4);
}

/// The front end never panics or loops, whatever it is given: every prefix of
/// valid and invalid schemas, and each of them with one line removed, compiles to
/// a schema or to diagnostics that render.
#[test]
fn never_panics_on_truncated_or_mangled_input() {
    let mut inputs = vec![reference_example().to_string()];
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/diagnostics");
    for entry in std::fs::read_dir(corpus).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "bw") {
            inputs.push(std::fs::read_to_string(path).unwrap());
        }
    }
    inputs.push("struct S { a: u8 }\r\nstruct T { b: Nope }\r".to_string());
    assert!(inputs.len() > 20, "the diagnostics corpus was not found");
    let check = |text: &str| {
        if let Err(d) = compile_source("t.bw", text) {
            assert!(!d.render().is_empty());
        }
    };
    for input in &inputs {
        for (i, _) in input.char_indices().step_by(7) {
            check(&input[..i]);
        }
        let lines: Vec<&str> = input.lines().collect();
        for skip in 0..lines.len() {
            let text: Vec<&str> = lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != skip)
                .map(|(_, l)| *l)
                .collect();
            check(&text.join("\n"));
        }
    }
}
