//! The JSON mapping of values (`docs/json-mapping.md`) for generated `to_json` /
//! `from_json` methods (feature `json`).
//!
//! Generated code calls these helpers so that every type follows the mapping the
//! reference codec defines: integers as numbers, or as decimal strings when their range
//! leaves `±(2^53 - 1)` ("wide"); floats as numbers, non-finite ones as `"NaN"`,
//! `"Infinity"`, `"-Infinity"`; `bytes` as hex; enums by name; unions as `"Variant"`
//! or `{"Variant": payload}`; absent optionals as `null`.
//!
//! `from_json` checks what JSON can get wrong and what the Rust type cannot hold.
//! A value that fits the Rust type but not the schema (16 for a `u4` held in a `u8`)
//! passes, so that `encode` reports it as the wire error the reference codec reports.
//! [`serde_json`] is re-exported so generated code needs no direct dependency on it.
//!
//! JSON *text* is read with [`parse`] (not `serde_json::from_str`): it applies the
//! text rules of the mapping (§6: depth limit, lone surrogates, duplicate names,
//! numbers beyond binary64) and stores every integer of the 64-bit range exactly,
//! whatever its notation, so that `T::from_json(&parse(text)?)` accepts exactly what
//! the other bitwire implementations accept.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

pub use serde_json;
pub use serde_json::{Map, Value};

use crate::path::ResultExt;

mod number;
mod parse;

pub use parse::{parse, parse_str, MAX_DEPTH};

/// What went wrong while parsing JSON text or mapping JSON onto a generated type.
///
/// The kinds up to `TooDeep` are those of every bitwire implementation
/// (`docs/json-mapping.md` §5). The last two exist only where a Rust type is narrower
/// than JSON: a number that does not fit the field's Rust type (300 for a `u8`) and an
/// array of the wrong length for `[T; N]`. The reference codec accepts both and its
/// encoder then fails with the wire error of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// The text is not JSON (RFC 8259).
    Syntax,
    /// The text is not UTF-8, or a `\u` escape is a lone surrogate.
    InvalidUnicode,
    /// An object names the same member twice.
    DuplicateKey,
    /// Arrays and objects nest deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A JSON value of the wrong type for the schema type.
    TypeMismatch,
    /// A struct object lacks a field that is not optional.
    MissingField,
    /// A struct object has a key that is not one of its fields.
    UnknownField,
    /// An enum or union variant name the schema does not declare.
    UnknownVariant,
    /// A number beyond the binary64 range (or, for an `f32`, the binary32 range), or a
    /// string that should hold a number and does not parse.
    InvalidNumber,
    /// A number outside the range of the field's Rust type.
    OutOfRange,
    /// An array whose length differs from a fixed array's `N`.
    InvalidLength,
}

impl JsonErrorKind {
    /// Every kind, in documentation order (the two Rust-only kinds last).
    pub const ALL: [JsonErrorKind; 11] = [
        JsonErrorKind::Syntax,
        JsonErrorKind::InvalidUnicode,
        JsonErrorKind::DuplicateKey,
        JsonErrorKind::TooDeep,
        JsonErrorKind::TypeMismatch,
        JsonErrorKind::MissingField,
        JsonErrorKind::UnknownField,
        JsonErrorKind::UnknownVariant,
        JsonErrorKind::InvalidNumber,
        JsonErrorKind::OutOfRange,
        JsonErrorKind::InvalidLength,
    ];

    /// The kind's stable name.
    pub const fn name(self) -> &'static str {
        match self {
            JsonErrorKind::Syntax => "Syntax",
            JsonErrorKind::InvalidUnicode => "InvalidUnicode",
            JsonErrorKind::DuplicateKey => "DuplicateKey",
            JsonErrorKind::TooDeep => "TooDeep",
            JsonErrorKind::TypeMismatch => "TypeMismatch",
            JsonErrorKind::MissingField => "MissingField",
            JsonErrorKind::UnknownField => "UnknownField",
            JsonErrorKind::UnknownVariant => "UnknownVariant",
            JsonErrorKind::InvalidNumber => "InvalidNumber",
            JsonErrorKind::OutOfRange => "OutOfRange",
            JsonErrorKind::InvalidLength => "InvalidLength",
        }
    }
}

impl fmt::Display for JsonErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    Name(String),
    Index(usize),
}

/// A JSON mapping error: kind, field path (same syntax as codec errors), message.
#[derive(Clone, PartialEq, Eq)]
pub struct JsonError {
    kind: JsonErrorKind,
    /// Innermost segment first, as with [`crate::Error`].
    rev_path: Vec<Segment>,
    message: String,
}

impl JsonError {
    /// A new error with an empty path.
    #[cold]
    pub fn new(kind: JsonErrorKind, message: impl Into<String>) -> JsonError {
        JsonError {
            kind,
            rev_path: Vec::new(),
            message: message.into(),
        }
    }

    /// `name` is not a variant of the enum or union being read.
    #[cold]
    pub fn unknown_variant(name: &str) -> JsonError {
        JsonError::new(
            JsonErrorKind::UnknownVariant,
            alloc::format!("no variant `{name}`"),
        )
    }

    /// The error kind.
    pub fn kind(&self) -> JsonErrorKind {
        self.kind
    }

    /// The explanation (not part of any contract).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The field path rendered as `a.b[3].c` (empty at the top level).
    pub fn path_string(&self) -> String {
        let mut s = String::new();
        for seg in self.rev_path.iter().rev() {
            match seg {
                Segment::Name(name) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(name);
                }
                Segment::Index(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    /// Prepends a field or variant name (or a member name of parsed text) to the path.
    #[cold]
    pub fn in_field(mut self, name: &str) -> JsonError {
        self.rev_path.push(Segment::Name(name.to_string()));
        self
    }

    /// Prepends an element index to the path.
    #[cold]
    pub fn at_index(mut self, index: usize) -> JsonError {
        self.rev_path.push(Segment::Index(index));
        self
    }
}

impl fmt::Debug for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JsonError")
            .field("kind", &self.kind)
            .field("path", &self.path_string())
            .field("message", &self.message)
            .finish()
    }
}

impl fmt::Display for JsonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        let path = self.path_string();
        if !path.is_empty() {
            write!(f, " in `{path}`")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for JsonError {}

impl<T> ResultExt for Result<T, JsonError> {
    #[inline]
    fn in_field(self, name: &'static str) -> Self {
        self.map_err(|e| e.in_field(name))
    }

    #[inline]
    fn at_index(self, index: usize) -> Self {
        self.map_err(|e| e.at_index(index))
    }
}

/// A short description of a JSON value, for messages.
fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cold]
fn mismatch(expected: &str, found: &Value) -> JsonError {
    JsonError::new(
        JsonErrorKind::TypeMismatch,
        alloc::format!("expected {expected}, found {}", json_type(found)),
    )
}

// ---- Rust → JSON -------------------------------------------------------------

/// A wide integer as a decimal string.
pub fn wide(v: impl fmt::Display) -> Value {
    Value::String(v.to_string())
}

/// An `f32`: the shortest decimal that reads back as the same `f32`, of two such
/// decimals equally near the value the one whose last digit is even
/// (docs/json-mapping.md §3); non-finite values as `"NaN"`, `"Infinity"`,
/// `"-Infinity"`.
pub fn float32(v: f32) -> Value {
    if !v.is_finite() {
        return non_finite(f64::from(v));
    }
    serde_json::Number::from_f64(shortest_f32(v)).map_or(Value::Null, Value::Number)
}

/// The `f64` nearest the shortest decimal of the finite `v` as an `f32`. That decimal
/// has at most 9 digits, so the `f64` prints as the same digits; parsed as `f64` it
/// can in theory round back to the other `f32` neighbour, and then the exact value is
/// used (longer, still correct).
fn shortest_f32(v: f32) -> f64 {
    let d: f64 = zmij::Buffer::new()
        .format_finite(v)
        .parse()
        .unwrap_or(f64::from(v));
    if (d as f32).to_bits() == v.to_bits() {
        d
    } else {
        f64::from(v)
    }
}

/// An `f64` as a number; non-finite values as `"NaN"`, `"Infinity"`, `"-Infinity"`.
pub fn float64(v: f64) -> Value {
    if !v.is_finite() {
        return non_finite(v);
    }
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

fn non_finite(v: f64) -> Value {
    let s = if v.is_nan() {
        "NaN"
    } else if v > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    };
    Value::String(s.into())
}

/// `bytes` as lowercase hex, two digits per byte.
pub fn hex(bytes: &[u8]) -> Value {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(DIGITS[usize::from(b >> 4)] as char);
        s.push(DIGITS[usize::from(b & 15)] as char);
    }
    Value::String(s)
}

/// A union value with a payload: `{"Variant": payload}`.
pub fn variant(name: &str, payload: Value) -> Value {
    let mut m = Map::new();
    m.insert(name.to_string(), payload);
    Value::Object(m)
}

// ---- JSON → Rust -------------------------------------------------------------

/// The fields of a JSON object being read into a struct.
#[derive(Debug, Clone, Copy)]
pub struct Object<'a>(&'a Map<String, Value>);

/// `v` as the object of a struct with the given field names. Unknown keys are
/// rejected first (a misspelt field reads as the typo it is), with the key as path.
pub fn object<'a>(v: &'a Value, fields: &[&str]) -> Result<Object<'a>, JsonError> {
    let Value::Object(map) = v else {
        return Err(mismatch("an object", v));
    };
    if let Some(key) = map.keys().find(|k| !fields.contains(&k.as_str())) {
        let e = JsonError::new(
            JsonErrorKind::UnknownField,
            alloc::format!("no field `{key}`"),
        );
        return Err(e.in_field(key));
    }
    Ok(Object(map))
}

/// The null that a missing optional field reads as.
static NULL: Value = Value::Null;

impl<'a> Object<'a> {
    /// A required field; missing is `MissingField` with the field as path.
    pub fn field(&self, name: &'static str) -> Result<&'a Value, JsonError> {
        self.0.get(name).ok_or_else(|| {
            JsonError::new(
                JsonErrorKind::MissingField,
                alloc::format!("missing field `{name}`"),
            )
            .in_field(name)
        })
    }

    /// An optional field: missing reads as `null`.
    pub fn optional(&self, name: &str) -> &'a Value {
        self.0.get(name).unwrap_or(&NULL)
    }
}

/// A `bool`.
pub fn to_bool(v: &Value) -> Result<bool, JsonError> {
    v.as_bool().ok_or_else(|| mismatch("true or false", v))
}

/// An integer written as a JSON number (`docs/json-mapping.md` §2): integer numbers
/// are exact; an `f64` (what [`parse`] stores for every number that is not an integer
/// of the 64-bit range) must be integral, and is taken as that integer only strictly
/// between -2^63 and 2^64 (beyond, it is out of range for every integer type).
fn number_to_i128(v: &Value) -> Option<Result<i128, JsonError>> {
    let Value::Number(n) = v else { return None };
    Some(if let Some(i) = n.as_i64() {
        Ok(i128::from(i))
    } else if let Some(u) = n.as_u64() {
        Ok(i128::from(u))
    } else {
        let f = n.as_f64().unwrap_or(f64::NAN);
        if f.fract() != 0.0 || f.is_nan() {
            Err(JsonError::new(
                JsonErrorKind::TypeMismatch,
                alloc::format!("expected an integer, found {n}"),
            ))
        } else if f > -9_223_372_036_854_775_808.0 && f < 18_446_744_073_709_551_616.0 {
            Ok(f as i128)
        } else {
            Err(JsonError::new(
                JsonErrorKind::OutOfRange,
                alloc::format!("{n} is outside the 64-bit range"),
            ))
        }
    })
}

fn fit<T: TryFrom<i128>>(v: i128) -> Result<T, JsonError> {
    T::try_from(v).map_err(|_| {
        JsonError::new(
            JsonErrorKind::OutOfRange,
            alloc::format!("{v} does not fit in {}", core::any::type_name::<T>()),
        )
    })
}

/// An integer of a narrow type (range inside `±(2^53 - 1)`): a JSON number.
pub fn to_int<T: TryFrom<i128>>(v: &Value) -> Result<T, JsonError> {
    match number_to_i128(v) {
        Some(n) => fit(n?),
        None => Err(mismatch("an integer", v)),
    }
}

/// An integer of a wide type: a JSON number or a decimal string.
pub fn to_wide_int<T: TryFrom<i128>>(v: &Value) -> Result<T, JsonError> {
    if let Some(n) = number_to_i128(v) {
        return fit(n?);
    }
    let Value::String(s) = v else {
        return Err(mismatch("an integer or a decimal string", v));
    };
    match parse_decimal(s) {
        Some(n) => fit(n),
        None => Err(JsonError::new(
            JsonErrorKind::InvalidNumber,
            alloc::format!("`{s}` is not a decimal integer"),
        )),
    }
}

/// Parses the decimal-string form of a wide integer (`-?[0-9]+`, docs/json-mapping.md),
/// saturating at the `i128` bounds (far outside every wire range, so an overlong
/// number still fails the range check as `OutOfRange`). `None` if not of that form.
pub fn parse_decimal(s: &str) -> Option<i128> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut v: i128 = 0;
    for b in digits.bytes() {
        let d = i128::from(b - b'0');
        v = v.saturating_mul(10);
        v = if negative {
            v.saturating_sub(d)
        } else {
            v.saturating_add(d)
        };
    }
    Some(v)
}

/// An `f64`: a JSON number or `"NaN"`, `"Infinity"`, `"-Infinity"`.
pub fn to_f64(v: &Value) -> Result<f64, JsonError> {
    match v {
        Value::Number(n) => Ok(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => match s.as_str() {
            "NaN" => Ok(f64::NAN),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(JsonError::new(
                JsonErrorKind::InvalidNumber,
                alloc::format!("`{s}` is not \"NaN\", \"Infinity\" or \"-Infinity\""),
            )),
        },
        _ => Err(mismatch("a number", v)),
    }
}

/// An `f32`: as [`to_f64`], then rounded to the nearest `f32` (as every bitwire
/// implementation rounds). A finite number that would round to infinity is
/// `InvalidNumber`.
pub fn to_f32(v: &Value) -> Result<f32, JsonError> {
    let x = to_f64(v)?;
    let f = x as f32;
    if x.is_finite() && f.is_infinite() {
        return Err(JsonError::new(
            JsonErrorKind::InvalidNumber,
            alloc::format!("{x} is beyond the binary32 range"),
        ));
    }
    Ok(f)
}

/// A `string`.
pub fn to_string(v: &Value) -> Result<String, JsonError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        _ => Err(mismatch("a string", v)),
    }
}

/// `bytes` from hex (either case, two digits per byte).
pub fn to_bytes(v: &Value) -> Result<Vec<u8>, JsonError> {
    let Value::String(s) = v else {
        return Err(mismatch("a hex string", v));
    };
    let digit = |c: u8| (c as char).to_digit(16);
    let bad = || {
        JsonError::new(
            JsonErrorKind::TypeMismatch,
            "expected an even number of hex digits",
        )
    };
    if s.len() % 2 != 0 {
        return Err(bad());
    }
    s.as_bytes()
        .chunks(2)
        .map(|pair| Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8))
        .collect::<Option<Vec<u8>>>()
        .ok_or_else(bad)
}

/// The elements of a JSON array (for lists and fixed arrays).
pub fn to_array(v: &Value) -> Result<&[Value], JsonError> {
    match v {
        Value::Array(items) => Ok(items),
        _ => Err(mismatch("an array", v)),
    }
}

/// A fixed array from its converted elements; another length is `InvalidLength`.
pub fn to_fixed<T, const N: usize>(items: Vec<T>) -> Result<[T; N], JsonError> {
    items.try_into().map_err(|items: Vec<T>| {
        JsonError::new(
            JsonErrorKind::InvalidLength,
            alloc::format!("expected {N} elements, found {}", items.len()),
        )
    })
}

/// A fixed array held on the heap (one the memory model puts out of line, spec §11)
/// from its converted elements; another length is `InvalidLength`.
pub fn to_fixed_boxed<T, const N: usize>(
    items: Vec<T>,
) -> Result<alloc::boxed::Box<[T; N]>, JsonError> {
    items
        .into_boxed_slice()
        .try_into()
        .map_err(|items: alloc::boxed::Box<[T]>| {
            JsonError::new(
                JsonErrorKind::InvalidLength,
                alloc::format!("expected {N} elements, found {}", items.len()),
            )
        })
}

/// An enum value's name.
pub fn to_name(v: &Value) -> Result<&str, JsonError> {
    match v {
        Value::String(s) => Ok(s),
        _ => Err(mismatch("a variant name", v)),
    }
}

/// A union value: `"Variant"` (no payload) or `{"Variant": payload}`.
pub fn to_variant(v: &Value) -> Result<(&str, Option<&Value>), JsonError> {
    match v {
        Value::String(s) => Ok((s, None)),
        Value::Object(m) if m.len() == 1 => {
            let (name, payload) = m.iter().next().ok_or_else(|| mismatch("one key", v))?;
            Ok((name, Some(payload)))
        }
        _ => Err(mismatch("a variant name or a one-key object", v)),
    }
}

/// The payload of a union variant that declares one.
pub fn payload(p: Option<&Value>) -> Result<&Value, JsonError> {
    p.ok_or_else(|| {
        JsonError::new(
            JsonErrorKind::TypeMismatch,
            "the variant has a payload: write {\"Variant\": …}",
        )
    })
}

/// Checks that a unit variant has no payload (`null` is allowed).
pub fn unit(p: Option<&Value>) -> Result<(), JsonError> {
    match p {
        None | Some(Value::Null) => Ok(()),
        Some(j) => Err(mismatch("null for a unit variant", j)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn integers() {
        assert_eq!(to_int::<u8>(&json!(255)).unwrap(), 255);
        assert_eq!(to_int::<u8>(&json!(5.0)).unwrap(), 5);
        assert_eq!(
            to_int::<u8>(&json!(300)).unwrap_err().kind(),
            JsonErrorKind::OutOfRange
        );
        assert_eq!(
            to_int::<u8>(&json!(-1)).unwrap_err().kind(),
            JsonErrorKind::OutOfRange
        );
        assert_eq!(
            to_int::<u8>(&json!(1.5)).unwrap_err().kind(),
            JsonErrorKind::TypeMismatch
        );
        assert_eq!(
            to_int::<u8>(&json!("5")).unwrap_err().kind(),
            JsonErrorKind::TypeMismatch
        );
        assert_eq!(
            to_wide_int::<u64>(&json!("18446744073709551615")).unwrap(),
            u64::MAX
        );
        assert_eq!(to_wide_int::<i64>(&json!(-3)).unwrap(), -3);
        assert_eq!(
            to_wide_int::<u64>(&json!("1e3")).unwrap_err().kind(),
            JsonErrorKind::InvalidNumber
        );
        assert_eq!(wide(u64::MAX), json!("18446744073709551615"));
    }

    #[test]
    fn integers_from_text_follow_the_number_rules() {
        let int = |text: &str| to_wide_int::<i64>(&parse_str(text).unwrap());
        assert_eq!(int("-9223372036854775808").unwrap(), i64::MIN);
        assert_eq!(int("5.0000000000000000001").unwrap(), 5);
        assert_eq!(int("-0").unwrap(), 0);
        for (text, kind) in [
            ("-9223372036854775809", JsonErrorKind::OutOfRange),
            ("-9223372036854775808.5", JsonErrorKind::OutOfRange),
            ("1e300", JsonErrorKind::OutOfRange),
            ("2.5", JsonErrorKind::TypeMismatch),
        ] {
            assert_eq!(int(text).unwrap_err().kind(), kind, "{text}");
        }
        let u = |text: &str| to_wide_int::<u64>(&parse_str(text).unwrap());
        assert_eq!(u("1.8446744073709551615e19").unwrap(), u64::MAX);
        assert_eq!(
            u("18446744073709551616").unwrap_err().kind(),
            JsonErrorKind::OutOfRange
        );
        let f32_err = to_f32(&parse_str("1e39").unwrap()).unwrap_err();
        assert_eq!(f32_err.kind(), JsonErrorKind::InvalidNumber);
        assert_eq!(
            to_f32(&parse_str("3.4028235e38").unwrap()).unwrap(),
            f32::MAX
        );
    }

    #[test]
    fn floats_and_bytes() {
        assert_eq!(float32(0.1).to_string(), "0.1");
        // Exactly between two shortest decimals: the even last digit, for both widths.
        assert_eq!(float32(-409.328_125_f64 as f32).to_string(), "-409.32812");
        assert_eq!(float32(34_493.812_5_f64 as f32).to_string(), "34493.812");
        let tie = ((1u64 << 53) - 3) as f64 / 4.0;
        assert_eq!(float64(tie).to_string(), "2251799813685247.2");
        assert_eq!(float64(f64::NAN), json!("NaN"));
        assert_eq!(float32(f32::NEG_INFINITY), json!("-Infinity"));
        assert!(to_f32(&json!("NaN")).unwrap().is_nan());
        assert_eq!(
            to_f64(&json!("inf")).unwrap_err().kind(),
            JsonErrorKind::InvalidNumber
        );
        assert_eq!(hex(&[0, 0xab, 0xff]), json!("00abff"));
        assert_eq!(to_bytes(&json!("00ABff")).unwrap(), [0, 0xab, 0xff]);
        assert_eq!(
            to_bytes(&json!("abc")).unwrap_err().kind(),
            JsonErrorKind::TypeMismatch
        );
    }

    #[test]
    fn objects_report_unknown_then_missing_fields() {
        let v = json!({"a": 1, "typo": 2});
        let e = object(&v, &["a", "b"]).unwrap_err();
        assert_eq!(
            (e.kind(), e.path_string()),
            (JsonErrorKind::UnknownField, "typo".into())
        );
        let v = json!({"a": 1});
        let o = object(&v, &["a", "b"]).unwrap();
        let e = o.field("b").unwrap_err().in_field("outer");
        assert_eq!(
            (e.kind(), e.path_string()),
            (JsonErrorKind::MissingField, "outer.b".into())
        );
        assert!(o.optional("b").is_null());
    }

    #[test]
    fn unions_and_arrays() {
        assert_eq!(to_variant(&json!("Ping")).unwrap(), ("Ping", None));
        let v = json!({"Chat": 1});
        assert_eq!(to_variant(&v).unwrap().0, "Chat");
        assert!(to_variant(&json!({"a": 1, "b": 2})).is_err());
        assert!(unit(Some(&json!(null))).is_ok());
        assert!(unit(Some(&json!(1))).is_err());
        assert_eq!(to_fixed::<u8, 2>(vec![1, 2]).unwrap(), [1, 2]);
        let e = to_fixed::<u8, 2>(vec![1])
            .unwrap_err()
            .at_index(0)
            .in_field("x");
        assert_eq!(
            (e.kind(), e.path_string()),
            (JsonErrorKind::InvalidLength, "x[0]".into())
        );
    }
}
