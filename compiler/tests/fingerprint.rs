//! Schema fingerprints (`docs/tooling.md`, "Fingerprint"): stable under renaming,
//! comments and formatting; changed by anything that changes the packed wire; the
//! same number in the CLI and in the generated Rust, Go and TypeScript.

use std::path::Path;
use std::process::Command;

use bitwire_compiler::codegen::{generate_go, generate_rust, generate_ts};
use bitwire_compiler::codegen::{GoOptions, RustOptions, TsOptions};
use bitwire_compiler::fingerprint::{fingerprints, hex, Fingerprints};

const BASE: &str = r#"
const MAX: u32 = 8;

/// A colour.
enum Colour: u3 { Red, Green = 2, Blue }

union Shape {
    Dot,
    Circle(u8 in 1..=200),
    Named(string<max 12>),
}

struct Point {
    x: f32 in -1.0..=1.0 bits 8,
    y: f32 in -10.0..=10.0 step 0.5,
}

/// The message.
message Frame = 3 {
    seq: u12,
    delta: i7,
    colour: Colour,
    shape: optional<Shape>,
    points: list<Point, max MAX>,
    corners: [Point; 4],
    tags: list<varu32>,
    blob: bytes,
    wide: f64,
    // A comment.
    id: u32 in 100..=1100,
    signed: vari64,
}
"#;

fn fp(source: &str) -> Fingerprints {
    let schema = bitwire_compiler::compile_source("s.bw", source)
        .unwrap_or_else(|d| panic!("schema does not compile:\n{}\n{source}", d.render()));
    fingerprints(&schema)
}

/// `BASE` with `from` replaced by `to` (which must occur).
fn edited(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "`{from}` not in the base schema");
    BASE.replacen(from, to, 1)
}

#[test]
fn names_comments_and_formatting_do_not_change_fingerprints() {
    let base = fp(BASE);
    let renamed = BASE
        .replace("MAX", "LIMIT")
        .replace("Colour", "Color")
        .replace("Red", "Crimson")
        .replace("Circle", "Ring")
        .replace("Shape", "Form")
        .replace("Point", "Pt")
        .replace("Frame", "Packet")
        .replace("seq", "sequence")
        .replace("corners", "quad")
        .replace("x:", "horizontal:");
    let no_comments: String = BASE
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let reformatted = BASE
        .replace("\n    ", "\n\t\t")
        .replace(": ", " :  ")
        .replace("\n\n", "\n");
    let constant_value = edited(
        "const MAX: u32 = 8;",
        "const MAX: u32 = 8;\nconst UNUSED: u8 = 3;",
    );
    for (what, source) in [
        ("renamed", renamed),
        ("comments removed", no_comments),
        ("reformatted", reformatted),
        ("unused constant", constant_value),
    ] {
        assert_eq!(fp(&source), base, "{what}");
    }
}

#[test]
fn wire_changes_change_fingerprints() {
    let base = fp(BASE);
    let frame = base.types.len() - 1;
    let cases = [
        ("width", "seq: u12", "seq: u13"),
        ("signedness", "delta: i7", "delta: u7"),
        ("int bound", "u32 in 100..=1100", "u32 in 100..=1101"),
        ("int min", "u32 in 100..=1100", "u32 in 99..=1099"),
        ("quantization bits", "bits 8", "bits 9"),
        ("quantization step", "step 0.5", "step 0.25"),
        ("quantization range", "-10.0..=10.0", "-10.0..=12.0"),
        ("float width", "wide: f64", "wide: f32"),
        ("enum tag value", "Green = 2", "Green = 3"),
        ("enum tag width", "Colour: u3", "Colour: u4"),
        (
            "union tag values",
            "Dot,\n    Circle(u8 in 1..=200)",
            "Circle(u8 in 1..=200),\n    Dot",
        ),
        ("union payload", "string<max 12>", "string<max 13>"),
        ("max length", "max MAX", "max 9"),
        ("unbounded list", "list<Point, max MAX>", "list<Point>"),
        ("array length", "[Point; 4]", "[Point; 5]"),
        ("message id", "Frame = 3", "Frame = 4"),
        (
            "field order",
            "seq: u12,\n    delta: i7,",
            "delta: i7,\n    seq: u12,",
        ),
        ("optional", "shape: optional<Shape>", "shape: Shape"),
        ("varint width", "vari64", "vari32"),
        ("bytes vs string", "blob: bytes", "blob: string"),
    ];
    for (what, from, to) in cases {
        let changed = fp(&edited(from, to));
        assert_ne!(changed.schema, base.schema, "{what}: schema");
        assert_ne!(changed.types[frame], base.types[frame], "{what}: Frame");
    }
    // A referenced type's change reaches the types that use it, not the others.
    let changed = fp(&edited("step 0.5", "step 0.25"));
    assert_ne!(changed.types[2], base.types[2], "Point");
    assert_eq!(changed.types[..2], base.types[..2], "Colour, Shape");
}

#[test]
fn enum_variant_order_with_the_same_tags_is_not_wire_relevant() {
    let base = fp(BASE);
    let reordered = fp(&edited("Red, Green = 2, Blue", "Green = 2, Blue, Red = 0"));
    assert_eq!(reordered, base);
}

fn game() -> (bitwire_compiler::ir::Schema, Fingerprints) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/game.bw");
    let schema = bitwire_compiler::compile_file(&path).expect("game.bw compiles");
    let fps = fingerprints(&schema);
    (schema, fps)
}

#[test]
fn game_fingerprint_is_pinned() {
    // Changes only with a deliberate change of examples/game.bw's wire or of the
    // fingerprint algorithm (which docs/tooling.md specifies).
    let (schema, fps) = game();
    assert_eq!(hex(fps.schema), "1236e72dc1fd2a54");
    let snapshot = schema.type_by_name("Snapshot").unwrap();
    assert_eq!(hex(fps.types[snapshot]), "41d211ea1be32b84");
}

#[test]
fn cli_and_generated_code_agree() {
    let (schema, fps) = game();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/game.bw");
    let out = Command::new(env!("CARGO_BIN_EXE_bitwire"))
        .arg("fingerprint")
        .arg(&path)
        .output()
        .expect("run bitwire");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(format!("game.bw {}", hex(fps.schema)).as_str())
    );
    for (def, fp) in schema.types.iter().zip(&fps.types) {
        assert_eq!(
            lines.next(),
            Some(format!("{} {}", def.name, hex(*fp)).as_str())
        );
    }
    assert_eq!(lines.next(), None);

    let rust = generate_rust(&schema, &RustOptions::default());
    let go = generate_go(
        &schema,
        &GoOptions {
            package: "game".into(),
            ..GoOptions::default()
        },
    );
    let ts = generate_ts(&schema, &TsOptions::default());
    let s = hex(fps.schema);
    assert!(rust.contains(&format!("pub const SCHEMA_FINGERPRINT: u64 = 0x{s};")));
    assert!(go.contains(&format!("const SchemaFingerprint uint64 = 0x{s}\n")));
    assert!(ts.contains(&format!("export const SCHEMA_FINGERPRINT = 0x{s}n;")));
    for (def, fp) in schema.types.iter().zip(&fps.types) {
        let (name, f) = (&def.name, hex(*fp));
        let impl_at = rust.find(&format!("impl {name} {{")).unwrap();
        let after = &rust[impl_at..];
        let end = after.find("\n}\n").unwrap();
        assert!(
            after[..end].contains(&format!("pub const FINGERPRINT: u64 = 0x{f};")),
            "Rust {name}"
        );
        assert!(
            go.contains(&format!("\t{name}Fingerprint uint64 = 0x{f}\n")),
            "Go {name}"
        );
        let upper = upper_snake(name);
        assert!(
            ts.contains(&format!("export const {upper}_FINGERPRINT = 0x{f}n;")),
            "TS {name}"
        );
    }
}

/// `Packet64` → `PACKET64`, `Vec2` → `VEC2` (enough for game.bw's names).
fn upper_snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}
