//! The plan of each named type: a struct's fields and the steps that encode them (runs
//! of fixed-width scalars sharing one 64-bit word, other fields one by one), an enum's
//! tag, a union's tag and arms.

use serde::Serialize;

use super::ops::{Kind, Node, Scalar};
use crate::ir::{IntRepr, PackedLayout, TypeId};

/// Width of the word a run is packed into.
pub const WORD_BITS: u32 = 64;

/// Everything the wire needs about one named type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypePlan {
    pub id: TypeId,
    pub body: Body,
    /// Packed size bounds (spec §6.1).
    pub bits: PackedLayout,
    /// Whether a dispatch value over the schema's messages (Rust's `Message` enum)
    /// holds this message out of line: the same rule as a union payload, above
    /// 128 bytes in memory, so that no variant is much larger than the others.
    pub dispatch_out_of_line: bool,
}

impl TypePlan {
    /// Whether values take no bits: reading and writing touch nothing.
    pub fn is_zero_width(&self) -> bool {
        self.bits.max_bits == Some(0)
    }

    /// Whether the type's decode function uses its reader (see [`Node::needs_reader`]).
    pub fn needs_reader(&self, building: bool) -> bool {
        match &self.body {
            Body::Struct(s) => s.fields.iter().any(|f| f.node.needs_reader(building)),
            Body::Enum(e) => e.tag_bits > 0,
            Body::Union(u) => {
                u.tag_bits > 0
                    || u.arms
                        .iter()
                        .filter_map(|a| a.payload.as_ref())
                        .any(|n| n.needs_reader(building))
            }
        }
    }
}

/// The shape of a named type's plan.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Body {
    Struct(StructPlan),
    Enum(EnumPlan),
    Union(UnionPlan),
}

/// A struct or message: its fields (for walks by field, such as JSON) and the steps
/// the codecs follow (spec §5.1: fields in declaration order, no padding).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StructPlan {
    pub fields: Vec<FieldPlan>,
    pub steps: Vec<Step>,
}

impl StructPlan {
    /// The run, when the whole struct is one run (every field a fixed-width scalar or a
    /// struct of them, at most [`WORD_BITS`] bits): the shape backends give one-load
    /// and one-store top-level paths.
    pub fn single_run(&self) -> Option<&Run> {
        match self.steps.as_slice() {
            [Step::Run(run)] if run.bits > 0 => Some(run),
            _ => None,
        }
    }
}

/// A field: its schema name (the error path segment and JSON key) and its value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldPlan {
    pub name: String,
    pub node: Node,
}

/// One step of a struct's encoding, in stream order.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "step", content = "of", rename_all = "snake_case")]
pub enum Step {
    /// Fixed-width scalars — fields of the struct, and fields of fixed-width structs
    /// nested in it — sharing one word.
    Run(Run),
    /// The field with this index, encoded on its own.
    Field(usize),
}

/// Scalars sharing one word of at most [`WORD_BITS`] bits: the encoder checks them in
/// stream order and writes the word once; the decoder loads it once and follows
/// [`Run::reads`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// Total width in bits.
    pub bits: u32,
    /// The scalars, in stream order.
    pub leaves: Vec<Leaf>,
    /// The decoder's schedule over [`Run::leaves`], which keeps spec §7.2's order: a
    /// truncated input fails at the first scalar that reaches past its end, a bad
    /// value at the first scalar that holds one.
    pub reads: Vec<RunRead>,
}

impl Run {
    /// Whether every leaf is a field of the struct itself (none sits in a nested struct).
    pub fn is_flat(&self) -> bool {
        self.leaves.iter().all(|l| l.path.len() == 1)
    }

    /// The nested struct fields the run reaches into, outermost first, each once, as
    /// field-index paths (`[1]` for the struct in the second field): the values a
    /// decoder builds from the run's leaves.
    pub fn nested_structs(&self) -> Vec<Vec<usize>> {
        let mut out: Vec<Vec<usize>> = Vec::new();
        for leaf in &self.leaves {
            for k in 1..leaf.path.len() {
                let prefix = leaf.path[..k].to_vec();
                if !out.contains(&prefix) {
                    out.push(prefix);
                }
            }
        }
        out
    }
}

/// A scalar of a [`Run`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaf {
    /// Field indices from the planned struct down to the scalar: `[2]` for the third
    /// field, `[2, 0]` for the first field of the struct in the third field.
    pub path: Vec<usize>,
    /// The schema names along `path`: the error path of the scalar inside the struct.
    pub names: Vec<String>,
    /// Bit offset inside the run's word.
    pub offset: u32,
    pub scalar: Scalar,
}

impl Leaf {
    /// The bit just after the leaf, inside the run's word.
    pub fn end(&self) -> u32 {
        self.offset + self.scalar.bits
    }
}

/// One step of a decoder's schedule over a run's word.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "read", rename_all = "snake_case")]
pub enum RunRead {
    /// Take the leaf's bits with no check of its own: any pattern is a value, and a
    /// later [`RunRead::Avail`] covers its truncation. A verifier does nothing here.
    Take { leaf: usize },
    /// When fewer than `end` bits of the word were in the input, fail with
    /// [`Kind::Truncated`] at the first of `leaves` that ends past them (its path is the
    /// leaf's names); otherwise go on.
    Avail {
        end: u32,
        leaves: Vec<usize>,
        kind: Kind,
    },
    /// Take the leaf's bits (covered by the [`RunRead::Avail`] just before) and run
    /// its decode check.
    Check { leaf: usize },
}

/// An enum: its tag width and declared values (spec §3, §4.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EnumPlan {
    pub tag_bits: u32,
    /// The in-memory integer type of the tag.
    pub repr: IntRepr,
    /// Declared values, in declaration order.
    pub values: Vec<u64>,
    /// Kind of an undeclared value.
    pub undeclared: Kind,
}

/// A union: the tag, then the selected arm's payload (spec §5.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnionPlan {
    pub tag_bits: u32,
    pub arms: Vec<Arm>,
    /// Kind of an undeclared tag.
    pub undeclared: Kind,
}

/// A union variant.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Arm {
    /// The schema name (error path segment, JSON key).
    pub name: String,
    pub tag: u64,
    /// `None` for a unit variant.
    pub payload: Option<Node>,
    /// Whether the payload is held out of line (its inline size is above the memory
    /// model's 128-byte threshold, spec §11): generated Rust boxes it.
    pub out_of_line: bool,
}
