//! The delta decoder (spec §12), the inverse of [`super::delta::encode_delta`]. Reads in
//! stream order and reports the first error (§7.2); every canonical-form rule of
//! §12.4–§12.6 is a check here, so an input an encoder does not write is rejected.

use super::bits::BitReader;
use super::decode::value_at;
use super::delta::{apply_zigzag, fields, form, items, key_value, struct_values, wire_value, Form};
use super::encode::value_bits;
use super::error::{CodecError, ErrorKind, Path};
use super::{memory, rules, Value};
use crate::ir::{bits_for, Schema, Type, TypeId};

/// An Exp-Golomb count may have at most this many leading zero bits (§12.5).
const MAX_COUNT_ZEROS: u32 = 63;

/// Decodes a delta of the `delta message` `ty` against `baseline` (§12), with the
/// default decode budget for the input's length (§12.8).
pub fn decode_delta(
    schema: &Schema,
    ty: TypeId,
    baseline: &Value,
    bytes: &[u8],
) -> Result<Value, CodecError> {
    decode_delta_with_budget(
        schema,
        ty,
        baseline,
        bytes,
        memory::default_budget(bytes.len()),
    )
}

/// [`decode_delta`] with a decode budget of `budget` bytes.
pub fn decode_delta_with_budget(
    schema: &Schema,
    ty: TypeId,
    baseline: &Value,
    bytes: &[u8],
    budget: u128,
) -> Result<Value, CodecError> {
    decode_traced(schema, ty, baseline, bytes, budget, None)
}

/// One step of a delta as [`explain_delta`] shows it: where its bits are, the path of
/// the value, and what the bits say.
#[derive(Debug, Clone, PartialEq)]
pub struct DeltaStep {
    pub start: u64,
    pub end: u64,
    pub path: String,
    pub what: String,
}

/// Decodes a delta like [`decode_delta`], recording every step it reads (changed bits,
/// difference codes, gaps, op bits, counts, full encodings), for `bitwire delta
/// explain`. The steps are complete up to the error, if there is one.
pub fn explain_delta(
    schema: &Schema,
    ty: TypeId,
    baseline: &Value,
    bytes: &[u8],
) -> (Vec<DeltaStep>, Result<Value, CodecError>) {
    let mut steps = Vec::new();
    let budget = memory::default_budget(bytes.len());
    let result = decode_traced(schema, ty, baseline, bytes, budget, Some(&mut steps));
    (steps, result)
}

fn decode_traced(
    schema: &Schema,
    ty: TypeId,
    baseline: &Value,
    bytes: &[u8],
    budget: u128,
    trace: Option<&mut Vec<DeltaStep>>,
) -> Result<Value, CodecError> {
    let mut dec = DeltaDecoder {
        schema,
        bytes,
        pos: 0,
        path: Path::default(),
        budget,
        trace,
    };
    let (value, _) = dec.struct_row(ty, None, baseline)?;
    // §2.2 as for a full encoding: zero padding, then nothing.
    let end = dec.pos;
    let padded_end = end.div_ceil(8) * 8;
    let input = BitReader::new(bytes);
    if (end..padded_end).any(|p| input.bit_at(p)) {
        return Err(Path::default().wire(ErrorKind::InvalidPadding, end));
    }
    if input.total_bits() > padded_end {
        return Err(Path::default().wire(ErrorKind::TrailingData, padded_end));
    }
    Ok(value)
}

struct DeltaDecoder<'a> {
    schema: &'a Schema,
    bytes: &'a [u8],
    /// Stream offset of the next bit.
    pos: u64,
    path: Path,
    /// Bytes of the decode budget left.
    budget: u128,
    /// Where [`explain_delta`] collects the steps.
    trace: Option<&'a mut Vec<DeltaStep>>,
}

impl DeltaDecoder<'_> {
    /// Records the step from `start` to here.
    fn step(&mut self, start: u64, what: impl FnOnce() -> String) {
        if let Some(t) = self.trace.as_deref_mut() {
            t.push(DeltaStep {
                start,
                end: self.pos,
                path: self.path.as_str().to_string(),
                what: what(),
            });
        }
    }

    fn err(&self, kind: ErrorKind, bit: u64) -> CodecError {
        self.path.wire(kind, bit)
    }

    /// Reads `width` bits; `Truncated` at `start` if the input ends first.
    fn read(&mut self, width: u32, start: u64) -> Result<u64, CodecError> {
        let mut input = BitReader::at(self.bytes, self.pos);
        let v = input
            .read_uint(width)
            .ok_or_else(|| self.err(ErrorKind::Truncated, start))?;
        self.pos = input.pos();
        Ok(v)
    }

    /// A full encoding of `ty` here (§5), charged to the budget.
    fn full(&mut self, ty: &Type) -> Result<Value, CodecError> {
        let (v, end) = value_at(
            self.schema,
            self.bytes,
            self.pos,
            ty,
            &self.path,
            &mut self.budget,
        )?;
        self.pos = end;
        Ok(v)
    }

    /// The struct row of §12.3 against `b`: the value and whether any field changed.
    fn struct_row(
        &mut self,
        id: TypeId,
        without: Option<usize>,
        b: &Value,
    ) -> Result<(Value, bool), CodecError> {
        let schema = self.schema;
        let bf = struct_values(b);
        let mut out = Vec::with_capacity(bf.len());
        let mut any = false;
        for (i, field) in fields(schema, id).iter().enumerate() {
            let base = &bf[i].1;
            if Some(i) == without {
                out.push((field.name.clone(), base.clone()));
                continue;
            }
            self.path.push_name(&field.name);
            let v = self.changed_bit(&field.ty, base)?;
            self.path.pop();
            any |= v.is_some();
            out.push((field.name.clone(), v.unwrap_or_else(|| base.clone())));
        }
        Ok((Value::Struct(out), any))
    }

    /// A changed bit (unless zero-width) and, if set, the delta: the new value.
    fn changed_bit(&mut self, ty: &Type, b: &Value) -> Result<Option<Value>, CodecError> {
        if matches!(form(self.schema, ty), Form::Never) {
            return Ok(None);
        }
        let start = self.pos;
        let changed = self.read(1, start)? == 1;
        self.step(start, || {
            (if changed { "changed" } else { "unchanged" }).into()
        });
        if !changed {
            return Ok(None);
        }
        self.delta(ty, b).map(Some)
    }

    /// `D(b, v)` of §12.3: the new value.
    fn delta(&mut self, ty: &Type, b: &Value) -> Result<Value, CodecError> {
        match form(self.schema, ty) {
            Form::Never => unreachable!("zero-width values have no delta"),
            Form::Diff { width, varint } => self.difference(ty, b, width, varint),
            Form::Struct(id) => {
                let (v, any) = self.struct_row(id, None, b)?;
                if !any {
                    return Err(self.err(ErrorKind::NonCanonical, self.pos));
                }
                Ok(v)
            }
            Form::Array(elem) => {
                let mut out = Vec::new();
                let mut any = false;
                for (i, be) in items(b).iter().enumerate() {
                    self.path.push_index(i);
                    let v = self.changed_bit(elem, be)?;
                    self.path.pop();
                    any |= v.is_some();
                    out.push(v.unwrap_or_else(|| be.clone()));
                }
                if !any {
                    return Err(self.err(ErrorKind::NonCanonical, self.pos));
                }
                Ok(Value::Array(out))
            }
            Form::Keyed { elem, key, max } => self.keyed(elem, key, max, items(b)),
            Form::Replace => {
                let start = self.pos;
                let v = self.full(ty)?;
                self.step(start, || "full encoding (§5)".into());
                let read: Vec<bool> = {
                    let input = BitReader::new(self.bytes);
                    (start..self.pos).map(|p| input.bit_at(p)).collect()
                };
                if read == value_bits(self.schema, ty, b, &self.path)? {
                    return Err(self.err(ErrorKind::NonCanonical, self.pos));
                }
                Ok(v)
            }
        }
    }

    /// §12.4: the difference code, then the full decoder's checks on the wire value.
    fn difference(
        &mut self,
        ty: &Type,
        b: &Value,
        width: u32,
        varint: Option<bool>,
    ) -> Result<Value, CodecError> {
        let start = self.pos;
        let m = self.read(bits_for(u128::from(width - 1)), start)?;
        if m >= u64::from(width) {
            return Err(self.err(ErrorKind::OutOfRange, start));
        }
        let low = self.read(m as u32, start)?;
        let z = if m == 64 { low } else { (1u64 << m) | low };
        let ub = wire_value(self.schema, ty, b, varint, width, &self.path)?;
        let u = apply_zigzag(ub, z, width);
        self.step(start, || {
            let s = rules::unzigzag(z);
            format!("difference n-1={m}, z={z} ({s:+}): wire value {ub} -> {u}")
        });
        match varint {
            Some(false) => Ok(Value::Int(i128::from(u))),
            Some(true) => Ok(Value::Int(rules::unzigzag(u))),
            None => {
                // The full decoder reads the w wire bits and runs its checks; its
                // errors move to the difference code.
                let bytes: Vec<u8> = (0..width.div_ceil(8))
                    .map(|i| (u >> (8 * i)) as u8)
                    .collect();
                let mut spare = u128::MAX;
                value_at(self.schema, &bytes, 0, ty, &self.path, &mut spare)
                    .map(|(v, _)| v)
                    .map_err(|e| match e {
                        CodecError::Wire { kind, .. } => self.err(kind, start),
                        other => other,
                    })
            }
        }
    }

    /// §12.5's Exp-Golomb code, with at most `max_zeros` leading zero bits.
    fn golomb(&mut self, max_zeros: u32) -> Result<u64, CodecError> {
        let start = self.pos;
        let mut zeros = 0u32;
        while self.read(1, start)? == 0 {
            zeros += 1;
            if zeros > max_zeros {
                return Err(self.err(ErrorKind::OutOfRange, start));
            }
        }
        let rest = self.read(zeros, start)?;
        Ok(((1u128 << zeros) + u128::from(rest) - 1) as u64)
    }

    /// §12.5: events over the baseline `b`, then the added elements, merged by key.
    fn keyed(
        &mut self,
        elem: TypeId,
        key: usize,
        max: Option<u64>,
        b: &[Value],
    ) -> Result<Value, CodecError> {
        let key_ty = fields(self.schema, elem)[key].ty.clone();
        let key_of = |s: &Self, v: &Value| key_value(s.schema, &key_ty, &struct_values(v)[key].1);
        let bkeys: Vec<i128> = b.iter().map(|v| key_of(self, v)).collect();
        if bkeys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(self.err(ErrorKind::InvalidKey, 0));
        }
        let len = b.len() as u64;
        let (mut kept, mut events) = (Vec::new(), 0u64);
        let mut p = 0u64;
        while p < len {
            let start = self.pos;
            let gap = self.golomb(bits_for(u128::from(len - p + 1)) - 1)?;
            if gap > len - p {
                return Err(self.err(ErrorKind::OutOfRange, start));
            }
            kept.extend(b[p as usize..(p + gap) as usize].iter().cloned());
            self.step(start, || match gap {
                0 => "gap 0".into(),
                1 => format!("gap 1: [{p}] unchanged"),
                g => format!("gap {g}: [{p}..{}] unchanged", p + g - 1),
            });
            p += gap;
            if p == len {
                break;
            }
            events += 1;
            self.path.push_index(p as usize);
            let op_start = self.pos;
            let removed = self.read(1, op_start)? == 1;
            self.step(op_start, || {
                (if removed {
                    "op 1: removed"
                } else {
                    "op 0: changed"
                })
                .into()
            });
            if !removed {
                let (v, any) = self.struct_row(elem, Some(key), &b[p as usize])?;
                if !any {
                    return Err(self.err(ErrorKind::NonCanonical, self.pos));
                }
                kept.push(v);
            }
            self.path.pop();
            p += 1;
        }
        let count_start = self.pos;
        let added = self.golomb(MAX_COUNT_ZEROS)?;
        self.step(count_start, || format!("added {added}"));
        let total = u128::from(kept.len() as u64) + u128::from(added);
        if max.is_some_and(|m| total > u128::from(m)) {
            return Err(self.err(ErrorKind::InvalidLength, count_start));
        }
        self.room(elem, added, total, count_start)?;
        if events == 0 && added == 0 {
            return Err(self.err(ErrorKind::NonCanonical, self.pos));
        }
        let elem_ty = Type::Named {
            id: elem,
            name: self.schema.types[elem].name.clone(),
        };
        let mut new = Vec::new();
        let mut last: Option<i128> = None;
        for j in 0..added {
            self.path.push_index(j as usize);
            let start = self.pos;
            let v = self.full(&elem_ty)?;
            let k = key_of(self, &v);
            self.step(start, || format!("added, key {k}: full encoding (§5)"));
            if last.is_some_and(|l| k <= l) || bkeys.binary_search(&k).is_ok() {
                return Err(self.err(ErrorKind::InvalidKey, start));
            }
            self.path.pop();
            last = Some(k);
            new.push(v);
        }
        Ok(Value::Array(merge(kept, new, |v| key_of(self, v))))
    }

    /// §12.8: `Truncated` when `added` elements cannot fit in the input left, then the
    /// decoded list's charge against the budget.
    fn room(
        &mut self,
        elem: TypeId,
        added: u64,
        total: u128,
        start: u64,
    ) -> Result<(), CodecError> {
        let min = self.schema.types[elem].packed.min_bits;
        let left = BitReader::at(self.bytes, self.pos).remaining();
        if u128::from(added) * u128::from(min) > u128::from(left) {
            return Err(self.err(ErrorKind::Truncated, start));
        }
        let elem_ty = Type::Named {
            id: elem,
            name: String::new(),
        };
        let each = memory::footprint(self.schema, &elem_ty);
        // A total past u64 (kept + a count of 63 leading zeros) is past any budget.
        let cost = u64::try_from(total).map_or(u128::MAX, |len| memory::charge(len, each));
        if cost > self.budget {
            return Err(self.err(ErrorKind::LimitExceeded, start));
        }
        self.budget -= cost;
        if usize::try_from(total).is_err() {
            return Err(self.err(ErrorKind::LimitExceeded, start));
        }
        Ok(())
    }
}

/// Merges two lists that are each ascending by `key` into one.
fn merge(a: Vec<Value>, b: Vec<Value>, key: impl Fn(&Value) -> i128) -> Vec<Value> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    loop {
        let take_a = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) => key(x) < key(y),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => return out,
        };
        out.extend(if take_a { a.next() } else { b.next() });
    }
}
