//! The in-memory size model (`docs/spec.md` §11): inline size and alignment of a
//! decoded value as generated Go lays it out (an upper bound of generated Rust),
//! the footprint including arrays held out of line, and the nesting depth.
//!
//! Decoders charge these numbers against a decode budget, so they are computed
//! once, here, and stored in the IR for every named type; [`memory_of`] gives them
//! for an anonymous type expression (a list element, say). All arithmetic
//! saturates: a sum that does not fit in a `u64` is `u64::MAX`, far above the
//! limits the compiler enforces.

use crate::ir::{FloatRepr, IntRepr, MemoryLayout, Type, TypeDef, TypeDefKind, TypeId};

/// Arrays whose inline bytes (`N · size(T)`) exceed this are held out of line.
pub const MAX_INLINE_ARRAY: u64 = 4096;
/// Union payloads whose inline bytes exceed this are held out of line (generated Rust
/// boxes them, so that no variant of an enum is much larger than the others).
pub const MAX_INLINE_PAYLOAD: u64 = 128;
/// An out-of-line array's inline part: one pointer.
const OUT_OF_LINE: MemoryLayout = MemoryLayout {
    size: 8,
    align: 8,
    footprint: 8,
    depth: 1,
};
/// What an out-of-line array costs beyond its elements (allocation header).
const OUT_OF_LINE_OVERHEAD: u64 = 32;
/// A list, string or bytes value: pointer, length and capacity.
const SEQUENCE_HEADER: u64 = 24;

/// The memory layout of any type expression of a laid-out schema (named types use
/// their stored [`TypeDef::memory`]).
pub fn memory_of(ty: &Type, types: &[TypeDef]) -> MemoryLayout {
    measure(ty, &|id| types[id].memory)
}

/// The memory layout of `ty` while types are being laid out: a type not laid out
/// yet (only a back reference of a recursive type) counts as an empty struct.
pub(crate) fn memory_of_opt(ty: &Type, types: &[Option<TypeDef>]) -> MemoryLayout {
    measure(ty, &|id| laid_out(id, types))
}

/// The memory layout of named type `id` while types are being laid out.
pub(crate) fn laid_out(id: TypeId, types: &[Option<TypeDef>]) -> MemoryLayout {
    types[id]
        .as_ref()
        .map_or_else(|| aggregate([]), |d| d.memory)
}

/// The memory layout of a named type of shape `kind`, whose member types are
/// looked up in `types` (which must hold every type `kind` refers to).
pub fn memory_of_def(kind: &TypeDefKind, types: &[TypeDef]) -> MemoryLayout {
    def(kind, &|id| types[id].memory)
}

/// The memory layout of a named type of shape `kind`, named members by `named`.
pub(crate) fn def(kind: &TypeDefKind, named: &dyn Fn(TypeId) -> MemoryLayout) -> MemoryLayout {
    match kind {
        TypeDefKind::Struct { fields } => aggregate(fields.iter().map(|f| measure(&f.ty, named))),
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => union(
            *packed_tag_bits,
            variants
                .iter()
                .filter_map(|v| v.payload.as_ref())
                .map(|t| measure(t, named)),
        ),
        TypeDefKind::Enum { repr, .. } => int(*repr),
    }
}

/// A union: laid out like a struct of its tag and every payload, payloads above
/// [`MAX_INLINE_PAYLOAD`] bytes held out of line behind a pointer; as deep as a struct
/// of the payloads alone (the tag is not a member of the schema).
pub(crate) fn union(
    packed_tag_bits: u32,
    payloads: impl IntoIterator<Item = MemoryLayout>,
) -> MemoryLayout {
    let payloads: Vec<MemoryLayout> = payloads.into_iter().map(payload).collect();
    let depth = aggregate(payloads.iter().copied()).depth;
    let tag = std::iter::once(union_tag(packed_tag_bits));
    MemoryLayout {
        depth,
        ..aggregate(tag.chain(payloads))
    }
}

/// Whether a union payload of layout `m` is held out of line.
pub fn payload_out_of_line(m: &MemoryLayout) -> bool {
    m.size > MAX_INLINE_PAYLOAD
}

/// A union payload as the union holds it: inline, or a pointer to it plus one
/// allocation.
fn payload(m: MemoryLayout) -> MemoryLayout {
    if !payload_out_of_line(&m) {
        return m;
    }
    MemoryLayout {
        footprint: OUT_OF_LINE
            .size
            .saturating_add(m.footprint)
            .saturating_add(OUT_OF_LINE_OVERHEAD),
        depth: m.depth,
        ..OUT_OF_LINE
    }
}

/// Whether `[T; len]` with elements of layout `elem` is held out of line.
pub fn array_out_of_line(elem: &MemoryLayout, len: u64) -> bool {
    elem.size
        .checked_mul(len)
        .is_none_or(|size| size > MAX_INLINE_ARRAY)
}

/// A scalar of `bytes` bytes, aligned to its size.
fn scalar(bytes: u64) -> MemoryLayout {
    MemoryLayout {
        size: bytes,
        align: bytes,
        footprint: bytes,
        depth: 1,
    }
}

/// An integer held in `repr`.
pub(crate) fn int(repr: IntRepr) -> MemoryLayout {
    scalar(u64::from(repr.bits() / 8))
}

fn float(repr: FloatRepr) -> MemoryLayout {
    scalar(match repr {
        FloatRepr::F32 => 4,
        FloatRepr::F64 => 8,
    })
}

/// `x` rounded up to a multiple of `align` (saturating).
fn round_up(x: u64, align: u64) -> u64 {
    x.div_ceil(align).saturating_mul(align)
}

/// The layout of a record whose members are laid out in order, each at an offset
/// rounded up to its alignment (a struct, a union as tag + every payload, an
/// optional as `{bool, T}`). Depth is that of the deepest member (the caller adds
/// the record's own level).
pub(crate) fn record(members: impl IntoIterator<Item = MemoryLayout>) -> MemoryLayout {
    let mut end = 0u64;
    let mut align = 1u64;
    let mut extra = 0u64;
    let mut depth = 0u32;
    for m in members {
        end = round_up(end, m.align).saturating_add(m.size);
        align = align.max(m.align);
        extra = extra.saturating_add(m.footprint.saturating_sub(m.size));
        depth = depth.max(m.depth);
    }
    let size = round_up(end, align);
    MemoryLayout {
        size,
        align,
        footprint: size.saturating_add(extra),
        depth,
    }
}

/// A struct or union made of `members`: a record one level deeper than its
/// deepest member, at least one byte long (so an array of empty values still
/// costs a byte per element).
pub(crate) fn aggregate(members: impl IntoIterator<Item = MemoryLayout>) -> MemoryLayout {
    let r = record(members);
    let size = r.size.max(1);
    MemoryLayout {
        size,
        align: r.align,
        footprint: r.footprint.saturating_sub(r.size).saturating_add(size),
        depth: r.depth.saturating_add(1),
    }
}

/// The tag of a union held in memory: the narrowest unsigned integer of at least
/// one bit holding the packed tag.
fn union_tag(packed_tag_bits: u32) -> MemoryLayout {
    int(IntRepr::for_width(false, packed_tag_bits.max(1)))
}

/// `[T; len]`: inline up to [`MAX_INLINE_ARRAY`] bytes, else behind a pointer.
fn array(elem: MemoryLayout, len: u64) -> MemoryLayout {
    let depth = elem.depth.saturating_add(1);
    match elem.size.checked_mul(len) {
        Some(size) if size <= MAX_INLINE_ARRAY => MemoryLayout {
            size,
            align: elem.align,
            footprint: size
                .saturating_add(len.saturating_mul(elem.footprint.saturating_sub(elem.size))),
            depth,
        },
        _ => MemoryLayout {
            footprint: OUT_OF_LINE
                .size
                .saturating_add(len.saturating_mul(elem.footprint))
                .saturating_add(OUT_OF_LINE_OVERHEAD),
            depth,
            ..OUT_OF_LINE
        },
    }
}

/// A list, string or bytes: the header inline, the contents charged at decode time.
fn sequence(depth: u32) -> MemoryLayout {
    MemoryLayout {
        size: SEQUENCE_HEADER,
        align: 8,
        footprint: SEQUENCE_HEADER,
        depth,
    }
}

/// The memory layout of `ty`, with named types looked up by `named`.
pub(crate) fn measure(ty: &Type, named: &dyn Fn(TypeId) -> MemoryLayout) -> MemoryLayout {
    match ty {
        Type::Bool => scalar(1),
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => int(*repr),
        Type::Float { repr } | Type::Quantized { repr, .. } => float(*repr),
        Type::Optional { inner } => {
            let r = record([scalar(1), measure(inner, named)]);
            MemoryLayout {
                depth: r.depth.saturating_add(1),
                ..r
            }
        }
        Type::Array { elem, len } => array(measure(elem, named), *len),
        Type::List { elem, .. } => sequence(measure(elem, named).depth.saturating_add(1)),
        Type::String { .. } | Type::Bytes { .. } => sequence(1),
        Type::Named { id, .. } => named(*id),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(bits: u32) -> Type {
        Type::UInt {
            bits,
            repr: IntRepr::for_width(false, bits),
        }
    }

    fn of(ty: &Type) -> MemoryLayout {
        measure(ty, &|_| unreachable!("no named types here"))
    }

    #[test]
    fn records_pad_to_alignment() {
        // {u8, u32, u8}: 0, 4..8, 8 → 9, rounded to 12.
        let r = aggregate([int(IntRepr::U8), int(IntRepr::U32), int(IntRepr::U8)]);
        assert_eq!((r.size, r.align, r.footprint, r.depth), (12, 4, 12, 2));
        // An empty struct still takes a byte.
        let e = aggregate([]);
        assert_eq!((e.size, e.align, e.footprint, e.depth), (1, 1, 1, 1));
    }

    #[test]
    fn optionals_lists_and_arrays() {
        let opt = of(&Type::Optional {
            inner: Box::new(u(64)),
        });
        assert_eq!((opt.size, opt.align, opt.depth), (16, 8, 2));
        let list = of(&Type::List {
            elem: Box::new(u(8)),
            max: None,
            packed_len: crate::ir::LengthEncoding::Varint,
            key: None,
        });
        assert_eq!(
            (list.size, list.align, list.footprint, list.depth),
            (24, 8, 24, 2)
        );
        let inline = of(&Type::Array {
            elem: Box::new(u(32)),
            len: 1024,
        });
        assert_eq!(
            (inline.size, inline.align, inline.footprint),
            (4096, 4, 4096)
        );
        let outside = of(&Type::Array {
            elem: Box::new(u(32)),
            len: 1025,
        });
        assert_eq!(
            (outside.size, outside.align, outside.footprint),
            (8, 8, 8 + 4100 + 32)
        );
        // An inline array of out-of-line arrays carries their contents.
        let nested = of(&Type::Array {
            elem: Box::new(Type::Array {
                elem: Box::new(u(8)),
                len: 5000,
            }),
            len: 3,
        });
        assert_eq!(
            (nested.size, nested.footprint, nested.depth),
            (24, 24 + 3 * 5032, 3)
        );
    }

    #[test]
    fn sizes_saturate() {
        let huge = of(&Type::Array {
            elem: Box::new(Type::Array {
                elem: Box::new(u(64)),
                len: 1 << 32,
            }),
            len: 1 << 32,
        });
        assert_eq!(huge.footprint, u64::MAX);
        assert_eq!(huge.size, 8);
    }
}
