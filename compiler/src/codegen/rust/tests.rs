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
        bincode: false,
        source_name: "packet.bw".into(),
        module_file: true,
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
        code.contains("#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]"),
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

fn gen(src: &str) -> String {
    let schema = crate::compile_source("t.bw", src).expect("compiles");
    generate_rust(&schema, &opts())
}

#[test]
fn a_long_range_check_of_a_union_payload_keeps_the_payload_binding() {
    // The check's short local must not shadow `v`, which is written after it.
    let code =
        gen("union U { LongVariantName(i64 in -1152921504606846976..=1152921504606846975) }");
    assert!(code.contains("let val = *v;"), "{code}");
    assert!(code.contains("w.write_bits((*v).wrapping_sub("), "{code}");
}

#[test]
fn large_messages_are_boxed_in_the_dispatch_enum() {
    let code = gen("message Big = 1 { a: [u64; 40] }\nmessage Small = 2 { a: u8 }");
    assert!(code.contains("    Big(Box<Big>),\n"), "{code}");
    assert!(code.contains("    Small(Small),\n"), "{code}");
    assert!(code.contains("Big::MESSAGE_ID => Big::decode(bytes).map(|m| Self::Big(Box::new(m))),"));
    assert!(code.contains("        Self::Big(Box::new(m))\n"));
    let dispatch = &code[code.find("pub enum Message").expect("dispatch enum") - 60..];
    assert!(!dispatch.contains("Copy, "), "a boxed message is not Copy");
}

#[test]
fn a_lone_member_among_zero_width_ones_is_not_bracketed() {
    let code = gen("enum E { A, B }\nstruct S { a: u8 in 7..=7, e: E }");
    assert!(code.contains("let word = self.e as u64;"), "{code}");
    assert!(!code.contains("let word = ("), "{code}");
}

#[test]
fn numbered_twins_of_escaped_names_stay_upper_camel_case() {
    let code = gen("union U { string, String }");
    assert!(
        code.contains("    String_,\n") && code.contains("    String2,\n"),
        "{code}"
    );
}

#[test]
fn the_schema_fingerprint_constant_keeps_its_name() {
    let code = gen("const SCHEMA_FINGERPRINT: u8 = 1;");
    assert!(
        code.contains("pub const SCHEMA_FINGERPRINT: u64 = 0x"),
        "{code}"
    );
    assert!(
        code.contains("pub const SCHEMA_FINGERPRINT_2: u8 = 1;"),
        "{code}"
    );
}

#[test]
fn only_delta_messages_get_delta_code() {
    let plain = gen("struct E { id: u8, hp: u8 }\nmessage W = 1 { l: list<E, max 4, key id> }");
    assert!(!plain.contains("delta"), "{plain}");
    let code = gen(
        "struct E { id: u8, hp: u8 }\ndelta message W = 1 { t: u32, l: list<E, max 4, key id> }",
    );
    assert!(code.contains("impl ::bitwire::Delta for W {"), "{code}");
    assert_eq!(code.matches("fn write_delta_row(").count(), 1, "{code}");
    assert_eq!(code.matches("fn write_delta_by_id(").count(), 1, "{code}");
    assert_eq!(code.matches("fn read_delta_by_id(").count(), 1, "{code}");
    // `t`: the difference code of a 32-bit scalar, its prefix in bits_for(31) = 5 bits.
    assert!(
        code.contains("any |= w.write_scalar_delta(ub, uc, 32, 5);"),
        "{code}"
    );
    assert!(code.contains("r.read_diff(ub, 32, 5)"), "{code}");
    // The keyed list's plan: max 4, elements of at least 16 bits, 2 bytes each.
    assert!(
        code.contains("&::bitwire::KeyedList::new(Some(4), 16, 2),"),
        "{code}"
    );
    assert!(code.contains("E::write_delta_by_id,"), "{code}");
    assert!(code.contains("<E as ::bitwire::Packed>::read,"), "{code}");
    // The key is not part of the element's row; the decoder takes the baseline's.
    assert!(code.contains("id: base.id,"), "{code}");
}

#[test]
fn delta_locals_do_not_shadow_fields() {
    let code = gen("delta message M = 1 { any: u8, changed: bool, base: u4, cur: u2 }");
    assert!(code.contains("let mut any_ = base.any;"), "{code}");
    assert!(code.contains("let mut changed_ = base.changed;"), "{code}");
    assert!(code.contains("let mut base_ = base.base;"), "{code}");
    assert!(code.contains("let mut cur_ = base.cur;"), "{code}");
}

#[test]
fn a_delta_message_is_read_and_written_as_its_envelope() {
    let src = "delta message W = 1 { tick: u32 }\nmessage In = 2 { ack: u16 }";
    let schema = crate::compile_source("t.bw", src).expect("compiles");
    let code = generate_rust(&schema, &opts());
    assert!(
        code.contains("    W(::bitwire::baseline::Envelope),\n"),
        "{code}"
    );
    assert!(code.contains("    In(In),\n"));
    // An envelope is not `Copy`; it is `Eq` and `Hash`.
    assert!(code.contains("#[derive(Debug, Clone, PartialEq, Eq, Hash)]\npub enum Message {"));
    assert!(code.contains("Self::W(e) => Ok(e.encode(out)),"));
    assert!(code.contains(
        "W::MESSAGE_ID => ::bitwire::baseline::Envelope::from_data(bytes).map(Self::W),"
    ));
    assert!(code
        .contains("W::MESSAGE_ID => ::bitwire::baseline::Envelope::from_data(data).map(Self::W),"));
    assert!(code.contains("impl From<In> for Message {"));
    assert!(
        !code.contains("impl From<W> for Message {"),
        "a delta message is sent as an envelope"
    );
    // Only delta messages: no unused `limits`, no unused `Packed` import.
    let only =
        crate::compile_source("t.bw", "delta message W = 1 { tick: u32 }").expect("compiles");
    let code = generate_rust(&only, &opts());
    assert!(code.contains("        _limits: &::bitwire::Limits,\n"));
}
