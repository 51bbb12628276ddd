//! The codec plan: the compiler stage between the IR and the code generators that
//! decides, once per type, everything the packed wire needs — the ordered operations
//! (runs of fixed-width scalars sharing a 64-bit word, bounded and quantized values,
//! varints, presence bits, union tags, lengths, nested types), every width, check and
//! error kind, the path segment of every value, and the allocation charge of every
//! length (docs/spec.md §3–§7, §11). The Rust, Go and TypeScript backends walk the plan
//! and print; a wire rule changed here changes in every language. ADR 0010 records why.
//!
//! The plan is built from the IR alone: [`scalar`] decides the checks of scalars,
//! [`runs`] groups scalars into words and schedules a decoder's truncation checks,
//! [`quant`] proves where dequantization may multiply instead of divide, [`memory`]
//! gives the allocation model. The reference codec (`crate::codec`) does not use the
//! plan: it interprets the IR directly, so that it stays an independent oracle (it
//! shares only [`memory`], the memory model spec §11 defines the decode budget by).

pub mod bincode;
pub mod delta;
pub mod memory;
pub mod ops;
pub mod quant;
pub mod runs;
pub mod scalar;
pub mod types;

use serde::Serialize;

use crate::ir::{LengthEncoding, Schema, Type, TypeDefKind, TypeId};
use crate::layout;
pub use ops::*;
pub use types::*;

/// The plan of every named type of a schema, indexed by [`TypeId`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CodecPlan {
    pub types: Vec<TypePlan>,
}

impl CodecPlan {
    /// Plans every type of `schema` (a schema the compiler accepted).
    pub fn build(schema: &Schema) -> CodecPlan {
        let fields: Vec<Option<Vec<FieldPlan>>> = schema
            .types
            .iter()
            .map(|def| match &def.kind {
                TypeDefKind::Struct { fields } => Some(
                    fields
                        .iter()
                        .map(|f| FieldPlan {
                            name: f.name.clone(),
                            node: node(schema, &f.ty),
                        })
                        .collect(),
                ),
                _ => None,
            })
            .collect();
        let lookup = |id: TypeId| fields[id].as_deref();
        let types = schema
            .types
            .iter()
            .enumerate()
            .map(|(id, def)| {
                let body = match &def.kind {
                    TypeDefKind::Struct { .. } => {
                        let fields = fields[id].clone().expect("a struct's fields");
                        let steps = runs::steps(&fields, &lookup);
                        Body::Struct(StructPlan { fields, steps })
                    }
                    TypeDefKind::Enum { .. } => Body::Enum(scalar::enum_plan(schema, id)),
                    TypeDefKind::Union {
                        packed_tag_bits,
                        variants,
                    } => Body::Union(UnionPlan {
                        tag_bits: *packed_tag_bits,
                        arms: variants
                            .iter()
                            .map(|v| Arm {
                                name: v.name.clone(),
                                tag: v.tag,
                                payload: v.payload.as_ref().map(|t| node(schema, t)),
                                out_of_line: v
                                    .payload
                                    .as_ref()
                                    .is_some_and(|t| memory::payload_held_out_of_line(schema, t)),
                            })
                            .collect(),
                        undeclared: Kind::InvalidEnum,
                    }),
                };
                TypePlan {
                    id,
                    body,
                    bits: def.packed,
                    dispatch_out_of_line: def.message_id.is_some()
                        && memory::value_held_out_of_line(&def.memory),
                }
            })
            .collect();
        CodecPlan { types }
    }

    /// The plan of the named type `id`.
    pub fn get(&self, id: TypeId) -> &TypePlan {
        &self.types[id]
    }

    /// The struct plan of `id`, if it is a struct or message.
    pub fn struct_plan(&self, id: TypeId) -> Option<&StructPlan> {
        match &self.types[id].body {
            Body::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The structs along a field-index `path` inside struct `id` (a run leaf's
    /// [`Leaf::path`], or a prefix of it): for each index, the struct whose field it
    /// is — `id` first, then the nested structs the path goes through.
    pub fn path_structs(&self, id: TypeId, path: &[usize]) -> Vec<TypeId> {
        let mut out = Vec::with_capacity(path.len());
        let mut cur = id;
        for &i in path {
            out.push(cur);
            if let Some(Op::Named(next)) = self.struct_plan(cur).map(|s| &s.fields[i].node.op) {
                cur = *next;
            }
        }
        out
    }

    /// The named struct held by the field at `path` inside struct `id`: one of the
    /// [`Run::nested_structs`] of a run of `id`.
    pub fn nested_struct(&self, id: TypeId, path: &[usize]) -> TypeId {
        let (&last, _) = path.split_last().expect("a field path");
        let owner = *self.path_structs(id, path).last().expect("a field path");
        match self.struct_plan(owner).expect("a struct").fields[last]
            .node
            .op
        {
            Op::Named(inner) => inner,
            ref other => unreachable!("not a nested struct: {other:?}"),
        }
    }
}

/// The node of a value of type `ty`.
pub fn node(schema: &Schema, ty: &Type) -> Node {
    let op = match scalar::of_type(schema, ty) {
        Some(s) => Op::Scalar(s),
        None => match ty {
            Type::VarUInt { .. } | Type::VarSInt { .. } => {
                Op::Varint(scalar::varint(ty).expect("a varint"))
            }
            Type::Optional { inner } => Op::Optional(Box::new(node(schema, inner))),
            Type::Array { elem, len } => Op::Array(Array {
                len: *len,
                form: form(elem),
                out_of_line: memory::out_of_line(schema, elem, *len),
                elem: Box::new(node(schema, elem)),
                wrong_length: Kind::InvalidLength,
            }),
            Type::List {
                elem,
                max,
                packed_len,
                ..
            } => {
                let elem_node = node(schema, elem);
                let length = length(
                    *max,
                    *packed_len,
                    elem_node.bits.min_bits,
                    memory::footprint(schema, elem),
                );
                Op::List(List {
                    length,
                    form: form(elem),
                    elem: Box::new(elem_node),
                })
            }
            Type::String { max, packed_len } => Op::String(length(*max, *packed_len, 8, 1)),
            Type::Bytes { max, packed_len } => Op::Bytes(length(*max, *packed_len, 8, 1)),
            Type::Named { id, .. } => Op::Named(*id),
            other => unreachable!("a scalar: {other:?}"),
        },
    };
    Node {
        op,
        bits: layout::of_type(ty, &schema.types),
        ty: ty.clone(),
    }
}

/// A length prefix and its checks (spec §5.6).
fn length(max: Option<u64>, len: LengthEncoding, elem_min_bits: u64, charge: u64) -> Length {
    let prefix = match len {
        LengthEncoding::Fixed { bits } => Prefix::Fixed { bits },
        LengthEncoding::Varint => Prefix::Varint,
    };
    // A bound below what the prefix can hold must be checked; `max = 2^k - 1` in a
    // `k`-bit prefix cannot be exceeded.
    let prefix_max = match prefix {
        Prefix::Fixed { bits } if bits < 64 => (1u64 << bits) - 1,
        _ => u64::MAX,
    };
    Length {
        prefix,
        max,
        check_max: max.is_some_and(|m| m < prefix_max),
        too_long: Kind::InvalidLength,
        elem_min_bits,
        truncated: Kind::Truncated,
        charge_per_elem: charge,
        over_budget: Kind::LimitExceeded,
    }
}

/// How the elements of a sequence of `elem` travel (also which TypeScript sequences
/// are typed arrays with `TsOptions.typed_arrays`).
pub(crate) fn form(elem: &Type) -> Form {
    let lane = match *elem {
        Type::UInt { bits: 8, .. } => return Form::Bytes,
        Type::UInt { bits, repr } if bits == repr.bits() => match bits {
            16 => Some(Lane::U16),
            32 => Some(Lane::U32),
            64 => Some(Lane::U64),
            _ => None,
        },
        Type::SInt { bits, repr } if bits == repr.bits() => match bits {
            8 => Some(Lane::I8),
            16 => Some(Lane::I16),
            32 => Some(Lane::I32),
            64 => Some(Lane::I64),
            _ => None,
        },
        Type::Float { repr } => Some(match repr {
            crate::ir::FloatRepr::F32 => Lane::F32,
            crate::ir::FloatRepr::F64 => Lane::F64,
        }),
        _ => None,
    };
    match lane {
        Some(lane) => Form::Lanes { lane },
        None => Form::Items,
    }
}

#[cfg(test)]
mod tests;
