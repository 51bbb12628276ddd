//! The decode budget of spec §11, as the reference codec applies it: the memory model
//! (§11.2) written out from the spec's table, and the default limits (§11.3).
//!
//! It is deliberately a second, independent implementation of the model the layout
//! pass computes for the generated codecs: where the two disagreed, a `LimitExceeded`
//! (or its absence) would differ between the reference and a generated decoder, and
//! the differential tests would catch it.

use crate::ir::{FloatRepr, IntRepr, Schema, Type, TypeDefKind};

/// §11.3: the budget every decode starts with, in bytes.
pub const BASE_BUDGET: u128 = 1 << 20;
/// §11.3: bytes of budget per input byte.
pub const BUDGET_PER_INPUT_BYTE: u128 = 64;
/// §11.2: what one allocation costs beyond its contents.
pub const ALLOCATION_OVERHEAD: u128 = 32;
/// §11.2: arrays whose inline size is larger than this are held out of line.
const OUT_OF_LINE_ABOVE: u128 = 4096;
/// §11.2: union payloads whose inline size is larger than this are held out of line.
const PAYLOAD_OUT_OF_LINE_ABOVE: u128 = 128;

/// §11.3: the default budget for an input of `len` bytes.
pub fn default_budget(len: usize) -> u128 {
    BASE_BUDGET + BUDGET_PER_INPUT_BYTE * len as u128
}

/// §11.2: the charge of a sequence of `len` elements costing `each` bytes: nothing
/// when empty, else the elements plus one allocation.
pub fn charge(len: u64, each: u128) -> u128 {
    if len == 0 {
        0
    } else {
        u128::from(len) * each + ALLOCATION_OVERHEAD
    }
}

/// §11.2: the footprint of one value of `ty`: its inline size plus its out-of-line
/// arrays.
pub fn footprint(schema: &Schema, ty: &Type) -> u128 {
    let (size, _) = inline(schema, ty);
    size + out_of_line(schema, ty)
}

/// The bytes `int` of `repr` takes (its size and its alignment).
fn int_size(repr: IntRepr) -> u128 {
    u128::from(repr.bits() / 8)
}

/// (size, alignment) of a value laid out inline, §11.2's table.
fn inline(schema: &Schema, ty: &Type) -> (u128, u128) {
    match ty {
        Type::Bool => (1, 1),
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => (int_size(*repr), int_size(*repr)),
        Type::Float { repr } | Type::Quantized { repr, .. } => match repr {
            FloatRepr::F32 => (4, 4),
            FloatRepr::F64 => (8, 8),
        },
        Type::Optional { inner } => in_order(&[(1, 1), inline(schema, inner)]),
        Type::Array { elem, len } => {
            let (size, align) = inline(schema, elem);
            let total = size * u128::from(*len);
            if total > OUT_OF_LINE_ABOVE {
                (8, 8)
            } else {
                (total, align)
            }
        }
        Type::List { .. } | Type::String { .. } | Type::Bytes { .. } => (24, 8),
        Type::Named { id, .. } => match &schema.types[*id].kind {
            TypeDefKind::Enum { repr, .. } => (int_size(*repr), int_size(*repr)),
            TypeDefKind::Struct { fields } => {
                let parts: Vec<_> = fields.iter().map(|f| inline(schema, &f.ty)).collect();
                at_least_one(in_order(&parts))
            }
            TypeDefKind::Union {
                packed_tag_bits,
                variants,
            } => {
                let tag = int_size(IntRepr::for_width(false, (*packed_tag_bits).max(1)));
                let mut parts = vec![(tag, tag)];
                for v in variants {
                    if let Some(payload) = &v.payload {
                        let (size, align) = inline(schema, payload);
                        if size > PAYLOAD_OUT_OF_LINE_ABOVE {
                            parts.push((8, 8));
                        } else {
                            parts.push((size, align));
                        }
                    }
                }
                at_least_one(in_order(&parts))
            }
        },
    }
}

/// Bytes held out of line by a value of `ty` (its out-of-line arrays, each with one
/// allocation's overhead).
fn out_of_line(schema: &Schema, ty: &Type) -> u128 {
    match ty {
        Type::Optional { inner } => out_of_line(schema, inner),
        Type::Array { elem, len } => {
            let n = u128::from(*len);
            if inline(schema, elem).0 * n > OUT_OF_LINE_ABOVE {
                footprint(schema, elem) * n + ALLOCATION_OVERHEAD
            } else {
                out_of_line(schema, elem) * n
            }
        }
        Type::Named { id, .. } => match &schema.types[*id].kind {
            TypeDefKind::Struct { fields } => {
                fields.iter().map(|f| out_of_line(schema, &f.ty)).sum()
            }
            TypeDefKind::Union { variants, .. } => variants
                .iter()
                .filter_map(|v| v.payload.as_ref())
                .map(|p| {
                    if inline(schema, p).0 > PAYLOAD_OUT_OF_LINE_ABOVE {
                        footprint(schema, p) + ALLOCATION_OVERHEAD
                    } else {
                        out_of_line(schema, p)
                    }
                })
                .sum(),
            TypeDefKind::Enum { .. } => 0,
        },
        _ => 0,
    }
}

/// Parts laid out one after the other, each at an offset that is a multiple of its
/// alignment; the whole rounded up to the largest alignment.
fn in_order(parts: &[(u128, u128)]) -> (u128, u128) {
    let align = parts.iter().map(|&(_, a)| a).max().unwrap_or(1);
    let mut end: u128 = 0;
    for &(size, a) in parts {
        end = end.div_ceil(a) * a + size;
    }
    (end.div_ceil(align) * align, align)
}

/// A struct or union of size 0 counts one byte.
fn at_least_one((size, align): (u128, u128)) -> (u128, u128) {
    (size.max(1), align)
}
