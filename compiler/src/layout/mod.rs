//! The layout pass: from the checked [`Model`] that semantic analysis produces to
//! the [`Schema`], built in one go (ADR 0009). Every number the compiler derives
//! rather than reads from the schema is decided here, once:
//!
//! - packed widths (docs/spec.md §4–§5): bounded integers `bits_for(MAX - MIN)`,
//!   quantized floats `bits_for(steps)`, enum and union tags (declared, or
//!   `bits_for(largest value)`), length prefixes (`bits_for(max)`, or a varint);
//! - in-memory representations ([`crate::ir::IntRepr`]) of integers and enums;
//! - packed size bounds of every type, field and union payload, and the fixed bit
//!   offsets of struct fields (§6);
//! - the in-memory model of every named type (§11: size, alignment, footprint,
//!   depth).
//!
//! Named types are laid out in dependency order ([`crate::graph::sccs`]), so the
//! numbers of every type a definition mentions are known before it, and no pass
//! recurses along chains of named types. Backends read the numbers from the IR, or
//! call [`of_type`] / [`memory_of`] for an anonymous type (a list element, say)
//! whose numbers the IR does not store.

mod build;
mod limits;
pub mod memory;
mod packed;

pub use limits::{MAX_DEPTH, MAX_FOOTPRINT, MAX_INLINE_SIZE};
pub use memory::{memory_of, memory_of_def, MAX_INLINE_ARRAY};
pub use packed::{length_layout, of_type, varint_layout};

use crate::ir::{Schema, TypeId};
use crate::sema::model::Model;

/// What went wrong while laying a type out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LayoutErrorKind {
    /// A list whose element type can encode to zero bits (spec §5.6, `E0310`).
    ZeroWidthListElement,
    /// A size in bits that does not fit in a `u64`.
    Overflow,
    /// A type nested deeper than [`MAX_DEPTH`] levels (`E0402`).
    TooDeep { depth: u32 },
    /// A value whose memory footprint exceeds [`MAX_FOOTPRINT`] bytes (`E0403`).
    FootprintTooLarge { bytes: u64 },
    /// A value whose inline size exceeds [`MAX_INLINE_SIZE`] bytes (`E0404`).
    InlineSizeTooLarge { bytes: u64 },
}

/// A layout problem, located by type and member (field or union variant index).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LayoutError {
    /// The type being laid out.
    pub type_id: TypeId,
    /// The field or variant whose type has the problem; `None` for the type as a
    /// whole. For the resource limits (`TooDeep`, `FootprintTooLarge`,
    /// `InlineSizeTooLarge`), which are about the type as a whole, the member that
    /// contributes most, if any.
    pub member: Option<usize>,
    /// What went wrong.
    pub kind: LayoutErrorKind,
}

/// Lays out every type of `model` and returns the schema with the problems found.
/// Recursive types must have been reported before; their cycles are cut here (a
/// back reference counts as one bit and one byte) instead of looping.
pub(crate) fn build(model: &Model) -> (Schema, Vec<LayoutError>) {
    let edges: Vec<Vec<TypeId>> = model
        .edges()
        .into_iter()
        .map(|edges| edges.into_iter().map(|(_, to)| to).collect())
        .collect();
    let mut pass = build::Pass::new(model);
    let mut limits = limits::Limits::new(model.types.len());
    for group in crate::graph::sccs(&edges) {
        let cyclic = group.len() > 1 || edges[group[0]].contains(&group[0]);
        for id in group {
            pass.lay_out(id);
            let errors = limits.check(id, &edges[id], cyclic, pass.types());
            pass.errors.extend(errors);
        }
    }
    pass.finish()
}
