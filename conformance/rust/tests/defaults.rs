//! Generated types derive `Default` only where the default value is one the schema
//! holds (docs/rust.md): every such value encodes, and the bytes decode to a value
//! that encodes to the same bytes.

use bitwire_conformance::{registry, TypeCodec};

#[test]
fn every_derived_default_encodes() {
    let codecs = registry();
    let mut checked = 0;
    for c in &codecs {
        if let Some(round_trip) = c.default {
            round_trip().unwrap_or_else(|e| panic!("{}.{}: {e}", c.suite, c.type_name));
            checked += 1;
        }
    }
    assert!(checked > 40, "only {checked} types derive Default");
}

#[test]
fn default_is_derived_where_zero_is_valid() {
    let codecs = registry();
    let has = |suite: &str, name: &str| -> bool {
        let c: &TypeCodec = codecs
            .iter()
            .find(|c| c.suite == suite && c.type_name == name)
            .unwrap_or_else(|| panic!("{suite}.{name} is in the registry"));
        c.default.is_some()
    };
    // Integers: the range must hold 0.
    assert!(has("bounded", "Health"), "0..=1000");
    assert!(has("bounded", "Delta"), "-5..=5");
    assert!(!has("bounded", "Level"), "1..=99");
    assert!(!has("bounded", "Negative"), "-1000..=-1");
    // Quantized floats: the range must hold 0.0.
    assert!(has("quantized", "Stick"), "-1..=1");
    assert!(!has("quantized", "Rounded"), "0.1..=0.7");
    assert!(!has("quantized", "Drift"), "-3.0..=-1.6");
    // Enums: a variant with value 0; unions: a unit variant with tag 0.
    assert!(has("enums_unions", "Color"));
    assert!(!has("enums_unions", "Sparse"), "values 1, 100, 1000");
    assert!(has("enums_unions", "Shape"), "Empty is tag 0");
    assert!(!has("enums_unions", "Event"), "tag 0 is Chat(ChatMsg)");
    assert!(
        !has("enums_unions", "Wrapper"),
        "the only variant has a payload"
    );
    // A struct has it when all its fields do.
    assert!(!has("enums_unions", "Enums"), "holds a Sparse");
    assert!(!has("enums_unions", "Frame"), "holds an Event");
    assert!(has("sequences", "Wide"), "empty lists");
    // `[T; N]` implements `Default` up to N = 32.
    assert!(has("sequences", "ByteArray"));
    assert!(!has("limits", "Big"), "[u64; 513]");
}
