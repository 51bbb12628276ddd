//! The bincode decoder (spec §13), interpreting the IR directly.
//!
//! Values are read in byte order and the first error wins; within one value the checks
//! run in the order §13 lists them. Every error is reported at the value's first byte,
//! as a bit offset (8 × the byte offset, §13.1), with the value's path (§7.3).

use std::collections::HashMap;

use super::rules::{f64_of_f32_bits, float_bytes, wire_int, MinBytes, INDEX_BYTES, LEN_BYTES};
use crate::codec::error::{CodecError, ErrorKind, Path};
use crate::codec::memory;
use crate::codec::trace::{Group, Leaf, Observer};
use crate::codec::Value;
use crate::ir::{FloatRepr, Schema, Type, TypeDefKind, TypeId};

/// Decodes a top-level value of the named type `ty` from `bytes` (§13.5): the value,
/// then nothing; with the default decode budget for the input's length (§11.5).
pub fn decode(schema: &Schema, ty: TypeId, bytes: &[u8]) -> Result<Value, CodecError> {
    decode_with(schema, ty, bytes, &mut ())
}

/// [`decode`] with a decode budget of `budget` bytes (§11.5) instead of the default.
pub fn decode_with_budget(
    schema: &Schema,
    ty: TypeId,
    bytes: &[u8],
    budget: u128,
) -> Result<Value, CodecError> {
    decode_observed(schema, ty, bytes, budget, &mut ())
}

/// [`decode`], reporting every value read to `obs` (see [`crate::codec::trace`]):
/// offsets are bits, 8 × the byte offsets.
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
        input: bytes,
        pos: 0,
        path: Path::default(),
        obs,
        budget,
        min_bytes: MinBytes::new(schema),
        footprints: HashMap::new(),
    };
    let value = dec.named(ty)?;
    if O::ENABLED {
        dec.obs.data_end(bit(dec.pos));
    }
    // §13.5: nothing after the value; the error has an empty path.
    if dec.pos < bytes.len() {
        return Err(CodecError::Wire {
            kind: ErrorKind::TrailingData,
            bit: bit(dec.pos),
            path: String::new(),
        });
    }
    Ok(value)
}

/// The bit offset of byte `pos` (§13.1).
fn bit(pos: usize) -> u64 {
    8 * pos as u64
}

struct Decoder<'a, O: Observer> {
    schema: &'a Schema,
    input: &'a [u8],
    /// The next byte to read.
    pos: usize,
    path: Path,
    obs: &'a mut O,
    /// Bytes of the decode budget left (§11.5).
    budget: u128,
    min_bytes: MinBytes<'a>,
    /// Footprints (§11.2) of list element types met so far, by the element type's
    /// address in the schema: a list of lists asks for the same one at every element.
    footprints: HashMap<*const Type, u128>,
}

impl<O: Observer> Decoder<'_, O> {
    /// Reports a leaf that started at byte `start` and ends here.
    fn leaf(&mut self, start: usize, leaf: impl FnOnce() -> Leaf) {
        if O::ENABLED {
            let end = bit(self.pos);
            self.obs.leaf(self.path.as_str(), bit(start), end, leaf());
        }
    }

    /// Reports the start of a composite at byte `start`.
    fn enter(&mut self, start: usize, group: impl FnOnce() -> Group) {
        if O::ENABLED {
            self.obs.enter(self.path.as_str(), bit(start), group());
        }
    }

    /// Reports the end of the innermost composite.
    fn exit(&mut self) {
        if O::ENABLED {
            self.obs.exit(bit(self.pos));
        }
    }

    /// A wire error for the value that starts at byte `start`.
    fn err(&self, kind: ErrorKind, start: usize) -> CodecError {
        self.path.wire(kind, bit(start))
    }

    /// Bytes left in the input.
    fn left(&self) -> usize {
        self.input.len() - self.pos
    }

    /// The next `n` bytes, for the value that starts at `start`: `Truncated` at the
    /// value if the input ends first.
    fn take(&mut self, n: usize, start: usize) -> Result<&[u8], CodecError> {
        if n > self.left() {
            return Err(self.err(ErrorKind::Truncated, start));
        }
        let bytes = &self.input[self.pos..self.pos + n];
        self.pos += n;
        Ok(bytes)
    }

    /// A little-endian unsigned integer of `n` (at most 8) bytes.
    fn uint(&mut self, n: usize, start: usize) -> Result<u64, CodecError> {
        let bytes = self.take(n, start)?;
        Ok(bytes
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    }

    /// Decodes one value of type `ty` (§13.2–§13.5).
    fn value(&mut self, ty: &Type) -> Result<Value, CodecError> {
        let start = self.pos;
        match ty {
            // §13.2: one byte, 0 or 1.
            Type::Bool => {
                let b = self.uint(1, start)?;
                if b > 1 {
                    return Err(self.err(ErrorKind::OutOfRange, start));
                }
                self.leaf(start, || Leaf::Bool(b == 1));
                Ok(Value::Bool(b == 1))
            }
            Type::Float { repr } => {
                let x = self.float(*repr, start)?;
                self.leaf(start, || Leaf::Float {
                    repr: *repr,
                    value: x,
                });
                Ok(Value::Float(x))
            }
            // §13.2: the float as it is; NaN or outside `MIN..=MAX` is out of range.
            Type::Quantized { repr, min, max, .. } => {
                let x = self.float(*repr, start)?;
                if x.is_nan() || x < *min || x > *max {
                    return Err(self.err(ErrorKind::OutOfRange, start));
                }
                self.leaf(start, || Leaf::Float {
                    repr: *repr,
                    value: x,
                });
                Ok(Value::Float(x))
            }
            Type::Optional { inner } => self.optional(inner, start),
            // §13.3: N values, no length.
            Type::Array { elem, len } => {
                self.enter(start, || Group::Array(*len));
                let items = self.elements(elem, *len, start)?;
                self.exit();
                Ok(Value::Array(items))
            }
            Type::List { elem, max, .. } => self.list(elem, *max, start),
            Type::String { max, .. } => self.string(*max, start),
            Type::Bytes { max, .. } => {
                let (bytes_start, bytes) = self.blob(*max, start)?;
                self.leaf(bytes_start, || Leaf::Bytes(bytes.clone()));
                Ok(Value::Bytes(bytes))
            }
            Type::Named { id, .. } => self.named(*id),
            _ => self.int(ty, start),
        }
    }

    /// §13.2: an integer in its Rust type's width, two's complement when signed, then
    /// the schema's range.
    fn int(&mut self, ty: &Type, start: usize) -> Result<Value, CodecError> {
        let w = wire_int(ty).expect("the remaining types are integers");
        let raw = self.uint(w.bytes, start)?;
        let width = 8 * w.bytes as u32;
        let v = if w.signed && raw >> (width - 1) == 1 {
            i128::from(raw) - (1i128 << width)
        } else {
            i128::from(raw)
        };
        if v < w.lo || v > w.hi {
            return Err(self.err(ErrorKind::OutOfRange, start));
        }
        self.leaf(start, || Leaf::Int { raw, value: v });
        Ok(Value::Int(v))
    }

    /// §13.2: IEEE bits, little-endian, NaN payloads kept.
    fn float(&mut self, repr: FloatRepr, start: usize) -> Result<f64, CodecError> {
        let raw = self.uint(float_bytes(repr), start)?;
        Ok(match repr {
            FloatRepr::F32 => f64_of_f32_bits(raw as u32),
            FloatRepr::F64 => f64::from_bits(raw),
        })
    }

    /// §13.4: a `u8` tag, 0 absent, 1 present and the value; any other tag is
    /// `InvalidEnum`.
    fn optional(&mut self, inner: &Type, start: usize) -> Result<Value, CodecError> {
        let tag = self.uint(1, start)?;
        if tag > 1 {
            return Err(self.err(ErrorKind::InvalidEnum, start));
        }
        self.leaf(start, || Leaf::Presence(tag == 1));
        if tag == 0 {
            return Ok(Value::none());
        }
        self.enter(self.pos, || Group::Some);
        let v = self.value(inner)?;
        self.exit();
        Ok(Value::some(v))
    }

    /// §13.3: a list, its `u64` length, then that many values.
    fn list(&mut self, elem: &Type, max: Option<u64>, start: usize) -> Result<Value, CodecError> {
        self.enter(start, || Group::List);
        let len = self.length(max, start)?;
        let min = self.min_bytes.of(elem);
        let each = self.footprint(elem);
        self.check_room(len, min, each, start)?;
        let items = self.elements(elem, len, start)?;
        self.exit();
        Ok(Value::Array(items))
    }

    /// §13.3: a string, its bytes checked as UTF-8 after all the length checks.
    fn string(&mut self, max: Option<u64>, start: usize) -> Result<Value, CodecError> {
        let (bytes_start, bytes) = self.blob(max, start)?;
        match String::from_utf8(bytes) {
            Ok(s) => {
                self.leaf(bytes_start, || Leaf::Str(s.clone()));
                Ok(Value::String(s))
            }
            Err(_) => Err(self.err(ErrorKind::InvalidUtf8, start)),
        }
    }

    /// A string's or bytes' length and bytes (§13.3); also where the bytes start.
    fn blob(&mut self, max: Option<u64>, start: usize) -> Result<(usize, Vec<u8>), CodecError> {
        let len = self.length(max, start)?;
        let n = self.check_room(len, 1, 1, start)?;
        let bytes_start = self.pos;
        // Cannot fail: `check_room` made sure all `n` bytes are there.
        let bytes = self.take(n, start)?.to_vec();
        Ok((bytes_start, bytes))
    }

    /// §13.5: a struct's fields in order; §13.2: an enum's `u32` index; §13.4: a
    /// union's `u32` index and the arm's payload.
    fn named(&mut self, id: TypeId) -> Result<Value, CodecError> {
        let start = self.pos;
        let schema = self.schema;
        let def = &schema.types[id];
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
            TypeDefKind::Enum { variants, .. } => {
                let index = self.uint(INDEX_BYTES, start)?;
                let Some(v) = usize::try_from(index).ok().and_then(|i| variants.get(i)) else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                self.leaf(start, || Leaf::Enum {
                    tag: index,
                    name: v.name.clone(),
                });
                Ok(Value::Enum(v.name.clone()))
            }
            TypeDefKind::Union { variants, .. } => {
                self.enter(start, || Group::Union(def.name.clone()));
                let index = self.uint(INDEX_BYTES, start)?;
                let Some(variant) = usize::try_from(index).ok().and_then(|i| variants.get(i))
                else {
                    return Err(self.err(ErrorKind::InvalidEnum, start));
                };
                self.leaf(start, || Leaf::Tag {
                    tag: index,
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

    /// §13.3: the `u64` length of the list, string or bytes starting at `start`,
    /// checked against its `max`.
    fn length(&mut self, max: Option<u64>, start: usize) -> Result<u64, CodecError> {
        let len = self.uint(LEN_BYTES, start)?;
        if max.is_some_and(|m| len > m) {
            return Err(self.err(ErrorKind::InvalidLength, start));
        }
        self.leaf(start, || Leaf::Length {
            len,
            prefix_end: None,
        });
        Ok(len)
    }

    /// §13.3 and §11.5, before allocating anything: `Truncated` if `len` values of at
    /// least `min` bytes cannot fit in what is left; then `LimitExceeded` if their
    /// charge (`each` bytes apiece, plus one allocation) is more than the budget left,
    /// which otherwise pays for it; then `LimitExceeded` if `len` does not fit the
    /// platform's integers. Returns `len` as a `usize`.
    fn check_room(
        &mut self,
        len: u64,
        min: u128,
        each: u128,
        start: usize,
    ) -> Result<usize, CodecError> {
        if u128::from(len).saturating_mul(min) > self.left() as u128 {
            return Err(self.err(ErrorKind::Truncated, start));
        }
        let cost = memory::charge(len, each);
        if cost > self.budget {
            return Err(self.err(ErrorKind::LimitExceeded, start));
        }
        self.budget -= cost;
        usize::try_from(len).map_err(|_| self.err(ErrorKind::LimitExceeded, start))
    }

    /// The footprint of one `elem` (§11.2), from the reference memory model.
    fn footprint(&mut self, elem: &Type) -> u128 {
        let schema = self.schema;
        *self
            .footprints
            .entry(elem as *const Type)
            .or_insert_with(|| memory::footprint(schema, elem))
    }

    /// `len` values of `elem`, each at its own index in the path.
    fn elements(&mut self, elem: &Type, len: u64, start: usize) -> Result<Vec<Value>, CodecError> {
        let len = usize::try_from(len).map_err(|_| self.err(ErrorKind::LimitExceeded, start))?;
        // Grown by pushing rather than reserved up front: never trusts a length for an
        // allocation.
        let mut items = Vec::new();
        for i in 0..len {
            self.path.push_index(i);
            items.push(self.value(elem)?);
            self.path.pop();
        }
        Ok(items)
    }
}
