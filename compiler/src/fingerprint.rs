//! Schema fingerprints: a stable 64-bit hash of everything that affects the packed
//! wire, and nothing else (`docs/tooling.md`, "Fingerprint", is the specification).
//!
//! A named type's fingerprint is FNV-1a 64 over a canonical byte serialization of
//! its wire-relevant IR; a reference to another named type contributes that type's
//! fingerprint (types are never recursive, so this is well defined). The schema
//! fingerprint hashes the type fingerprints in declaration order. Names, doc
//! comments, constants, source positions, in-memory representations and derived
//! sizes are left out.

use crate::ir::{FloatRepr, LengthEncoding, Schema, Type, TypeDef, TypeDefKind, TypeId};

/// FNV-1a 64 offset basis: the hash of no bytes, and the starting state of
/// [`fnv1a64_update`].
pub const FNV1A64_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Streaming FNV-1a 64: the state `h` after also hashing `bytes`. Start from
/// [`FNV1A64_OFFSET`]; feeding a message in pieces gives the same hash as [`fnv1a64`]
/// of the whole.
pub fn fnv1a64_update(h: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_update(FNV1A64_OFFSET, bytes)
}

/// The fingerprints of a schema: the whole schema and each named type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprints {
    /// Fingerprint of the whole schema.
    pub schema: u64,
    /// Per named type, indexed like [`Schema::types`].
    pub types: Vec<u64>,
}

/// Computes every fingerprint of `schema`.
pub fn fingerprints(schema: &Schema) -> Fingerprints {
    let mut memo: Vec<Option<u64>> = vec![None; schema.types.len()];
    let types: Vec<u64> = (0..schema.types.len())
        .map(|id| type_fingerprint(schema, id, &mut memo))
        .collect();
    let mut out = vec![b'S'];
    put_u32(&mut out, types.len() as u32);
    for fp in &types {
        out.extend_from_slice(&fp.to_le_bytes());
    }
    Fingerprints {
        schema: fnv1a64(&out),
        types,
    }
}

/// Formats a fingerprint as 16 lowercase hex digits.
pub fn hex(fp: u64) -> String {
    format!("{fp:016x}")
}

fn type_fingerprint(schema: &Schema, id: TypeId, memo: &mut Vec<Option<u64>>) -> u64 {
    if let Some(fp) = memo[id] {
        return fp;
    }
    let mut out = Vec::new();
    typedef_bytes(schema, &schema.types[id], memo, &mut out);
    let fp = fnv1a64(&out);
    memo[id] = Some(fp);
    fp
}

fn put_u32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put_u64(out: &mut Vec<u8>, v: u64) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn float_width(repr: FloatRepr) -> u32 {
    match repr {
        FloatRepr::F32 => 32,
        FloatRepr::F64 => 64,
    }
}

fn typedef_bytes(schema: &Schema, def: &TypeDef, memo: &mut Vec<Option<u64>>, out: &mut Vec<u8>) {
    out.push(b'T');
    match def.message_id {
        None => out.push(0),
        Some(id) => {
            // 2 for a `delta message` (spec §12): its delta encoding is wire too.
            out.push(if def.delta { 2 } else { 1 });
            put_u32(out, id);
        }
    }
    match &def.kind {
        TypeDefKind::Struct { fields } => {
            out.push(0x01);
            put_u32(out, fields.len() as u32);
            for f in fields {
                type_bytes(schema, &f.ty, memo, out);
            }
        }
        TypeDefKind::Enum {
            packed_tag_bits,
            variants,
            ..
        } => {
            out.push(0x02);
            put_u32(out, *packed_tag_bits);
            put_u32(out, variants.len() as u32);
            let mut values: Vec<u64> = variants.iter().map(|v| v.value).collect();
            values.sort_unstable();
            for v in values {
                put_u64(out, v);
            }
        }
        TypeDefKind::Union {
            packed_tag_bits,
            variants,
        } => {
            out.push(0x03);
            put_u32(out, *packed_tag_bits);
            put_u32(out, variants.len() as u32);
            let mut sorted: Vec<_> = variants.iter().collect();
            sorted.sort_by_key(|v| v.tag);
            for v in sorted {
                put_u64(out, v.tag);
                match &v.payload {
                    None => out.push(0),
                    Some(ty) => {
                        out.push(1);
                        type_bytes(schema, ty, memo, out);
                    }
                }
            }
        }
    }
}

fn max_and_len(out: &mut Vec<u8>, max: Option<u64>, len: LengthEncoding) {
    match max {
        None => out.push(0),
        Some(m) => {
            out.push(1);
            put_u64(out, m);
        }
    }
    match len {
        LengthEncoding::Varint => out.push(0),
        LengthEncoding::Fixed { bits } => {
            out.push(1);
            put_u32(out, bits);
        }
    }
}

fn type_bytes(schema: &Schema, ty: &Type, memo: &mut Vec<Option<u64>>, out: &mut Vec<u8>) {
    match ty {
        Type::Bool => out.push(0x10),
        Type::UInt { bits, .. } => {
            out.push(0x11);
            put_u32(out, *bits);
        }
        Type::SInt { bits, .. } => {
            out.push(0x12);
            put_u32(out, *bits);
        }
        Type::Float { repr } => {
            out.push(0x13);
            put_u32(out, float_width(*repr));
        }
        Type::Bounded {
            min,
            max,
            packed_bits,
            ..
        } => {
            out.push(0x14);
            out.extend_from_slice(&min.to_le_bytes());
            out.extend_from_slice(&max.to_le_bytes());
            put_u32(out, *packed_bits);
        }
        Type::Quantized {
            repr,
            min,
            max,
            steps,
            packed_bits,
        } => {
            out.push(0x15);
            put_u32(out, float_width(*repr));
            put_u64(out, min.to_bits());
            put_u64(out, max.to_bits());
            put_u64(out, *steps);
            put_u32(out, *packed_bits);
        }
        Type::VarUInt { bits, .. } => {
            out.push(0x16);
            put_u32(out, *bits);
        }
        Type::VarSInt { bits, .. } => {
            out.push(0x17);
            put_u32(out, *bits);
        }
        Type::Optional { inner } => {
            out.push(0x18);
            type_bytes(schema, inner, memo, out);
        }
        Type::Array { elem, len } => {
            out.push(0x19);
            put_u64(out, *len);
            type_bytes(schema, elem, memo, out);
        }
        Type::List {
            elem,
            max,
            packed_len,
            key,
        } => {
            // A key changes the delta encoding (spec §12) only; lists without one
            // hash as they did before keys existed.
            out.push(if key.is_some() { 0x1e } else { 0x1a });
            if let Some(key) = key {
                put_u64(out, key.field as u64);
            }
            max_and_len(out, *max, *packed_len);
            type_bytes(schema, elem, memo, out);
        }
        Type::String { max, packed_len } => {
            out.push(0x1b);
            max_and_len(out, *max, *packed_len);
        }
        Type::Bytes { max, packed_len } => {
            out.push(0x1c);
            max_and_len(out, *max, *packed_len);
        }
        Type::Named { id, .. } => {
            out.push(0x1d);
            let fp = type_fingerprint(schema, *id, memo);
            put_u64(out, fp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a64_reference_values() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
        assert_eq!(
            fnv1a64_update(fnv1a64_update(FNV1A64_OFFSET, b"foo"), b"bar"),
            fnv1a64(b"foobar")
        );
    }
}
