//! The packed decoder (spec §2–§7), interpreting the IR directly.
//!
//! Values are read in stream order and the first error wins; within one value the
//! checks run in the order the spec lists them (§7.2). Every error is reported at the
//! first bit of the value being decoded (§1.4), with that value's path (§7.3).

use super::error::ErrorKind;

use super::bits::BitReader;
use super::error::{CodecError, Path};
use super::memory;
use super::rules::{self, CANONICAL_NAN_F32, CANONICAL_NAN_F64};
use super::trace::{Group, Leaf, Observer};
use super::Value;
use crate::ir::{FloatRepr, LengthEncoding, Schema, Type, TypeDefKind, TypeId};

/// Decodes a top-level value of the named type `ty` from `bytes` (§2.2): the value,
/// then zero padding to the byte boundary, then nothing.
pub fn decode(schema: &Schema, ty: TypeId, bytes: &[u8]) -> Result<Value, CodecError> {
    decode_with(schema, ty, bytes, &mut ())
}

/// [`decode`] with a decode budget of `budget` bytes (spec §11) instead of the default
/// for the input's length.
pub fn decode_with_budget(
    schema: &Schema,
    ty: TypeId,
    bytes: &[u8],
    budget: u128,
) -> Result<Value, CodecError> {
    decode_observed(schema, ty, bytes, budget, &mut ())
}

/// [`decode`], reporting every value read to `obs` (see [`super::trace`]).
pub fn decode_with<O: Observer>(
    schema: &Schema,
    ty: TypeId,
    bytes: &[u8],
    obs: &mut O,
) -> Result<Value, CodecError> {
    decode_observed(schema, ty, bytes, memory::default_budget(bytes.len()), obs)
}

fn decode_observed<O: Observer>(
    schema: &Schema,
    ty: TypeId,
    bytes: &[u8],
    budget: u128,
    obs: &mut O,
) -> Result<Value, CodecError> {
    let mut dec = Decoder {
        schema,
        input: BitReader::new(bytes),
        path: Path::default(),
        obs,
        prefix_end: 0,
        budget,
    };
    let value = dec.named(ty)?;

    // §2.2 step 1: padding bits are zero. Errors of §2.2 have an empty path.
    let end = dec.input.pos();
    if O::ENABLED {
        dec.obs.data_end(end);
    }
    let padded_end = end.div_ceil(8) * 8;
    // `padded_end` is inside the input: the input is whole bytes and `end` is in it.
    if (end..padded_end).any(|p| dec.input.bit_at(p)) {
        return Err(CodecError::Wire {
            kind: ErrorKind::InvalidPadding,
            bit: end,
            path: String::new(),
        });
    }
    // §2.2 step 2: no bytes after the value's last byte.
    if dec.input.total_bits() > padded_end {
        return Err(CodecError::Wire {
            kind: ErrorKind::TrailingData,
            bit: padded_end,
            path: String::new(),
        });
    }
    Ok(value)
}

/// Decodes one value of `ty` from `bytes` at bit `pos`, for the delta decoder (§12):
/// errors carry `path` extended by the value's own path; the decode budget left is in
/// `budget` before and after. Returns the value and the bit after it.
pub(crate) fn value_at(
    schema: &Schema,
    bytes: &[u8],
    pos: u64,
    ty: &Type,
    path: &Path,
    budget: &mut u128,
) -> Result<(Value, u64), CodecError> {
    let mut unit = ();
    let mut dec = Decoder {
        schema,
        input: BitReader::at(bytes, pos),
        path: path.clone(),
        obs: &mut unit,
        prefix_end: 0,
        budget: *budget,
    };
    let value = dec.value(ty)?;
    *budget = dec.budget;
    Ok((value, dec.input.pos()))
}

struct Decoder<'a, O: Observer> {
    schema: &'a Schema,
    input: BitReader<'a>,
    path: Path,
    obs: &'a mut O,
    /// Where the last varint's group-count prefix ended (for the trace only).
    prefix_end: u64,
    /// Bytes of the decode budget left (§11).
    budget: u128,
}

impl<O: Observer> Decoder<'_, O> {
    /// Reports a leaf that started at `start` and ends here.
    fn leaf(&mut self, start: u64, leaf: impl FnOnce() -> Leaf) {
        if O::ENABLED {
            let end = self.input.pos();
            self.obs.leaf(self.path.as_str(), start, end, leaf());
        }
    }

    /// Reports the start of a composite.
    fn enter(&mut self, start: u64, group: impl FnOnce() -> Group) {
        if O::ENABLED {
            self.obs.enter(self.path.as_str(), start, group());
        }
    }

    /// Reports the end of the innermost composite.
    fn exit(&mut self) {
        if O::ENABLED {
            self.obs.exit(self.input.pos());
        }
    }

    /// A wire error for the value that starts at `start`.
    fn err(&self, kind: ErrorKind, start: u64) -> CodecError {
        self.path.wire(kind, start)
    }

    /// Reads `width` bits of the value that starts at `start`; `Truncated` at the
    /// value if the input ends first.
    fn read(&mut self, width: u32, start: u64) -> Result<u64, CodecError> {
        match self.input.read_uint(width) {
            Some(v) => Ok(v),
            None => Err(self.err(ErrorKind::Truncated, start)),
        }
    }

    /// Decodes one value of type `ty` (§3–§6); composites and the checked scalars
    /// have their own functions below.
    fn value(&mut self, ty: &Type) -> Result<Value, CodecError> {
        let start = self.input.pos();
        let value = match ty {
            Type::Bool => {
                let b = self.read(1, start)? == 1;
                self.leaf(start, || Leaf::Bool(b));
                Value::Bool(b)
            }
            Type::UInt { bits, .. } => {
                let raw = self.read(*bits, start)?;
                self.leaf(start, || Leaf::Int {
                    raw,
                    value: i128::from(raw),
                });
                Value::Int(i128::from(raw))
            }
            Type::SInt { bits, .. } => self.sint(*bits, start)?,
            Type::Bounded {
                min,
                max,
                packed_bits,
                ..
            } => self.bounded(*min, *max, *packed_bits, start)?,
            Type::VarUInt { bits, .. } => {
                let raw = self.varint(*bits, start)?;
                self.varint_leaf(start, raw, i128::from(raw), false);
                Value::Int(i128::from(raw))
            }
            Type::VarSInt { bits, .. } => {
                let raw = self.varint(*bits, start)?;
                let v = rules::unzigzag(raw);
                self.varint_leaf(start, raw, v, true);
                Value::Int(v)
            }
            Type::Float { repr } => {
                let x = self.float(*repr, start)?;
                self.leaf(start, || Leaf::Float {
                    repr: *repr,
                    value: x,
                });
                Value::Float(x)
            }
            Type::Quantized {
                repr,
                min,
                max,
                steps,
                packed_bits,
            } => self.quantized(*repr, *min, *max, *steps, *packed_bits, start)?,
            Type::Optional { inner } => self.optional(inner, start)?,
            Type::Array { elem, len } => {
                self.enter(start, || Group::Array(*len));
                let items = self.elements(elem, *len, start)?;
                self.exit();
                Value::Array(items)
            }
            Type::List {
                elem,
                max,
                packed_len,
                ..
            } => self.list(elem, *max, *packed_len, start)?,
            Type::String { max, packed_len } => self.string(*max, *packed_len, start)?,
            Type::Bytes { max, packed_len } => {
                let (bytes_start, bytes) = self.blob(*max, *packed_len, start)?;
                self.leaf(bytes_start, || Leaf::Bytes(bytes.clone()));
                Value::Bytes(bytes)
            }
            Type::Named { id, .. } => self.named(*id)?,
        };
        Ok(value)
    }

    /// §3: an `iN`, two's complement in N bits, so sign-extend from bit N - 1.
    fn sint(&mut self, bits: u32, start: u64) -> Result<Value, CodecError> {
        let raw = self.read(bits, start)?;
        let wide = i128::from(raw);
        let v = if wide >> (bits - 1) == 1 {
            wide - (1i128 << bits)
        } else {
            wide
        };
        self.leaf(start, || Leaf::Int { raw, value: v });
        Ok(Value::Int(v))
    }

    /// §4.2: a bounded integer, `v - MIN` in the packed width; above `MAX - MIN` is
    /// out of range.
    fn bounded(
        &mut self,
        min: i128,
        max: i128,
        packed_bits: u32,
        start: u64,
    ) -> Result<Value, CodecError> {
        let raw = self.read(packed_bits, start)?;
        let stored = i128::from(raw);
        if stored > max - min {
            return Err(self.err(ErrorKind::OutOfRange, start));
        }
        self.leaf(start, || Leaf::Bounded {
            stored: raw,
            value: min + stored,
        });
        Ok(Value::Int(min + stored))
    }

    /// §4.3: a quantized float in `min..=max`; `q` above `STEPS` is out of range,
    /// otherwise the value is the grid point.
    fn quantized(
        &mut self,
        repr: FloatRepr,
        min: f64,
        max: f64,
        steps: u64,
        packed_bits: u32,
        start: u64,
    ) -> Result<Value, CodecError> {
        let q = self.read(packed_bits, start)?;
        if q > steps {
            return Err(self.err(ErrorKind::OutOfRange, start));
        }
        let value = rules::dequantize(q, min, max, steps, repr);
        self.leaf(start, || Leaf::Quantized { repr, q, value });
        Ok(Value::Float(value))
    }

    /// §5.3: an optional, a presence bit, then the value if present.
    fn optional(&mut self, inner: &Type, start: u64) -> Result<Value, CodecError> {
        let present = self.read(1, start)? == 1;
        self.leaf(start, || Leaf::Presence(present));
        if !present {
            return Ok(Value::none());
        }
        self.enter(start + 1, || Group::Some);
        let v = self.value(inner)?;
        self.exit();
        Ok(Value::some(v))
    }

    /// §5.6: a list, its length prefix, then that many elements (after checking
    /// there is room for them, §11).
    fn list(
        &mut self,
        elem: &Type,
        max: Option<u64>,
        packed_len: LengthEncoding,
        start: u64,
    ) -> Result<Value, CodecError> {
        self.enter(start, || Group::List);
        let len = self.length(max, packed_len, start)?;
        let elem_min = rules::min_bits(self.schema, elem);
        let each = memory::footprint(self.schema, elem);
        self.check_room(len, elem_min, each, start)?;
        let items = self.elements(elem, len, start)?;
        self.exit();
        Ok(Value::Array(items))
    }

    /// §5.6: a string, its bytes validated as UTF-8 after being read and rejected at
    /// the value.
    fn string(
        &mut self,
        max: Option<u64>,
        packed_len: LengthEncoding,
        start: u64,
    ) -> Result<Value, CodecError> {
        let (bytes_start, bytes) = self.blob(max, packed_len, start)?;
        match String::from_utf8(bytes) {
            Ok(s) => {
                self.leaf(bytes_start, || Leaf::Str(s.clone()));
                Ok(Value::String(s))
            }
            Err(_) => Err(self.err(ErrorKind::InvalidUtf8, start)),
        }
    }

    fn named(&mut self, id: TypeId) -> Result<Value, CodecError> {
        let start = self.input.pos();
        let def = &self.schema.types[id];
        match &def.kind {
            TypeDefKind::Struct { fields } => {
                self.enter(start, || Group::Struct(def.name.clone()));
                let mut values = Vec::with_capacity(fields.len());
                for field in fields {
                    self.path.push_name(&field.name);
                    let v = self.value(&field.ty)?;
                    self.path.pop();
                    values.push((field.name.clone(), v));
                }
                self.exit();
                Ok(Value::Struct(values))
            }
            TypeDefKind::Enum {
                packed_tag_bits,
                variants,
                ..
            } => {
                let tag = self.read(*packed_tag_bits, start)?;
                match variants.iter().find(|v| v.value == tag) {
                    Some(v) => {
                        self.leaf(start, || Leaf::Enum {
                            tag,
                            name: v.name.clone(),
                        });
                        Ok(Value::Enum(v.name.clone()))
                    }
                    None => Err(self.err(ErrorKind::InvalidEnum, start)),
                }
            }
            TypeDefKind::Union {
                packed_tag_bits,
                variants,
            } => {
                self.enter(start, || Group::Union(def.name.clone()));
                let tag = self.read(*packed_tag_bits, start)?;
                let Some(variant) = variants.iter().find(|v| v.tag == tag) else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                self.leaf(start, || Leaf::Tag {
                    tag,
                    variant: variant.name.clone(),
                });
                let payload = match &variant.payload {
                    None => None,
                    Some(ty) => {
                        self.path.push_name(&variant.name);
                        let v = self.value(ty)?;
                        self.path.pop();
                        Some(Box::new(v))
                    }
                };
                self.exit();
                Ok(Value::Union {
                    variant: variant.name.clone(),
                    payload,
                })
            }
        }
    }

    /// Reports a varint that started at `start` and was just read.
    fn varint_leaf(&mut self, start: u64, raw: u64, value: i128, signed: bool) {
        let prefix_end = self.prefix_end;
        self.leaf(start, || Leaf::Varint {
            prefix_end,
            raw,
            value,
            signed,
        });
    }

    /// §3.2: IEEE bits; a NaN other than the canonical one is `NonCanonical`.
    fn float(&mut self, repr: FloatRepr, start: u64) -> Result<f64, CodecError> {
        match repr {
            FloatRepr::F32 => {
                let bits = self.read(32, start)? as u32;
                let x = f32::from_bits(bits);
                if x.is_nan() {
                    if bits != CANONICAL_NAN_F32 {
                        return Err(self.err(ErrorKind::NonCanonical, start));
                    }
                    // Held as the canonical f64 NaN so that equal values compare equal.
                    return Ok(f64::from_bits(CANONICAL_NAN_F64));
                }
                Ok(f64::from(x))
            }
            FloatRepr::F64 => {
                let bits = self.read(64, start)?;
                let x = f64::from_bits(bits);
                if x.is_nan() && bits != CANONICAL_NAN_F64 {
                    return Err(self.err(ErrorKind::NonCanonical, start));
                }
                Ok(x)
            }
        }
    }

    /// §5.4: count up to `GMAX - 1` one bits (consuming the terminating zero bit),
    /// read `4n` bits, reject a non-minimal form.
    fn varint(&mut self, bits: u32, start: u64) -> Result<u64, CodecError> {
        let gmax = rules::varint_gmax(bits);
        let mut n = 1;
        while n < gmax {
            if self.read(1, start)? == 0 {
                break;
            }
            n += 1;
        }
        self.prefix_end = self.input.pos();
        let u = self.read(4 * n, start)?;
        if n > 1 && u < 1u64 << (4 * (n - 1)) {
            return Err(self.err(ErrorKind::NonCanonical, start));
        }
        Ok(u)
    }

    /// §5.6: the length prefix of the list, string or bytes starting at `start`,
    /// checked against its `max`.
    fn length(
        &mut self,
        max: Option<u64>,
        enc: LengthEncoding,
        start: u64,
    ) -> Result<u64, CodecError> {
        let (len, prefix_end) = match enc {
            LengthEncoding::Fixed { bits } => (self.read(bits, start)?, None),
            LengthEncoding::Varint => (self.varint(64, start)?, Some(self.prefix_end)),
        };
        if max.is_some_and(|m| len > m) {
            return Err(self.err(ErrorKind::InvalidLength, start));
        }
        self.leaf(start, || Leaf::Length { len, prefix_end });
        Ok(len)
    }

    /// §5.6 and §11: before allocating anything, `Truncated` if `len` elements of at
    /// least `elem_min` bits cannot fit in what is left; then `LimitExceeded` if their
    /// charge (`each` bytes apiece, plus one allocation) is more than the budget left,
    /// which otherwise pays for it; then `LimitExceeded` if `len` does not fit the
    /// address space.
    fn check_room(
        &mut self,
        len: u64,
        elem_min: u64,
        each: u128,
        start: u64,
    ) -> Result<(), CodecError> {
        let needed = u128::from(len) * u128::from(elem_min);
        if needed > u128::from(self.input.remaining()) {
            return Err(self.err(ErrorKind::Truncated, start));
        }
        let cost = memory::charge(len, each);
        if cost > self.budget {
            return Err(self.err(ErrorKind::LimitExceeded, start));
        }
        self.budget -= cost;
        if usize::try_from(len).is_err() {
            return Err(self.err(ErrorKind::LimitExceeded, start));
        }
        Ok(())
    }

    /// `len` elements of `elem`, each at its own index in the path.
    fn elements(&mut self, elem: &Type, len: u64, start: u64) -> Result<Vec<Value>, CodecError> {
        let len = usize::try_from(len).map_err(|_| self.err(ErrorKind::LimitExceeded, start))?;
        // Grown by pushing rather than reserved up front: simple, and never trusts a
        // length for an allocation.
        let mut items = Vec::new();
        for i in 0..len {
            self.path.push_index(i);
            items.push(self.value(elem)?);
            self.path.pop();
        }
        Ok(items)
    }

    /// A string's or bytes' length and bytes (§5.6), each byte a `u8`; also where the
    /// bytes start.
    fn blob(
        &mut self,
        max: Option<u64>,
        enc: LengthEncoding,
        start: u64,
    ) -> Result<(u64, Vec<u8>), CodecError> {
        let len = self.length(max, enc, start)?;
        self.check_room(len, 8, 1, start)?;
        let bytes_start = self.input.pos();
        let mut bytes = Vec::new();
        for _ in 0..len {
            // Cannot fail: `check_room` made sure all `len` bytes are there.
            bytes.push(self.read(8, start)? as u8);
        }
        Ok((bytes_start, bytes))
    }
}
