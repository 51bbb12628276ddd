//! The compile-time resource limits of the in-memory model (docs/spec.md §11):
//! nesting depth, footprint and inline size of every named type.
//!
//! Each limit is reported once, at the innermost type that exceeds it: a type
//! that exceeds a limit only because it contains a type already reported for that
//! limit (or a recursive type, reported as `E0208`) is not reported again.

use super::memory::memory_of_opt;
use super::{LayoutError, LayoutErrorKind};
use crate::ir::{MemoryLayout, Type, TypeDef, TypeDefKind, TypeId};

/// Deepest nesting of a type (`E0402`): generated decoders and every pass over a
/// type recurse once per level.
pub const MAX_DEPTH: u32 = 64;
/// Largest footprint of one value, 64 MiB (`E0403`).
pub const MAX_FOOTPRINT: u64 = 1 << 26;
/// Largest inline size of one value, 256 KiB (`E0404`): a decoder that builds
/// values on the stack, as generated Rust does, needs that much stack.
pub const MAX_INLINE_SIZE: u64 = 1 << 18;

/// The number of a member's layout that a limit is about.
type Measure = fn(&MemoryLayout) -> u64;

/// Which types already exceeded each limit.
pub(super) struct Limits {
    too_deep: Vec<bool>,
    too_big: Vec<bool>,
    too_wide: Vec<bool>,
    cyclic: Vec<bool>,
}

impl Limits {
    pub(super) fn new(types: usize) -> Limits {
        Limits {
            too_deep: vec![false; types],
            too_big: vec![false; types],
            too_wide: vec![false; types],
            cyclic: vec![false; types],
        }
    }

    /// Checks the limits of type `id`, just laid out in `types`, which mentions the
    /// types `deps` and is recursive if `cyclic`. Returns the errors to report.
    pub(super) fn check(
        &mut self,
        id: TypeId,
        deps: &[TypeId],
        cyclic: bool,
        types: &[Option<TypeDef>],
    ) -> Vec<LayoutError> {
        self.cyclic[id] = cyclic;
        let mut errors = Vec::new();
        let def = types[id].as_ref().expect("laid out just before");
        let m = def.memory;
        let members = member_layouts(&def.kind, types);
        let checks: [(bool, LayoutErrorKind, Measure); 3] = [
            (
                m.depth > MAX_DEPTH,
                LayoutErrorKind::TooDeep { depth: m.depth },
                |m| u64::from(m.depth),
            ),
            (
                m.footprint > MAX_FOOTPRINT,
                LayoutErrorKind::FootprintTooLarge { bytes: m.footprint },
                |m| m.footprint,
            ),
            (
                m.size > MAX_INLINE_SIZE,
                LayoutErrorKind::InlineSizeTooLarge { bytes: m.size },
                |m| m.size,
            ),
        ];
        for (exceeded, kind, measure) in checks {
            if !exceeded {
                continue;
            }
            let failed = match kind {
                LayoutErrorKind::TooDeep { .. } => &mut self.too_deep,
                LayoutErrorKind::FootprintTooLarge { .. } => &mut self.too_big,
                _ => &mut self.too_wide,
            };
            failed[id] = true;
            let inherited = cyclic || deps.iter().any(|&d| failed[d] || self.cyclic[d]);
            if inherited {
                continue;
            }
            // The member that contributes most (the first of equals).
            let member = members
                .iter()
                .enumerate()
                .filter_map(|(i, m)| m.map(|m| (i, measure(&m))))
                .fold(None, |best: Option<(usize, u64)>, (i, v)| match best {
                    Some((_, b)) if b >= v => best,
                    _ => Some((i, v)),
                })
                .map(|(i, _)| i);
            errors.push(LayoutError {
                type_id: id,
                member,
                kind,
            });
        }
        errors
    }
}

/// The memory layout of each member (field, or union variant: `None` for a unit
/// variant); enums have none.
fn member_layouts(kind: &TypeDefKind, types: &[Option<TypeDef>]) -> Vec<Option<MemoryLayout>> {
    let of = |ty: &Type| memory_of_opt(ty, types);
    match kind {
        TypeDefKind::Struct { fields } => fields.iter().map(|f| Some(of(&f.ty))).collect(),
        TypeDefKind::Union { variants, .. } => variants
            .iter()
            .map(|v| v.payload.as_ref().map(of))
            .collect(),
        TypeDefKind::Enum { .. } => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_the_documented_numbers() {
        assert_eq!(MAX_DEPTH, 64);
        assert_eq!(MAX_FOOTPRINT, 64 * 1024 * 1024);
        assert_eq!(MAX_INLINE_SIZE, 256 * 1024);
        assert_eq!(super::super::MAX_INLINE_ARRAY, 4096);
    }
}
