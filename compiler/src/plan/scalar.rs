//! Scalars: which types are fixed-width scalars, their widths, and the checks each side
//! runs (spec §3, §4) — the one place these rules are decided.

use super::ops::{DecodeCheck, EncodeCheck, Kind, Scalar, ScalarKind, Varint};
use super::quant::reciprocal_scale;
use super::types::EnumPlan;
use crate::ir::{FloatRepr, IntRepr, Schema, Type, TypeDefKind};

/// The largest integer magnitude every JSON implementation holds exactly.
const MAX_SAFE_INTEGER: i128 = (1 << 53) - 1;

/// The scalar of `ty` if it is one: `bool`, `uN`, `iN`, `f32`, `f64`, bounded
/// integers, quantized floats and enum tags. Composite and variable-width types are not.
pub fn of_type(schema: &Schema, ty: &Type) -> Option<Scalar> {
    let (bits, kind) = match *ty {
        Type::Bool => (1, ScalarKind::Bool),
        Type::UInt { bits, repr } => (bits, ScalarKind::UInt { repr }),
        Type::SInt { bits, repr } => (bits, ScalarKind::SInt { repr }),
        Type::Float { repr } => (float_bits(repr), ScalarKind::Float { repr }),
        Type::Bounded {
            repr,
            min,
            max,
            packed_bits,
            ..
        } => (packed_bits, ScalarKind::Bounded { repr, min, max }),
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            packed_bits,
        } => (
            packed_bits,
            ScalarKind::Quantized {
                repr,
                min,
                max,
                steps,
                scale: reciprocal_scale(repr, min, max, steps),
            },
        ),
        Type::Named { id, .. } => match &schema.types[id].kind {
            TypeDefKind::Enum {
                repr,
                packed_tag_bits,
                ..
            } => (*packed_tag_bits, ScalarKind::Enum { id, repr: *repr }),
            _ => return None,
        },
        _ => return None,
    };
    let enum_plan = match kind {
        ScalarKind::Enum { id, .. } => Some(enum_plan(schema, id)),
        _ => None,
    };
    Some(Scalar {
        bits,
        decode: decode_check(bits, &kind, enum_plan.as_ref()),
        encode: encode_check(bits, &kind, enum_plan.as_ref()),
        json_wide: int_range(ty).is_some_and(wide),
        kind,
    })
}

/// The varint of `ty` if it is one.
pub fn varint(ty: &Type) -> Option<Varint> {
    let (bits, signed, repr) = match *ty {
        Type::VarUInt { bits, repr } => (bits, false, repr),
        Type::VarSInt { bits, repr } => (bits, true, repr),
        _ => return None,
    };
    Some(Varint {
        bits,
        signed,
        repr,
        non_minimal: Kind::NonCanonical,
        json_wide: int_range(ty).is_some_and(wide),
    })
}

/// The plan of the enum `id`.
pub fn enum_plan(schema: &Schema, id: usize) -> EnumPlan {
    let TypeDefKind::Enum {
        repr,
        packed_tag_bits,
        variants,
    } = &schema.types[id].kind
    else {
        unreachable!("not an enum")
    };
    EnumPlan {
        tag_bits: *packed_tag_bits,
        repr: *repr,
        values: variants.iter().map(|v| v.value).collect(),
        undeclared: Kind::InvalidEnum,
    }
}

fn float_bits(repr: FloatRepr) -> u32 {
    match repr {
        FloatRepr::F32 => 32,
        FloatRepr::F64 => 64,
    }
}

/// The largest value of a `bits`-wide unsigned field.
fn max_of(bits: u32) -> u128 {
    (1u128 << bits) - 1
}

/// What a decoder rejects once a scalar's bits are read.
fn decode_check(bits: u32, kind: &ScalarKind, enum_plan: Option<&EnumPlan>) -> DecodeCheck {
    match *kind {
        ScalarKind::Bool | ScalarKind::UInt { .. } | ScalarKind::SInt { .. } => DecodeCheck::None,
        ScalarKind::Float { .. } => DecodeCheck::CanonicalNan {
            kind: Kind::NonCanonical,
        },
        // A stored offset above MAX - MIN (§4.2) or a q above STEPS (§4.3) is out of
        // range, unless the width cannot hold one: then any bits are a value.
        ScalarKind::Bounded { min, max, .. } => at_most(bits, (max - min) as u128),
        ScalarKind::Quantized { steps, .. } => at_most(bits, u128::from(steps)),
        ScalarKind::Enum { .. } => {
            let plan = enum_plan.expect("an enum's plan");
            if plan.all_patterns_declared() {
                DecodeCheck::None
            } else {
                DecodeCheck::Declared {
                    kind: plan.undeclared,
                }
            }
        }
    }
}

fn at_most(bits: u32, max: u128) -> DecodeCheck {
    if bits == 0 || max >= max_of(bits) {
        DecodeCheck::None
    } else {
        DecodeCheck::AtMost {
            max: max as u64,
            kind: Kind::OutOfRange,
        }
    }
}

/// What an encoder rejects before writing a scalar.
fn encode_check(bits: u32, kind: &ScalarKind, enum_plan: Option<&EnumPlan>) -> EncodeCheck {
    let range = |min: i128, max: i128, repr: IntRepr| {
        let (lo, hi) = repr_range(repr);
        EncodeCheck::Range {
            min,
            max,
            kind: Kind::OutOfRange,
            repr_covers: min <= lo && max >= hi,
        }
    };
    match *kind {
        ScalarKind::Bool | ScalarKind::Float { .. } => EncodeCheck::None,
        ScalarKind::UInt { repr } => range(0, max_of(bits) as i128, repr),
        ScalarKind::SInt { repr } => {
            let half = 1i128 << (bits - 1);
            range(-half, half - 1, repr)
        }
        ScalarKind::Bounded { repr, min, max } => range(min, max, repr),
        ScalarKind::Quantized { min, max, .. } => EncodeCheck::FloatRange {
            min,
            max,
            kind: Kind::OutOfRange,
        },
        ScalarKind::Enum { .. } => EncodeCheck::Declared {
            kind: enum_plan.expect("an enum's plan").undeclared,
        },
    }
}

/// The value range of an integer representation.
pub fn repr_range(repr: IntRepr) -> (i128, i128) {
    let bits = repr.bits();
    if repr.signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// The value range of an integer type (`uN`, `iN`, bounded, varints).
pub fn int_range(ty: &Type) -> Option<(i128, i128)> {
    match *ty {
        Type::UInt { bits, .. } | Type::VarUInt { bits, .. } => Some((0, (1i128 << bits) - 1)),
        Type::SInt { bits, .. } | Type::VarSInt { bits, .. } => {
            let half = 1i128 << (bits - 1);
            Some((-half, half - 1))
        }
        Type::Bounded { min, max, .. } => Some((min, max)),
        _ => None,
    }
}

/// Whether integers of this range are JSON decimal strings (docs/json-mapping.md §2):
/// the range leaves `±(2^53 - 1)`.
fn wide((lo, hi): (i128, i128)) -> bool {
    lo < -MAX_SAFE_INTEGER || hi > MAX_SAFE_INTEGER
}

impl EnumPlan {
    /// Whether every `tag_bits`-bit pattern is a declared value (a decoder has nothing
    /// to reject).
    pub fn all_patterns_declared(&self) -> bool {
        self.tag_bits < 64 && self.contiguous_to() == Some(max_of(self.tag_bits) as u64)
    }

    /// `Some(last)` when the declared values are exactly `0..=last`.
    pub fn contiguous_to(&self) -> Option<u64> {
        let mut values = self.values.clone();
        values.sort_unstable();
        let contiguous = values.iter().enumerate().all(|(i, v)| *v == i as u64);
        contiguous.then(|| *values.last().expect("an enum has a variant"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounded(min: i128, max: i128, bits: u32) -> Type {
        Type::Bounded {
            repr: IntRepr::U16,
            base_bits: 16,
            min,
            max,
            packed_bits: bits,
        }
    }

    fn empty() -> Schema {
        Schema {
            root_file: "t.bw".into(),
            constants: vec![],
            types: vec![],
        }
    }

    #[test]
    fn full_width_ranges_need_no_decode_check() {
        let s = empty();
        let check = |ty: &Type| of_type(&s, ty).unwrap().decode;
        assert_eq!(check(&bounded(10, 25, 4)), DecodeCheck::None);
        assert_eq!(
            check(&bounded(0, 1000, 10)),
            DecodeCheck::AtMost {
                max: 1000,
                kind: Kind::OutOfRange
            }
        );
        assert_eq!(check(&bounded(7, 7, 0)), DecodeCheck::None);
        // `bits 8`: every q in 0..=255 is a grid point.
        let q = |steps| Type::Quantized {
            repr: FloatRepr::F32,
            min: -1.0,
            max: 1.0,
            steps,
            packed_bits: 8,
        };
        assert_eq!(check(&q(255)), DecodeCheck::None);
        assert!(matches!(
            check(&q(200)),
            DecodeCheck::AtMost { max: 200, .. }
        ));
    }

    #[test]
    fn encode_checks_know_when_the_type_holds_only_valid_values() {
        let s = empty();
        let check = |ty: &Type| of_type(&s, ty).unwrap().encode;
        let u16 = Type::UInt {
            bits: 16,
            repr: IntRepr::U16,
        };
        assert!(matches!(
            check(&u16),
            EncodeCheck::Range {
                repr_covers: true,
                ..
            }
        ));
        let u9 = Type::UInt {
            bits: 9,
            repr: IntRepr::U16,
        };
        assert!(matches!(
            check(&u9),
            EncodeCheck::Range {
                min: 0,
                max: 511,
                repr_covers: false,
                ..
            }
        ));
    }
}
