//! The delta plan (spec §12): for every struct a `delta message` reaches, how each of
//! its fields travels in a delta — not at all (a zero-width type), as a difference
//! code (a scalar, §12.4), field by field (a nested struct), element by element (an
//! array), as a keyed list delta (§12.5), or as its full encoding when it changed.
//! A keyed list's elements are planned a second time without their key field. The
//! backends print this plan next to the codec plan; the bits of each value's full
//! encoding and its checks stay those of [`super::Node`].

use std::collections::HashMap;

use serde::Serialize;

use super::memory;
use super::ops::{Kind, Node, Op};
use super::CodecPlan;
use crate::ir::{bits_for, Schema, Type, TypeDefKind, TypeId};

/// The delta plan of a schema.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeltaPlan {
    /// The `delta message`s, in declaration order.
    pub messages: Vec<TypeId>,
    /// Every struct delta the messages need, each once, callees before callers.
    pub structs: Vec<StructDelta>,
    /// Where each (struct, field left out) is in [`DeltaPlan::structs`].
    #[serde(skip)]
    index: HashMap<(TypeId, Option<usize>), usize>,
}

/// The delta of one struct (§12.3), possibly without its key field (§12.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StructDelta {
    pub id: TypeId,
    /// The field left out: a keyed list element's key.
    pub without: Option<usize>,
    /// Every other field, in declaration order.
    pub fields: Vec<FieldDelta>,
}

/// A field of a [`StructDelta`]: its index in the struct (and so in the codec plan's
/// [`super::StructPlan::fields`]) and how it travels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldDelta {
    pub index: usize,
    pub name: String,
    pub delta: Delta,
}

/// How a value travels in a delta, against the same value of the baseline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Delta {
    /// Every value encodes to zero bits: no changed bit, nothing (§12.2).
    Never,
    /// A changed bit, then the difference code of a scalar of `width` wire bits
    /// (§12.4): the length `n - 1` in `prefix_bits` bits, then `n - 1` bits.
    Diff {
        width: u32,
        prefix_bits: u32,
        /// A length prefix of `width` or more.
        too_long: Kind,
    },
    /// A changed bit, then the struct's own delta.
    Struct { id: TypeId },
    /// A changed bit, then each element's changed bit and delta.
    Array { len: u64, elem: Box<Delta> },
    /// A changed bit, then the keyed list delta (§12.5).
    Keyed(KeyedDelta),
    /// A changed bit, then the full encoding (§12.3's last row).
    Replace,
}

/// A keyed list (§12.5).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KeyedDelta {
    /// The element struct and its key field.
    pub elem: TypeId,
    pub key: usize,
    pub key_name: String,
    /// The list's `max`, if any.
    pub max: Option<u64>,
    /// Fewest bits of an added element, for the `Truncated` check of the count.
    pub elem_min_bits: u64,
    /// The decode budget charge per element of the decoded list (spec §11.5).
    pub charge_per_elem: u64,
}

/// An Exp-Golomb code may have at most this many leading zero bits (§12.5).
pub const MAX_GOLOMB_ZEROS: u32 = 63;

impl DeltaPlan {
    /// Plans the deltas of every `delta message` of `schema`.
    pub fn build(schema: &Schema, codec: &CodecPlan) -> DeltaPlan {
        let messages: Vec<TypeId> = schema
            .types
            .iter()
            .enumerate()
            .filter(|(_, t)| t.delta)
            .map(|(id, _)| id)
            .collect();
        let mut plan = DeltaPlan {
            messages: messages.clone(),
            structs: Vec::new(),
            index: HashMap::new(),
        };
        // Types are not recursive (sema), and at most 64 deep, so the walk ends; it
        // keeps an explicit stack of (struct, without) still to plan.
        let mut pending: Vec<(TypeId, Option<usize>)> =
            messages.iter().rev().map(|&id| (id, None)).collect();
        while let Some(&(id, without)) = pending.last() {
            if plan.index.contains_key(&(id, without)) {
                pending.pop();
                continue;
            }
            let fields = struct_fields(schema, codec, id, without);
            let missing: Vec<(TypeId, Option<usize>)> = fields
                .iter()
                .flat_map(|f| f.delta.callees())
                .filter(|key| !plan.index.contains_key(key))
                .collect();
            if missing.is_empty() {
                pending.pop();
                plan.index.insert((id, without), plan.structs.len());
                plan.structs.push(StructDelta {
                    id,
                    without,
                    fields,
                });
            } else {
                pending.extend(missing);
            }
        }
        plan
    }

    /// The plan of struct `id` without field `without`.
    pub fn get(&self, id: TypeId, without: Option<usize>) -> &StructDelta {
        &self.structs[self.position(id, without)]
    }

    /// Where the plan of struct `id` without field `without` is in [`DeltaPlan::structs`].
    pub fn position(&self, id: TypeId, without: Option<usize>) -> usize {
        *self
            .index
            .get(&(id, without))
            .expect("a planned struct delta")
    }
}

impl Delta {
    /// The struct deltas this one calls.
    fn callees(&self) -> Vec<(TypeId, Option<usize>)> {
        match self {
            Delta::Struct { id } => vec![(*id, None)],
            Delta::Array { elem, .. } => elem.callees(),
            Delta::Keyed(k) => vec![(k.elem, Some(k.key))],
            _ => Vec::new(),
        }
    }
}

fn struct_fields(
    schema: &Schema,
    codec: &CodecPlan,
    id: TypeId,
    without: Option<usize>,
) -> Vec<FieldDelta> {
    let plan = codec.struct_plan(id).expect("a delta of a struct");
    plan.fields
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != without)
        .map(|(index, f)| FieldDelta {
            index,
            name: f.name.clone(),
            delta: of_node(schema, &f.node),
        })
        .collect()
}

/// How a value of `node` travels in a delta.
pub fn of_node(schema: &Schema, node: &Node) -> Delta {
    if node.is_zero_width() {
        return Delta::Never;
    }
    let diff = |width: u32| Delta::Diff {
        width,
        prefix_bits: bits_for(u128::from(width) - 1),
        too_long: Kind::OutOfRange,
    };
    match &node.op {
        Op::Scalar(s) => diff(s.bits),
        Op::Varint(v) => diff(v.bits),
        Op::Named(id) => match &schema.types[*id].kind {
            TypeDefKind::Struct { .. } => Delta::Struct { id: *id },
            _ => Delta::Replace,
        },
        Op::Array(a) => Delta::Array {
            len: a.len,
            elem: Box::new(of_node(schema, &a.elem)),
        },
        Op::List(list) => match &node.ty {
            Type::List {
                elem,
                max,
                key: Some(key),
                ..
            } => {
                let Type::Named { id, .. } = elem.as_ref() else {
                    unreachable!("sema checks that keyed lists hold structs")
                };
                Delta::Keyed(KeyedDelta {
                    elem: *id,
                    key: key.field,
                    key_name: key.name.clone(),
                    max: *max,
                    elem_min_bits: list.length.elem_min_bits,
                    charge_per_elem: memory::footprint(schema, elem),
                })
            }
            _ => Delta::Replace,
        },
        Op::Optional(_) | Op::String(_) | Op::Bytes(_) => Delta::Replace,
    }
}
