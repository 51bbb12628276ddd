//! Schema text for generated doc comments: every generated item names the schema
//! declaration it came from and its bit range or size, in every target language.
//! The numbers are the IR's; this module only renders them.

use crate::ir::{ConstValue, Field, FloatRepr, IntRepr, LengthEncoding, PackedLayout, Type};

/// A type expression in schema syntax (`u9`, `list<Entity, max 64>`, `u16 in 0..=1000`).
pub fn type_text(ty: &Type) -> String {
    match ty {
        Type::Bool => "bool".into(),
        Type::UInt { bits, .. } => format!("u{bits}"),
        Type::SInt { bits, .. } => format!("i{bits}"),
        Type::Float { repr } => float_name(*repr).into(),
        Type::Bounded {
            repr,
            base_bits,
            min,
            max,
            ..
        } => {
            let sign = if repr.signed() { 'i' } else { 'u' };
            format!("{sign}{base_bits} in {min}..={max}")
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            packed_bits,
        } => {
            let base = float_name(*repr);
            let bits_form = *packed_bits == 64 || *steps == (1u64 << packed_bits) - 1;
            if bits_form {
                format!("{base} in {min:?}..={max:?} bits {packed_bits}")
            } else {
                // The IR keeps the step count; the step is the range over it.
                let step = (max - min) / *steps as f64;
                format!("{base} in {min:?}..={max:?} step {step:?}")
            }
        }
        Type::VarUInt { bits, .. } => format!("varu{bits}"),
        Type::VarSInt { bits, .. } => format!("vari{bits}"),
        Type::Optional { inner } => format!("optional<{}>", type_text(inner)),
        Type::Array { elem, len } => format!("[{}; {len}]", type_text(elem)),
        Type::List { elem, max, key, .. } => {
            let key = key
                .as_ref()
                .map_or(String::new(), |k| format!(", key {}", k.name));
            match max {
                Some(m) => format!("list<{}, max {m}{key}>", type_text(elem)),
                None => format!("list<{}{key}>", type_text(elem)),
            }
        }
        Type::String { max, .. } => bounded_name("string", *max),
        Type::Bytes { max, .. } => bounded_name("bytes", *max),
        Type::Named { name, .. } => name.clone(),
    }
}

fn float_name(repr: FloatRepr) -> &'static str {
    match repr {
        FloatRepr::F32 => "f32",
        FloatRepr::F64 => "f64",
    }
}

fn bounded_name(base: &str, max: Option<u64>) -> String {
    match max {
        Some(m) => format!("{base}<max {m}>"),
        None => base.into(),
    }
}

/// The schema name of an integer representation (`u16`, `i64`).
pub fn int_repr_name(repr: IntRepr) -> &'static str {
    match repr {
        IntRepr::U8 => "u8",
        IntRepr::U16 => "u16",
        IntRepr::U32 => "u32",
        IntRepr::U64 => "u64",
        IntRepr::I8 => "i8",
        IntRepr::I16 => "i16",
        IntRepr::I32 => "i32",
        IntRepr::I64 => "i64",
    }
}

/// A size in bits: `64 bits`, `5..=1029 bits`, `at least 5 bits`.
pub fn size_text(layout: &PackedLayout) -> String {
    match layout.max_bits {
        Some(max) if max == layout.min_bits => plural_bits(max),
        Some(max) => format!("{}..={max} bits", layout.min_bits),
        None => format!("at least {}", plural_bits(layout.min_bits)),
    }
}

fn plural_bits(n: u64) -> String {
    if n == 1 {
        "1 bit".into()
    } else {
        format!("{n} bits")
    }
}

/// Where a struct field sits: `bits 7..16`, `bit 0`, `from bit 40, 5..=69 bits`, or
/// just its size when an earlier field has a variable width.
pub fn field_position_text(field: &Field) -> String {
    match (field.packed_offset, field.packed.is_fixed()) {
        (Some(o), true) => match field.packed.min_bits {
            0 => format!("no bits, at bit {o}"),
            1 => format!("bit {o}"),
            w => format!("bits {o}..{}", o + w),
        },
        (Some(o), false) => format!("from bit {o}, {}", size_text(&field.packed)),
        (None, _) => size_text(&field.packed),
    }
}

/// The line every backend puts in a field's doc comment (without the comment marker):
/// ``Schema: `health: u9`, bits 7..16.``
pub fn field_doc_text(field: &Field) -> String {
    format!(
        "Schema: `{}: {}`, {}.",
        field.name,
        type_text(&field.ty),
        field_position_text(field)
    )
}

/// A constant's declaration in schema syntax (`const MAX_PLAYERS: u16 = 64`).
pub fn const_text(name: &str, value: &ConstValue) -> String {
    match value {
        ConstValue::Int { ty, value } => format!("const {name}: {} = {value}", int_repr_name(*ty)),
        ConstValue::Float { ty, value } => format!("const {name}: {} = {value:?}", float_name(*ty)),
        ConstValue::Bool { value } => format!("const {name}: bool = {value}"),
        ConstValue::String { value } => format!("const {name}: string = {value:?}"),
    }
}

/// How a length prefix is written: `6-bit length` or `varint length`.
pub fn length_text(len: LengthEncoding) -> String {
    match len {
        LengthEncoding::Fixed { bits } => format!("{bits}-bit length"),
        LengthEncoding::Varint => "varint length".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_schema_syntax() {
        let q = Type::Quantized {
            repr: FloatRepr::F32,
            min: -1024.0,
            max: 1024.0,
            steps: 65535,
            packed_bits: 16,
        };
        assert_eq!(type_text(&q), "f32 in -1024.0..=1024.0 bits 16");
        let q = Type::Quantized {
            repr: FloatRepr::F64,
            min: 0.0,
            max: 10.0,
            steps: 1000,
            packed_bits: 10,
        };
        assert_eq!(type_text(&q), "f64 in 0.0..=10.0 step 0.01");
        let l = Type::List {
            elem: Box::new(Type::Optional {
                inner: Box::new(Type::Bool),
            }),
            max: Some(8),
            packed_len: LengthEncoding::Fixed { bits: 4 },
            key: None,
        };
        assert_eq!(type_text(&l), "list<optional<bool>, max 8>");
        assert_eq!(
            size_text(&PackedLayout {
                min_bits: 5,
                max_bits: None
            }),
            "at least 5 bits"
        );
    }
}
