//! The bincode encoder (spec §13), interpreting the IR directly.
//!
//! An error is raised at the byte where the failing value would have started, as a
//! bit offset (8 × the byte offset, §13.1), with that value's path, exactly like a
//! decoder error.

use super::rules::{f32_bits_of, wire_int, INDEX_BYTES, LEN_BYTES};
use crate::codec::error::{CodecError, ErrorKind, Path};
use crate::codec::Value;
use crate::ir::{FloatRepr, Schema, Type, TypeDefKind, TypeId};

/// Encodes `value` as a top-level value of the named type `ty` (§13.5): its bytes,
/// nothing before or after.
pub fn encode(schema: &Schema, ty: TypeId, value: &Value) -> Result<Vec<u8>, CodecError> {
    let mut enc = Encoder {
        schema,
        out: Vec::new(),
        path: Path::default(),
    };
    enc.named(ty, value)?;
    Ok(enc.out)
}

struct Encoder<'a> {
    schema: &'a Schema,
    out: Vec<u8>,
    path: Path,
}

impl Encoder<'_> {
    /// Where the next value starts, as a bit offset.
    fn pos(&self) -> u64 {
        8 * self.out.len() as u64
    }

    /// A wire error for the value that would start at bit `start`.
    fn err(&self, kind: ErrorKind, start: u64) -> CodecError {
        self.path.wire(kind, start)
    }

    /// A shape error: `value` is not a value of `expected`.
    fn mismatch(&self, expected: &str, value: &Value) -> CodecError {
        self.path.mismatch(expected, value)
    }

    /// The low `n` bytes of `v`, little-endian.
    fn put(&mut self, v: u64, n: usize) {
        self.out.extend_from_slice(&v.to_le_bytes()[..n]);
    }

    fn value(&mut self, ty: &Type, value: &Value) -> Result<(), CodecError> {
        let start = self.pos();
        match ty {
            Type::Bool => match value {
                Value::Bool(b) => self.put(u64::from(*b), 1),
                v => return Err(self.mismatch("a bool", v)),
            },
            // §13.2: IEEE bits as they are.
            Type::Float { repr } => {
                let v = self.float(value)?;
                self.float_bits(*repr, v);
            }
            // §13.2: the float as it is (an `f32` field holds binary32), if in range.
            Type::Quantized { repr, min, max, .. } => {
                let v = self.float(value)?;
                let held = match repr {
                    FloatRepr::F32 => f64::from(v as f32),
                    FloatRepr::F64 => v,
                };
                if held.is_nan() || held < *min || held > *max {
                    return Err(self.err(ErrorKind::OutOfRange, start));
                }
                self.float_bits(*repr, held);
            }
            // §13.4: a `u8` tag, then the value if present.
            Type::Optional { inner } => match value {
                Value::Optional(None) => self.put(0, 1),
                Value::Optional(Some(v)) => {
                    self.put(1, 1);
                    self.value(inner, v)?;
                }
                v => return Err(self.mismatch("an optional", v)),
            },
            // §13.3: no length; the value must have exactly `len` elements.
            Type::Array { elem, len } => match value {
                Value::Array(items) => {
                    if items.len() as u64 != *len {
                        return Err(self.err(ErrorKind::InvalidLength, start));
                    }
                    self.elements(elem, items)?;
                }
                v => return Err(self.mismatch("an array", v)),
            },
            Type::List { elem, max, .. } => match value {
                Value::Array(items) => {
                    self.length(items.len(), *max, start)?;
                    self.elements(elem, items)?;
                }
                v => return Err(self.mismatch("a list", v)),
            },
            // §13.3: the length counts UTF-8 bytes.
            Type::String { max, .. } => match value {
                Value::String(s) => self.blob(s.as_bytes(), *max, start)?,
                v => return Err(self.mismatch("a string", v)),
            },
            Type::Bytes { max, .. } => match value {
                Value::Bytes(b) => self.blob(b, *max, start)?,
                v => return Err(self.mismatch("bytes", v)),
            },
            Type::Named { id, .. } => self.named(*id, value)?,
            // §13.2: the integer in its Rust type's width, after the schema's range.
            _ => {
                let w = wire_int(ty).expect("the remaining types are integers");
                let Value::Int(v) = value else {
                    return Err(self.mismatch("an integer", value));
                };
                if *v < w.lo || *v > w.hi {
                    return Err(self.err(ErrorKind::OutOfRange, start));
                }
                // Two's complement: the low bytes of the value.
                self.put(*v as u64, w.bytes);
            }
        }
        Ok(())
    }

    fn named(&mut self, id: TypeId, value: &Value) -> Result<(), CodecError> {
        let start = self.pos();
        let schema = self.schema;
        let def = &schema.types[id];
        match &def.kind {
            // §13.5: fields in declaration order, nothing between them.
            TypeDefKind::Struct { fields } => {
                let values = self.path.struct_values(&def.name, fields, value)?;
                for (field, (name, v)) in fields.iter().zip(values) {
                    self.path.field_name(&field.name, &def.name, name)?;
                    self.path.push_name(&field.name);
                    self.value(&field.ty, v)?;
                    self.path.pop();
                }
            }
            // §13.2: the variant's declaration index as a `u32`.
            TypeDefKind::Enum { variants, .. } => {
                let Value::Enum(name) = value else {
                    return Err(self.mismatch(&format!("enum `{}`", def.name), value));
                };
                let Some(index) = variants.iter().position(|v| v.name == *name) else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                self.put(index as u64, INDEX_BYTES);
            }
            // §13.4: the arm's declaration index as a `u32`, then its payload.
            TypeDefKind::Union { variants, .. } => {
                let Value::Union {
                    variant: name,
                    payload,
                } = value
                else {
                    return Err(self.mismatch(&format!("union `{}`", def.name), value));
                };
                let Some(index) = variants.iter().position(|v| v.name == *name) else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                let variant = &variants[index];
                self.path.push_name(&variant.name);
                match (&variant.payload, payload) {
                    (None, None) => self.put(index as u64, INDEX_BYTES),
                    (Some(ty), Some(v)) => {
                        self.put(index as u64, INDEX_BYTES);
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

    fn float(&self, value: &Value) -> Result<f64, CodecError> {
        match value {
            Value::Float(v) => Ok(*v),
            v => Err(self.mismatch("a float", v)),
        }
    }

    /// §13.2: IEEE bits, little-endian; NaN payloads as the value holds them.
    fn float_bits(&mut self, repr: FloatRepr, v: f64) {
        match repr {
            FloatRepr::F32 => self.put(u64::from(f32_bits_of(v)), 4),
            FloatRepr::F64 => self.put(v.to_bits(), 8),
        }
    }

    /// §13.3: the `u64` length of a list, string or bytes starting at `start`, if it
    /// is within the `max`.
    fn length(&mut self, len: usize, max: Option<u64>, start: u64) -> Result<(), CodecError> {
        let len = len as u64;
        if max.is_some_and(|m| len > m) {
            return Err(self.err(ErrorKind::InvalidLength, start));
        }
        self.put(len, LEN_BYTES);
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

    /// A string's or bytes' length, then the bytes (§13.3).
    fn blob(&mut self, bytes: &[u8], max: Option<u64>, start: u64) -> Result<(), CodecError> {
        self.length(bytes.len(), max, start)?;
        self.out.extend_from_slice(bytes);
        Ok(())
    }
}
