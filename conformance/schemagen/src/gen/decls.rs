//! Declarations: structs (empty ones included), messages, enums and unions with
//! implicit, explicit, sparse and 64-bit tag values and declared tag widths, and the
//! unused constants of every constant type.

use super::names::{Kind, Scope};
use super::numbers::bits_for;
use super::{Declared, Gen, Info, Size, WEIGHT_LIMIT};
use crate::model::{ConstVal, DeclKind, Field, TypeDecl, TypeExpr, Value, Variant};

impl Gen {
    /// Every type declaration of the schema, in dependency order.
    pub(super) fn generate_decls(&mut self) {
        self.unused_consts();
        for _ in 0..self.profile.types {
            let d = match self.rng.below(20) {
                0..=6 => self.structure(None),
                7..=10 => {
                    let id = self.message_id();
                    let id = self.int_value(id);
                    self.structure(Some(id))
                }
                11..=13 => self.enumeration(),
                _ => self.union(),
            };
            self.decls.push(d);
        }
        if self.profile.deep {
            self.deep_structures();
        }
    }

    /// Constants nothing uses, one of each kind the language has.
    fn unused_consts(&mut self) {
        if self.rng.chance(50) {
            return;
        }
        let b = Value::Lit(if self.rng.chance(50) { "true" } else { "false" }.into());
        self.declare_const("bool".into(), b, ConstVal::Other);
        let s = Value::Lit(r#""tab\t quote\" backslash\\ nul\0 é""#.into());
        self.declare_const("string".into(), s, ConstVal::Other);
        let f = Value::Lit("-12.5".into());
        self.declare_const("f64".into(), f, ConstVal::Float(-12.5));
    }

    /// A fresh type name.
    fn type_name(&mut self) -> String {
        let long = self.rng.chance(self.profile.long_names);
        self.scope.spelled(Kind::Type).fresh(&mut self.rng, long)
    }

    /// A struct (or a message with `id`) of up to `profile.fields` fields.
    fn structure(&mut self, id: Option<Value>) -> Declared {
        let name = self.type_name();
        let doc = self.doc();
        let count = if self.rng.chance(10) {
            0
        } else {
            1 + self.rng.below(self.profile.fields)
        };
        let mut fields = Vec::new();
        let mut scope = Scope::new(Kind::Field, self.profile.hazards);
        let mut info = Info {
            size: Size::fixed(0),
            weight: 0,
        };
        for _ in 0..count {
            let depth = self.profile.depth;
            let Some((ty, field)) = self.fitting(depth, info) else {
                continue;
            };
            info = Info {
                size: info.size.then(field.size),
                weight: info.weight + field.weight,
            };
            let long = self.rng.chance(self.profile.long_names);
            fields.push(Field {
                name: scope.fresh(&mut self.rng, long),
                doc: self.doc(),
                ty,
            });
        }
        let kind = DeclKind::Struct {
            message_id: id,
            fields,
        };
        Declared {
            decl: TypeDecl { name, doc, kind },
            info,
        }
    }

    /// A type expression that can follow `so_far` in a struct without overflowing
    /// its size or weight; `None` when even a `bool` would not.
    fn fitting(&mut self, depth: u32, so_far: Info) -> Option<(TypeExpr, Info)> {
        let fits =
            |i: Info| so_far.size.then(i.size).fits() && so_far.weight + i.weight <= WEIGHT_LIMIT;
        for _ in 0..8 {
            let (ty, info) = self.type_expr(depth, false, false);
            if fits(info) {
                return Some((ty, info));
            }
        }
        let bool_info = Info {
            size: Size::fixed(1),
            weight: 1,
        };
        fits(bool_info).then_some((TypeExpr::Bool, bool_info))
    }

    /// Tag values for `n` variants: implicit (previous + 1), explicit, sparse or
    /// near 2^64; `None` marks an implicit value. Returns the values as evaluated.
    fn tags(&mut self, n: u64) -> Vec<(u64, bool)> {
        let mode = self.rng.below(5);
        let mut used: Vec<u64> = Vec::new();
        let mut out = Vec::new();
        let mut next = Some(0u64);
        for _ in 0..n {
            let implicit = match mode {
                0 => true,
                1 => false,
                _ => self.rng.chance(60),
            };
            let value = match next {
                Some(v) if implicit && !used.contains(&v) => v,
                _ => loop {
                    let v = match mode {
                        2 => self.rng.below(1000),
                        3 => u64::MAX - self.rng.below(n + 3),
                        _ => self.rng.below(n * 2 + 1),
                    };
                    if !used.contains(&v) {
                        break v;
                    }
                },
            };
            let implicit = implicit && next == Some(value);
            used.push(value);
            out.push((value, implicit));
            next = value.checked_add(1);
        }
        out
    }

    /// Variant count: one (zero-width tags), a few, or many.
    fn variant_count(&mut self) -> u64 {
        match self.rng.below(10) {
            0 | 1 => 1,
            2 => 9 + self.rng.below(40),
            _ => 2 + self.rng.below(self.profile.fields.min(12) + 1),
        }
    }

    /// A declared tag width (sometimes) that holds every value in `tags`.
    fn tag_width(&mut self, tags: &[(u64, bool)]) -> Option<u32> {
        let need = tags
            .iter()
            .map(|t| bits_for(u128::from(t.0)))
            .max()
            .unwrap_or(0);
        if !self.rng.chance(30) {
            return None;
        }
        let lo = need.max(1);
        Some(lo + self.rng.below(u64::from(65 - lo).min(4)) as u32)
    }

    /// Variants named uniquely, with their tag values written or implied.
    fn variants(&mut self, tags: &[(u64, bool)]) -> Vec<Variant> {
        let mut scope = Scope::new(Kind::Variant, self.profile.hazards);
        let mut out = Vec::new();
        for &(value, implicit) in tags {
            let long = self.rng.chance(self.profile.long_names);
            let name = scope.fresh(&mut self.rng, long);
            let value = (!implicit).then(|| self.int_value(i128::from(value)));
            out.push(Variant {
                name,
                doc: self.doc(),
                value,
                payload: None,
            });
        }
        out
    }

    /// The parts an enum and a union share: a name, a doc comment, up to `most`
    /// variants with their tags, and the tag width (declared or implied).
    fn tagged(&mut self, most: u64) -> (String, Vec<String>, Option<u32>, u32, Vec<Variant>) {
        let name = self.type_name();
        let doc = self.doc();
        let n = self.variant_count().min(most);
        let tags = self.tags(n);
        let tag_bits = self.tag_width(&tags);
        let implied = tags
            .iter()
            .map(|t| bits_for(u128::from(t.0)))
            .max()
            .unwrap_or(0);
        let variants = self.variants(&tags);
        (name, doc, tag_bits, tag_bits.unwrap_or(implied), variants)
    }

    fn enumeration(&mut self) -> Declared {
        let (name, doc, tag_bits, bits, variants) = self.tagged(u64::MAX);
        Declared {
            decl: TypeDecl {
                name,
                doc,
                kind: DeclKind::Enum { tag_bits, variants },
            },
            info: Info {
                size: Size::fixed(u128::from(bits)),
                weight: 1,
            },
        }
    }

    fn union(&mut self) -> Declared {
        let (name, doc, tag_bits, bits, mut variants) = self.tagged(16);
        let mut payload_min: Option<u128> = None;
        let mut payload_max: Option<u128> = Some(0);
        let mut weight = 1;
        for v in &mut variants {
            let mut size = Size::fixed(0);
            if self.rng.chance(65) {
                let (ty, info) = self.type_expr(self.profile.depth, false, false);
                v.payload = Some(ty);
                size = info.size;
                weight = weight.max(info.weight);
            }
            payload_min = Some(payload_min.map_or(size.min, |m| m.min(size.min)));
            payload_max = payload_max.zip(size.max).map(|(a, b)| a.max(b));
        }
        let size = Size::fixed(u128::from(bits)).then(Size {
            min: payload_min.unwrap_or(0),
            max: payload_max,
        });
        Declared {
            decl: TypeDecl {
                name,
                doc,
                kind: DeclKind::Union { tag_bits, variants },
            },
            info: Info { size, weight },
        }
    }

    /// Nesting at its extremes: a field of 20 nested lists, a 20-long chain of
    /// structs each holding the previous one, and arrays of optionals of arrays.
    fn deep_structures(&mut self) {
        let mut deep_list = TypeExpr::Bool;
        for _ in 0..20 {
            deep_list = TypeExpr::List(Box::new(deep_list), None);
        }
        let mut prev: Option<(String, Info)> = None;
        for i in 0..20 {
            let name = self.type_name();
            let mut fields = vec![Field {
                name: format!("level{i}"),
                doc: Vec::new(),
                ty: TypeExpr::Int {
                    signed: false,
                    bits: 3,
                },
            }];
            let mut info = Info {
                size: Size::fixed(3),
                weight: 1,
            };
            if let Some((p, pinfo)) = &prev {
                fields.push(Field {
                    name: "inner".into(),
                    doc: Vec::new(),
                    ty: TypeExpr::Optional(Box::new(TypeExpr::Named(p.clone()))),
                });
                info.size = info.size.then(Size {
                    min: 1,
                    max: pinfo.size.max.map(|m| m + 1),
                });
                info.weight += pinfo.weight;
            }
            if i == 0 {
                fields.push(Field {
                    name: "lists".into(),
                    doc: Vec::new(),
                    ty: deep_list.clone(),
                });
                info.size = info.size.then(Size { min: 5, max: None });
                info.weight += 16;
            }
            self.decls.push(Declared {
                decl: TypeDecl {
                    name: name.clone(),
                    doc: Vec::new(),
                    kind: DeclKind::Struct {
                        message_id: None,
                        fields,
                    },
                },
                info,
            });
            prev = Some((name, info));
        }
    }
}
