//! Numbers in schemas: integer and float literals in every spelling the lexer
//! accepts, constants standing in for them (declared before or after their use,
//! sometimes through another constant), bounded-integer ranges and quantized-float
//! grids that satisfy the compiler's rules (E0304–E0309) by construction.

use bitwire_compiler::codec::random::Rng;

use super::{Gen, Size};
use crate::gen::names::Kind;
use crate::model::{Const, ConstVal, Quant, TypeExpr, Value};

/// An integer literal for `v` in one of the spellings of the lexical rules.
pub fn int_lit(rng: &mut Rng, v: i128) -> String {
    let sign = if v < 0 { "-" } else { "" };
    let mag = v.unsigned_abs();
    let body = match rng.below(10) {
        0..=5 => mag.to_string(),
        6 => format!("0x{mag:X}"),
        7 => group(&format!("{mag:x}"), 4, "0x"),
        8 => group(&mag.to_string(), 3, ""),
        _ if mag < 1 << 16 => format!("0b{mag:b}"),
        _ => mag.to_string(),
    };
    format!("{sign}{body}")
}

/// `digits` with `_` every `n` digits from the right, after `prefix`.
fn group(digits: &str, n: usize, prefix: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % n == 0 {
            out.push('_');
        }
        out.push(c);
    }
    format!("{prefix}{out}")
}

/// Fewest bits holding `v`.
pub fn bits_for(v: u128) -> u32 {
    128 - v.leading_zeros()
}

/// Inclusive range of `uN` / `iN`.
pub fn int_range(signed: bool, bits: u32) -> (i128, i128) {
    if signed {
        let half = 1i128 << (bits - 1);
        (-half, half - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// A decimal number `mantissa · 10^-scale`, spelled exactly.
#[derive(Clone, Copy)]
struct Decimal {
    mantissa: i128,
    scale: u32,
}

impl Decimal {
    fn text(self, rng: &mut Rng) -> String {
        let sign = if self.mantissa < 0 { "-" } else { "" };
        let mag = self.mantissa.unsigned_abs();
        if self.scale > 0 && rng.chance(15) {
            // Exponent form: `1234e-2` is 12.34.
            let e = if rng.chance(50) { 'e' } else { 'E' };
            return format!("{sign}{mag}{e}-{}", self.scale);
        }
        if self.scale == 0 {
            return if rng.chance(50) {
                format!("{sign}{mag}")
            } else {
                format!("{sign}{mag}.0")
            };
        }
        let p = 10u128.pow(self.scale);
        let frac = format!("{:0width$}", mag % p, width = self.scale as usize);
        format!("{sign}{}.{frac}", mag / p)
    }
}

/// The compiler's step count for `step` on `min..=max` (sema `steps_for`).
fn steps_for(step: f64, min: f64, max: f64, max_bits: u32) -> Option<u64> {
    let ratio = (max - min) / step;
    let rounded = ratio.round();
    let ok = step > 0.0
        && ratio >= 1.0 - 1e-9
        && (ratio - rounded).abs() <= 1e-9 * rounded
        && rounded <= 2f64.powi(max_bits as i32);
    ok.then_some(rounded as u64)
}

/// The compiler's range and precision rules for a quantized float (E0304, E0305,
/// E0309), on the bounds as evaluated.
fn grid_ok(wide: bool, min: f64, max: f64, steps: u64) -> bool {
    if !wide && (min.abs() > f64::from(f32::MAX) || max.abs() > f64::from(f32::MAX)) {
        return false;
    }
    if min >= max || !(max - min).is_finite() {
        return false;
    }
    let (min, max) = if wide {
        (min, max)
    } else {
        (f64::from(min as f32), f64::from(max as f32))
    };
    let grid = (max - min) / steps as f64;
    let spacing = min.abs().max(max.abs()) * 2f64.powi(if wide { -52 } else { -23 });
    spacing <= grid / 4.0
}

impl Gen {
    /// A value for the integer `v`: a literal, or (sometimes) a constant.
    pub fn int_value(&mut self, v: i128) -> Value {
        if !self.rng.chance(self.profile.consts) {
            return Value::Lit(int_lit(&mut self.rng, v));
        }
        for c in &self.consts {
            match c.eval {
                ConstVal::Int(x) if x == v => return konst(false, &c.name),
                ConstVal::Int(x) if x == -v && x > 0 => return konst(true, &c.name),
                _ => {}
            }
        }
        // A new constant; a negative value is sometimes `-NAME` of a positive one.
        let (stored, neg) = if v < 0 && self.rng.chance(50) {
            (-v, true)
        } else {
            (v, false)
        };
        let name = self.int_const(stored);
        konst(neg, &name)
    }

    /// Declares an integer constant holding `v`, with a type that fits it, and
    /// sometimes through a second constant; returns the name to use.
    fn int_const(&mut self, v: i128) -> String {
        let need = if v < 0 {
            bits_for((-v - 1) as u128) + 1
        } else {
            bits_for(v as u128).max(1)
        };
        let signed = v < 0 || (need < 64 && self.rng.chance(30));
        let need = if signed && v >= 0 { need + 1 } else { need };
        let bits = if need >= 64 || self.rng.chance(40) {
            need.min(64)
        } else {
            [need, 8, 16, 32, 64][self.rng.below(5) as usize].max(need)
        };
        let ty = format!("{}{bits}", if signed { 'i' } else { 'u' });
        let lit = Value::Lit(int_lit(&mut self.rng, v));
        let value = if self.rng.chance(20) {
            let base = self.declare_const(ty.clone(), lit, ConstVal::Int(v));
            konst(false, &base)
        } else {
            lit
        };
        self.declare_const(ty, value, ConstVal::Int(v))
    }

    /// Declares a constant and returns its name.
    pub fn declare_const(&mut self, ty: String, value: Value, eval: ConstVal) -> String {
        let long = self.rng.chance(self.profile.long_names);
        let name = self.scope.spelled(Kind::Const).fresh(&mut self.rng, long);
        let doc = self.doc();
        self.consts.push(Const {
            name: name.clone(),
            doc,
            ty,
            value,
            eval,
        });
        name
    }

    /// A value for a float bound or step spelled `text` (evaluating to `f`):
    /// the literal, or a constant holding exactly `f`.
    fn float_value(&mut self, text: String, f: f64) -> Value {
        if !self.rng.chance(self.profile.consts) {
            return Value::Lit(text);
        }
        let ty = if f64::from(f as f32) == f && self.rng.chance(50) {
            "f32"
        } else {
            "f64"
        };
        konst(
            false,
            &self.declare_const(ty.into(), Value::Lit(text), ConstVal::Float(f)),
        )
    }

    /// A bounded integer `uN in MIN..=MAX` / `iN in MIN..=MAX`, zero-width ranges,
    /// negative ranges and full 64-bit ranges included.
    pub fn bounded(&mut self) -> (TypeExpr, Size) {
        let signed = self.rng.chance(50);
        // One in ten is a full 64-bit range (`u64 in 0..=18446744073709551615`).
        let bits = if self.rng.chance(10) {
            64
        } else {
            self.int_width()
        };
        let (lo, hi) = int_range(signed, bits);
        let (min, max) = match if bits == 64 && self.rng.chance(50) {
            1
        } else {
            self.rng.below(7)
        } {
            0 => {
                let v = pick_in(&mut self.rng, lo, hi);
                (v, v)
            }
            1 => (lo, hi),
            2 if signed => {
                let a = pick_in(&mut self.rng, lo, -1);
                (a, pick_in(&mut self.rng, a, -1))
            }
            3 => (lo, lo + (hi - lo).min(1000)),
            4 => (hi - (hi - lo).min(1 << 20), hi),
            _ => {
                let (a, b) = (
                    pick_in(&mut self.rng, lo, hi),
                    pick_in(&mut self.rng, lo, hi),
                );
                (a.min(b), a.max(b))
            }
        };
        let min_v = self.int_value(min);
        let max_v = self.int_value(max);
        let ty = TypeExpr::Bounded {
            signed,
            bits,
            min: min_v,
            max: max_v,
        };
        (ty, Size::fixed(u128::from(bits_for((max - min) as u128))))
    }

    /// An integer width, biased to the edges of the in-memory representations.
    pub fn int_width(&mut self) -> u32 {
        const EDGES: &[u32] = &[1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 52, 53, 54, 63, 64];
        if self.rng.chance(70) {
            EDGES[self.rng.below(EDGES.len() as u64) as usize]
        } else {
            1 + self.rng.below(64) as u32
        }
    }

    /// A quantized float in the `bits` or `step` form, valid for the compiler.
    pub fn quantized(&mut self) -> (TypeExpr, Size) {
        let wide = self.rng.chance(40);
        for _ in 0..20 {
            let made = if self.rng.chance(55) {
                self.quant_bits(wide)
            } else {
                self.quant_step(wide)
            };
            if let Some(q) = made {
                return q;
            }
        }
        // Always valid: 8 bits on -1..=1.
        let ty = TypeExpr::Quantized {
            wide,
            min: Value::Lit("-1.0".into()),
            max: Value::Lit("1.0".into()),
            quant: Quant::Bits(Value::Lit("8".into())),
        };
        (ty, Size::fixed(8))
    }

    /// Bounds for a quantized range, as written: symmetric, from zero, arbitrary
    /// decimals, the largest finite ranges, or tiny ones.
    fn quant_range(&mut self, wide: bool) -> (String, String) {
        const MAGS: &[(i128, u32)] = &[
            (1, 0),
            (5, 1),
            (10, 0),
            (100, 0),
            (180, 0),
            (360, 0),
            (1000, 0),
            (4096, 0),
            (1_000_000, 0),
            (1, 3),
            (15, 1),
            (65535, 0),
        ];
        let (m, scale) = MAGS[self.rng.below(MAGS.len() as u64) as usize];
        let d = |mantissa, scale| Decimal { mantissa, scale };
        let (lo, hi) = match self.rng.below(16) {
            0..=3 => (d(-m, scale), d(m, scale)),
            4..=6 => (d(0, 0), d(m, scale)),
            // The largest finite ranges.
            7 if wide => return ("-1e300".into(), "1E300".into()),
            7 => return ("-3.0e38".into(), "3.0e38".into()),
            8 => return ("2.5E6".into(), "2.75e6".into()),
            9 => (d(1, 6), d(3, 6)),
            _ => {
                let scale = self.rng.below(4) as u32;
                let a = self.rng.below(200_000) as i128 - 100_000;
                (
                    d(a, scale),
                    d(a + 1 + self.rng.below(100_000) as i128, scale),
                )
            }
        };
        (lo.text(&mut self.rng), hi.text(&mut self.rng))
    }

    fn quant_bits(&mut self, wide: bool) -> Option<(TypeExpr, Size)> {
        let (lo_t, hi_t) = self.quant_range(wide);
        let (min, max): (f64, f64) = (lo_t.parse().ok()?, hi_t.parse().ok()?);
        let top = if wide { 52 } else { 24 };
        let mut b = if self.rng.chance(30) {
            top
        } else {
            1 + self.rng.below(u64::from(top)) as u32
        };
        while b > 0 && !grid_ok(wide, min, max, (1u64 << b) - 1) {
            b -= 1;
        }
        // The compiler rejects grids where `(MAX - MIN) * STEPS` overflows `f64`
        // (`E0304`: spec §4.3's decode formula would reach infinity).
        let overflows = |b: u32| !((max - min) * ((1u64 << b) - 1) as f64).is_finite();
        while b > 0 && overflows(b) {
            b -= 1;
        }
        if b == 0 {
            return None;
        }
        let min_v = self.float_value(lo_t, min);
        let max_v = self.float_value(hi_t, max);
        let bits = self.int_value(i128::from(b));
        let ty = TypeExpr::Quantized {
            wide,
            min: min_v,
            max: max_v,
            quant: Quant::Bits(bits),
        };
        Some((ty, Size::fixed(u128::from(b))))
    }

    fn quant_step(&mut self, wide: bool) -> Option<(TypeExpr, Size)> {
        const STEPS: &[i128] = &[1, 2, 3, 10, 100, 200, 255, 256, 1000, 4095, 65536, 1 << 20];
        let scale = self.rng.below(4) as u32;
        let step = Decimal {
            mantissa: 1 + self.rng.below(50) as i128,
            scale,
        };
        let n = STEPS[self.rng.below(STEPS.len() as u64) as usize];
        let lo = Decimal {
            mantissa: self.rng.below(20_000) as i128 - 10_000,
            scale,
        };
        let hi = Decimal {
            mantissa: lo.mantissa + n * step.mantissa,
            scale,
        };
        let (lo_t, hi_t, s_t) = (
            lo.text(&mut self.rng),
            hi.text(&mut self.rng),
            step.text(&mut self.rng),
        );
        let (min, max, s): (f64, f64, f64) =
            (lo_t.parse().ok()?, hi_t.parse().ok()?, s_t.parse().ok()?);
        let steps = steps_for(s, min, max, if wide { 52 } else { 24 })?;
        if !grid_ok(wide, min, max, steps) {
            return None;
        }
        let min_v = self.float_value(lo_t, min);
        let max_v = self.float_value(hi_t, max);
        let step_v = self.float_value(s_t, s);
        let ty = TypeExpr::Quantized {
            wide,
            min: min_v,
            max: max_v,
            quant: Quant::Step(step_v),
        };
        Some((ty, Size::fixed(u128::from(bits_for(u128::from(steps))))))
    }
}

/// Uniform-ish in `lo..=hi`.
fn pick_in(rng: &mut Rng, lo: i128, hi: i128) -> i128 {
    let span = (hi - lo) as u128 + 1;
    let r = (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) % span;
    lo + r as i128
}

fn konst(neg: bool, name: &str) -> Value {
    Value::Const {
        neg,
        name: name.to_string(),
    }
}
