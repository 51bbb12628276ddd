//! Checks that a serde value has the shape of a schema type — the Rust types generated
//! code declares (docs/spec.md §13.6): integers in the IR's `repr` width, the same struct,
//! field and variant names in the same order, variant indexes in declaration order,
//! `Option` for `optional`, `Vec` for lists and bytes, fixed arrays of the right length —
//! and turns it into the reference codec's [`Value`], whose JSON mapping the vectors hold.
//! Every value's path (spec §7.3) and byte offset is recorded on the way.

use bitwire_compiler::codec::Value;
use bitwire_compiler::ir::{FloatRepr, IntRepr, Schema, Type, TypeDefKind, TypeId};

use crate::shape::{Kind, Node};

/// Every value of a tree: its path and byte offset, outermost first.
pub type Places = Vec<(String, u64)>;

/// The value of the named type `id` that `node` holds, or why it does not mirror it.
pub fn named_value(
    schema: &Schema,
    id: TypeId,
    node: &Node,
    places: &mut Places,
) -> Result<Value, String> {
    places.push((String::new(), node.offset));
    Mirror { schema, places }.named(id, node, "")
}

struct Mirror<'a> {
    schema: &'a Schema,
    places: &'a mut Places,
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

fn int(node: &Node, repr: IntRepr, path: &str) -> Result<Value, String> {
    match node.kind {
        Kind::Int {
            bits,
            signed,
            value,
        } if bits == repr.bits() && signed == repr.signed() => Ok(Value::Int(value)),
        _ => Err(format!("{path:?}: {:?} is not a {repr:?}", node.kind)),
    }
}

fn float(node: &Node, repr: FloatRepr, path: &str) -> Result<Value, String> {
    match (&node.kind, repr) {
        (Kind::F32(v), FloatRepr::F32) => Ok(Value::Float(f64::from(*v))),
        (Kind::F64(v), FloatRepr::F64) => Ok(Value::Float(*v)),
        (k, _) => Err(format!("{path:?}: {k:?} is not a {repr:?}")),
    }
}

impl Mirror<'_> {
    fn ty(&mut self, ty: &Type, node: &Node, path: &str) -> Result<Value, String> {
        self.places.push((path.to_string(), node.offset));
        match ty {
            Type::Bool => match node.kind {
                Kind::Bool(b) => Ok(Value::Bool(b)),
                _ => Err(format!("{path:?}: {:?} is not a bool", node.kind)),
            },
            Type::UInt { repr, .. }
            | Type::SInt { repr, .. }
            | Type::Bounded { repr, .. }
            | Type::VarUInt { repr, .. }
            | Type::VarSInt { repr, .. } => int(node, *repr, path),
            Type::Float { repr } | Type::Quantized { repr, .. } => float(node, *repr, path),
            Type::Optional { inner } => match &node.kind {
                Kind::None => Ok(Value::Optional(None)),
                Kind::Some(v) => Ok(Value::Optional(Some(Box::new(self.ty(inner, v, path)?)))),
                k => Err(format!("{path:?}: {k:?} is not an Option")),
            },
            Type::Array { elem, len } => match &node.kind {
                Kind::Seq {
                    prefixed: false,
                    items,
                } if items.len() as u64 == *len => self.items(elem, items, path),
                k => Err(format!("{path:?}: {k:?} is not a [T; {len}]")),
            },
            Type::List { elem, .. } => match &node.kind {
                Kind::Seq {
                    prefixed: true,
                    items,
                } => self.items(elem, items, path),
                k => Err(format!("{path:?}: {k:?} is not a Vec")),
            },
            Type::String { .. } => match &node.kind {
                Kind::Str(s) => Ok(Value::String(s.clone())),
                k => Err(format!("{path:?}: {k:?} is not a String")),
            },
            Type::Bytes { .. } => match &node.kind {
                Kind::Seq {
                    prefixed: true,
                    items,
                } => self.bytes(items, path),
                k => Err(format!("{path:?}: {k:?} is not a Vec<u8>")),
            },
            Type::Named { id, .. } => self.named(*id, node, path),
        }
    }

    fn items(&mut self, elem: &Type, items: &[Node], path: &str) -> Result<Value, String> {
        let values = items
            .iter()
            .enumerate()
            .map(|(i, n)| self.ty(elem, n, &format!("{path}[{i}]")))
            .collect::<Result<_, _>>()?;
        Ok(Value::Array(values))
    }

    fn bytes(&mut self, items: &[Node], path: &str) -> Result<Value, String> {
        let bytes = items
            .iter()
            .map(|n| match n.kind {
                Kind::Int {
                    bits: 8,
                    signed: false,
                    value,
                } => Ok(value as u8),
                ref k => Err(format!("{path:?}: {k:?} is not a u8")),
            })
            .collect::<Result<_, _>>()?;
        Ok(Value::Bytes(bytes))
    }

    fn named(&mut self, id: TypeId, node: &Node, path: &str) -> Result<Value, String> {
        let def = &self.schema.types[id];
        match (&def.kind, &node.kind) {
            (TypeDefKind::Struct { fields }, Kind::Struct { name, fields: got })
                if *name == def.name =>
            {
                if got.len() != fields.len() {
                    return Err(format!("{path:?}: {name} has {} fields", got.len()));
                }
                let mut values = Vec::new();
                for (f, (got_name, n)) in fields.iter().zip(got) {
                    if f.name != *got_name {
                        return Err(format!("{path:?}: field {got_name} is not {}", f.name));
                    }
                    let v = self.ty(&f.ty, n, &join(path, &f.name))?;
                    values.push((f.name.clone(), v));
                }
                Ok(Value::Struct(values))
            }
            (
                TypeDefKind::Enum { variants, .. },
                Kind::Variant {
                    enum_name,
                    index,
                    name,
                    payload: None,
                },
            ) if *enum_name == def.name
                && variants.get(*index as usize).map(|v| v.name.as_str()) == Some(*name) =>
            {
                Ok(Value::Enum(name.to_string()))
            }
            (
                TypeDefKind::Union { variants, .. },
                Kind::Variant {
                    enum_name,
                    index,
                    name,
                    payload,
                },
            ) if *enum_name == def.name => {
                let v = variants
                    .get(*index as usize)
                    .filter(|v| v.name == *name)
                    .ok_or_else(|| format!("{path:?}: {name} is not variant {index}"))?;
                let payload = match (&v.payload, payload) {
                    (None, None) => None,
                    (Some(t), Some(n)) => Some(Box::new(self.ty(t, n, &join(path, name))?)),
                    _ => return Err(format!("{path:?}: {name}'s payload differs")),
                };
                Ok(Value::Union {
                    variant: name.to_string(),
                    payload,
                })
            }
            (_, k) => Err(format!("{path:?}: {k:?} is not a {}", def.name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    const SCHEMA: &str = "
        enum Team { Red, Blue = 7 }
        union Ev { Ping, Say(string) }
        struct S { a: u12, t: Team, e: Ev, l: list<u8>, b: bytes, o: optional<i3> }
    ";

    fn check<T: Serialize>(value: &T) -> Result<Value, String> {
        let schema = bitwire_compiler::compile_source("t.bw", SCHEMA).unwrap();
        let node = crate::shape::shape(value).unwrap();
        named_value(
            &schema,
            schema.type_by_name("S").unwrap(),
            &node,
            &mut Places::new(),
        )
    }

    #[derive(Serialize)]
    enum Team {
        Red,
        Blue,
    }

    #[derive(Serialize)]
    enum Ev {
        Ping,
        Say(String),
    }

    #[derive(Serialize)]
    struct S {
        a: u16,
        t: Team,
        e: Ev,
        l: Vec<u8>,
        b: Vec<u8>,
        o: Option<i8>,
    }

    fn good() -> S {
        S {
            a: 4095,
            t: Team::Blue,
            e: Ev::Say("x".into()),
            l: vec![1],
            b: vec![2],
            o: Some(-4),
        }
    }

    #[test]
    fn a_mirror_maps_to_the_schema_value() {
        let v = check(&good()).unwrap();
        let Value::Struct(fields) = v else {
            panic!("not a struct")
        };
        assert_eq!(fields[0], ("a".into(), Value::Int(4095)));
        assert_eq!(fields[1], ("t".into(), Value::Enum("Blue".into())));
        assert_eq!(fields[4], ("b".into(), Value::Bytes(vec![2])));
        let _ = (Team::Red, Ev::Ping);
    }

    #[test]
    fn a_wrong_width_is_caught() {
        #[derive(Serialize)]
        struct S {
            a: u32,
        }
        let e = check(&S { a: 1 }).unwrap_err();
        assert!(e.contains("has 1 fields"), "{e}");
        // Same fields, `a` one width too wide.
        #[derive(Serialize)]
        #[serde(rename = "S")]
        struct Wide {
            a: u32,
            t: Team,
            e: Ev,
            l: Vec<u8>,
            b: Vec<u8>,
            o: Option<i8>,
        }
        let g = good();
        let w = Wide {
            a: 1,
            t: g.t,
            e: g.e,
            l: g.l,
            b: g.b,
            o: g.o,
        };
        let e = check(&w).unwrap_err();
        assert!(e.contains("is not a U16"), "{e}");
    }

    #[test]
    fn a_wrong_variant_order_is_caught() {
        #[derive(Serialize)]
        #[serde(rename = "Ev")]
        enum Swapped {
            Say(String),
        }
        #[derive(Serialize)]
        #[serde(rename = "S")]
        struct S2 {
            a: u16,
            t: Team,
            e: Swapped,
            l: Vec<u8>,
            b: Vec<u8>,
            o: Option<i8>,
        }
        let v = S2 {
            a: 0,
            t: Team::Red,
            e: Swapped::Say("x".into()),
            l: vec![],
            b: vec![],
            o: None,
        };
        let e = check(&v).unwrap_err();
        assert!(e.contains("Say is not variant 0"), "{e}");
    }
}
