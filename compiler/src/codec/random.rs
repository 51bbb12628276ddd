//! Random valid values of any schema type, for property and differential tests: the
//! reference codec, the generated code of every language and the fuzzers draw their
//! inputs from here, so they all exercise the same shapes.

use crate::codec::rules::dequantize;
use crate::codec::Value;
use crate::ir::{FloatRepr, Schema, Type, TypeDefKind, TypeId};

/// xorshift64*: a fixed-seed generator, so failures reproduce. The seed must not be 0.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform-ish in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The longest random list or bytes value: bounds can be far larger than any value
/// worth generating (`bytes<max 9007199254740992>`).
const MAX_RANDOM_LEN: u64 = 1024;

/// A random valid value of `ty`.
pub fn random_value(rng: &mut Rng, s: &Schema, ty: &Type) -> Value {
    match ty {
        Type::Bool => Value::Bool(rng.chance(50)),
        Type::UInt { bits, .. } | Type::VarUInt { bits, .. } => {
            let hi = (1i128 << bits) - 1;
            let lim = if rng.chance(50) { hi.min(300) } else { hi };
            Value::Int(random_int(rng, 0, lim))
        }
        Type::SInt { bits, .. } | Type::VarSInt { bits, .. } => {
            let half = 1i128 << (bits - 1);
            Value::Int(random_int(rng, -half, half - 1))
        }
        Type::Bounded { min, max, .. } => Value::Int(random_int(rng, *min, *max)),
        Type::Float { repr } => Value::Float(random_float(rng, *repr)),
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            ..
        } => {
            // Grid points are exactly what decoding yields.
            let q = rng.below(steps + 1);
            Value::Float(dequantize(q, *min, *max, *steps, *repr))
        }
        Type::Optional { inner } => {
            if rng.chance(50) {
                Value::some(random_value(rng, s, inner))
            } else {
                Value::none()
            }
        }
        Type::Array { elem, len } => {
            Value::Array((0..*len).map(|_| random_value(rng, s, elem)).collect())
        }
        Type::List { elem, max, .. } => {
            let n = rng.below(max.unwrap_or(4).min(MAX_RANDOM_LEN) + 1);
            Value::Array((0..n).map(|_| random_value(rng, s, elem)).collect())
        }
        Type::String { max, .. } => Value::String(random_string(rng, *max)),
        Type::Bytes { max, .. } => {
            let n = rng.below(max.unwrap_or(6).min(MAX_RANDOM_LEN) + 1);
            Value::Bytes((0..n).map(|_| rng.next_u64() as u8).collect())
        }
        Type::Named { id, .. } => random_named(rng, s, *id),
    }
}

/// A random integer in `lo..=hi`, one of the two ends half of the time.
fn random_int(rng: &mut Rng, lo: i128, hi: i128) -> i128 {
    let span = (hi - lo) as u128 + 1;
    let r = match rng.below(4) {
        0 => 0,
        1 => span - 1,
        _ => (u128::from(rng.next_u64()) << 64 | u128::from(rng.next_u64())) % span,
    };
    lo + r as i128
}

/// A random `f32` or `f64` (held as `f64`), often NaN, -0 or infinity.
fn random_float(rng: &mut Rng, repr: FloatRepr) -> f64 {
    let x = match rng.below(6) {
        0 => f64::NAN,
        1 => -0.0,
        2 => f64::INFINITY,
        _ => f64::from_bits(rng.next_u64()),
    };
    let x = match repr {
        FloatRepr::F32 => f64::from(x as f32),
        FloatRepr::F64 => x,
    };
    // Decoding yields the canonical NaN; so must the generator.
    if x.is_nan() {
        f64::NAN
    } else {
        x
    }
}

/// A random string of at most `max` bytes, made of one- to four-byte characters.
fn random_string(rng: &mut Rng, max: Option<u64>) -> String {
    let pool = ["a", "é", "\u{1F600}", "z"];
    let mut text = String::new();
    for _ in 0..rng.below(6) {
        let piece = pool[rng.below(4) as usize];
        if max.is_some_and(|m| (text.len() + piece.len()) as u64 > m) {
            break;
        }
        text.push_str(piece);
    }
    text
}

/// A random value of the struct, enum or union `id`.
fn random_named(rng: &mut Rng, s: &Schema, id: TypeId) -> Value {
    match &s.types[id].kind {
        TypeDefKind::Struct { fields } => Value::Struct(
            fields
                .iter()
                .map(|f| (f.name.clone(), random_value(rng, s, &f.ty)))
                .collect(),
        ),
        TypeDefKind::Enum { variants, .. } => Value::Enum(
            variants[rng.below(variants.len() as u64) as usize]
                .name
                .clone(),
        ),
        TypeDefKind::Union { variants, .. } => {
            let v = &variants[rng.below(variants.len() as u64) as usize];
            Value::Union {
                variant: v.name.clone(),
                payload: v
                    .payload
                    .as_ref()
                    .map(|p| Box::new(random_value(rng, s, p))),
            }
        }
    }
}
