//! Unit tests of the Rust backend on hand-built IR (the golden tests in
//! `compiler/tests/codegen_golden.rs` cover whole schemas).

use super::*;

/// The packet64 struct of the benchmark datasets.
pub(crate) fn packet64() -> Schema {
    crate::compile_source(
        "packet.bw",
        "/// The 64-bit game-state packet.
         struct Packet64 {
             is_alive: bool, weapon_id: u4, team_id: u2, health: u9,
             pos_x: i12, pos_y: i12, rotation: u8, score: u16,
         }",
    )
    .expect("compiles")
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
