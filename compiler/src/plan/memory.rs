//! The memory model of spec §11 for the plan's allocation charges: the inline size
//! and alignment of a value as the generated Go types lay it out (an upper bound of
//! Rust's), and its footprint including arrays held out of line.
//!
//! TODO(merge): the layout pass computes this model (with its compile-time limits);
//! once it does, this module reads the IR's numbers instead of computing them.

use crate::ir::{FloatRepr, IntRepr, Schema, Type, TypeDefKind};

/// Arrays whose inline size is above this are held out of line.
pub const OUT_OF_LINE_ABOVE: u64 = 4096;
/// Union payloads whose inline size is above this are held out of line (generated Rust
/// boxes them, so that no variant of an enum is much larger than the others).
pub const PAYLOAD_OUT_OF_LINE_ABOVE: u64 = 128;
/// Bytes an allocation costs beyond its contents, in the model.
pub const ALLOCATION_OVERHEAD: u64 = 32;

/// Inline size and alignment of a value of `ty`.
pub fn size_align(schema: &Schema, ty: &Type) -> (u64, u64) {
    match ty {
        Type::Bool => (1, 1),
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => repr_size(*repr),
        Type::Float { repr } | Type::Quantized { repr, .. } => match repr {
            FloatRepr::F32 => (4, 4),
            FloatRepr::F64 => (8, 8),
        },
        Type::Optional { inner } => record(&[(1, 1), size_align(schema, inner)]),
        Type::Array { elem, len } => {
            let (size, align) = size_align(schema, elem);
            let total = size.saturating_mul(*len);
            if total > OUT_OF_LINE_ABOVE {
                (8, 8)
            } else {
                (total, align)
            }
        }
        Type::List { .. } | Type::String { .. } | Type::Bytes { .. } => (24, 8),
        Type::Named { id, .. } => match &schema.types[*id].kind {
            TypeDefKind::Enum { repr, .. } => repr_size(*repr),
            TypeDefKind::Struct { fields } => {
                let parts: Vec<_> = fields.iter().map(|f| size_align(schema, &f.ty)).collect();
                nonzero(record(&parts))
            }
            TypeDefKind::Union {
                packed_tag_bits,
                variants,
            } => {
                let mut parts = vec![repr_size(IntRepr::for_width(
                    false,
                    (*packed_tag_bits).max(1),
                ))];
                parts.extend(variants.iter().filter_map(|v| v.payload.as_ref()).map(|t| {
                    match payload_out_of_line(schema, t) {
                        true => (8, 8),
                        false => size_align(schema, t),
                    }
                }));
                nonzero(record(&parts))
            }
        },
    }
}

/// Bytes of one value of `ty` including its out-of-line arrays (list, string and
/// bytes contents are charged when decoded).
pub fn footprint(schema: &Schema, ty: &Type) -> u64 {
    size_align(schema, ty).0.saturating_add(extra(schema, ty))
}

fn extra(schema: &Schema, ty: &Type) -> u64 {
    match ty {
        Type::Optional { inner } => extra(schema, inner),
        Type::Array { elem, len } => {
            let (size, _) = size_align(schema, elem);
            if size.saturating_mul(*len) > OUT_OF_LINE_ABOVE {
                footprint(schema, elem)
                    .saturating_mul(*len)
                    .saturating_add(ALLOCATION_OVERHEAD)
            } else {
                extra(schema, elem).saturating_mul(*len)
            }
        }
        Type::Named { id, .. } => match &schema.types[*id].kind {
            TypeDefKind::Struct { fields } => fields
                .iter()
                .fold(0u64, |a, f| a.saturating_add(extra(schema, &f.ty))),
            TypeDefKind::Union { variants, .. } => variants
                .iter()
                .filter_map(|v| v.payload.as_ref())
                .fold(0u64, |a, t| {
                    let more = match payload_out_of_line(schema, t) {
                        true => footprint(schema, t).saturating_add(ALLOCATION_OVERHEAD),
                        false => extra(schema, t),
                    };
                    a.saturating_add(more)
                }),
            TypeDefKind::Enum { .. } => 0,
        },
        _ => 0,
    }
}

/// Whether an array of `len` elements of `elem` is held out of line.
pub fn out_of_line(schema: &Schema, elem: &Type, len: u64) -> bool {
    size_align(schema, elem).0.saturating_mul(len) > OUT_OF_LINE_ABOVE
}

/// Whether a union payload of type `ty` is held out of line.
pub fn payload_out_of_line(schema: &Schema, ty: &Type) -> bool {
    size_align(schema, ty).0 > PAYLOAD_OUT_OF_LINE_ABOVE
}

fn repr_size(repr: IntRepr) -> (u64, u64) {
    let b = u64::from(repr.bits() / 8);
    (b, b)
}

/// Fields laid out in order, each at an offset rounded up to its alignment.
fn record(parts: &[(u64, u64)]) -> (u64, u64) {
    let align = parts.iter().map(|p| p.1).max().unwrap_or(1).max(1);
    let mut end = 0u64;
    for &(size, a) in parts {
        end = end.div_ceil(a).saturating_mul(a).saturating_add(size);
    }
    (end.div_ceil(align).saturating_mul(align), align)
}

/// A struct or union of size 0 counts one byte.
fn nonzero((size, align): (u64, u64)) -> (u64, u64) {
    (size.max(1), align)
}
