//! The JSON mapping (docs/json-mapping.md).

use super::support::*;

/// Every JSON-relevant type in one struct.
pub fn json_schema() -> (Schema, TypeId) {
    let mut b = Builder::new();
    let color = b.enumeration("Color", 2, &[("Red", 0), ("Green", 1), ("Blue", 2)]);
    let pos = b.structure("Pos", vec![("x", i(12)), ("y", i(12))]);
    let shape = b.union(
        "Shape",
        2,
        vec![
            ("Empty", 0, None),
            ("Dot", 1, Some(pos.clone())),
            ("Maybe", 2, Some(opt(u(4)))),
        ],
    );
    let t = b.structure(
        "All",
        vec![
            ("flag", Type::Bool),
            ("small", u(53)),
            ("big", u(54)),
            ("neg", i(53)),
            ("wide_neg", i(54)),
            ("var", varu(64)),
            ("var32", vari(32)),
            ("bounded", bounded(64, 0, 1 << 60)),
            ("f", f32t()),
            ("d", f64t()),
            ("q", quant(FloatRepr::F32, 0.0, 1.0, 1023)),
            ("color", color),
            ("shape", shape),
            ("maybe", opt(pos)),
            ("grid", arr(u(2), 3)),
            ("names", list(string(None), Some(4))),
            ("blob", bytes(None)),
        ],
    );
    (b.schema, Builder::id(&t))
}

fn all_json() -> serde_json::Value {
    json!({
        "flag": true, "small": 9007199254740991u64, "big": "18014398509481983",
        "neg": -4503599627370496i64, "wide_neg": "-9007199254740992", "var": "18446744073709551615",
        "var32": -5, "bounded": "1152921504606846976", "f": 0.1, "d": -0.0, "q": 0.25,
        "color": "Blue", "shape": {"Dot": {"x": -1, "y": 2047}}, "maybe": null,
        "grid": [0, 3, 1], "names": ["a", "é"], "blob": "00ff10"
    })
}

/// `q = 0.25` is not on the 1023-step grid: t * 1023 + 0.5 = 256.25, so q = 256, which
/// decodes to 256 / 1023 rounded to f32 and prints as the shortest such f32.
fn q_back() -> serde_json::Value {
    let v = (256.0f64 / 1023.0) as f32;
    json!(v.to_string().parse::<f64>().unwrap())
}

#[test]
fn json_round_trips_in_declaration_order() {
    let (s, t) = json_schema();
    let bytes = encode_json(&s, t, &all_json()).unwrap();
    let back = decode_to_json(&s, t, &bytes).unwrap();
    // q = 0.25 is not on the 1023-step grid: it comes back as the nearest grid point.
    let mut expect = all_json();
    expect["q"] = q_back();
    assert_eq!(back, expect);
    let text = serde_json::to_string(&back).unwrap();
    assert!(
        text.starts_with(
            r#"{"flag":true,"small":9007199254740991,"big":"18014398509481983","neg":"#
        ),
        "{text}"
    );
    assert!(
        text.contains(r#""f":0.1,"#) && text.contains(r#""d":-0.0,"#),
        "{text}"
    );

    // Variants of the union, optional, non-finite floats.
    for (shape, maybe, f) in [
        (json!("Empty"), json!({"x": 1, "y": -1}), json!("NaN")),
        (json!({"Maybe": null}), json!(null), json!("Infinity")),
        (json!({"Maybe": 15}), json!(null), json!("-Infinity")),
    ] {
        let mut j = all_json();
        j["shape"] = shape.clone();
        j["maybe"] = maybe;
        j["f"] = f;
        j["q"] = json!(1.0);
        let back = decode_to_json(&s, t, &encode_json(&s, t, &j).unwrap()).unwrap();
        assert_eq!(back, j);
    }
}

#[test]
fn json_input_leniencies() {
    let (s, t) = json_schema();
    let canonical = encode_json(&s, t, &all_json()).unwrap();
    let same = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut j = all_json();
        edit(&mut j);
        assert_eq!(encode_json(&s, t, &j).unwrap(), canonical, "{j}");
    };
    same(&|j| j["var32"] = json!(-5.0)); // integral numbers written as floats
    same(&|j| j["big"] = json!(18014398509481983u64)); // wide ints also as numbers
    same(&|j| j["blob"] = json!("00FF10")); // upper-case hex
    same(&|j| {
        j.as_object_mut().unwrap().remove("maybe"); // missing optional reads as null
    });
    same(&|j| j["f"] = json!(0.10000000149011612)); // the exact f32 value
    same(&|j| j["f"] = json!(0.1000000001)); // rounded to the nearest f32
    same(&|j| j["d"] = serde_json::from_str("-0").unwrap()); // negative zero
    let mut j = all_json();
    j["shape"] = json!({"Empty": null}); // unit variants in object form
    let v = value_from_json(&s, t, &j).unwrap();
    j["shape"] = json!("Empty");
    assert_eq!(v, value_from_json(&s, t, &j).unwrap());
    // No encoding happened, so q is still 0.25, not yet on the grid.
    let mut expect = all_json();
    expect["shape"] = json!("Empty");
    assert_eq!(value_to_json(&s, t, &v), expect);
}

/// `all_json()` with `field` set to `value`, encoded.
fn encode_with(field: &str, value: serde_json::Value) -> Result<Vec<u8>, CodecError> {
    let (s, t) = json_schema();
    let mut j = all_json();
    j[field] = value;
    encode_json(&s, t, &j)
}

/// Checks that each `(field, value, kind, path)` fails to encode with JSON error
/// `kind` at `path`.
fn assert_json_errors(cases: Vec<(&str, serde_json::Value, JsonErrorKind, &str)>) {
    for (field, value, kind, path) in cases {
        assert_eq!(
            json_err(encode_with(field, value.clone())),
            (kind, path.to_string()),
            "{field} = {value}"
        );
    }
}

#[test]
fn json_errors_in_scalars() {
    use JsonErrorKind::*;
    assert_json_errors(vec![
        ("flag", json!(1), TypeMismatch, "flag"),
        ("small", json!(2.5), TypeMismatch, "small"),
        ("small", json!("5"), TypeMismatch, "small"),
        ("big", json!("5x"), InvalidNumber, "big"),
        ("big", json!(true), TypeMismatch, "big"),
        ("d", json!("nan"), InvalidNumber, "d"),
        ("f", json!(null), TypeMismatch, "f"),
        ("color", json!("Pink"), UnknownVariant, "color"),
        ("color", json!(0), TypeMismatch, "color"),
        ("blob", json!("abc"), TypeMismatch, "blob"),
        ("blob", json!("zz"), TypeMismatch, "blob"),
    ]);
}

#[test]
fn json_errors_in_composites() {
    use JsonErrorKind::*;
    assert_json_errors(vec![
        ("shape", json!({"Square": 1}), UnknownVariant, "shape"),
        ("shape", json!("Dot"), TypeMismatch, "shape.Dot"),
        ("shape", json!({"Empty": 0}), TypeMismatch, "shape.Empty"),
        (
            "shape",
            json!({"Dot": {"x": 1}}),
            MissingField,
            "shape.Dot.y",
        ),
        ("shape", json!({}), TypeMismatch, "shape"),
        (
            "maybe",
            json!({"x": 1, "y": 2, "z": 3}),
            UnknownField,
            "maybe.z",
        ),
        ("grid", json!([0, "1", 2]), TypeMismatch, "grid[1]"),
        ("names", json!("a"), TypeMismatch, "names"),
    ]);
    let (s, t) = json_schema();
    let mut j = all_json();
    j.as_object_mut().unwrap().remove("flag");
    assert_eq!(
        json_err(encode_json(&s, t, &j)),
        (MissingField, "flag".to_string())
    );
    assert_eq!(
        json_err(encode_json(&s, t, &json!([]))),
        (TypeMismatch, String::new())
    );
}

/// Text errors name the value being read (docs/json-mapping.md §6.6).
#[test]
fn json_text_errors_name_the_value() {
    assert_eq!(
        json_err(codec::json_from_text("{\"flag\": tru}")),
        (JsonErrorKind::Syntax, "flag".to_string())
    );
    assert_eq!(
        json_err(codec::json_from_text("{\"flag\": true} x")),
        (JsonErrorKind::Syntax, String::new())
    );
}

/// Range problems of well-typed JSON are the encoder's wire errors, at the value.
#[test]
fn json_range_errors_are_wire_errors() {
    // flag 1 + small 53 + big 54 = bit 108 for `neg`, then wide_neg at 161, var at 215.
    for (field, value, bit) in [
        ("small", json!(9007199254740992u64), 1),
        ("neg", json!(-4503599627370497i64), 108),
        ("var", json!("18446744073709551616"), 215),
        ("var", json!(1e30), 215),
        ("var", json!(format!("-{}", "9".repeat(50))), 215),
    ] {
        assert_eq!(
            wire(encode_with(field, value.clone())),
            w(ErrorKind::OutOfRange, bit, field),
            "{field} = {value}"
        );
    }
    for (field, value, kind) in [
        ("grid", json!([0, 4, 0]), ErrorKind::OutOfRange),
        ("grid", json!([0, 1]), ErrorKind::InvalidLength),
        (
            "names",
            json!(["", "", "", "", ""]),
            ErrorKind::InvalidLength,
        ),
        ("q", json!(1.5), ErrorKind::OutOfRange),
        ("q", json!("NaN"), ErrorKind::OutOfRange),
    ] {
        assert_eq!(
            wire(encode_with(field, value.clone())).0,
            kind,
            "{field} = {value}"
        );
    }
}
