//! The layout pass: packed-encoding sizes (docs/spec.md §6) of every type, field and
//! union payload, and the fixed bit offsets of struct fields (§6.2).
//!
//! It runs on a lowered [`Schema`] whose `packed*` fields are still placeholders and
//! fills them in. The arithmetic lives only here; backends read the numbers from the
//! IR, or call [`of_type`] for an anonymous type (a list element, say) whose size the
//! IR does not store.

mod memory;

pub use memory::{memory_of, memory_of_def, MAX_INLINE_ARRAY};

use crate::ir::{
    LengthEncoding, MemoryLayout, PackedLayout, Schema, Type, TypeDef, TypeDefKind, TypeId,
};

/// What went wrong while computing a size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutErrorKind {
    /// A list whose element type can encode to zero bits (spec §5.6, `E0310`).
    ZeroWidthListElement,
    /// A size in bits that does not fit in a `u64`.
    Overflow,
}

/// A layout problem, located by type and member (field or union variant index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutError {
    /// The type being laid out.
    pub type_id: TypeId,
    /// The field or variant whose type has the problem; `None` for the type as a whole.
    pub member: Option<usize>,
    /// What went wrong.
    pub kind: LayoutErrorKind,
}

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
    measure(ty, &mut |id| types[id].packed, &mut flags)
}

/// Problems seen while measuring one type expression.
#[derive(Default)]
struct Flags {
    overflow: bool,
    zero_width_elem: bool,
}

fn add(a: u64, b: u64, flags: &mut Flags) -> u64 {
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
fn sequence(
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

fn measure(
    ty: &Type,
    named: &mut dyn FnMut(TypeId) -> PackedLayout,
    f: &mut Flags,
) -> PackedLayout {
    match ty {
        Type::Bool => PackedLayout::fixed(1),
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => PackedLayout::fixed(u64::from(*bits)),
        Type::Float { repr } => PackedLayout::fixed(match repr {
            crate::ir::FloatRepr::F32 => 32,
            crate::ir::FloatRepr::F64 => 64,
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

/// The computed sizes of one type definition and its members.
struct Computed {
    def: PackedLayout,
    /// Per field / variant: its layout and (fields only) its fixed offset.
    members: Vec<(PackedLayout, Option<u64>)>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Pending,
    InProgress,
    Done,
}

struct Pass<'a> {
    types: &'a [TypeDef],
    state: Vec<State>,
    computed: Vec<Option<Computed>>,
    errors: Vec<LayoutError>,
}

/// Fills in every `packed`, `packed_offset` of `schema` and returns the problems
/// found. Recursive types must have been rejected before; if one slips through,
/// the cycle is cut (its back reference counts as one bit) instead of looping.
pub fn compute(schema: &mut Schema) -> Vec<LayoutError> {
    let n = schema.types.len();
    let mut pass = Pass {
        types: &schema.types,
        state: vec![State::Pending; n],
        computed: (0..n).map(|_| None).collect(),
        errors: Vec::new(),
    };
    for id in 0..n {
        pass.def_layout(id);
    }
    let Pass {
        computed, errors, ..
    } = pass;
    let memory = memory_layouts(&schema.types);
    for ((def, computed), memory) in schema.types.iter_mut().zip(computed).zip(memory) {
        let computed = computed.expect("every type was laid out");
        def.packed = computed.def;
        def.memory = memory;
        match &mut def.kind {
            TypeDefKind::Struct { fields } => {
                for (field, (layout, offset)) in fields.iter_mut().zip(computed.members) {
                    field.packed = layout;
                    field.packed_offset = offset;
                }
            }
            TypeDefKind::Union { variants, .. } => {
                for (variant, (layout, _)) in variants.iter_mut().zip(computed.members) {
                    variant.packed = layout;
                }
            }
            TypeDefKind::Enum { .. } => {}
        }
    }
    errors
}

/// The memory layout of every type; a back reference of a recursive type (already
/// rejected) counts as one byte.
fn memory_layouts(types: &[TypeDef]) -> Vec<MemoryLayout> {
    fn visit(types: &[TypeDef], id: TypeId, memo: &mut Vec<Option<MemoryLayout>>) -> MemoryLayout {
        if let Some(m) = memo[id] {
            return m;
        }
        memo[id] = Some(memory::aggregate([]));
        let mut deps = Vec::new();
        let member = |ty: &Type, deps: &mut Vec<TypeId>| {
            let mut stack = vec![ty];
            while let Some(t) = stack.pop() {
                match t {
                    Type::Named { id, .. } => deps.push(*id),
                    Type::Optional { inner } => stack.push(inner),
                    Type::Array { elem, .. } | Type::List { elem, .. } => stack.push(elem),
                    _ => {}
                }
            }
        };
        match &types[id].kind {
            TypeDefKind::Struct { fields } => fields.iter().for_each(|f| member(&f.ty, &mut deps)),
            TypeDefKind::Union { variants, .. } => variants
                .iter()
                .filter_map(|v| v.payload.as_ref())
                .for_each(|t| member(t, &mut deps)),
            TypeDefKind::Enum { .. } => {}
        }
        for dep in deps {
            visit(types, dep, memo);
        }
        let named = |t: TypeId| memo[t].expect("visited above");
        let m = memory::def(&types[id].kind, &named);
        memo[id] = Some(m);
        m
    }
    let mut memo = vec![None; types.len()];
    (0..types.len())
        .map(|id| visit(types, id, &mut memo))
        .collect()
}

impl Pass<'_> {
    fn def_layout(&mut self, id: TypeId) -> PackedLayout {
        match self.state[id] {
            State::Done => {
                return self.computed[id]
                    .as_ref()
                    .map(|c| c.def)
                    .unwrap_or(PackedLayout::fixed(1))
            }
            State::InProgress => return PackedLayout::fixed(1),
            State::Pending => {}
        }
        self.state[id] = State::InProgress;
        let types = self.types;
        let computed = match &types[id].kind {
            TypeDefKind::Struct { fields } => {
                let mut members = Vec::with_capacity(fields.len());
                let mut offset = Some(0u64);
                let mut total = PackedLayout::fixed(0);
                for (index, field) in fields.iter().enumerate() {
                    let layout = self.member(id, index, &field.ty);
                    members.push((layout, offset));
                    let mut f = Flags::default();
                    offset = match offset {
                        Some(o) if layout.is_fixed() => Some(add(o, layout.min_bits, &mut f)),
                        _ => None,
                    };
                    total = sequence(total, 1, Some(1), layout, &mut f);
                    if f.overflow {
                        // The fields fit one by one, but not together.
                        self.error(id, None, LayoutErrorKind::Overflow);
                        offset = None;
                    }
                }
                Computed {
                    def: total,
                    members,
                }
            }
            TypeDefKind::Enum {
                packed_tag_bits, ..
            } => Computed {
                def: PackedLayout::fixed(u64::from(*packed_tag_bits)),
                members: Vec::new(),
            },
            TypeDefKind::Union {
                packed_tag_bits,
                variants,
            } => {
                let tag = u64::from(*packed_tag_bits);
                let mut members = Vec::with_capacity(variants.len());
                let mut min: Option<u64> = None;
                let mut max: Option<u64> = Some(0);
                for (index, variant) in variants.iter().enumerate() {
                    let layout = match &variant.payload {
                        Some(ty) => self.member(id, index, ty),
                        None => PackedLayout::fixed(0),
                    };
                    members.push((layout, None));
                    min = Some(min.map_or(layout.min_bits, |m| m.min(layout.min_bits)));
                    max = max.zip(layout.max_bits).map(|(a, b)| a.max(b));
                }
                let mut f = Flags::default();
                let def = PackedLayout {
                    min_bits: add(tag, min.unwrap_or(0), &mut f),
                    max_bits: max.map(|m| add(tag, m, &mut f)),
                };
                if f.overflow {
                    self.error(id, None, LayoutErrorKind::Overflow);
                }
                Computed { def, members }
            }
        };
        // A type whose size overflowed counts as one bit from here on, so types
        // that use it do not report the same overflow again.
        let failed = self
            .errors
            .iter()
            .any(|e| e.type_id == id && e.kind == LayoutErrorKind::Overflow);
        let def = if failed {
            PackedLayout::fixed(1)
        } else {
            computed.def
        };
        self.computed[id] = Some(Computed {
            def,
            members: computed.members,
        });
        self.state[id] = State::Done;
        def
    }

    /// Measures the type of member `index` of type `id`, reporting its problems.
    fn member(&mut self, id: TypeId, index: usize, ty: &Type) -> PackedLayout {
        let mut f = Flags::default();
        let layout = measure(ty, &mut |named| self.def_layout(named), &mut f);
        if f.zero_width_elem {
            self.error(id, Some(index), LayoutErrorKind::ZeroWidthListElement);
        }
        if f.overflow {
            self.error(id, Some(index), LayoutErrorKind::Overflow);
            return PackedLayout::fixed(1);
        }
        layout
    }

    fn error(&mut self, type_id: TypeId, member: Option<usize>, kind: LayoutErrorKind) {
        let e = LayoutError {
            type_id,
            member,
            kind,
        };
        if !self.errors.contains(&e) {
            self.errors.push(e);
        }
    }
}
