//! Prefix varints with 4-bit groups (spec §5.4) and zigzag mapping.

use crate::{BitReader, BitWriter, Error, ErrorKind, Result};

/// Value bits per group (spec §5.4; chosen by `docs/measurements/varint_shapes.py`).
pub const GROUP_BITS: u32 = 4;

/// Maps a signed value of a `width`-bit varint type to unsigned: 0, -1, 1, -2 → 0, 1, 2, 3.
#[inline(always)]
pub const fn zigzag_encode(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

/// Inverse of [`zigzag_encode`].
#[inline(always)]
pub const fn zigzag_decode(u: u64) -> i64 {
    ((u >> 1) as i64) ^ -((u & 1) as i64)
}

impl BitWriter<'_> {
    /// Writes `value` as a varint of a `width`-bit type (16, 32 or 64); `value` must fit
    /// in `width` bits.
    #[inline]
    pub fn write_varint(&mut self, value: u64, width: u32) {
        debug_assert!(matches!(width, 16 | 32 | 64));
        debug_assert!(width == 64 || value >> width == 0);
        let gmax = width / GROUP_BITS;
        let used = 64 - value.leading_zeros();
        let n = used.div_ceil(GROUP_BITS).max(1);
        // n-1 one bits, then a terminating zero unless n is the longest form.
        let (prefix, prefix_bits) = if n < gmax {
            ((1u64 << (n - 1)) - 1, n)
        } else {
            ((1u64 << (n - 1)) - 1, n - 1)
        };
        self.write_bits(prefix, prefix_bits);
        self.write_bits(value, n * GROUP_BITS);
    }
}

impl BitReader<'_> {
    /// Reads a varint of a `width`-bit type (16, 32 or 64), rejecting non-minimal forms
    /// with `NonCanonical` at the varint's first bit.
    #[inline]
    pub fn read_varint(&mut self, width: u32) -> Result<u64> {
        debug_assert!(matches!(width, 16 | 32 | 64));
        let start = self.bit_pos();
        let gmax = width / GROUP_BITS;
        // Count the unary prefix: at most gmax-1 ones, ended by a zero unless at gmax-1.
        // Bits are counted before each read, so that a truncated varint allocates one
        // error (at its first bit), not a second one for the bit that ran out.
        let mut ones = 0;
        while ones < gmax - 1 {
            if self.remaining_bits() == 0 {
                let need = u64::from((ones + 1) * (GROUP_BITS + 1));
                return Err(Error::truncated(start, need, self.bit_pos() - start));
            }
            if self.read_bits(1)? == 0 {
                break;
            }
            ones += 1;
        }
        let n = ones + 1;
        if u64::from(n * GROUP_BITS) > self.remaining_bits() {
            let have = self.bit_pos() - start + self.remaining_bits();
            let need = self.bit_pos() - start + u64::from(n * GROUP_BITS);
            return Err(Error::truncated(start, need, have));
        }
        let value = self.read_bits(n * GROUP_BITS)?;
        if n > 1 && value >> ((n - 1) * GROUP_BITS) == 0 {
            return Err(non_minimal(start, value, n));
        }
        Ok(value)
    }
}

/// `NonCanonical` at `start` for a varint holding `value` in `groups` groups, more
/// than its minimal form.
#[cold]
#[inline(never)]
fn non_minimal(start: u64, value: u64, groups: u32) -> Error {
    let used = 64 - value.leading_zeros();
    let minimal = used.div_ceil(GROUP_BITS).max(1);
    Error::new(ErrorKind::NonCanonical, start).with_detail(crate::Detail::Varint {
        value,
        groups,
        minimal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn encode(v: u64, width: u32) -> (Vec<u8>, u64) {
        let mut buf = Vec::new();
        let mut w = BitWriter::new(&mut buf);
        w.write_varint(v, width);
        let bits = w.bit_pos();
        w.finish();
        (buf, bits)
    }

    #[test]
    fn sizes_follow_the_spec() {
        assert_eq!(encode(0, 64).1, 5);
        assert_eq!(encode(15, 64).1, 5);
        assert_eq!(encode(16, 64).1, 10);
        assert_eq!(encode(255, 64).1, 10);
        assert_eq!(encode(256, 64).1, 15);
        assert_eq!(encode(u64::MAX, 64).1, 15 + 64);
        assert_eq!(encode(u64::from(u16::MAX), 16).1, 3 + 16);
        assert_eq!(encode(u64::from(u32::MAX), 32).1, 7 + 32);
        // 5 = 0b0101 after a zero bit: 0b01010 → 0x0a.
        assert_eq!(encode(5, 64).0, [0x0a]);
    }

    #[test]
    fn round_trip_boundaries() {
        for width in [16u32, 32, 64] {
            let max = if width == 64 {
                u64::MAX
            } else {
                (1u64 << width) - 1
            };
            let mut vals: Vec<u64> = (0..64)
                .flat_map(|s| [1u64 << s, (1u64 << s).wrapping_sub(1)])
                .collect();
            vals.push(max);
            for v in vals.into_iter().filter(|&v| v <= max) {
                let (buf, _) = encode(v, width);
                let mut r = BitReader::new(&buf);
                assert_eq!(r.read_varint(width).unwrap(), v, "width {width}");
                r.finish().unwrap();
            }
        }
    }

    #[test]
    fn rejects_non_minimal_and_truncated() {
        // Two groups (prefix 0b01) holding 5: 0b0000_0101 then prefix → bits 1,0 then 0101,0000.
        let mut buf = Vec::new();
        let mut w = BitWriter::new(&mut buf);
        w.write_bits(0b01, 2);
        w.write_bits(5, 8);
        w.finish();
        let e = BitReader::new(&buf).read_varint(64).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::NonCanonical, 0));
        let e = BitReader::new(&[0xff]).read_varint(64).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::Truncated, 0));
    }

    #[test]
    fn zigzag() {
        for (v, u) in [
            (0i64, 0u64),
            (-1, 1),
            (1, 2),
            (-2, 3),
            (i64::MAX, u64::MAX - 1),
            (i64::MIN, u64::MAX),
        ] {
            assert_eq!(zigzag_encode(v), u);
            assert_eq!(zigzag_decode(u), v);
        }
    }
}
