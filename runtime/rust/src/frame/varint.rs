//! Minecraft's VarInt (docs/framing.md §1): LEB128, at most 5 bytes, values below 2^31,
//! minimal form only. Not the packed encoding's varint (spec §5.4), which is a bit-level
//! prefix code: this one is byte-aligned and only frames use it.

use alloc::vec::Vec;

use super::error::{FrameDetail, FrameErrorKind};

/// The most bytes a VarInt takes (a value up to 2^31 − 1).
pub const VARINT_MAX_BYTES: usize = 5;

/// The largest value a VarInt holds here: 2^31 − 1 (Minecraft's VarInt is a signed
/// 32-bit value; bitwire writes only the non-negative ones, §1.1).
pub const VARINT_MAX: u32 = i32::MAX as u32;

/// Bytes of the minimal VarInt of `value`.
#[inline]
pub const fn varint_len(value: u32) -> usize {
    match value {
        0..=0x7f => 1,
        0x80..=0x3fff => 2,
        0x4000..=0x1f_ffff => 3,
        0x20_0000..=0x0fff_ffff => 4,
        _ => 5,
    }
}

/// Appends the minimal VarInt of `value` (`value` ≤ [`VARINT_MAX`]; larger values are
/// written as their 5-byte LEB128 form, which no bitwire reader accepts).
#[inline]
pub fn write_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push(value as u8 | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

/// What reading a VarInt from the front of a slice gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VarInt {
    /// The value and the bytes it took.
    Value(u32, usize),
    /// The slice ends inside the VarInt.
    Incomplete,
}

/// Reads the VarInt at the front of `bytes` (§1.2): more than 5 bytes or a value of
/// 2^31 or more is `VarIntTooLong` (known at the 5th byte), a non-minimal form
/// `NonMinimalVarInt`.
#[inline]
pub fn read_varint(bytes: &[u8]) -> Result<VarInt, (FrameErrorKind, FrameDetail)> {
    let mut value = 0u32;
    for (i, &b) in bytes.iter().take(VARINT_MAX_BYTES).enumerate() {
        if i == VARINT_MAX_BYTES - 1 && b > 0x07 {
            return Err((FrameErrorKind::VarIntTooLong, FrameDetail::None));
        }
        value |= u32::from(b & 0x7f) << (7 * i);
        if b & 0x80 == 0 {
            if i > 0 && b == 0 {
                return Err((FrameErrorKind::NonMinimalVarInt, FrameDetail::None));
            }
            return Ok(VarInt::Value(value, i + 1));
        }
    }
    Ok(VarInt::Incomplete)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_examples_of_the_spec() {
        for (v, hex) in [
            (0u32, &[0x00][..]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (2_097_151, &[0xff, 0xff, 0x7f]),
            (VARINT_MAX, &[0xff, 0xff, 0xff, 0xff, 0x07]),
        ] {
            let mut out = Vec::new();
            write_varint(&mut out, v);
            assert_eq!(out, hex, "{v}");
            assert_eq!(varint_len(v), hex.len());
            assert_eq!(read_varint(hex), Ok(VarInt::Value(v, hex.len())));
            assert_eq!(
                read_varint(&hex[..hex.len() - 1]).ok(),
                Some(VarInt::Incomplete)
            );
        }
    }

    #[test]
    fn rejects_long_and_non_minimal_forms() {
        let kind = |b: &[u8]| read_varint(b).map_err(|e| e.0);
        assert_eq!(
            kind(&[0x80, 0x80, 0x80, 0x80, 0x80]),
            Err(FrameErrorKind::VarIntTooLong)
        );
        assert_eq!(
            kind(&[0xff, 0xff, 0xff, 0xff, 0x08]),
            Err(FrameErrorKind::VarIntTooLong)
        );
        assert_eq!(kind(&[0x80, 0x00]), Err(FrameErrorKind::NonMinimalVarInt));
        assert_eq!(
            kind(&[0x81, 0x80, 0x00]),
            Err(FrameErrorKind::NonMinimalVarInt)
        );
        assert_eq!(kind(&[]), Ok(VarInt::Incomplete));
    }
}
