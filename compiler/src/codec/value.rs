//! The dynamic value the reference codec encodes and decodes.

/// A value of some schema type, as plain data.
///
/// One variant per *shape*, not per schema type: every integer type (`uN`, `iN`,
/// bounded, varints) is an [`Value::Int`], every float type (`f32`, `f64`, quantized)
/// a [`Value::Float`]. Which type a value belongs to is always given alongside it.
///
/// Equality compares floats by bit pattern, so `-0.0 != 0.0` and NaN equals NaN: the
/// reference codec is an oracle, and a decoded `-0.0` that came back as `0.0` must
/// show up as a difference.
#[derive(Debug, Clone)]
pub enum Value {
    /// `bool`.
    Bool(bool),
    /// Any integer type. Kept wider than any wire integer so that out-of-range values
    /// from untyped input (JSON) reach the encoder, which rejects them with
    /// `OutOfRange` (spec §3.1, §4.2, §5.4).
    Int(i128),
    /// `f32`, `f64` and quantized floats. An `f32` value is held exactly as the `f64`
    /// with the same value; the encoder rounds any other `f64` to the nearest `f32`.
    Float(f64),
    /// An enum value: the variant's name.
    Enum(String),
    /// A struct or message: every field, in declaration order, with its name.
    Struct(Vec<(String, Value)>),
    /// A union value: the variant's name and its payload (`None` for a unit variant).
    Union {
        /// The variant's name.
        variant: String,
        /// The payload, present exactly when the variant declares one.
        payload: Option<Box<Value>>,
    },
    /// `optional<T>`.
    Optional(Option<Box<Value>>),
    /// A fixed array `[T; N]` or a `list<T>`.
    Array(Vec<Value>),
    /// `string`.
    String(String),
    /// `bytes`.
    Bytes(Vec<u8>),
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Int(a), Value::Int(b)) => a == b,
            (Value::Float(a), Value::Float(b)) => a.to_bits() == b.to_bits(),
            (Value::Enum(a), Value::Enum(b)) => a == b,
            (Value::Struct(a), Value::Struct(b)) => a == b,
            (
                Value::Union {
                    variant: va,
                    payload: pa,
                },
                Value::Union {
                    variant: vb,
                    payload: pb,
                },
            ) => va == vb && pa == pb,
            (Value::Optional(a), Value::Optional(b)) => a == b,
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::String(a), Value::String(b)) => a == b,
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            _ => false,
        }
    }
}

// Bitwise float comparison makes equality reflexive.
impl Eq for Value {}

impl Value {
    /// A struct value from `(name, value)` pairs in declaration order.
    pub fn record<'a>(fields: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
        Value::Struct(
            fields
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .collect(),
        )
    }

    /// A union value of a unit variant.
    pub fn unit(variant: &str) -> Value {
        Value::Union {
            variant: variant.to_string(),
            payload: None,
        }
    }

    /// A union value of a payload variant.
    pub fn variant(variant: &str, payload: Value) -> Value {
        Value::Union {
            variant: variant.to_string(),
            payload: Some(Box::new(payload)),
        }
    }

    /// A present optional.
    pub fn some(inner: Value) -> Value {
        Value::Optional(Some(Box::new(inner)))
    }

    /// An absent optional.
    pub fn none() -> Value {
        Value::Optional(None)
    }

    /// A short name of the variant, for error messages.
    pub(crate) fn shape_name(&self) -> &'static str {
        match self {
            Value::Bool(_) => "Bool",
            Value::Int(_) => "Int",
            Value::Float(_) => "Float",
            Value::Enum(_) => "Enum",
            Value::Struct(_) => "Struct",
            Value::Union { .. } => "Union",
            Value::Optional(_) => "Optional",
            Value::Array(_) => "Array",
            Value::String(_) => "String",
            Value::Bytes(_) => "Bytes",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_compare_by_bits() {
        assert_ne!(Value::Float(0.0), Value::Float(-0.0));
        assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
        assert_eq!(Value::Float(1.5), Value::Float(1.5));
        assert_ne!(Value::Int(1), Value::Float(1.0));
    }
}
