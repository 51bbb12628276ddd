//! Random values of bounded size for any schema, from the reference codec's
//! generator (`bitwire_compiler::codec::random`).
//!
//! That generator draws a list or bytes length up to the declared `max`, so a
//! `list<T, max 18446744073709551615>` would overflow and a `bytes<max 2^53>` would
//! not fit in memory, and unbounded lists nested 20 deep multiply out. Values are
//! therefore drawn from a copy of the schema whose bounds are tightened
//! ([`value_schema`]): every value of the copy is a valid value of the original, and
//! its bytes are computed with the original.

use bitwire_compiler::ir::{Schema, Type, TypeDefKind};

/// The most elements a random list holds at list-nesting `depth` within one type
/// declaration (0 = not inside another list): 64, then 4, then 1.
pub fn list_cap(depth: u32) -> u64 {
    match depth {
        0 => 64,
        1 => 4,
        _ => 1,
    }
}

/// The most bytes a random `bytes` value holds.
pub const BYTES_CAP: u64 = 64;

/// A copy of `schema` for drawing values: list bounds capped by [`list_cap`] (an
/// unbounded list inside another list gets the cap as its bound), bytes bounds by
/// [`BYTES_CAP`].
pub fn value_schema(schema: &Schema) -> Schema {
    let mut s = schema.clone();
    for def in &mut s.types {
        match &mut def.kind {
            TypeDefKind::Struct { fields } => {
                for f in fields {
                    cap(&mut f.ty, 0);
                }
            }
            TypeDefKind::Union { variants, .. } => {
                for v in variants {
                    if let Some(p) = &mut v.payload {
                        cap(p, 0);
                    }
                }
            }
            TypeDefKind::Enum { .. } => {}
        }
    }
    s
}

/// Caps the bounds in `ty`, which is inside `depth` lists.
fn cap(ty: &mut Type, depth: u32) {
    match ty {
        Type::List { elem, max, .. } => {
            let limit = list_cap(depth);
            *max = match *max {
                Some(m) => Some(m.min(limit)),
                None if depth > 0 => Some(limit.min(4)),
                None => None,
            };
            cap(elem, depth + 1);
        }
        Type::Bytes { max, .. } => *max = Some(max.unwrap_or(6).min(BYTES_CAP)),
        Type::Optional { inner } => cap(inner, depth),
        Type::Array { elem, .. } => cap(elem, depth),
        _ => {}
    }
}
