//! Building the IR of one named type from its model, once the types it mentions
//! are laid out: the packed widths of its type expressions, its members' packed
//! sizes and offsets, its own packed size and its in-memory layout.

use std::collections::HashSet;

use super::packed::{self, Flags};
use super::{memory, LayoutError, LayoutErrorKind};
use crate::ir::{
    self, bits_for, IntRepr, LengthEncoding, PackedLayout, Schema, Type, TypeDef, TypeDefKind,
    TypeId,
};
use crate::sema::model::{DefKind, Field, Model, Ty, Variant};

/// The IR type of a model type: the packed widths and in-memory representations
/// are decided here.
pub(super) fn ir_type(ty: &Ty) -> Type {
    match ty {
        Ty::Bool => Type::Bool,
        Ty::UInt { bits } => Type::UInt {
            bits: *bits,
            repr: IntRepr::for_width(false, *bits),
        },
        Ty::SInt { bits } => Type::SInt {
            bits: *bits,
            repr: IntRepr::for_width(true, *bits),
        },
        Ty::Float(repr) => Type::Float { repr: *repr },
        Ty::Bounded {
            signed,
            base_bits,
            min,
            max,
        } => Type::Bounded {
            repr: IntRepr::for_width(*signed, *base_bits),
            base_bits: *base_bits,
            min: *min,
            max: *max,
            // §4.2: `v - MIN` in the fewest bits that hold `MAX - MIN`.
            packed_bits: bits_for((max - min) as u128),
        },
        Ty::Quantized {
            repr,
            min,
            max,
            steps,
        } => Type::Quantized {
            repr: *repr,
            min: *min,
            max: *max,
            steps: *steps,
            // §4.3: `q` in `0..=steps`.
            packed_bits: bits_for(u128::from(*steps)),
        },
        Ty::VarUInt { bits } => Type::VarUInt {
            bits: *bits,
            repr: IntRepr::for_width(false, *bits),
        },
        Ty::VarSInt { bits } => Type::VarSInt {
            bits: *bits,
            repr: IntRepr::for_width(true, *bits),
        },
        Ty::Optional(inner) => Type::Optional {
            inner: Box::new(ir_type(inner)),
        },
        Ty::Array(elem, len) => Type::Array {
            elem: Box::new(ir_type(elem)),
            len: *len,
        },
        Ty::List(elem, max, key) => Type::List {
            elem: Box::new(ir_type(elem)),
            max: *max,
            packed_len: length_encoding(*max),
            key: key.as_ref().map(|k| ir::ListKey {
                field: k.field,
                name: k.name.clone(),
            }),
        },
        Ty::String(max) => Type::String {
            max: *max,
            packed_len: length_encoding(*max),
        },
        Ty::Bytes(max) => Type::Bytes {
            max: *max,
            packed_len: length_encoding(*max),
        },
        Ty::Named(id, name) => Type::Named {
            id: *id,
            name: name.clone(),
        },
    }
}

/// §5.6: a bounded length in `bits_for(max)` bits, an unbounded one as a varint.
fn length_encoding(max: Option<u64>) -> LengthEncoding {
    match max {
        Some(m) => LengthEncoding::Fixed {
            bits: bits_for(u128::from(m)),
        },
        None => LengthEncoding::Varint,
    }
}

/// Stands in for a type that is not laid out yet: only a back reference of a
/// recursive type (already reported) can meet one.
const CUT_PACKED: PackedLayout = PackedLayout {
    min_bits: 1,
    max_bits: Some(1),
};

/// The pass state: the types laid out so far and the problems found.
pub(super) struct Pass<'a> {
    model: &'a Model,
    done: Vec<Option<TypeDef>>,
    pub(super) errors: Vec<LayoutError>,
    /// Per type: whether one of its sizes overflowed.
    overflowed: Vec<bool>,
    reported: HashSet<LayoutError>,
}

impl<'a> Pass<'a> {
    pub(super) fn new(model: &'a Model) -> Pass<'a> {
        Pass {
            model,
            done: vec![None; model.types.len()],
            errors: Vec::new(),
            overflowed: vec![false; model.types.len()],
            reported: HashSet::new(),
        }
    }

    /// The schema, once every type is laid out.
    pub(super) fn finish(self) -> (Schema, Vec<LayoutError>) {
        let types = self
            .done
            .into_iter()
            .map(|def| def.expect("every type was laid out"))
            .collect();
        let schema = Schema {
            root_file: self.model.root_file.clone(),
            constants: self.model.constants.clone(),
            types,
        };
        (schema, self.errors)
    }

    /// The types laid out so far (`None`: not yet).
    pub(super) fn types(&self) -> &[Option<TypeDef>] {
        &self.done
    }

    fn packed_of(&self, id: TypeId) -> PackedLayout {
        self.done[id].as_ref().map_or(CUT_PACKED, |d| d.packed)
    }

    /// Lays out type `id`; every type it mentions is laid out already (or is part
    /// of its cycle).
    pub(super) fn lay_out(&mut self, id: TypeId) {
        let def = &self.model.types[id];
        let (kind, packed) = match &def.kind {
            DefKind::Struct { fields } => self.structure(id, fields),
            DefKind::Enum {
                declared_tag_bits,
                variants,
            } => {
                let largest = variants.iter().map(|v| v.value).max().unwrap_or(0);
                let bits = declared_tag_bits.unwrap_or_else(|| bits_for(largest.into()));
                let kind = TypeDefKind::Enum {
                    repr: IntRepr::for_width(false, bits),
                    packed_tag_bits: bits,
                    variants: variants.clone(),
                };
                (kind, PackedLayout::fixed(u64::from(bits)))
            }
            DefKind::Union {
                declared_tag_bits,
                variants,
            } => self.union(id, *declared_tag_bits, variants),
        };
        // A type whose size overflowed counts as one bit from here on, so types
        // that use it do not report the same overflow again.
        let packed = if self.overflowed[id] {
            CUT_PACKED
        } else {
            packed
        };
        let memory = memory::def(&kind, &|t| memory::laid_out(t, &self.done));
        self.done[id] = Some(TypeDef {
            name: def.name.clone(),
            doc: def.doc.clone(),
            origin: def.origin.clone(),
            message_id: def.message_id,
            delta: def.delta,
            kind,
            packed,
            memory,
            spans: def.spans,
        });
    }

    fn structure(&mut self, id: TypeId, fields: &[Field]) -> (TypeDefKind, PackedLayout) {
        let mut out = Vec::with_capacity(fields.len());
        let mut offset = Some(0u64);
        let mut total = PackedLayout::fixed(0);
        for (index, field) in fields.iter().enumerate() {
            let ty = ir_type(&field.ty);
            let layout = self.member(id, index, &ty);
            out.push(ir::Field {
                name: field.name.clone(),
                doc: field.doc.clone(),
                line: field.line,
                ty,
                packed_offset: offset,
                packed: layout,
                spans: field.spans,
            });
            let mut f = Flags::default();
            offset = match offset {
                Some(o) if layout.is_fixed() => Some(packed::add(o, layout.min_bits, &mut f)),
                _ => None,
            };
            total = packed::sequence(total, 1, Some(1), layout, &mut f);
            if f.overflow {
                // The fields fit one by one, but not together.
                self.error(id, None, LayoutErrorKind::Overflow);
                offset = None;
            }
        }
        (TypeDefKind::Struct { fields: out }, total)
    }

    fn union(
        &mut self,
        id: TypeId,
        declared_tag_bits: Option<u32>,
        variants: &[Variant],
    ) -> (TypeDefKind, PackedLayout) {
        let largest = variants.iter().map(|v| v.tag).max().unwrap_or(0);
        let tag_bits = declared_tag_bits.unwrap_or_else(|| bits_for(largest.into()));
        let mut out = Vec::with_capacity(variants.len());
        let mut min: Option<u64> = None;
        let mut max: Option<u64> = Some(0);
        for (index, variant) in variants.iter().enumerate() {
            let payload = variant.payload.as_ref().map(ir_type);
            let layout = match &payload {
                Some(ty) => self.member(id, index, ty),
                None => PackedLayout::fixed(0),
            };
            out.push(ir::UnionVariant {
                name: variant.name.clone(),
                doc: variant.doc.clone(),
                tag: variant.tag,
                payload,
                packed: layout,
                spans: variant.spans,
            });
            min = Some(min.map_or(layout.min_bits, |m| m.min(layout.min_bits)));
            max = max.zip(layout.max_bits).map(|(a, b)| a.max(b));
        }
        let mut f = Flags::default();
        let tag = u64::from(tag_bits);
        let packed = PackedLayout {
            min_bits: packed::add(tag, min.unwrap_or(0), &mut f),
            max_bits: max.map(|m| packed::add(tag, m, &mut f)),
        };
        if f.overflow {
            self.error(id, None, LayoutErrorKind::Overflow);
        }
        let kind = TypeDefKind::Union {
            packed_tag_bits: tag_bits,
            variants: out,
        };
        (kind, packed)
    }

    /// Measures the type of member `index` of type `id`, reporting its problems.
    fn member(&mut self, id: TypeId, index: usize, ty: &Type) -> PackedLayout {
        let mut f = Flags::default();
        let layout = packed::measure(ty, &|named| self.packed_of(named), &mut f);
        if f.zero_width_elem {
            self.error(id, Some(index), LayoutErrorKind::ZeroWidthListElement);
        }
        if f.overflow {
            self.error(id, Some(index), LayoutErrorKind::Overflow);
            return CUT_PACKED;
        }
        layout
    }

    fn error(&mut self, type_id: TypeId, member: Option<usize>, kind: LayoutErrorKind) {
        let e = LayoutError {
            type_id,
            member,
            kind,
        };
        if kind == LayoutErrorKind::Overflow {
            self.overflowed[type_id] = true;
        }
        // A struct whose total overflowed reports it once, not once per field after.
        if self.reported.insert(e) {
            self.errors.push(e);
        }
    }
}
