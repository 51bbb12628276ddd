//! Random (baseline, value) pairs for the delta encoding (spec §12): a value that
//! differs from a baseline in a few places, as consecutive snapshots do, and keyed
//! lists put in key order (dropping repeated keys), as the delta encoding requires.
//! Property tests, the differential tests of generated code and the fuzzers use them.

use super::delta::{form, items, key_value, struct_values, Form};
use super::random::{random_value, Rng};
use super::Value;
use crate::ir::{Schema, Type, TypeDefKind};

/// A value of `ty` close to `base`: each part is kept, replaced by a random value or
/// (struct fields, array elements, keyed list elements) perturbed in turn; keyed lists
/// also lose and gain elements. `percent` is the chance of touching each part.
pub fn perturb(rng: &mut Rng, s: &Schema, ty: &Type, base: &Value, percent: u64) -> Value {
    if !rng.chance(percent) {
        return base.clone();
    }
    match (form(s, ty), ty) {
        (Form::Struct(id), _) => {
            let TypeDefKind::Struct { fields } = &s.types[id].kind else {
                unreachable!("a struct")
            };
            Value::Struct(
                fields
                    .iter()
                    .zip(struct_values(base))
                    .map(|(f, (name, v))| (name.clone(), perturb(rng, s, &f.ty, v, percent)))
                    .collect(),
            )
        }
        (Form::Array(elem), _) => Value::Array(
            items(base)
                .iter()
                .map(|v| perturb(rng, s, elem, v, percent))
                .collect(),
        ),
        (Form::Keyed { max, .. }, Type::List { elem, .. }) => {
            let mut out = Vec::new();
            for v in items(base) {
                if !rng.chance(20) {
                    out.push(perturb(rng, s, elem, v, percent));
                }
            }
            let room = max.unwrap_or(8).saturating_sub(out.len() as u64);
            for _ in 0..rng.below(room.min(3) + 1) {
                out.push(random_value(rng, s, elem));
            }
            Value::Array(out)
        }
        _ => random_value(rng, s, ty),
    }
}

/// `value` with every keyed list inside it sorted by key, repeated keys dropped.
pub fn sort_keys(s: &Schema, ty: &Type, value: &Value) -> Value {
    match (ty, value) {
        (Type::Named { id, .. }, Value::Struct(fields)) => {
            let TypeDefKind::Struct { fields: defs } = &s.types[*id].kind else {
                unreachable!("a struct")
            };
            Value::Struct(
                defs.iter()
                    .zip(fields)
                    .map(|(d, (name, v))| (name.clone(), sort_keys(s, &d.ty, v)))
                    .collect(),
            )
        }
        (Type::Named { id, .. }, Value::Union { variant, payload }) => {
            let TypeDefKind::Union { variants, .. } = &s.types[*id].kind else {
                unreachable!("a union")
            };
            let ty = variants
                .iter()
                .find(|v| &v.name == variant)
                .and_then(|v| v.payload.as_ref());
            Value::Union {
                variant: variant.clone(),
                payload: match (ty, payload) {
                    (Some(t), Some(p)) => Some(Box::new(sort_keys(s, t, p))),
                    _ => payload.clone(),
                },
            }
        }
        (Type::Optional { inner }, Value::Optional(Some(v))) => {
            Value::Optional(Some(Box::new(sort_keys(s, inner, v))))
        }
        (Type::Array { elem, .. } | Type::List { elem, .. }, Value::Array(list)) => {
            let mut out: Vec<Value> = list.iter().map(|v| sort_keys(s, elem, v)).collect();
            if let (Type::List { key: Some(key), .. }, Type::Named { id, .. }) = (ty, elem.as_ref())
            {
                let TypeDefKind::Struct { fields } = &s.types[*id].kind else {
                    unreachable!("keyed lists hold structs")
                };
                let key_ty = &fields[key.field].ty;
                let k = |v: &Value| key_value(s, key_ty, &struct_values(v)[key.field].1);
                out.sort_by_key(|v| k(v));
                out.dedup_by(|a, b| k(a) == k(b));
            }
            Value::Array(out)
        }
        _ => value.clone(),
    }
}
