//! Inputs built to make decoders work hard, derived from the schema: for a type with
//! lists, a valid value where one list holds as many copies of its element's
//! cheapest value (fewest encoded bits: absent optionals, empty lists, the smallest
//! union variant, …) as fit in a target size — `list<optional<Big>>` of all-absent
//! elements is one bit per element, a list of unions with a 1-bit unit tag likewise,
//! `list<list<T>>` of empty inner lists a few bits per element. Each such input is
//! also offered cut one byte short (an error deep inside the long list).
//!
//! Today the decoders must simply agree on these; they are the inputs on which a
//! decode budget (`LimitExceeded`) and allocation measurements will be compared.

use bitwire_compiler::codec::{self, Value};
use bitwire_compiler::ir::{Schema, Type, TypeDefKind, TypeId};

/// Most list sites (lists in depth-first order) tried per type.
const SITES: usize = 4;

/// Adversarial inputs for the top-level type `id`, about `target` bytes each, with a
/// label saying what was built (`list #k ×n`).
pub fn adversarial_inputs(schema: &Schema, id: TypeId, target: usize) -> Vec<(String, Vec<u8>)> {
    let top = Type::Named {
        id,
        name: schema.types[id].name.clone(),
    };
    let mut out = Vec::new();
    for site in 0..SITES {
        let mut b = Builder {
            s: schema,
            left: site as isize,
            target_bits: target as u64 * 8,
            built: None,
        };
        let value = b.build(&top);
        let Some(what) = b.built else {
            break;
        };
        let bytes = codec::encode(schema, id, &value).expect("built values are valid");
        let label = format!("list #{site} {what}");
        if bytes.len() > 1 {
            out.push((format!("{label}, cut"), bytes[..bytes.len() - 1].to_vec()));
        }
        out.push((label, bytes));
    }
    out
}

/// The value of `ty` that encodes to the fewest bits.
pub fn cheapest(s: &Schema, ty: &Type) -> Value {
    match ty {
        Type::Bool => Value::Bool(false),
        Type::UInt { .. } | Type::SInt { .. } | Type::VarUInt { .. } | Type::VarSInt { .. } => {
            Value::Int(0)
        }
        Type::Bounded { min, .. } => Value::Int(*min),
        Type::Float { .. } => Value::Float(0.0),
        // q = 0 decodes to exactly MIN (spec §4.3).
        Type::Quantized { min, .. } => Value::Float(*min),
        Type::Optional { .. } => Value::none(),
        Type::Array { elem, len } => Value::Array((0..*len).map(|_| cheapest(s, elem)).collect()),
        Type::List { .. } => Value::Array(Vec::new()),
        Type::String { .. } => Value::String(String::new()),
        Type::Bytes { .. } => Value::Bytes(Vec::new()),
        Type::Named { id, .. } => match &s.types[*id].kind {
            TypeDefKind::Struct { fields } => Value::Struct(
                fields
                    .iter()
                    .map(|f| (f.name.clone(), cheapest(s, &f.ty)))
                    .collect(),
            ),
            TypeDefKind::Enum { variants, .. } => Value::Enum(variants[0].name.clone()),
            TypeDefKind::Union { variants, .. } => {
                let v = variants
                    .iter()
                    .min_by_key(|v| v.payload.as_ref().map_or(0, |p| codec::min_bits(s, p)))
                    .expect("unions have variants");
                Value::Union {
                    variant: v.name.clone(),
                    payload: v.payload.as_ref().map(|p| Box::new(cheapest(s, p))),
                }
            }
        },
    }
}

/// Builds the value whose list number `left` (depth-first) is long.
struct Builder<'a> {
    s: &'a Schema,
    /// Lists still to pass before the one to fill; below zero once it is built.
    left: isize,
    target_bits: u64,
    /// What was built, once it is.
    built: Option<String>,
}

impl Builder<'_> {
    fn build(&mut self, ty: &Type) -> Value {
        if self.built.is_some() {
            return cheapest(self.s, ty);
        }
        match ty {
            Type::List { elem, max, .. } => {
                if self.left == 0 {
                    self.left = -1;
                    let bits = codec::min_bits(self.s, elem).max(1);
                    let n = (self.target_bits / bits)
                        .min(max.unwrap_or(u64::MAX))
                        .max(1);
                    self.built = Some(format!("×{n} of {bits}-bit elements"));
                    return Value::Array((0..n).map(|_| cheapest(self.s, elem)).collect());
                }
                self.left -= 1;
                let inner = self.build(elem);
                if self.built.is_some() {
                    Value::Array(vec![inner])
                } else {
                    Value::Array(Vec::new())
                }
            }
            Type::Optional { inner } => {
                let v = self.build(inner);
                if self.built.is_some() {
                    Value::some(v)
                } else {
                    Value::none()
                }
            }
            Type::Array { elem, len } => {
                let first = self.build(elem);
                let mut out = vec![first];
                out.extend((1..*len).map(|_| cheapest(self.s, elem)));
                Value::Array(out)
            }
            Type::Named { id, .. } => self.named(*id, ty),
            _ => cheapest(self.s, ty),
        }
    }

    fn named(&mut self, id: TypeId, ty: &Type) -> Value {
        match &self.s.types[id].kind {
            TypeDefKind::Struct { fields } => Value::Struct(
                fields
                    .iter()
                    .map(|f| (f.name.clone(), self.build(&f.ty)))
                    .collect(),
            ),
            TypeDefKind::Union { variants, .. } => {
                for v in variants {
                    if let Some(p) = &v.payload {
                        let payload = self.build(p);
                        if self.built.is_some() {
                            return Value::variant(&v.name, payload);
                        }
                    }
                }
                cheapest(self.s, ty)
            }
            TypeDefKind::Enum { .. } => cheapest(self.s, ty),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schema(text: &str) -> Schema {
        bitwire_compiler::compile_source("a.bw", text).expect("compiles")
    }

    #[test]
    fn a_list_of_absent_optionals_costs_one_bit_per_element() {
        let s = schema("struct Big { a: u64, b: string }\nstruct S { l: list<optional<Big>> }");
        let id = s.type_by_name("S").unwrap();
        let inputs = adversarial_inputs(&s, id, 64);
        let (label, bytes) = inputs.iter().find(|(l, _)| !l.ends_with("cut")).unwrap();
        assert_eq!(label, "list #0 ×512 of 1-bit elements");
        let Ok(Value::Struct(fields)) = codec::decode(&s, id, bytes) else {
            panic!("the built input decodes");
        };
        assert_eq!(fields[0].1, Value::Array(vec![Value::none(); 512]));
        let (_, cut) = inputs.iter().find(|(l, _)| l.ends_with("cut")).unwrap();
        assert!(
            codec::decode(&s, id, cut).is_err(),
            "one byte short is truncated"
        );
    }

    #[test]
    fn the_cheapest_union_variant_is_the_unit_one_and_nested_lists_are_sites() {
        let s = schema("union U { Big([u64; 4]), Unit }\nstruct S { a: list<U, max 100>, b: list<list<bool>> }");
        let id = s.type_by_name("S").unwrap();
        let labels: Vec<String> = adversarial_inputs(&s, id, 1024)
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        assert!(
            labels.contains(&"list #0 ×100 of 1-bit elements".to_string()),
            "{labels:?}"
        );
        assert!(
            labels.contains(&"list #1 ×1638 of 5-bit elements".to_string()),
            "{labels:?}"
        );
        assert!(
            labels.iter().any(|l| l.starts_with("list #2 ")),
            "the inner list: {labels:?}"
        );
    }

    #[test]
    fn types_without_lists_get_no_inputs() {
        let s = schema("struct S { a: u8, b: optional<string> }");
        assert!(adversarial_inputs(&s, 0, 1024).is_empty());
    }
}
