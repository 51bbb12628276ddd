//! Type expressions: every scalar, bounded and quantized number, varint, string and
//! bytes (with and without `max`, at every interesting bound), references to named
//! types, and `optional`, fixed arrays and lists nested up to the profile's depth.

use bitwire_conformance::values::list_cap;

use super::numbers::bits_for;
use super::{Gen, Info, Size, WEIGHT_LIMIT};
use crate::model::TypeExpr;

/// Constraints on a type expression from where it is used.
#[derive(Clone, Copy)]
struct Want {
    /// A list element: must not be able to encode to zero bits (E0310).
    nonzero: bool,
    /// Directly inside `optional`: must not be `optional` itself (E0318).
    no_optional: bool,
    /// Lists enclosing this expression within its declaration (caps value sizes).
    list_depth: u32,
}

/// The size of a length prefix for `max`.
fn prefix(max: Option<u64>) -> Size {
    match max {
        Some(m) => Size::fixed(u128::from(bits_for(u128::from(m)))),
        None => Size {
            min: 5,
            max: Some(79),
        },
    }
}

/// `prefix(max)` then up to `max` elements of `elem`.
fn sequence(max: Option<u64>, elem: Size) -> Size {
    let p = prefix(max);
    Size {
        min: p.min,
        max: match (p.max, max, elem.max) {
            (Some(p), Some(n), Some(e)) => Some(p.saturating_add(u128::from(n).saturating_mul(e))),
            _ => None,
        },
    }
}

impl Gen {
    /// A type expression for a field or payload, within `depth` levels of nesting.
    pub(super) fn type_expr(
        &mut self,
        depth: u32,
        nonzero: bool,
        no_optional: bool,
    ) -> (TypeExpr, Info) {
        self.expr(
            depth,
            Want {
                nonzero,
                no_optional,
                list_depth: 0,
            },
        )
    }

    fn expr(&mut self, depth: u32, want: Want) -> (TypeExpr, Info) {
        for _ in 0..12 {
            let (ty, info) = if depth > 0 && self.rng.chance(35) {
                self.composite(depth - 1, want)
            } else {
                self.leaf()
            };
            let ok = info.size.fits()
                && info.weight <= WEIGHT_LIMIT
                && (!want.nonzero || info.size.min > 0);
            if ok {
                return (ty, info);
            }
        }
        let info = Info {
            size: Size::fixed(1),
            weight: 1,
        };
        (TypeExpr::Bool, info)
    }

    fn composite(&mut self, depth: u32, want: Want) -> (TypeExpr, Info) {
        match self.rng.below(3) {
            0 if !want.no_optional => {
                let inner = Want {
                    nonzero: false,
                    no_optional: true,
                    ..want
                };
                let (ty, info) = self.expr(depth, inner);
                let size = Size {
                    min: 1,
                    max: info.size.max.map(|m| m.saturating_add(1)),
                };
                (TypeExpr::Optional(Box::new(ty)), Info { size, ..info })
            }
            0 | 1 => self.array(depth, want),
            _ => {
                let inner = Want {
                    nonzero: true,
                    no_optional: false,
                    list_depth: want.list_depth + 1,
                };
                let (ty, info) = self.expr(depth, inner);
                let max = if info.size.max.is_none() && self.rng.chance(20) {
                    // Only unbounded elements leave room for the largest bound.
                    Some(u64::MAX)
                } else {
                    self.rng.chance(50).then(|| self.max_len())
                };
                let cap = max.unwrap_or(4).min(list_cap(want.list_depth));
                let info = Info {
                    size: sequence(max, info.size),
                    weight: info.weight.saturating_mul(u128::from(cap)).max(1),
                };
                let max = max.map(|m| self.int_value(i128::from(m)));
                (TypeExpr::List(Box::new(ty), max), info)
            }
        }
    }

    /// `[T; N]`: long only for scalars, short for zero-width elements.
    fn array(&mut self, depth: u32, want: Want) -> (TypeExpr, Info) {
        let inner = Want {
            nonzero: false,
            no_optional: false,
            ..want
        };
        let (ty, info) = if self.rng.chance(20) {
            let byte = TypeExpr::Int {
                signed: false,
                bits: 8,
            };
            (
                byte,
                Info {
                    size: Size::fixed(8),
                    weight: 1,
                },
            )
        } else {
            self.expr(depth, inner)
        };
        let len: u64 = if info.size.min == 0 {
            1 + self.rng.below(4)
        } else if info.weight == 1 && self.rng.chance(30) {
            1 + self.rng.below(300)
        } else {
            1 + self.rng.below(8)
        };
        let n = u128::from(len);
        let size = Size {
            min: info.size.min.saturating_mul(n),
            max: info.size.max.map(|m| m.saturating_mul(n)),
        };
        let info = Info {
            size,
            weight: info.weight.saturating_mul(n),
        };
        let len = self.int_value(i128::from(len));
        (TypeExpr::Array(Box::new(ty), len), info)
    }

    /// A `max` bound: small, at powers of two and one below, or huge (beyond 2^53,
    /// up to 2^64 - 1). Sizes that overflow are rejected by the caller.
    fn max_len(&mut self) -> u64 {
        const HUGE: &[u64] = &[
            1 << 32,
            (1 << 53) - 1,
            1 << 53,
            9_007_199_254_740_993,
            1 << 63,
            u64::MAX,
        ];
        match self.rng.below(10) {
            0 => 1,
            1..=3 => {
                let k = 1 + self.rng.below(20);
                (1 << k) - self.rng.below(2)
            }
            4 => HUGE[self.rng.below(HUGE.len() as u64) as usize],
            _ => 1 + self.rng.below(300),
        }
    }

    fn leaf(&mut self) -> (TypeExpr, Info) {
        let fixed = |bits: u128| Info {
            size: Size::fixed(bits),
            weight: 1,
        };
        match self.rng.below(20) {
            0 | 1 => (TypeExpr::Bool, fixed(1)),
            2..=4 => {
                let signed = self.rng.chance(50);
                let bits = self.int_width();
                (TypeExpr::Int { signed, bits }, fixed(u128::from(bits)))
            }
            5 => {
                let wide = self.rng.chance(50);
                (TypeExpr::Float { wide }, fixed(if wide { 64 } else { 32 }))
            }
            6 => {
                let signed = self.rng.chance(50);
                let bits = [16, 32, 64][self.rng.below(3) as usize];
                let size = Size {
                    min: 5,
                    max: Some(u128::from(bits / 4 - 1 + bits)),
                };
                (TypeExpr::Var { signed, bits }, Info { size, weight: 1 })
            }
            7 | 8 => {
                let (ty, size) = self.bounded();
                (ty, Info { size, weight: 1 })
            }
            9 | 10 => {
                let (ty, size) = self.quantized();
                (ty, Info { size, weight: 1 })
            }
            11 | 12 => {
                let max = self.rng.chance(60).then(|| self.max_len());
                let size = sequence(max, Size::fixed(8));
                let max = max.map(|m| self.int_value(i128::from(m)));
                let ty = if self.rng.chance(50) {
                    TypeExpr::String(max)
                } else {
                    TypeExpr::Bytes(max)
                };
                (ty, Info { size, weight: 1 })
            }
            _ if !self.decls.is_empty() => {
                let pick = self.rng.below(self.decls.len() as u64) as usize;
                let d = &self.decls[pick];
                (TypeExpr::Named(d.decl.name.clone()), d.info)
            }
            _ => (TypeExpr::Bool, fixed(1)),
        }
    }
}
