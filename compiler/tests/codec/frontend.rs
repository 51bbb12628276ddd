//! The codec on IR from the real front end: the example schema, schema text, and a
//! cross-check of the codec's `min_bits` against the layout pass (two independent
//! computations of spec §6.1 that must agree).

use std::path::Path;

use super::random::{check_arbitrary, random_value, Rng};
use super::support::*;

fn compile(source: &str) -> Schema {
    match bitwire_compiler::compile_source("test.bw", source) {
        Ok(s) => s,
        Err(d) => panic!("{}", d.render()),
    }
}

#[test]
fn spec_examples_from_schema_text() {
    let s = compile(
        "struct A { a: bool, b: u4, c: u2, d: u9 }\n\
         struct B { a: i4, b: i5 }\n\
         message C = 7 { a: bool, b: u64 }\n",
    );
    let enc = |name: &str, v: serde_json::Value| {
        let bytes = encode_json(&s, s.type_by_name(name).unwrap(), &v).unwrap();
        bytes.iter().map(|b| format!("{b:02x}")).collect::<String>()
    };
    assert_eq!(
        enc("A", json!({"a": true, "b": 5, "c": 2, "d": 300})),
        "4b96"
    );
    assert_eq!(enc("B", json!({"a": -3, "b": -16})), "0d01");
    assert_eq!(
        enc("C", json!({"a": true, "b": "72623859790382856"})),
        "110e0c0a0806040200"
    );
}

#[test]
fn min_bits_agree_with_the_layout_pass() {
    // Hand-built schemas: the layout pass's measure of the members adds up to what
    // `Builder` stored from the codec's `min_bits`.
    for (s, _) in [super::random::everything(), super::json::json_schema()] {
        for def in &s.types {
            let min = |ty: &Type| bitwire_compiler::layout::of_type(ty, &s.types).min_bits;
            let computed = match &def.kind {
                TypeDefKind::Struct { fields } => fields.iter().map(|f| min(&f.ty)).sum(),
                TypeDefKind::Enum {
                    packed_tag_bits, ..
                } => u64::from(*packed_tag_bits),
                TypeDefKind::Union {
                    packed_tag_bits,
                    variants,
                } => {
                    let payloads = variants.iter().map(|v| v.payload.as_ref().map_or(0, min));
                    u64::from(*packed_tag_bits) + payloads.min().unwrap_or(0)
                }
            };
            assert_eq!(def.packed.min_bits, computed, "{}", def.name);
        }
        check_field_types(&s);
    }
    check_field_types(&example());
}

/// Every field's and payload's type, anonymous element types included.
fn check_field_types(s: &Schema) {
    fn walk(s: &Schema, ty: &Type) {
        let layout = bitwire_compiler::layout::of_type(ty, &s.types);
        assert_eq!(codec::min_bits(s, ty), layout.min_bits, "{ty:?}");
        match ty {
            Type::Optional { inner } => walk(s, inner),
            Type::Array { elem, .. } | Type::List { elem, .. } => walk(s, elem),
            _ => {}
        }
    }
    for def in &s.types {
        match &def.kind {
            TypeDefKind::Struct { fields } => fields.iter().for_each(|f| walk(s, &f.ty)),
            TypeDefKind::Union { variants, .. } => variants
                .iter()
                .filter_map(|v| v.payload.as_ref())
                .for_each(|t| walk(s, t)),
            TypeDefKind::Enum { .. } => {}
        }
    }
}

fn example() -> Schema {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/game.bw");
    match bitwire_compiler::compile_file(&path) {
        Ok(s) => s,
        Err(d) => panic!("{}", d.render()),
    }
}

#[test]
fn every_example_type_round_trips_and_decodes_canonically() {
    let s = example();
    let mut rng = Rng(2024);
    for (id, def) in s.types.iter().enumerate() {
        let named = Type::Named {
            id,
            name: def.name.clone(),
        };
        for _ in 0..300 {
            let v = random_value(&mut rng, &s, &named);
            let bytes = encode(&s, id, &v).unwrap();
            assert_eq!(decode(&s, id, &bytes).unwrap(), v, "{}", def.name);
            let json = serde_json::to_string(&value_to_json(&s, id, &v)).unwrap();
            let back = value_from_json(&s, id, &codec::json_from_text(&json).unwrap());
            assert_eq!(back.unwrap(), v, "{json}");
            // Mutations: any accepted input must be the canonical encoding.
            let mut m = bytes.clone();
            if !m.is_empty() {
                let p = rng.below(m.len() as u64 * 8) as usize;
                m[p / 8] ^= 1 << (p % 8);
            }
            check_arbitrary(&s, id, &m);
            check_arbitrary(&s, id, &bytes[..bytes.len() / 2]);
        }
    }
}
