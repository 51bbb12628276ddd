//! The JSON mapping of values (`docs/json-mapping.md`), in both directions.
//!
//! JSON → [`Value`] checks only what JSON itself can get wrong (types, names,
//! number syntax). Whether a well-typed value fits its schema type (300 for a `u8`, a
//! list longer than its `max`) is left to the encoder, so that those problems are
//! reported as the same wire error kinds that generated codecs report.

use serde_json::{Map, Number, Value as Json};

use super::error::{CodecError, JsonErrorKind, Path};
use super::rules;
use super::Value;
use crate::ir::{FloatRepr, Schema, Type, TypeDefKind, TypeId};

/// The largest integer magnitude every JSON implementation holds exactly (`2^53 - 1`).
const MAX_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// Whether integers of `ty` are written as decimal strings: their range is not inside
/// `±(2^53 - 1)`, so a JSON number could lose precision in some languages.
pub fn is_wide_int(ty: &Type) -> bool {
    match rules::int_range(ty) {
        Some((lo, hi)) => lo < -MAX_SAFE_INTEGER || hi > MAX_SAFE_INTEGER,
        None => false,
    }
}

/// Maps a JSON value onto a value of the named type `ty` (`docs/json-mapping.md`).
pub fn value_from_json(schema: &Schema, ty: TypeId, json: &Json) -> Result<Value, CodecError> {
    FromJson {
        schema,
        path: Path::default(),
    }
    .named(ty, json)
}

/// Maps a value of the named type `ty` to JSON (`docs/json-mapping.md`).
///
/// `value` must have the shape of `ty`, as every value from [`decode`](super::decode)
/// and [`value_from_json`] has; a part that does not is written as `null`.
pub fn value_to_json(schema: &Schema, ty: TypeId, value: &Value) -> Json {
    to_json_named(schema, ty, value)
}

struct FromJson<'a> {
    schema: &'a Schema,
    path: Path,
}

/// A short description of a JSON value, for error messages.
fn json_type(json: &Json) -> &'static str {
    match json {
        Json::Null => "null",
        Json::Bool(_) => "a bool",
        Json::Number(_) => "a number",
        Json::String(_) => "a string",
        Json::Array(_) => "an array",
        Json::Object(_) => "an object",
    }
}

impl FromJson<'_> {
    fn mismatch(&self, expected: &str, json: &Json) -> CodecError {
        self.path.json(
            JsonErrorKind::TypeMismatch,
            format!("expected {expected}, found {}", json_type(json)),
        )
    }

    fn value(&mut self, ty: &Type, json: &Json) -> Result<Value, CodecError> {
        match ty {
            Type::Bool => match json {
                Json::Bool(b) => Ok(Value::Bool(*b)),
                j => Err(self.mismatch("true or false", j)),
            },
            Type::UInt { .. }
            | Type::SInt { .. }
            | Type::Bounded { .. }
            | Type::VarUInt { .. }
            | Type::VarSInt { .. } => self.int(is_wide_int(ty), json).map(Value::Int),
            Type::Float { repr } | Type::Quantized { repr, .. } => {
                // An f32 holds binary32: the JSON number is rounded to the nearest one
                // here, as parsing into an f32 does in every language. A finite number
                // that rounds to infinity has no binary32 value (§3).
                let v = self.float(json)?;
                let rounded = rules::round_to(*repr, v);
                if v.is_finite() && rounded.is_infinite() {
                    return Err(self.path.json(
                        JsonErrorKind::InvalidNumber,
                        format!("{v} is beyond the range of binary32"),
                    ));
                }
                Ok(Value::Float(rounded))
            }
            Type::Optional { inner } => match json {
                Json::Null => Ok(Value::none()),
                j => Ok(Value::some(self.value(inner, j)?)),
            },
            Type::Array { elem, .. } | Type::List { elem, .. } => match json {
                Json::Array(items) => {
                    let mut values = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        self.path.push_index(i);
                        values.push(self.value(elem, item)?);
                        self.path.pop();
                    }
                    Ok(Value::Array(values))
                }
                j => Err(self.mismatch("an array", j)),
            },
            Type::String { .. } => match json {
                Json::String(s) => Ok(Value::String(s.clone())),
                j => Err(self.mismatch("a string", j)),
            },
            Type::Bytes { .. } => match json {
                Json::String(s) => match hex_decode(s) {
                    Some(b) => Ok(Value::Bytes(b)),
                    None => Err(self.path.json(
                        JsonErrorKind::TypeMismatch,
                        "expected an even number of hex digits",
                    )),
                },
                j => Err(self.mismatch("a hex string", j)),
            },
            Type::Named { id, .. } => self.named(*id, json),
        }
    }

    fn named(&mut self, id: TypeId, json: &Json) -> Result<Value, CodecError> {
        let def = &self.schema.types[id];
        match &def.kind {
            TypeDefKind::Struct { fields } => {
                let Json::Object(map) = json else {
                    return Err(self.mismatch(&format!("an object for `{}`", def.name), json));
                };
                // Unknown keys first: a misspelt field then reads as the typo it is,
                // not as the correct name missing.
                if let Some(key) = map.keys().find(|k| !fields.iter().any(|f| f.name == **k)) {
                    self.path.push_name(key);
                    let e = self.path.json(
                        JsonErrorKind::UnknownField,
                        format!("`{}` has no field `{key}`", def.name),
                    );
                    return Err(e);
                }
                let mut values = Vec::with_capacity(fields.len());
                for field in fields {
                    self.path.push_name(&field.name);
                    let v = match (map.get(&field.name), &field.ty) {
                        (Some(j), ty) => self.value(ty, j)?,
                        (None, Type::Optional { .. }) => Value::none(),
                        (None, _) => {
                            return Err(self.path.json(
                                JsonErrorKind::MissingField,
                                format!("`{}` needs field `{}`", def.name, field.name),
                            ))
                        }
                    };
                    self.path.pop();
                    values.push((field.name.clone(), v));
                }
                Ok(Value::Struct(values))
            }
            TypeDefKind::Enum { variants, .. } => {
                let Json::String(name) = json else {
                    return Err(self.mismatch(&format!("a variant name of `{}`", def.name), json));
                };
                if !variants.iter().any(|v| v.name == *name) {
                    return Err(self.path.json(
                        JsonErrorKind::UnknownVariant,
                        format!("`{}` has no variant `{name}`", def.name),
                    ));
                }
                Ok(Value::Enum(name.clone()))
            }
            TypeDefKind::Union { variants, .. } => {
                // `"Variant"` or `{"Variant": payload}`.
                let (name, payload) = match json {
                    Json::String(name) => (name, None),
                    Json::Object(map) if map.len() == 1 => {
                        let (name, payload) = map.iter().next().expect("one entry");
                        (name, Some(payload))
                    }
                    j => {
                        return Err(self.mismatch(
                            &format!("a variant name or a one-key object for `{}`", def.name),
                            j,
                        ))
                    }
                };
                let Some(variant) = variants.iter().find(|v| v.name == *name) else {
                    return Err(self.path.json(
                        JsonErrorKind::UnknownVariant,
                        format!("`{}` has no variant `{name}`", def.name),
                    ));
                };
                self.path.push_name(&variant.name);
                let payload = match (&variant.payload, payload) {
                    (None, None | Some(Json::Null)) => None,
                    (None, Some(j)) => return Err(self.mismatch("null for a unit variant", j)),
                    (Some(ty), Some(j)) => Some(Box::new(self.value(ty, j)?)),
                    (Some(_), None) => {
                        return Err(self.path.json(
                            JsonErrorKind::TypeMismatch,
                            format!("variant `{name}` has a payload: write {{\"{name}\": …}}"),
                        ))
                    }
                };
                self.path.pop();
                Ok(Value::Union {
                    variant: variant.name.clone(),
                    payload,
                })
            }
        }
    }

    /// An integer (`docs/json-mapping.md` §2): a JSON number with an integral value,
    /// or for wide types also a decimal string. Values beyond the 64-bit range stay
    /// beyond it (saturating in `i128`), so the encoder rejects them with `OutOfRange`.
    fn int(&self, wide: bool, json: &Json) -> Result<i128, CodecError> {
        match json {
            Json::Number(n) => {
                if let Some(v) = n.as_i64() {
                    return Ok(i128::from(v));
                }
                if let Some(v) = n.as_u64() {
                    return Ok(i128::from(v));
                }
                // What is not an integer of the 64-bit range is held as its nearest
                // f64 (the parser of json_text.rs does this for every number written
                // otherwise, as serde_json does).
                let f = n.as_f64().expect("a JSON number is i64, u64 or f64");
                if f.fract() != 0.0 {
                    return Err(self.path.json(
                        JsonErrorKind::TypeMismatch,
                        format!("expected an integer, found {n}"),
                    ));
                }
                // Integral: taken as that integer strictly between -2^63 and 2^64;
                // otherwise it stands for a value outside every 64-bit range, -2^63
                // included (it may be the rounding of a smaller integer).
                let v = f as i128;
                if f <= -9_223_372_036_854_775_808.0 {
                    Ok(v.saturating_sub(1))
                } else {
                    Ok(v)
                }
            }
            Json::String(s) if wide => decimal_string(s).ok_or_else(|| {
                self.path.json(
                    JsonErrorKind::InvalidNumber,
                    format!("`{s}` is not a decimal integer"),
                )
            }),
            j if wide => Err(self.mismatch("an integer or a decimal string", j)),
            j => Err(self.mismatch("an integer", j)),
        }
    }

    /// A float: a JSON number, or one of the strings `"NaN"`, `"Infinity"`,
    /// `"-Infinity"`.
    fn float(&self, json: &Json) -> Result<f64, CodecError> {
        match json {
            Json::Number(n) => Ok(n.as_f64().expect("a JSON number converts to f64")),
            Json::String(s) => match s.as_str() {
                "NaN" => Ok(f64::NAN),
                "Infinity" => Ok(f64::INFINITY),
                "-Infinity" => Ok(f64::NEG_INFINITY),
                _ => Err(self.path.json(
                    JsonErrorKind::InvalidNumber,
                    format!("`{s}` is not \"NaN\", \"Infinity\" or \"-Infinity\""),
                )),
            },
            j => Err(self.mismatch("a number", j)),
        }
    }
}

/// The decimal-string form of a wide integer, `-?[0-9]+` (leading zeros allowed),
/// as an `i128` that saturates far outside every wire range. `None` if not of that form.
fn decimal_string(s: &str) -> Option<i128> {
    let digits = s.strip_prefix('-').unwrap_or(s);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let significant = digits.trim_start_matches('0');
    // 40 digits exceed i128; anything that long is out of range all the same.
    let magnitude: i128 = if significant.len() > 38 {
        i128::MAX
    } else {
        significant.parse().unwrap_or(0)
    };
    Some(if s.starts_with('-') {
        -magnitude
    } else {
        magnitude
    })
}

/// Lowercase or uppercase hex, two digits per byte.
fn hex_decode(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    let digit = |c: u8| (c as char).to_digit(16);
    s.as_bytes()
        .chunks(2)
        .map(|pair| Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8))
        .collect()
}

/// Lowercase hex, two digits per byte.
pub(crate) fn hex_encode(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn to_json(schema: &Schema, ty: &Type, value: &Value) -> Json {
    match (ty, value) {
        (Type::Bool, Value::Bool(b)) => Json::Bool(*b),
        (
            Type::UInt { .. }
            | Type::SInt { .. }
            | Type::Bounded { .. }
            | Type::VarUInt { .. }
            | Type::VarSInt { .. },
            Value::Int(v),
        ) => int_to_json(*v, is_wide_int(ty)),
        (Type::Float { repr } | Type::Quantized { repr, .. }, Value::Float(v)) => {
            float_to_json(*repr, *v)
        }
        (Type::Optional { .. }, Value::Optional(None)) => Json::Null,
        (Type::Optional { inner }, Value::Optional(Some(v))) => to_json(schema, inner, v),
        (Type::Array { elem, .. } | Type::List { elem, .. }, Value::Array(items)) => {
            Json::Array(items.iter().map(|v| to_json(schema, elem, v)).collect())
        }
        (Type::String { .. }, Value::String(s)) => Json::String(s.clone()),
        (Type::Bytes { .. }, Value::Bytes(b)) => Json::String(hex_encode(b)),
        (Type::Named { id, .. }, v) => to_json_named(schema, *id, v),
        _ => Json::Null,
    }
}

fn to_json_named(schema: &Schema, id: TypeId, value: &Value) -> Json {
    match (&schema.types[id].kind, value) {
        (TypeDefKind::Struct { fields }, Value::Struct(values)) => {
            // Declaration order: the crate enables serde_json's `preserve_order`.
            let mut map = Map::new();
            for (field, (name, v)) in fields.iter().zip(values) {
                map.insert(name.clone(), to_json(schema, &field.ty, v));
            }
            Json::Object(map)
        }
        (TypeDefKind::Enum { .. }, Value::Enum(name)) => Json::String(name.clone()),
        (TypeDefKind::Union { variants, .. }, Value::Union { variant, payload }) => {
            let declared = variants.iter().find(|v| v.name == *variant);
            match (declared.and_then(|v| v.payload.as_ref()), payload) {
                (Some(ty), Some(p)) => {
                    let mut map = Map::new();
                    map.insert(variant.clone(), to_json(schema, ty, p));
                    Json::Object(map)
                }
                _ => Json::String(variant.clone()),
            }
        }
        _ => Json::Null,
    }
}

fn int_to_json(v: i128, wide: bool) -> Json {
    if wide {
        return Json::String(v.to_string());
    }
    match i64::try_from(v) {
        Ok(v) => Json::Number(Number::from(v)),
        // Not reachable for narrow types; a decimal string is the lossless fallback.
        Err(_) => Json::String(v.to_string()),
    }
}

/// Finite floats as the shortest number that reads back as the same value of `repr`;
/// non-finite ones as `"NaN"`, `"Infinity"`, `"-Infinity"`.
fn float_to_json(repr: FloatRepr, v: f64) -> Json {
    if v.is_nan() {
        return Json::String("NaN".into());
    }
    if v.is_infinite() {
        return Json::String(if v > 0.0 { "Infinity" } else { "-Infinity" }.into());
    }
    let v = match repr {
        FloatRepr::F64 => v,
        FloatRepr::F32 => shortest_f32_as_f64(v as f32),
    };
    Json::Number(Number::from_f64(v).expect("finite"))
}

/// The `f64` nearest to the shortest decimal that round-trips `x` as an `f32`, so that
/// `0.1f32` prints as `0.1` rather than `0.10000000149011612`; of two such decimals
/// equally near `x`, the one whose last digit is even (`-409.328125f32` prints as
/// `-409.32812`; Rust's `Display` would give `-409.32813`).
///
/// Parsing the decimal as `f64` and rounding to `f32` again double-rounds, which could
/// in theory land on the other neighbour; then the exact value is used instead
/// (longer, but still correct).
fn shortest_f32_as_f64(x: f32) -> f64 {
    let d: f64 = zmij::Buffer::new()
        .format_finite(x)
        .parse()
        .expect("a finite f32's decimal parses");
    if (d as f32).to_bits() == x.to_bits() {
        d
    } else {
        f64::from(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_strings() {
        assert_eq!(decimal_string("0"), Some(0));
        assert_eq!(decimal_string("-0"), Some(0));
        assert_eq!(decimal_string("007"), Some(7));
        assert_eq!(
            decimal_string("18446744073709551615"),
            Some(u64::MAX.into())
        );
        assert_eq!(
            decimal_string("-9223372036854775808"),
            Some(i64::MIN.into())
        );
        assert_eq!(decimal_string(&"9".repeat(60)), Some(i128::MAX));
        assert_eq!(
            decimal_string(&format!("-{}", "9".repeat(60))),
            Some(-i128::MAX)
        );
        for bad in ["", "-", "+1", " 1", "1 ", "0x10", "1e3", "1.0", "--1", "١"] {
            assert_eq!(decimal_string(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn hex() {
        assert_eq!(hex_decode("00fFaB"), Some(vec![0, 0xff, 0xab]));
        assert_eq!(hex_decode(""), Some(vec![]));
        assert_eq!(hex_decode("abc"), None);
        assert_eq!(hex_decode("zz"), None);
        assert_eq!(hex_decode("+1"), None);
        assert_eq!(hex_encode(&[0, 0xff, 0xab]), "00ffab");
    }

    #[test]
    fn f32_prints_shortest() {
        let j = |x: f32| float_to_json(FloatRepr::F32, f64::from(x)).to_string();
        assert_eq!(j(0.1), "0.1");
        assert_eq!(j(-0.0), "-0.0");
        assert_eq!(j(1.0), "1.0");
        assert_eq!(j(f32::MAX), "3.4028235e+38");
        assert_eq!(j(f32::from_bits(1)), "1e-45");
        // Exactly between two shortest decimals: the even last digit, for both widths.
        assert_eq!(j(-409.328_125_f64 as f32), "-409.32812");
        assert_eq!(j(34_493.812_5_f64 as f32), "34493.812");
        let tie = ((1u64 << 53) - 3) as f64 / 4.0;
        assert_eq!(
            float_to_json(FloatRepr::F64, tie).to_string(),
            "2251799813685247.2"
        );
        assert_eq!(float_to_json(FloatRepr::F64, 0.1).to_string(), "0.1");
        assert_eq!(
            float_to_json(FloatRepr::F64, f64::NAN),
            Json::String("NaN".into())
        );
        assert_eq!(
            float_to_json(FloatRepr::F32, f64::NEG_INFINITY),
            Json::String("-Infinity".into())
        );
    }

    #[test]
    fn f32_json_round_trips_every_sampled_pattern() {
        // Every 2^-12th bit pattern plus the neighbourhood of powers of two.
        let mut patterns: Vec<u32> = (0..=u32::MAX).step_by(4093).collect();
        for e in 0..255u32 {
            for d in 0..4 {
                patterns.push((e << 23) + d);
                patterns.push((e << 23).wrapping_sub(d));
            }
        }
        for bits in patterns {
            let x = f32::from_bits(bits);
            if !x.is_finite() {
                continue;
            }
            let text = float_to_json(FloatRepr::F32, f64::from(x)).to_string();
            let back: f64 = serde_json::from_str(&text).unwrap();
            assert_eq!((back as f32).to_bits(), bits, "{text}");
        }
    }
}
