//! Shared analyses that every backend prints from, so that backends make no layout
//! decisions of their own (widths, offsets and sizes come from the IR; this module
//! only groups and looks them up).
//!
//! The main one is the **chunk plan** of a struct: runs of consecutive fixed-width
//! scalar fields that fit together in one 64-bit word. An encoder builds the word with
//! constant shifts and writes it once; a decoder loads it once and extracts each field
//! at its constant offset. This is what makes a 64-bit packet one load and one store.

use crate::ir::{FloatRepr, PackedLayout, Schema, Type, TypeDefKind};
use crate::layout;

/// Width of the word a run is packed into.
pub const WORD_BITS: u32 = 64;

/// One step of encoding or decoding a struct's fields, in declaration order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// Consecutive fixed-width scalar fields packed into one word of `bits` bits.
    Run(Run),
    /// A field encoded on its own (variable width, composite, or named struct/union).
    Field(usize),
}

/// A run of fixed-width scalar fields sharing one word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Total width of the run in bits (at most [`WORD_BITS`]).
    pub bits: u32,
    /// The fields, in declaration order.
    pub fields: Vec<RunField>,
}

/// A field inside a [`Run`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunField {
    /// Index of the field in the struct.
    pub index: usize,
    /// Bit offset of the field inside the run's word.
    pub offset: u32,
    /// Width of the field in bits.
    pub bits: u32,
}

/// The packed width of `ty` if it is a fixed-width scalar that can share a word with
/// its neighbours: `bool`, `uN`, `iN`, `f32`, `f64`, bounded integers, quantized
/// floats and enum tags. Composite and variable-width types return `None`.
pub fn scalar_bits(schema: &Schema, ty: &Type) -> Option<u32> {
    match ty {
        Type::Bool => Some(1),
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => Some(*bits),
        Type::Float {
            repr: FloatRepr::F32,
        } => Some(32),
        Type::Float {
            repr: FloatRepr::F64,
        } => Some(64),
        Type::Bounded { packed_bits, .. } | Type::Quantized { packed_bits, .. } => {
            Some(*packed_bits)
        }
        Type::Named { id, .. } => match &schema.types[*id].kind {
            TypeDefKind::Enum {
                packed_tag_bits, ..
            } => Some(*packed_tag_bits),
            _ => None,
        },
        _ => None,
    }
}

/// Groups the fields of a struct into [`Step`]s: greedy runs of scalar fields up to
/// [`WORD_BITS`] bits, every other field on its own. A run of a single field is still
/// a run; backends may print it as a plain read or write.
pub fn struct_plan(schema: &Schema, fields: &[crate::ir::Field]) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut run: Option<Run> = None;
    for (index, field) in fields.iter().enumerate() {
        match scalar_bits(schema, &field.ty) {
            Some(bits) => {
                let fits = run.as_ref().is_some_and(|r| r.bits + bits <= WORD_BITS);
                if !fits {
                    if let Some(done) = run.take() {
                        steps.push(Step::Run(done));
                    }
                    run = Some(Run {
                        bits: 0,
                        fields: Vec::new(),
                    });
                }
                let r = run.as_mut().expect("a run is open");
                r.fields.push(RunField {
                    index,
                    offset: r.bits,
                    bits,
                });
                r.bits += bits;
            }
            None => {
                if let Some(done) = run.take() {
                    steps.push(Step::Run(done));
                }
                steps.push(Step::Field(index));
            }
        }
    }
    if let Some(done) = run {
        steps.push(Step::Run(done));
    }
    steps
}

/// One step of a [`nested_struct_plan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NestedStep {
    /// Scalar fields, and the scalar fields of fixed-width nested structs, sharing one word.
    Run(NestedRun),
    /// A field encoded on its own.
    Field(usize),
}

/// A run of a [`nested_struct_plan`]: its leaves are scalars, each reached from the
/// struct through a chain of fields (more than one when it sits in a nested struct).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestedRun {
    /// Total width of the run in bits (at most [`WORD_BITS`]).
    pub bits: u32,
    /// The scalars, in stream order.
    pub leaves: Vec<Leaf>,
}

/// A scalar of a [`NestedRun`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leaf {
    /// Field indices from the planned struct down to the scalar: `[2]` for the third
    /// field, `[2, 0]` for the first field of a struct in the third field.
    pub path: Vec<usize>,
    /// Bit offset of the scalar inside the run's word.
    pub offset: u32,
    /// Width of the scalar in bits.
    pub bits: u32,
}

impl NestedRun {
    /// Whether every leaf is a field of the planned struct itself (the run is then
    /// exactly a [`Run`] of [`struct_plan`]).
    pub fn is_flat(&self) -> bool {
        self.leaves.iter().all(|l| l.path.len() == 1)
    }

    /// The run as a [`Run`]; only for a flat run.
    pub fn to_flat(&self) -> Run {
        Run {
            bits: self.bits,
            fields: self
                .leaves
                .iter()
                .map(|l| RunField {
                    index: l.path[0],
                    offset: l.offset,
                    bits: l.bits,
                })
                .collect(),
        }
    }
}

/// The fields of `ty` when it is a named struct that can be inlined into its parent's
/// run: fixed width, at least one field, and every field a scalar or such a struct.
pub fn inlinable_struct<'s>(schema: &'s Schema, ty: &Type) -> Option<&'s [crate::ir::Field]> {
    fn ok(schema: &Schema, ty: &Type, depth: u32) -> bool {
        if depth > 16 {
            return false;
        }
        let Type::Named { id, .. } = ty else {
            return false;
        };
        let def = &schema.types[*id];
        let TypeDefKind::Struct { fields } = &def.kind else {
            return false;
        };
        !fields.is_empty()
            && def.packed.max_bits == Some(def.packed.min_bits)
            && fields
                .iter()
                .all(|f| scalar_bits(schema, &f.ty).is_some() || ok(schema, &f.ty, depth + 1))
    }
    if !ok(schema, ty, 0) {
        return None;
    }
    let Type::Named { id, .. } = ty else {
        unreachable!()
    };
    match &schema.types[*id].kind {
        TypeDefKind::Struct { fields } => Some(fields),
        _ => unreachable!(),
    }
}

/// The chain of fields a [`Leaf`] path names, starting from `fields`.
pub fn leaf_fields<'s>(
    schema: &'s Schema,
    fields: &'s [crate::ir::Field],
    path: &[usize],
) -> Vec<&'s crate::ir::Field> {
    let mut out = Vec::new();
    let mut cur = fields;
    for &i in path {
        let f = &cur[i];
        out.push(f);
        if let Some(inner) = inlinable_struct(schema, &f.ty) {
            cur = inner;
        }
    }
    out
}

/// [`struct_plan`] that also packs fixed-width nested structs made only of scalars
/// (recursively) into the run of their neighbours, when their whole width fits in the
/// word. A backend that uses it inlines the nested struct's fields into the parent's
/// word; backends using [`struct_plan`] are unaffected.
pub fn nested_struct_plan(schema: &Schema, fields: &[crate::ir::Field]) -> Vec<NestedStep> {
    fn leaves(
        schema: &Schema,
        fields: &[crate::ir::Field],
        prefix: &[usize],
        out: &mut Vec<(Vec<usize>, u32)>,
    ) {
        for (i, f) in fields.iter().enumerate() {
            let mut path = prefix.to_vec();
            path.push(i);
            match scalar_bits(schema, &f.ty) {
                Some(bits) => out.push((path, bits)),
                None => {
                    let inner = inlinable_struct(schema, &f.ty).expect("an inlinable struct");
                    leaves(schema, inner, &path, out);
                }
            }
        }
    }
    let mut steps = Vec::new();
    let mut run: Option<NestedRun> = None;
    for (index, field) in fields.iter().enumerate() {
        let items: Vec<(Vec<usize>, u32)> = if let Some(bits) = scalar_bits(schema, &field.ty) {
            vec![(vec![index], bits)]
        } else if inlinable_struct(schema, &field.ty).is_some()
            && type_layout(schema, &field.ty).min_bits <= u64::from(WORD_BITS)
        {
            let mut out = Vec::new();
            leaves(schema, std::slice::from_ref(field), &[], &mut out);
            for (path, _) in &mut out {
                path[0] = index;
            }
            out
        } else {
            if let Some(done) = run.take() {
                steps.push(NestedStep::Run(done));
            }
            steps.push(NestedStep::Field(index));
            continue;
        };
        let width: u32 = items.iter().map(|(_, b)| b).sum();
        let fits = run.as_ref().is_some_and(|r| r.bits + width <= WORD_BITS);
        if !fits {
            if let Some(done) = run.take() {
                steps.push(NestedStep::Run(done));
            }
            run = Some(NestedRun {
                bits: 0,
                leaves: Vec::new(),
            });
        }
        let r = run.as_mut().expect("a run is open");
        for (path, bits) in items {
            r.leaves.push(Leaf {
                path,
                offset: r.bits,
                bits,
            });
            r.bits += bits;
        }
    }
    if let Some(done) = run {
        steps.push(NestedStep::Run(done));
    }
    steps
}

/// Packed size bounds of any type expression; named types read their stored layout.
/// For anonymous types (list elements, optional payloads) the IR stores no layout, so
/// this asks the layout pass, which is the one place that computes sizes.
pub fn type_layout(schema: &Schema, ty: &Type) -> PackedLayout {
    layout::of_type(ty, &schema.types)
}

/// `min_bits(T)` of spec §5.6 for the elements of a list, string or bytes value:
/// what a decoder multiplies a length by before allocating.
pub fn element_min_bits(schema: &Schema, ty: &Type) -> u64 {
    match ty {
        Type::List { elem, .. } => type_layout(schema, elem).min_bits,
        Type::String { .. } | Type::Bytes { .. } => 8,
        _ => 0,
    }
}

/// The largest integer magnitude every JSON implementation holds exactly.
const MAX_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// The value range of an integer type (`uN`, `iN`, bounded, varints), as `i128`.
pub fn int_range(ty: &Type) -> Option<(i128, i128)> {
    match *ty {
        Type::UInt { bits, .. } | Type::VarUInt { bits, .. } => Some((0, (1i128 << bits) - 1)),
        Type::SInt { bits, .. } | Type::VarSInt { bits, .. } => {
            let half = 1i128 << (bits - 1);
            Some((-half, half - 1))
        }
        Type::Bounded { min, max, .. } => Some((min, max)),
        _ => None,
    }
}

/// Whether the JSON mapping writes integers of `ty` as decimal strings
/// (`docs/json-mapping.md`): their range leaves `±(2^53 - 1)`.
pub fn json_wide_int(ty: &Type) -> bool {
    int_range(ty).is_some_and(|(lo, hi)| lo < -MAX_SAFE_INTEGER || hi > MAX_SAFE_INTEGER)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Field, IntRepr};

    fn field(name: &str, ty: Type, bits: u64) -> Field {
        Field {
            name: name.into(),
            doc: vec![],
            line: 1,
            ty,
            packed_offset: None,
            spans: Default::default(),
            packed: PackedLayout::fixed(bits),
        }
    }

    fn uint(bits: u32) -> Type {
        Type::UInt {
            bits,
            repr: IntRepr::for_width(false, bits),
        }
    }

    fn empty_schema() -> Schema {
        Schema {
            root_file: "t.bw".into(),
            constants: vec![],
            types: vec![],
        }
    }

    #[test]
    fn packet64_is_one_run() {
        let s = empty_schema();
        let fields = [1, 4, 2, 9, 12, 12, 8, 16]
            .iter()
            .enumerate()
            .map(|(i, &b)| field(&format!("f{i}"), uint(b), u64::from(b)))
            .collect::<Vec<_>>();
        let plan = struct_plan(&s, &fields);
        assert_eq!(plan.len(), 1);
        let Step::Run(run) = &plan[0] else {
            panic!("{plan:?}")
        };
        assert_eq!(run.bits, 64);
        let offsets: Vec<u32> = run.fields.iter().map(|f| f.offset).collect();
        assert_eq!(offsets, [0, 1, 5, 7, 16, 28, 40, 48]);
    }

    #[test]
    fn runs_split_at_words_and_composites() {
        let s = empty_schema();
        let fields = vec![
            field("a", uint(40), 40),
            field("b", uint(30), 30),
            field("c", Type::Bool, 1),
            field(
                "s",
                Type::String {
                    max: None,
                    packed_len: crate::ir::LengthEncoding::Varint,
                },
                5,
            ),
            field(
                "d",
                Type::Float {
                    repr: FloatRepr::F64,
                },
                64,
            ),
        ];
        let plan = struct_plan(&s, &fields);
        let shape: Vec<String> = plan
            .iter()
            .map(|s| match s {
                Step::Run(r) => format!("run{}x{}", r.bits, r.fields.len()),
                Step::Field(i) => format!("field{i}"),
            })
            .collect();
        assert_eq!(shape, ["run40x1", "run31x2", "field3", "run64x1"]);
    }

    #[test]
    fn wide_ints_match_the_reference_codec() {
        let tys = [
            uint(53),
            uint(54),
            Type::SInt {
                bits: 54,
                repr: IntRepr::I64,
            },
            Type::SInt {
                bits: 53,
                repr: IntRepr::I64,
            },
            Type::VarUInt {
                bits: 64,
                repr: IntRepr::U64,
            },
            Type::VarSInt {
                bits: 32,
                repr: IntRepr::I32,
            },
            Type::Bounded {
                repr: IntRepr::I64,
                base_bits: 64,
                min: -(1 << 53),
                max: 0,
                packed_bits: 54,
            },
        ];
        for ty in &tys {
            assert_eq!(json_wide_int(ty), crate::codec::is_wide_int(ty), "{ty:?}");
        }
    }
}
