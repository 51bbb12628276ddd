//! The bincode plan: what the second encoding (docs/spec.md §13, bincode 1.x /
//! wincode bytes) writes for every value, decided once here and printed by each
//! backend — the width of every integer, the checks each side runs with their error
//! kinds, which sequences move in bulk, and the byte sizes the decoder's length
//! checks use. Like the packed plan it is built from the IR alone; the reference
//! codec (`crate::codec::bincode`) does not use it, so the shared vectors check the
//! plan against an independent reading of the spec.

use serde::Serialize;

use super::ops::{Form, Kind, Lane};
use super::scalar;
use crate::ir::{FloatRepr, IntRepr, Schema, Type, TypeDefKind, TypeId};

/// Bytes of a length prefix (a `u64`, spec §13.3).
pub const LEN_BYTES: u64 = 8;
/// Bytes of an enum or union variant index (a `u32`, spec §13.4).
pub const INDEX_BYTES: u64 = 4;

/// The bincode plan of every named type of a schema, indexed by [`TypeId`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BincodePlan {
    pub types: Vec<BinType>,
}

/// One named type: its body and byte sizes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BinType {
    pub id: TypeId,
    pub body: BinBody,
    pub size: Size,
}

/// Fewest and most bytes a value takes (`max: None`: unbounded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Size {
    pub min: u64,
    pub max: Option<u64>,
}

impl Size {
    const fn exact(n: u64) -> Size {
        Size {
            min: n,
            max: Some(n),
        }
    }

    fn then(self, other: Size) -> Size {
        Size {
            min: self.min.saturating_add(other.min),
            max: self.max.zip(other.max).map(|(a, b)| a.saturating_add(b)),
        }
    }

    fn times(self, n: u64) -> Size {
        Size {
            min: self.min.saturating_mul(n),
            max: self.max.map(|m| m.saturating_mul(n)),
        }
    }

    fn either(self, other: Size) -> Size {
        Size {
            min: self.min.min(other.min),
            max: self.max.zip(other.max).map(|(a, b)| a.max(b)),
        }
    }
}

/// The shape of a named type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum BinBody {
    /// Fields in declaration order, nothing between them (§13.5).
    Struct { fields: Vec<BinField> },
    /// A `u32` variant index: the declaration index, not the declared value (§13.4).
    Enum {
        /// Declared values by index (what the language value holds).
        values: Vec<u64>,
        /// Kind of an index at or past `values.len()` (and, for an encoder, of an
        /// undeclared value).
        undeclared: Kind,
    },
    /// A `u32` variant index, then the arm's payload (§13.4).
    Union { arms: Vec<BinArm>, undeclared: Kind },
}

/// A struct field.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BinField {
    pub name: String,
    pub node: BinNode,
}

/// A union arm, at index = its position.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BinArm {
    pub name: String,
    pub payload: Option<BinNode>,
}

/// One value: its operation, byte sizes and the IR type (for printing language types).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BinNode {
    pub op: BinOp,
    pub size: Size,
    #[serde(skip)]
    pub ty: Type,
}

/// What the bincode wire holds for a value (§13.2–§13.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum BinOp {
    /// One byte, 0 or 1; any other byte is `invalid` on decode.
    Bool { invalid: Kind },
    /// A little-endian integer of `repr`'s width (two's complement when signed).
    /// `range`: the values the schema allows when they are fewer than `repr` holds
    /// (`u4`, `i12`, bounded integers): checked on decode, and on encode by languages
    /// whose integers can hold more (every language for a narrower range).
    Int { repr: IntRepr, range: Option<Range> },
    /// IEEE 754 little-endian, bits as they are (NaN payloads kept). `range`: a
    /// quantized float's `min..=max`, checked on both sides (NaN is outside), no grid.
    Float {
        repr: FloatRepr,
        range: Option<FloatRange>,
    },
    /// A named enum's `u32` index.
    Enum { id: TypeId },
    /// A `u8` tag (0 absent, 1 present, else `invalid`), then the value.
    Optional { inner: Box<BinNode>, invalid: Kind },
    /// `[T; N]`: N values, no length.
    Array {
        len: u64,
        form: Form,
        elem: Box<BinNode>,
    },
    /// `list<T>`: a `u64` length, then the values.
    List {
        length: BinLength,
        form: Form,
        elem: Box<BinNode>,
    },
    /// A `u64` length in bytes, then UTF-8 (`InvalidUtf8` otherwise).
    String { length: BinLength, invalid: Kind },
    /// A `u64` length, then the bytes.
    Bytes { length: BinLength },
    /// A named struct or union: its own functions.
    Named { id: TypeId },
}

/// An integer range narrower than the integer's representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Range {
    pub min: i128,
    pub max: i128,
    pub kind: Kind,
}

/// A quantized float's range.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct FloatRange {
    pub min: f64,
    pub max: f64,
    pub kind: Kind,
}

/// A `u64` length and the decoder's checks after reading it, in this order (§13.3):
/// the schema's `max`, the bytes left, the decode budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BinLength {
    pub max: Option<u64>,
    pub too_long: Kind,
    /// Fewest bytes one element takes (1 for strings and bytes): `len × elem_min_bytes`
    /// above the bytes left is `truncated`.
    pub elem_min_bytes: u64,
    pub truncated: Kind,
    /// Budget charge per element (spec §11.5, the same model as packed).
    pub charge_per_elem: u64,
    pub over_budget: Kind,
}

impl BincodePlan {
    /// Plans every named type of `schema` (a schema the compiler accepted).
    pub fn build(schema: &Schema) -> BincodePlan {
        let sizes = named_sizes(schema);
        let named = |i: TypeId| sizes[i];
        let node = |ty: &Type| node(schema, &named, ty);
        let types = (0..schema.types.len())
            .map(|id| {
                let body = match &schema.types[id].kind {
                    TypeDefKind::Struct { fields } => BinBody::Struct {
                        fields: fields
                            .iter()
                            .map(|f| BinField {
                                name: f.name.clone(),
                                node: node(&f.ty),
                            })
                            .collect(),
                    },
                    TypeDefKind::Enum { variants, .. } => BinBody::Enum {
                        values: variants.iter().map(|v| v.value).collect(),
                        undeclared: Kind::InvalidEnum,
                    },
                    TypeDefKind::Union { variants, .. } => BinBody::Union {
                        arms: variants
                            .iter()
                            .map(|v| BinArm {
                                name: v.name.clone(),
                                payload: v.payload.as_ref().map(node),
                            })
                            .collect(),
                        undeclared: Kind::InvalidEnum,
                    },
                };
                BinType {
                    id,
                    body,
                    size: sizes[id],
                }
            })
            .collect();
        BincodePlan { types }
    }

    /// The plan of the named type `id`.
    pub fn get(&self, id: TypeId) -> &BinType {
        &self.types[id]
    }
}

/// The bincode node of a value of type `ty`.
pub fn node(schema: &Schema, named: &dyn Fn(TypeId) -> Size, ty: &Type) -> BinNode {
    let op = match ty {
        Type::Bool => BinOp::Bool {
            invalid: Kind::OutOfRange,
        },
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => BinOp::Int {
            repr: *repr,
            range: narrower(*repr, scalar::int_range(ty).expect("an integer type")),
        },
        Type::Float { repr } => BinOp::Float {
            repr: *repr,
            range: None,
        },
        Type::Quantized { repr, min, max, .. } => BinOp::Float {
            repr: *repr,
            range: Some(FloatRange {
                min: *min,
                max: *max,
                kind: Kind::OutOfRange,
            }),
        },
        Type::Optional { inner } => BinOp::Optional {
            inner: Box::new(node(schema, named, inner)),
            invalid: Kind::InvalidEnum,
        },
        Type::Array { elem, len } => BinOp::Array {
            len: *len,
            form: form(elem),
            elem: Box::new(node(schema, named, elem)),
        },
        Type::List { elem, max, .. } => {
            let elem_node = node(schema, named, elem);
            BinOp::List {
                length: length(
                    *max,
                    elem_node.size.min,
                    super::memory::footprint(schema, elem),
                ),
                form: form(elem),
                elem: Box::new(elem_node),
            }
        }
        Type::String { max, .. } => BinOp::String {
            length: length(*max, 1, 1),
            invalid: Kind::InvalidUtf8,
        },
        Type::Bytes { max, .. } => BinOp::Bytes {
            length: length(*max, 1, 1),
        },
        Type::Named { id, .. } => match schema.types[*id].kind {
            TypeDefKind::Enum { .. } => BinOp::Enum { id: *id },
            _ => BinOp::Named { id: *id },
        },
    };
    BinNode {
        op,
        size: size_of(named, ty),
        ty: ty.clone(),
    }
}

/// `range` as a check, unless it is the whole of `repr` (varints, full-width integers).
fn narrower(repr: IntRepr, (min, max): (i128, i128)) -> Option<Range> {
    (scalar::repr_range(repr) != (min, max)).then_some(Range {
        min,
        max,
        kind: Kind::OutOfRange,
    })
}

fn length(max: Option<u64>, elem_min_bytes: u64, charge_per_elem: u64) -> BinLength {
    BinLength {
        max,
        too_long: Kind::InvalidLength,
        elem_min_bytes,
        truncated: Kind::Truncated,
        charge_per_elem,
        over_budget: Kind::LimitExceeded,
    }
}

/// How the elements of a sequence of `elem` travel: `u8` as a block of bytes, numbers
/// whose schema type is their whole fixed-width representation in bulk (on a
/// little-endian host, one copy), everything else one by one. Unlike packed, floats
/// move in bulk unchecked (NaN payloads are kept, §13.2) and varints are lanes (they
/// are fixed-width here).
pub fn form(elem: &Type) -> Form {
    let lane = |repr: IntRepr| match repr {
        IntRepr::U8 => None,
        IntRepr::U16 => Some(Lane::U16),
        IntRepr::U32 => Some(Lane::U32),
        IntRepr::U64 => Some(Lane::U64),
        IntRepr::I8 => Some(Lane::I8),
        IntRepr::I16 => Some(Lane::I16),
        IntRepr::I32 => Some(Lane::I32),
        IntRepr::I64 => Some(Lane::I64),
    };
    let lane = match *elem {
        Type::UInt { bits: 8, .. } => return Form::Bytes,
        Type::UInt { bits, repr } | Type::SInt { bits, repr } if bits == repr.bits() => lane(repr),
        Type::VarUInt { repr, .. } | Type::VarSInt { repr, .. } => lane(repr),
        Type::Float {
            repr: FloatRepr::F32,
        } => Some(Lane::F32),
        Type::Float {
            repr: FloatRepr::F64,
        } => Some(Lane::F64),
        _ => None,
    };
    lane.map_or(Form::Items, |lane| Form::Lanes { lane })
}

/// Byte sizes of a value of `ty`, given the sizes of the named types.
pub fn size_of(named: &dyn Fn(TypeId) -> Size, ty: &Type) -> Size {
    match ty {
        Type::Bool => Size::exact(1),
        Type::UInt { repr, .. }
        | Type::SInt { repr, .. }
        | Type::Bounded { repr, .. }
        | Type::VarUInt { repr, .. }
        | Type::VarSInt { repr, .. } => Size::exact(u64::from(repr.bits() / 8)),
        Type::Float { repr } | Type::Quantized { repr, .. } => Size::exact(match repr {
            FloatRepr::F32 => 4,
            FloatRepr::F64 => 8,
        }),
        Type::Optional { inner } => {
            Size::exact(1).then(Size::exact(0).either(size_of(named, inner)))
        }
        Type::Array { elem, len } => size_of(named, elem).times(*len),
        Type::List { elem, max, .. } => Size {
            min: LEN_BYTES,
            max: max
                .and_then(|m| size_of(named, elem).times(m).max)
                .map(|b| b.saturating_add(LEN_BYTES)),
        },
        Type::String { max, .. } | Type::Bytes { max, .. } => Size {
            min: LEN_BYTES,
            max: max.map(|m| m.saturating_add(LEN_BYTES)),
        },
        Type::Named { id, .. } => named(*id),
    }
}

/// Byte sizes of every named type, by [`TypeId`]: each type once, after the types it
/// holds (types are not recursive and at most 64 levels deep, §11.4), so a schema
/// that uses a type many times at many levels costs one visit per type.
pub fn named_sizes(schema: &Schema) -> Vec<Size> {
    fn visit(schema: &Schema, id: TypeId, memo: &mut Vec<Option<Size>>) -> Size {
        if let Some(s) = memo[id] {
            return s;
        }
        let mut deps = Vec::new();
        collect_named(&schema.types[id].kind, &mut deps);
        for dep in deps {
            visit(schema, dep, memo);
        }
        let named = |i: TypeId| memo[i].expect("visited before");
        let named: &dyn Fn(TypeId) -> Size = &named;
        let size = match &schema.types[id].kind {
            TypeDefKind::Struct { fields } => fields
                .iter()
                .fold(Size::exact(0), |acc, f| acc.then(size_of(named, &f.ty))),
            TypeDefKind::Enum { .. } => Size::exact(INDEX_BYTES),
            TypeDefKind::Union { variants, .. } => {
                let payload = variants
                    .iter()
                    .map(|v| {
                        v.payload
                            .as_ref()
                            .map_or(Size::exact(0), |t| size_of(named, t))
                    })
                    .reduce(Size::either)
                    .unwrap_or(Size::exact(0));
                Size::exact(INDEX_BYTES).then(payload)
            }
        };
        memo[id] = Some(size);
        size
    }
    let mut memo = vec![None; schema.types.len()];
    (0..schema.types.len())
        .map(|id| visit(schema, id, &mut memo))
        .collect()
}

/// The named types a type definition refers to directly.
fn collect_named(kind: &TypeDefKind, out: &mut Vec<TypeId>) {
    fn walk(ty: &Type, out: &mut Vec<TypeId>) {
        match ty {
            Type::Named { id, .. } => out.push(*id),
            Type::Optional { inner } => walk(inner, out),
            Type::Array { elem, .. } | Type::List { elem, .. } => walk(elem, out),
            _ => {}
        }
    }
    match kind {
        TypeDefKind::Struct { fields } => fields.iter().for_each(|f| walk(&f.ty, out)),
        TypeDefKind::Enum { .. } => {}
        TypeDefKind::Union { variants, .. } => variants
            .iter()
            .filter_map(|v| v.payload.as_ref())
            .for_each(|t| walk(t, out)),
    }
}

impl BinNode {
    /// The kind an encoder raises for a value that is not of the node's type at all, in
    /// a language whose values can be anything (TypeScript: a string for a `u8`,
    /// `undefined` for a list), as packed's `Node::wrong_type_kind` decides it: the kind
    /// of the check the value could not even be put to. Integers, floats and `bool`:
    /// their range's (`OutOfRange`); enums and unions: their undeclared kind; structs
    /// `OutOfRange`; strings their UTF-8 kind (no UTF-8 to write); arrays, lists and
    /// bytes `InvalidLength` (no length to check). An optional holds `null` or its
    /// payload, so anything else fails as the payload.
    pub fn wrong_type_kind(&self, plan: &BincodePlan) -> Kind {
        match &self.op {
            BinOp::Bool { invalid } => *invalid,
            BinOp::Int { range, .. } => range.map_or(Kind::OutOfRange, |r| r.kind),
            BinOp::Float { range, .. } => range.map_or(Kind::OutOfRange, |r| r.kind),
            BinOp::Optional { inner, .. } => inner.wrong_type_kind(plan),
            BinOp::Array { .. } => Kind::InvalidLength,
            BinOp::List { length, .. } | BinOp::Bytes { length } => length.too_long,
            BinOp::String { invalid, .. } => *invalid,
            BinOp::Enum { id } | BinOp::Named { id } => plan.get(*id).body.wrong_type_kind(),
        }
    }
}

impl BinBody {
    /// The kind for a value that is not of the named type at all (see
    /// [`BinNode::wrong_type_kind`]): an enum's or union's undeclared kind (no declared
    /// name or kind), `OutOfRange` for a struct (`null` or a number where an object must
    /// be).
    pub fn wrong_type_kind(&self) -> Kind {
        match self {
            BinBody::Enum { undeclared, .. } | BinBody::Union { undeclared, .. } => *undeclared,
            BinBody::Struct { .. } => Kind::OutOfRange,
        }
    }
}

#[cfg(test)]
#[path = "bincode_tests.rs"]
mod tests;
