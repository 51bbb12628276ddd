//! The packed encoder (spec §2–§5), interpreting the IR directly.
//!
//! Each error is raised at the stream offset where the failing value would have
//! started and carries that value's field path, exactly like a decoder error, so the
//! reference codec and generated codecs agree on encode errors too.

use super::error::ErrorKind;

use super::bits::BitWriter;
use super::error::{CodecError, Path};
use super::rules::{self, CANONICAL_NAN_F32, CANONICAL_NAN_F64};
use super::Value;
use crate::ir::{FloatRepr, LengthEncoding, Schema, Type, TypeDefKind, TypeId};

/// Encodes `value` as a top-level value of the named type `ty` (§2.1): its bit stream,
/// then zero bits up to the next byte boundary.
pub fn encode(schema: &Schema, ty: TypeId, value: &Value) -> Result<Vec<u8>, CodecError> {
    let mut enc = Encoder {
        schema,
        out: BitWriter::default(),
        path: Path::default(),
    };
    enc.named(ty, value)?;
    // The writer zero-fills each byte it starts, so the padding is already there.
    Ok(enc.out.into_bytes())
}

/// The bits of one value of `ty` (not top-level: no padding), for the delta encoder
/// (§12), which compares and copies full encodings. Errors carry `path` extended by
/// the value's own path, and bit offsets from the value's first bit.
pub(crate) fn value_bits(
    schema: &Schema,
    ty: &Type,
    value: &Value,
    path: &Path,
) -> Result<Vec<bool>, CodecError> {
    let mut enc = Encoder {
        schema,
        out: BitWriter::default(),
        path: path.clone(),
    };
    enc.value(ty, value)?;
    Ok(enc.out.bits())
}

struct Encoder<'a> {
    schema: &'a Schema,
    out: BitWriter,
    path: Path,
}

impl Encoder<'_> {
    /// A wire error for the value that would start at `start`.
    fn err(&self, kind: ErrorKind, start: u64) -> CodecError {
        self.path.wire(kind, start)
    }

    /// A shape error: `value` is not a value of `expected`.
    fn mismatch(&self, expected: &str, value: &Value) -> CodecError {
        self.path.mismatch(expected, value)
    }

    fn value(&mut self, ty: &Type, value: &Value) -> Result<(), CodecError> {
        let start = self.out.pos();
        match ty {
            Type::Bool => match value {
                Value::Bool(b) => self.out.write_bit(*b),
                v => return Err(self.mismatch("a bool", v)),
            },
            // §3, §3.1: the low N bits of the two's-complement value, after a range check.
            Type::UInt { bits, .. } | Type::SInt { bits, .. } => {
                let v = self.int(ty, value, start)?;
                self.out.write_uint(low_bits(v, *bits), *bits);
            }
            // §4.2: `v - MIN` in the packed width.
            Type::Bounded {
                min, packed_bits, ..
            } => {
                let v = self.int(ty, value, start)?;
                self.out.write_uint((v - min) as u64, *packed_bits);
            }
            Type::VarUInt { bits, .. } => {
                let v = self.int(ty, value, start)?;
                self.varint(v as u64, *bits);
            }
            Type::VarSInt { bits, .. } => {
                let v = self.int(ty, value, start)?;
                self.varint(rules::zigzag(v), *bits);
            }
            Type::Float { repr } => {
                let v = self.float(value)?;
                self.float_bits(*repr, v);
            }
            Type::Quantized {
                repr,
                min,
                max,
                steps,
                packed_bits,
            } => {
                // An f32 field holds binary32; the rule then runs in binary64 (§4.3).
                let v = rules::round_to(*repr, self.float(value)?);
                if v.is_nan() || v < *min || v > *max {
                    return Err(self.err(ErrorKind::OutOfRange, start));
                }
                let q = rules::quantize(v, *min, *max, *steps);
                self.out.write_uint(q, *packed_bits);
            }
            Type::Optional { inner } => match value {
                Value::Optional(None) => self.out.write_bit(false),
                Value::Optional(Some(v)) => {
                    self.out.write_bit(true);
                    self.value(inner, v)?;
                }
                v => return Err(self.mismatch("an optional", v)),
            },
            // §5.5: no length on the wire; the sequence must have exactly `len` elements.
            Type::Array { elem, len } => match value {
                Value::Array(items) => {
                    if items.len() as u64 != *len {
                        return Err(self.err(ErrorKind::InvalidLength, start));
                    }
                    self.elements(elem, items)?;
                }
                v => return Err(self.mismatch("an array", v)),
            },
            Type::List {
                elem,
                max,
                packed_len,
                ..
            } => match value {
                Value::Array(items) => {
                    self.length(items.len(), *max, *packed_len, start)?;
                    self.elements(elem, items)?;
                }
                v => return Err(self.mismatch("a list", v)),
            },
            Type::String { max, packed_len } => match value {
                // §5.6: the length counts UTF-8 bytes, not characters.
                Value::String(s) => self.blob(s.as_bytes(), *max, *packed_len, start)?,
                v => return Err(self.mismatch("a string", v)),
            },
            Type::Bytes { max, packed_len } => match value {
                Value::Bytes(b) => self.blob(b, *max, *packed_len, start)?,
                v => return Err(self.mismatch("bytes", v)),
            },
            Type::Named { id, .. } => self.named(*id, value)?,
        }
        Ok(())
    }

    fn named(&mut self, id: TypeId, value: &Value) -> Result<(), CodecError> {
        let start = self.out.pos();
        let def = &self.schema.types[id];
        match &def.kind {
            // §5.1: fields in declaration order, no padding.
            TypeDefKind::Struct { fields } => {
                let values = self.path.struct_values(&def.name, fields, value)?;
                for (field, (name, v)) in fields.iter().zip(values) {
                    self.path.field_name(&field.name, &def.name, name)?;
                    self.path.push_name(&field.name);
                    self.value(&field.ty, v)?;
                    self.path.pop();
                }
            }
            // §3, §4.1: the variant's value in the tag width.
            TypeDefKind::Enum {
                packed_tag_bits,
                variants,
                ..
            } => {
                let Value::Enum(name) = value else {
                    return Err(self.mismatch(&format!("enum `{}`", def.name), value));
                };
                let Some(variant) = variants.iter().find(|v| v.name == *name) else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                self.out.write_uint(variant.value, *packed_tag_bits);
            }
            // §5.2: the tag, then the payload if the variant has one.
            TypeDefKind::Union {
                packed_tag_bits,
                variants,
            } => {
                let Value::Union {
                    variant: name,
                    payload,
                } = value
                else {
                    return Err(self.mismatch(&format!("union `{}`", def.name), value));
                };
                let Some(variant) = variants.iter().find(|v| v.name == *name) else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                self.path.push_name(&variant.name);
                match (&variant.payload, payload) {
                    (None, None) => self.out.write_uint(variant.tag, *packed_tag_bits),
                    (Some(ty), Some(v)) => {
                        self.out.write_uint(variant.tag, *packed_tag_bits);
                        self.value(ty, v)?;
                    }
                    (None, Some(_)) => {
                        return Err(self.path.shape("a unit variant has no payload"));
                    }
                    (Some(_), None) => return Err(self.path.shape("the variant needs a payload")),
                }
                self.path.pop();
            }
        }
        Ok(())
    }

    /// The integer of an integer-typed value, range-checked (§3.1, §4.2, §5.4).
    fn int(&self, ty: &Type, value: &Value, start: u64) -> Result<i128, CodecError> {
        let Value::Int(v) = value else {
            return Err(self.mismatch("an integer", value));
        };
        let (lo, hi) = rules::int_range(ty).expect("integer type");
        if *v < lo || *v > hi {
            return Err(self.err(ErrorKind::OutOfRange, start));
        }
        Ok(*v)
    }

    fn float(&self, value: &Value) -> Result<f64, CodecError> {
        match value {
            Value::Float(v) => Ok(*v),
            v => Err(self.mismatch("a float", v)),
        }
    }

    /// §3.2: IEEE bits, any NaN written as the canonical NaN.
    fn float_bits(&mut self, repr: FloatRepr, v: f64) {
        match repr {
            FloatRepr::F32 => {
                // Rounds to nearest-even, like every language's f64 → f32 conversion.
                let x = v as f32;
                let bits = if x.is_nan() {
                    CANONICAL_NAN_F32
                } else {
                    x.to_bits()
                };
                self.out.write_uint(u64::from(bits), 32);
            }
            FloatRepr::F64 => {
                let bits = if v.is_nan() {
                    CANONICAL_NAN_F64
                } else {
                    v.to_bits()
                };
                self.out.write_uint(bits, 64);
            }
        }
    }

    /// §5.4: `n - 1` one bits, a zero bit unless `n == GMAX`, then `u` in `4n` bits.
    fn varint(&mut self, u: u64, bits: u32) {
        let gmax = rules::varint_gmax(bits);
        let n = rules::varint_groups(u);
        for _ in 1..n {
            self.out.write_bit(true);
        }
        if n < gmax {
            self.out.write_bit(false);
        }
        self.out.write_uint(u, 4 * n);
    }

    /// §5.6: the length prefix of a list, string or bytes starting at `start`.
    fn length(
        &mut self,
        len: usize,
        max: Option<u64>,
        enc: LengthEncoding,
        start: u64,
    ) -> Result<(), CodecError> {
        let len = len as u64;
        if max.is_some_and(|m| len > m) {
            return Err(self.err(ErrorKind::InvalidLength, start));
        }
        match enc {
            LengthEncoding::Fixed { bits } => self.out.write_uint(len, bits),
            LengthEncoding::Varint => self.varint(len, 64),
        }
        Ok(())
    }

    fn elements(&mut self, elem: &Type, items: &[Value]) -> Result<(), CodecError> {
        for (i, item) in items.iter().enumerate() {
            self.path.push_index(i);
            self.value(elem, item)?;
            self.path.pop();
        }
        Ok(())
    }

    /// A string's or bytes' length, then each byte as a `u8` (§5.6).
    fn blob(
        &mut self,
        bytes: &[u8],
        max: Option<u64>,
        enc: LengthEncoding,
        start: u64,
    ) -> Result<(), CodecError> {
        self.length(bytes.len(), max, enc, start)?;
        for b in bytes {
            self.out.write_uint(u64::from(*b), 8);
        }
        Ok(())
    }
}

/// The low `bits` bits of `v` in two's complement (§3: `iN` is written this way; for
/// in-range `uN` values it is `v` itself).
fn low_bits(v: i128, bits: u32) -> u64 {
    let mask = (1u128 << bits) - 1;
    (v as u128 & mask) as u64
}
