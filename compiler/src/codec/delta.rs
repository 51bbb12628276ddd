//! The delta encoding (spec §12), interpreting the IR directly: the reference the
//! generated `encode_delta` / `decode_delta` of every language are tested against.
//!
//! Written for obviousness, like the rest of the reference codec: a scalar's wire value
//! is literally the bits its full encoding writes ([`super::encode::value_bits`]), two
//! values are equal when their full encodings are, and a decoded scalar is checked by
//! handing its wire bits to the full decoder ([`super::decode::value_at`]). So the delta
//! shares every rule of §3–§5 with the full codec instead of restating it.
//!
//! ```text
//! (baseline, value) ──encode_delta──▶ bytes ──decode_delta(baseline)──▶ value
//! ```

use super::bits::BitWriter;
use super::encode::value_bits;
use super::error::{CodecError, ErrorKind, Path};
use super::{rules, Value};
use crate::ir::{bits_for, Schema, Type, TypeDefKind, TypeId};

pub use super::delta_decode::{decode_delta, decode_delta_with_budget, explain_delta, DeltaStep};

/// How a value of a type travels in a delta (§12.3).
pub(crate) enum Form<'a> {
    /// Zero-width: never written.
    Never,
    /// A scalar of `width` wire bits; `varint` for varints (their wire value is the
    /// unsigned, zigzagged value, not their bits).
    Diff { width: u32, varint: Option<bool> },
    /// A struct: field by field.
    Struct(TypeId),
    /// `[T; N]`: element by element.
    Array(&'a Type),
    /// A keyed list: its element struct and key field.
    Keyed {
        elem: TypeId,
        key: usize,
        max: Option<u64>,
    },
    /// Anything else: the full encoding.
    Replace,
}

/// The form of `ty` in a delta.
pub(crate) fn form<'a>(schema: &Schema, ty: &'a Type) -> Form<'a> {
    if crate::layout::of_type(ty, &schema.types).max_bits == Some(0) {
        return Form::Never;
    }
    match ty {
        Type::Bool => Form::Diff {
            width: 1,
            varint: None,
        },
        Type::UInt { bits, .. } | Type::SInt { bits, .. } => Form::Diff {
            width: *bits,
            varint: None,
        },
        Type::Float { repr } => Form::Diff {
            width: match repr {
                crate::ir::FloatRepr::F32 => 32,
                crate::ir::FloatRepr::F64 => 64,
            },
            varint: None,
        },
        Type::Bounded { packed_bits, .. } | Type::Quantized { packed_bits, .. } => Form::Diff {
            width: *packed_bits,
            varint: None,
        },
        Type::VarUInt { bits, .. } => Form::Diff {
            width: *bits,
            varint: Some(false),
        },
        Type::VarSInt { bits, .. } => Form::Diff {
            width: *bits,
            varint: Some(true),
        },
        Type::Array { elem, .. } => Form::Array(elem),
        Type::List {
            elem,
            max,
            key: Some(key),
            ..
        } => match elem.as_ref() {
            Type::Named { id, .. } => Form::Keyed {
                elem: *id,
                key: key.field,
                max: *max,
            },
            _ => Form::Replace,
        },
        Type::Named { id, .. } => match &schema.types[*id].kind {
            TypeDefKind::Struct { .. } => Form::Struct(*id),
            TypeDefKind::Enum {
                packed_tag_bits, ..
            } => Form::Diff {
                width: *packed_tag_bits,
                varint: None,
            },
            TypeDefKind::Union { .. } => Form::Replace,
        },
        _ => Form::Replace,
    }
}

/// The fields of struct `id`.
pub(crate) fn fields(schema: &Schema, id: TypeId) -> &[crate::ir::Field] {
    match &schema.types[id].kind {
        TypeDefKind::Struct { fields } => fields,
        _ => unreachable!("a struct"),
    }
}

/// A struct value's fields (the codec's values are trusted to match their type here:
/// every value went through the full encoder or decoder first).
pub(crate) fn struct_values(v: &Value) -> &[(String, Value)] {
    match v {
        Value::Struct(f) => f,
        _ => unreachable!("a struct value"),
    }
}

pub(crate) fn items(v: &Value) -> &[Value] {
    match v {
        Value::Array(items) => items,
        _ => unreachable!("an array or list value"),
    }
}

/// The ordering value of a key (§12.1): the integer, or the enum variant's value.
pub(crate) fn key_value(schema: &Schema, key_ty: &Type, v: &Value) -> i128 {
    match (key_ty, v) {
        (_, Value::Int(i)) => *i,
        (Type::Named { id, .. }, Value::Enum(name)) => match &schema.types[*id].kind {
            TypeDefKind::Enum { variants, .. } => variants
                .iter()
                .find(|e| &e.name == name)
                .map_or(-1, |e| i128::from(e.value)),
            _ => -1,
        },
        _ => -1,
    }
}

/// `w`-bit zigzag of the difference `u(v) - u(b)` (§12.4).
pub(crate) fn zigzag_diff(ub: u64, uv: u64, w: u32) -> u64 {
    let modulus = 1u128 << w;
    let d = (u128::from(uv) + modulus - u128::from(ub)) % modulus;
    // As a w-bit two's-complement number.
    let s: i128 = if d >= modulus / 2 {
        d as i128 - modulus as i128
    } else {
        d as i128
    };
    let z = if s >= 0 { 2 * s } else { -2 * s - 1 };
    (z as u128 % modulus) as u64
}

/// Inverse of [`zigzag_diff`]: the wire value `u(b) + s mod 2^w`.
pub(crate) fn apply_zigzag(ub: u64, z: u64, w: u32) -> u64 {
    let modulus = 1u128 << w;
    let s = rules::unzigzag(z);
    let u = (i128::from(ub) + s).rem_euclid(modulus as i128);
    u as u64
}

/// Wire bits to the integer they hold (bit 0 first).
pub(crate) fn bits_value(bits: &[bool]) -> u64 {
    bits.iter()
        .enumerate()
        .fold(0u64, |acc, (i, &b)| acc | (u64::from(b) << i))
}

/// The wire value `u` of a scalar (§12.2).
pub(crate) fn wire_value(
    schema: &Schema,
    ty: &Type,
    v: &Value,
    varint: Option<bool>,
    width: u32,
    path: &Path,
) -> Result<u64, CodecError> {
    // The full encoder checks the value (range, enum, UTF-8 ...) either way.
    let bits = value_bits(schema, ty, v, path)?;
    Ok(match (varint, v) {
        (Some(false), Value::Int(i)) => *i as u64,
        (Some(true), Value::Int(i)) => {
            let z = rules::zigzag(*i);
            if width == 64 {
                z
            } else {
                z & ((1u64 << width) - 1)
            }
        }
        _ => bits_value(&bits),
    })
}

/// Encodes `value` as a delta against `baseline`, both values of the `delta message`
/// `ty` (§12.3): the struct row of the message, then zero padding to a byte.
pub fn encode_delta(
    schema: &Schema,
    ty: TypeId,
    baseline: &Value,
    value: &Value,
) -> Result<Vec<u8>, CodecError> {
    let mut enc = DeltaEncoder {
        schema,
        out: BitWriter::default(),
        path: Path::default(),
    };
    enc.struct_row(ty, None, baseline, value)?;
    Ok(enc.out.into_bytes())
}

struct DeltaEncoder<'a> {
    schema: &'a Schema,
    out: BitWriter,
    path: Path,
}

impl DeltaEncoder<'_> {
    fn bits(&self, ty: &Type, v: &Value) -> Result<Vec<bool>, CodecError> {
        value_bits(self.schema, ty, v, &self.path)
    }

    fn put(&mut self, bits: &[bool]) {
        bits.iter().for_each(|&b| self.out.write_bit(b));
    }

    /// Whether `b` and `v` differ on the wire (§12.2: their full encodings differ).
    fn differs(&self, ty: &Type, b: &Value, v: &Value) -> Result<bool, CodecError> {
        Ok(self.bits(ty, b)? != self.bits(ty, v)?)
    }

    /// §12.3's struct row: per field (but `without`), a changed bit and the delta.
    /// Returns whether any field changed.
    fn struct_row(
        &mut self,
        id: TypeId,
        without: Option<usize>,
        b: &Value,
        v: &Value,
    ) -> Result<bool, CodecError> {
        let schema = self.schema;
        let (bf, vf) = (struct_values(b), struct_values(v));
        let mut any = false;
        for (i, field) in fields(schema, id).iter().enumerate() {
            if Some(i) == without {
                continue;
            }
            self.path.push_name(&field.name);
            any |= self.changed_bit(&field.ty, &bf[i].1, &vf[i].1)?;
            self.path.pop();
        }
        Ok(any)
    }

    /// A changed bit (unless the type is zero-width) and, if changed, the delta.
    fn changed_bit(&mut self, ty: &Type, b: &Value, v: &Value) -> Result<bool, CodecError> {
        if matches!(form(self.schema, ty), Form::Never) {
            return Ok(false);
        }
        let changed = self.differs(ty, b, v)?;
        self.out.write_bit(changed);
        if changed {
            self.delta(ty, b, v)?;
        }
        Ok(changed)
    }

    /// `D(b, v)` of §12.3, for `b` ≠ `v`.
    fn delta(&mut self, ty: &Type, b: &Value, v: &Value) -> Result<(), CodecError> {
        match form(self.schema, ty) {
            Form::Never => unreachable!("zero-width values never differ"),
            Form::Diff { width, varint } => {
                let ub = wire_value(self.schema, ty, b, varint, width, &self.path)?;
                let uv = wire_value(self.schema, ty, v, varint, width, &self.path)?;
                self.difference(zigzag_diff(ub, uv, width), width);
            }
            Form::Struct(id) => {
                self.struct_row(id, None, b, v)?;
            }
            Form::Array(elem) => {
                for (i, (be, ve)) in items(b).iter().zip(items(v)).enumerate() {
                    self.path.push_index(i);
                    self.changed_bit(elem, be, ve)?;
                    self.path.pop();
                }
            }
            Form::Keyed { elem, key, .. } => self.keyed(elem, key, items(b), items(v))?,
            Form::Replace => {
                let bits = self.bits(ty, v)?;
                self.put(&bits);
            }
        }
        Ok(())
    }

    /// §12.4: `n - 1` in `bits_for(w - 1)` bits, then the low `n - 1` bits of `z`.
    fn difference(&mut self, z: u64, w: u32) {
        let n = bits_for(u128::from(z));
        self.out
            .write_uint(u64::from(n - 1), bits_for(u128::from(w - 1)));
        let low = if n - 1 == 64 {
            z
        } else {
            z & ((1u64 << (n - 1)) - 1)
        };
        self.out.write_uint(low, n - 1);
    }

    /// §12.5's Exp-Golomb code of `x`.
    fn golomb(&mut self, x: u64) {
        let x1 = u128::from(x) + 1;
        let k = bits_for(x1) - 1;
        for _ in 0..k {
            self.out.write_bit(false);
        }
        self.out.write_bit(true);
        self.out.write_uint((x1 - (1u128 << k)) as u64, k);
    }

    /// The keys of a keyed list, checked strictly ascending (§12.1).
    fn keys(&self, elem: TypeId, key: usize, list: &[Value]) -> Result<Vec<i128>, CodecError> {
        let key_ty = &fields(self.schema, elem)[key].ty;
        let keys: Vec<i128> = list
            .iter()
            .map(|e| key_value(self.schema, key_ty, &struct_values(e)[key].1))
            .collect();
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(self.path.wire(ErrorKind::InvalidKey, 0));
        }
        Ok(keys)
    }

    /// §12.5: events over the baseline, then the added elements.
    fn keyed(
        &mut self,
        elem: TypeId,
        key: usize,
        b: &[Value],
        v: &[Value],
    ) -> Result<(), CodecError> {
        let bkeys = self.keys(elem, key, b)?;
        let vkeys = self.keys(elem, key, v)?;
        let elem_ty = Type::Named {
            id: elem,
            name: self.schema.types[elem].name.clone(),
        };
        // Per baseline element: None = removed, Some(j) = kept as v[j].
        let matched: Vec<Option<usize>> =
            bkeys.iter().map(|k| vkeys.binary_search(k).ok()).collect();
        let mut gap = 0u64;
        for (p, m) in matched.iter().enumerate() {
            let event = match m {
                None => Some(true),
                Some(j) => {
                    self.path.push_index(p);
                    let differs = self.differs(&elem_ty, &b[p], &v[*j]);
                    self.path.pop();
                    differs?.then_some(false)
                }
            };
            let Some(removed) = event else {
                gap += 1;
                continue;
            };
            self.golomb(gap);
            gap = 0;
            self.out.write_bit(removed);
            if let (false, Some(j)) = (removed, m) {
                self.path.push_index(p);
                self.struct_row(elem, Some(key), &b[p], &v[*j])?;
                self.path.pop();
            }
        }
        if gap > 0 {
            self.golomb(gap);
        }
        let added: Vec<usize> = (0..v.len())
            .filter(|&j| bkeys.binary_search(&vkeys[j]).is_err())
            .collect();
        self.golomb(added.len() as u64);
        for (n, &j) in added.iter().enumerate() {
            self.path.push_index(n);
            let bits = self.bits(&elem_ty, &v[j]);
            self.path.pop();
            self.put(&bits?);
        }
        Ok(())
    }
}
