//! The arithmetic of spec §13 that the bincode encoder and decoder share: which
//! integer a schema type is on the wire, the fewest bytes a value takes, and the
//! lossless way an `f32` is held in a [`Value::Float`](super::super::Value).
//!
//! Read off the spec, not the plan (`plan/bincode.rs`): the reference codec is the
//! oracle the plan is tested against.

use super::super::rules::{signed_range, unsigned_range};
use crate::ir::{FloatRepr, Schema, Type, TypeDefKind};

/// Bytes of a list, string or bytes length (a `u64`, §13.3).
pub(super) const LEN_BYTES: usize = 8;
/// Bytes of an enum or union variant index (a `u32`, §13.2, §13.4).
pub(super) const INDEX_BYTES: usize = 4;

/// An integer as §13.2 writes it: `bytes` little-endian bytes of a signed or unsigned
/// Rust integer, whose values the schema restricts to `lo..=hi`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct WireInt {
    pub(super) bytes: usize,
    pub(super) signed: bool,
    pub(super) lo: i128,
    pub(super) hi: i128,
}

/// The narrowest of `u8`…`u64` (or `i8`…`i64`) holding `bits` bits, in bytes.
fn narrowest(bits: u32) -> usize {
    match bits {
        0..=8 => 1,
        9..=16 => 2,
        17..=32 => 4,
        _ => 8,
    }
}

/// The wire integer of an integer type, `None` for any other type.
///
/// `uN`/`iN` take the narrowest Rust integer of N bits and their N-bit range; a bounded
/// integer takes its base type's integer (signed when the base is `iN`, which the IR
/// records in `repr`) and its bounds; varints are their full fixed-width integer.
pub(super) fn wire_int(ty: &Type) -> Option<WireInt> {
    let int = |bits: u32, signed: bool, (lo, hi): (i128, i128)| WireInt {
        bytes: narrowest(bits),
        signed,
        lo,
        hi,
    };
    match *ty {
        Type::UInt { bits, .. } | Type::VarUInt { bits, .. } => {
            Some(int(bits, false, unsigned_range(bits)))
        }
        Type::SInt { bits, .. } | Type::VarSInt { bits, .. } => {
            Some(int(bits, true, signed_range(bits)))
        }
        Type::Bounded {
            repr,
            base_bits,
            min,
            max,
            ..
        } => Some(int(base_bits, repr.signed(), (min, max))),
        _ => None,
    }
}

/// Bytes of a float of `repr`.
pub(super) fn float_bytes(repr: FloatRepr) -> usize {
    match repr {
        FloatRepr::F32 => 4,
        FloatRepr::F64 => 8,
    }
}

/// The `f64` that holds the `f32` with IEEE bits `bits`, NaN payload included.
///
/// Non-NaN values convert exactly. A NaN keeps its sign and its 23-bit payload in the
/// top of the `f64`'s payload, quiet bit as it is: a hardware conversion would set the
/// quiet bit of a signalling NaN, and §13.2 passes NaN payloads through.
/// [`f32_bits_of`] is the inverse.
pub(super) fn f64_of_f32_bits(bits: u32) -> f64 {
    let x = f32::from_bits(bits);
    if !x.is_nan() {
        return f64::from(x);
    }
    let sign = u64::from(bits >> 31) << 63;
    let payload = u64::from(bits & 0x007F_FFFF) << 29;
    f64::from_bits(sign | 0x7FF0_0000_0000_0000 | payload)
}

/// The IEEE bits of the `f32` a [`Value::Float`](super::super::Value) of an `f32` field
/// holds: a number rounded to nearest-even (as the packed encoder rounds), a NaN with
/// the sign and the top 23 bits of its payload (the quiet NaN if those are all zero).
pub(super) fn f32_bits_of(v: f64) -> u32 {
    if !v.is_nan() {
        return (v as f32).to_bits();
    }
    let bits = v.to_bits();
    let sign = ((bits >> 63) as u32) << 31;
    let payload = ((bits & 0x000F_FFFF_FFFF_FFFF) >> 29) as u32;
    let payload = if payload == 0 { 0x0040_0000 } else { payload };
    sign | 0x7F80_0000 | payload
}

/// `min_bytes` of §13.3, memoized per named type (a type used at many places of a
/// schema is computed once).
pub(super) struct MinBytes<'a> {
    schema: &'a Schema,
    named: Vec<Option<u128>>,
}

impl<'a> MinBytes<'a> {
    pub(super) fn new(schema: &'a Schema) -> MinBytes<'a> {
        MinBytes {
            schema,
            named: vec![None; schema.types.len()],
        }
    }

    /// The fewest bytes any value of `ty` takes: scalars their width, enums 4,
    /// optionals 1, lengths 8, `[T; N]` `N · min(T)`, a struct the sum of its fields,
    /// a union 4 + its smallest payload. Saturates (an array of `2^64 - 1` `u64`s).
    pub(super) fn of(&mut self, ty: &Type) -> u128 {
        match ty {
            Type::Bool => 1,
            Type::Float { repr } | Type::Quantized { repr, .. } => float_bytes(*repr) as u128,
            Type::Optional { .. } => 1,
            Type::Array { elem, len } => self.of(elem).saturating_mul(u128::from(*len)),
            Type::List { .. } | Type::String { .. } | Type::Bytes { .. } => LEN_BYTES as u128,
            Type::Named { id, .. } => self.named(*id),
            _ => {
                wire_int(ty)
                    .expect("the remaining types are integers")
                    .bytes as u128
            }
        }
    }

    fn named(&mut self, id: usize) -> u128 {
        if let Some(n) = self.named[id] {
            return n;
        }
        let schema = self.schema;
        let n = match &schema.types[id].kind {
            TypeDefKind::Struct { fields } => fields
                .iter()
                .fold(0u128, |acc, f| acc.saturating_add(self.of(&f.ty))),
            TypeDefKind::Enum { .. } => INDEX_BYTES as u128,
            TypeDefKind::Union { variants, .. } => {
                let smallest = variants
                    .iter()
                    .map(|v| v.payload.as_ref().map_or(0, |p| self.of(p)))
                    .min()
                    .unwrap_or(0);
                INDEX_BYTES as u128 + smallest
            }
        };
        self.named[id] = Some(n);
        n
    }
}
