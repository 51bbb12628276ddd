//! Smaller inputs for the minimizer: shorter and sparser byte strings for a decode
//! disagreement, and smaller values (fewer list elements, absent optionals, zeros,
//! the cheapest variant) for an encode disagreement.

use bitwire_compiler::codec::Value;
use bitwire_compiler::ir::{Schema, Type, TypeDefKind};
use bitwire_conformance::adversarial::cheapest;

/// Most candidates offered per round.
const MAX: usize = 160;

/// Byte strings derived from `b` that are shorter or have fewer one bits.
pub fn smaller_bytes(b: &[u8]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let step = (b.len() / 24).max(1);
    for k in (0..b.len()).step_by(step) {
        out.push(b[..k].to_vec());
    }
    for i in 0..b.len() {
        let mut c = b.to_vec();
        c.remove(i);
        out.push(c);
        if b[i] != 0 {
            let mut z = b.to_vec();
            z[i] = 0;
            out.push(z);
        }
    }
    if b.len() <= 32 {
        for bit in 0..b.len() * 8 {
            if b[bit / 8] & (1 << (bit % 8)) != 0 {
                let mut c = b.to_vec();
                c[bit / 8] &= !(1 << (bit % 8));
                out.push(c);
            }
        }
    }
    out.sort_by_key(|c| (c.len(), ones(c)));
    out.dedup();
    out.truncate(MAX);
    out
}

/// The number of one bits (the order among inputs of one length).
pub fn ones(b: &[u8]) -> u32 {
    b.iter().map(|x| x.count_ones()).sum()
}

/// Values of `ty` one step smaller than `v`: a part replaced by its cheapest value,
/// a list element dropped, an optional made absent.
pub fn smaller_values(s: &Schema, ty: &Type, v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    let cheap = cheapest(s, ty);
    if cheap != *v {
        out.push(cheap);
    }
    match (ty, v) {
        (Type::Optional { inner }, Value::Optional(Some(x))) => {
            out.extend(smaller_values(s, inner, x).into_iter().map(Value::some));
        }
        (Type::List { elem, .. } | Type::Array { elem, .. }, Value::Array(items)) => {
            let is_list = matches!(ty, Type::List { .. });
            for i in 0..items.len() {
                if is_list {
                    let mut fewer = items.clone();
                    fewer.remove(i);
                    out.push(Value::Array(fewer));
                }
                for x in smaller_values(s, elem, &items[i]) {
                    let mut c = items.clone();
                    c[i] = x;
                    out.push(Value::Array(c));
                }
            }
        }
        (Type::String { .. }, Value::String(t)) if !t.is_empty() => {
            let mut shorter = t.clone();
            shorter.pop();
            out.push(Value::String(shorter));
        }
        (Type::Bytes { .. }, Value::Bytes(b)) if !b.is_empty() => {
            out.push(Value::Bytes(b[1..].to_vec()))
        }
        (Type::Named { id, .. }, _) => out.extend(smaller_named(s, *id, v)),
        _ => {}
    }
    out.truncate(MAX);
    out
}

fn smaller_named(s: &Schema, id: usize, v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    match (&s.types[id].kind, v) {
        (TypeDefKind::Struct { fields }, Value::Struct(vals)) => {
            for (i, f) in fields.iter().enumerate() {
                for x in smaller_values(s, &f.ty, &vals[i].1) {
                    let mut c = vals.clone();
                    c[i].1 = x;
                    out.push(Value::Struct(c));
                }
            }
        }
        (
            TypeDefKind::Union { variants, .. },
            Value::Union {
                variant,
                payload: Some(p),
            },
        ) => {
            if let Some(ty) = variants
                .iter()
                .find(|x| &x.name == variant)
                .and_then(|x| x.payload.as_ref())
            {
                out.extend(
                    smaller_values(s, ty, p)
                        .into_iter()
                        .map(|x| Value::variant(variant, x)),
                );
            }
        }
        _ => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smaller_bytes_are_shorter_or_sparser_and_ordered() {
        let c = smaller_bytes(&[0xff, 0x01]);
        assert!(c.iter().all(|x| x.len() < 2 || ones(x) < 9));
        assert_eq!(c[0], Vec::<u8>::new());
        assert!(c
            .windows(2)
            .all(|w| (w[0].len(), ones(&w[0])) <= (w[1].len(), ones(&w[1]))));
    }

    #[test]
    fn smaller_values_drop_list_elements_and_empty_optionals() {
        let s =
            bitwire_compiler::compile_source("s.bw", "struct S { l: list<u8>, o: optional<bool> }")
                .unwrap();
        let ty = Type::Named {
            id: 0,
            name: "S".into(),
        };
        let v = Value::Struct(vec![
            ("l".into(), Value::Array(vec![Value::Int(1), Value::Int(2)])),
            ("o".into(), Value::some(Value::Bool(true))),
        ]);
        let c = smaller_values(&s, &ty, &v);
        let cheapest = Value::Struct(vec![
            ("l".into(), Value::Array(vec![])),
            ("o".into(), Value::none()),
        ]);
        assert_eq!(c[0], cheapest);
        assert!(c.contains(&Value::Struct(vec![
            ("l".into(), Value::Array(vec![Value::Int(2)])),
            ("o".into(), Value::some(Value::Bool(true))),
        ])));
    }
}
