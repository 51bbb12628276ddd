//! Unit tests of the Rust backend on hand-built IR (the golden tests in
//! `compiler/tests/codegen_golden.rs` cover whole schemas).

use super::*;
use crate::ir::{Field, Origin, PackedLayout, TypeDef};

/// The packet64 struct of the benchmark datasets, laid out by hand.
pub(crate) fn packet64() -> Schema {
    let widths = [
        ("is_alive", Type::Bool, 1u64),
        (
            "weapon_id",
            Type::UInt {
                bits: 4,
                repr: IntRepr::U8,
            },
            4,
        ),
        (
            "team_id",
            Type::UInt {
                bits: 2,
                repr: IntRepr::U8,
            },
            2,
        ),
        (
            "health",
            Type::UInt {
                bits: 9,
                repr: IntRepr::U16,
            },
            9,
        ),
        (
            "pos_x",
            Type::SInt {
                bits: 12,
                repr: IntRepr::I16,
            },
            12,
        ),
        (
            "pos_y",
            Type::SInt {
                bits: 12,
                repr: IntRepr::I16,
            },
            12,
        ),
        (
            "rotation",
            Type::UInt {
                bits: 8,
                repr: IntRepr::U8,
            },
            8,
        ),
        (
            "score",
            Type::UInt {
                bits: 16,
                repr: IntRepr::U16,
            },
            16,
        ),
    ];
    let mut offset = 0;
    let fields = widths
        .into_iter()
        .map(|(name, ty, bits)| {
            let f = Field {
                name: name.into(),
                doc: vec![],
                line: 2,
                ty,
                packed_offset: Some(offset),
                packed: PackedLayout::fixed(bits),
            };
            offset += bits;
            f
        })
        .collect();
    Schema {
        root_file: "packet.bw".into(),
        constants: vec![],
        types: vec![TypeDef {
            name: "Packet64".into(),
            doc: vec!["The 64-bit game-state packet.".into()],
            origin: Origin {
                file: "packet.bw".into(),
                line: 1,
            },
            message_id: None,
            kind: TypeDefKind::Struct { fields },
            packed: PackedLayout::fixed(64),
        }],
    }
}

fn opts() -> RustOptions {
    RustOptions {
        json: true,
        source_name: "packet.bw".into(),
    }
}

#[test]
fn packet64_is_one_word_each_way() {
    let code = generate_rust(&packet64(), &opts());
    assert_eq!(code.matches("w.write_bits(word, 64);").count(), 1, "{code}");
    // One load in `read`, one in `check` (behind `verify`).
    assert_eq!(code.matches("r.read_chunk(64)").count(), 2, "{code}");
    // One branch-free range test; the error is found out of line.
    assert!(
        code.contains("let over = (u64::from(self.weapon_id) >> 4)\n"),
        "{code}"
    );
    assert!(
        code.contains("| ((i64::from(self.pos_y) + 2048) as u64 >> 12);\n"),
        "{code}"
    );
    assert!(
        code.contains("return Err(self.write_range_error(w.bit_pos()));"),
        "{code}"
    );
    assert_eq!(code.matches("fn write_range_error(").count(), 1, "{code}");
    assert!(code.contains("if self.weapon_id > 15 {"), "{code}");
    assert!(
        code.contains("if !(-2048..=2047).contains(&self.pos_x) {"),
        "{code}"
    );
    assert!(
        code.contains("/// Schema: `health: u9`, bits 7..16."),
        "{code}"
    );
    assert!(
        code.contains("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]"),
        "{code}"
    );
}

#[test]
fn output_is_deterministic() {
    assert_eq!(
        generate_rust(&packet64(), &opts()),
        generate_rust(&packet64(), &opts())
    );
}

#[test]
fn float_literals_dodge_approx_constant_exactly() {
    assert_eq!(f64_lit(1.5), "1.5");
    assert_eq!(f64_lit(-1024.0), "-1024.0");
    assert_eq!(f64_lit(std::f64::consts::PI), "::core::f64::consts::PI");
    assert_eq!(f64_lit(-std::f64::consts::PI), "-::core::f64::consts::PI");
    // Parsed from text: a literal near π would trip the very lint under test.
    let near_pi: f64 = "3.14".parse().unwrap();
    assert_eq!(f64_lit(near_pi), "314.0 / 100.0");
    assert_eq!(314.0 / 100.0, near_pi);
    let pi32: f32 = "3.1415927".parse().unwrap();
    assert_eq!(
        float_lit(format!("{pi32:?}"), true),
        "f32::from_bits(0x40490fdb)"
    );
    assert_eq!(float_lit("6.28".into(), true), "628.0 / 100.0");
}
