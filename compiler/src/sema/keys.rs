//! Checks the keys of keyed lists (`list<T, max M, key F>`, spec §12.1) and records
//! which field of the element struct each one names. A key must be one of the
//! element struct's own fields, of an integer type (`uN`, `iN`, bounded) or an enum:
//! the delta encoding orders and matches elements by it.
//!
//! Nothing here recurses: a type expression is a chain of constructors
//! (`optional<list<...>>`), walked in a loop.

use super::model::{DefKind, Model, Ty};
use crate::diag::{Code, Diagnostic};

/// Resolves every list key of `model` to a field index, reporting `E0319` for keys
/// that name no suitable field.
pub(crate) fn check(model: &mut Model, diags: &mut Vec<Diagnostic>) {
    for id in 0..model.types.len() {
        let count = match &model.types[id].kind {
            DefKind::Struct { fields } => fields.len(),
            DefKind::Union { variants, .. } => variants.len(),
            DefKind::Enum { .. } => 0,
        };
        for member in 0..count {
            let resolved = {
                let ty = member_type(model, id, member);
                ty.and_then(|ty| resolve(model, ty, diags))
            };
            if let Some(field) = resolved {
                if let Some(key) = member_type_mut(model, id, member).and_then(key_of) {
                    key.field = field;
                }
            }
        }
    }
}

fn member_type(model: &Model, id: usize, member: usize) -> Option<&Ty> {
    match &model.types[id].kind {
        DefKind::Struct { fields } => Some(&fields[member].ty),
        DefKind::Union { variants, .. } => variants[member].payload.as_ref(),
        DefKind::Enum { .. } => None,
    }
}

fn member_type_mut(model: &mut Model, id: usize, member: usize) -> Option<&mut Ty> {
    match &mut model.types[id].kind {
        DefKind::Struct { fields } => Some(&mut fields[member].ty),
        DefKind::Union { variants, .. } => variants[member].payload.as_mut(),
        DefKind::Enum { .. } => None,
    }
}

/// The key of the one keyed list in the chain of constructors `ty` (a list's element
/// type is a named struct, so a chain holds at most one keyed list).
fn key_of(mut ty: &mut Ty) -> Option<&mut super::model::ListKey> {
    loop {
        match ty {
            Ty::List(_, _, Some(key)) => return Some(key),
            Ty::Optional(inner) | Ty::Array(inner, _) | Ty::List(inner, _, None) => ty = inner,
            _ => return None,
        }
    }
}

/// Checks the keyed list in `ty`'s chain, if any: the index of its key field.
fn resolve(model: &Model, mut ty: &Ty, diags: &mut Vec<Diagnostic>) -> Option<usize> {
    let (elem, key) = loop {
        match ty {
            Ty::List(elem, _, Some(key)) => break (elem, key),
            Ty::Optional(inner) | Ty::Array(inner, _) | Ty::List(inner, _, None) => ty = inner,
            _ => return None,
        }
    };
    let invalid = |label: &str, help: String| {
        Diagnostic::error(
            Code::InvalidListKey,
            format!("`key {}` is not a valid list key", key.name),
            key.span,
            label,
        )
        .with_help(help)
    };
    let Ty::Named(id, name) = elem.as_ref() else {
        diags.push(invalid(
            "the elements are not structs",
            "a keyed list holds structs or messages, matched by one of their fields".into(),
        ));
        return None;
    };
    let DefKind::Struct { fields } = &model.types[*id].kind else {
        diags.push(invalid(
            "the elements are not structs",
            format!("`{name}` is not a struct; a keyed list holds structs or messages"),
        ));
        return None;
    };
    let Some(index) = fields.iter().position(|f| f.name == key.name) else {
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        diags.push(invalid(
            "no such field",
            format!("`{name}` has the fields: {}", names.join(", ")),
        ));
        return None;
    };
    let scalar = match &fields[index].ty {
        Ty::UInt { .. } | Ty::SInt { .. } | Ty::Bounded { .. } => true,
        Ty::Named(id, _) => matches!(model.types[*id].kind, DefKind::Enum { .. }),
        _ => false,
    };
    if !scalar {
        diags.push(invalid(
            "not an integer or enum field",
            format!(
                "`{name}.{}` must be an integer (`uN`, `iN`, bounded) or an enum to be a key",
                key.name
            ),
        ));
        return None;
    }
    Some(index)
}
