//! Packed-encoding sizes (docs/spec.md §6): the fewest and most bits any value of
//! a type encodes to, with checked arithmetic that reports sizes beyond 64 bits.

use crate::ir::{FloatRepr, LengthEncoding, PackedLayout, Type, TypeDef, TypeId};

/// Size of a `varuW` / `variW` (spec §5.4): with `GMAX = W / 4` groups of 4 bits,
/// the shortest form is one group plus its terminating zero bit; the longest is
/// `GMAX - 1` one bits (no terminator) plus all `W` bits.
pub fn varint_layout(width: u32) -> PackedLayout {
    let gmax = u64::from(width / 4);
    let terminator = u64::from(gmax > 1);
    PackedLayout {
        min_bits: 4 + terminator,
        max_bits: Some(gmax - 1 + u64::from(width)),
    }
}

/// Size of a length prefix.
pub fn length_layout(len: LengthEncoding) -> PackedLayout {
    match len {
        LengthEncoding::Fixed { bits } => PackedLayout::fixed(u64::from(bits)),
        LengthEncoding::Varint => varint_layout(64),
    }
}

/// Size of any type expression of an already laid-out schema (named types use
/// their stored [`TypeDef::packed`]). Sizes that would overflow saturate at `u64::MAX`;
/// they cannot occur in a schema the compiler accepted.
pub fn of_type(ty: &Type, types: &[TypeDef]) -> PackedLayout {
    let mut flags = Flags::default();
    measure(ty, &|id| types[id].packed, &mut flags)
}

/// Problems seen while measuring one type expression.
#[derive(Default)]
pub(crate) struct Flags {
    /// A size did not fit in 64 bits.
    pub overflow: bool,
    /// A list's element type can encode to zero bits.
    pub zero_width_elem: bool,
}

pub(crate) fn add(a: u64, b: u64, flags: &mut Flags) -> u64 {
    a.checked_add(b).unwrap_or_else(|| {
        flags.overflow = true;
        u64::MAX
    })
}

fn mul(a: u64, b: u64, flags: &mut Flags) -> u64 {
    a.checked_mul(b).unwrap_or_else(|| {
        flags.overflow = true;
        u64::MAX
    })
}

/// Size of a sequence: `prefix` then `len_max` elements of layout `elem` at most
/// (`len_max = None`: unbounded), at least `len_min` elements.
pub(crate) fn sequence(
    prefix: PackedLayout,
    len_min: u64,
    len_max: Option<u64>,
    elem: PackedLayout,
    f: &mut Flags,
) -> PackedLayout {
    let min_bits = add(prefix.min_bits, mul(len_min, elem.min_bits, f), f);
    let max_bits = match (prefix.max_bits, len_max, elem.max_bits) {
        (Some(p), Some(n), Some(e)) => Some(add(p, mul(n, e, f), f)),
        _ => None,
    };
    PackedLayout { min_bits, max_bits }
}

pub(crate) fn measure(
    ty: &Type,
    named: &dyn Fn(TypeId) -> PackedLayout,
    f: &mut Flags,
) -> PackedLayout {
    match ty {
        Type::Bool => PackedLayout::fixed(1),
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => PackedLayout::fixed(u64::from(*bits)),
        Type::Float { repr } => PackedLayout::fixed(match repr {
            FloatRepr::F32 => 32,
            FloatRepr::F64 => 64,
        }),
        Type::Bounded { packed_bits, .. } | Type::Quantized { packed_bits, .. } => {
            PackedLayout::fixed(u64::from(*packed_bits))
        }
        Type::VarUInt { bits, .. } | Type::VarSInt { bits, .. } => varint_layout(*bits),
        Type::Optional { inner } => {
            let inner = measure(inner, named, f);
            // Absent: the presence bit alone; present: the bit plus the value.
            PackedLayout {
                min_bits: 1,
                max_bits: inner.max_bits.map(|m| add(m, 1, f)),
            }
        }
        Type::Array { elem, len } => {
            let elem = measure(elem, named, f);
            sequence(PackedLayout::fixed(0), *len, Some(*len), elem, f)
        }
        Type::List {
            elem,
            max,
            packed_len,
            ..
        } => {
            let elem = measure(elem, named, f);
            if elem.min_bits == 0 {
                f.zero_width_elem = true;
            }
            sequence(length_layout(*packed_len), 0, *max, elem, f)
        }
        Type::String { max, packed_len } | Type::Bytes { max, packed_len } => sequence(
            length_layout(*packed_len),
            0,
            *max,
            PackedLayout::fixed(8),
            f,
        ),
        Type::Named { id, .. } => named(*id),
    }
}
