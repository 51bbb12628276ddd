//! The bit stream of spec §1, one bit at a time.
//!
//! Deliberately naive: the reference codec is the oracle for the fast runtimes, so
//! every bit goes through the literal rule of §1.1 (stream bit `p` is byte `p >> 3`,
//! mask `1 << (p & 7)`) and §1.2 (a value's bit 0 first). No accumulators, no
//! word-at-a-time tricks to get wrong.

/// Appends bits to a growing byte buffer (spec §1.1).
#[derive(Debug, Default)]
pub(crate) struct BitWriter {
    bytes: Vec<u8>,
    /// Number of bits written so far.
    len: u64,
}

impl BitWriter {
    /// Bits written so far: the stream offset of the next bit.
    pub(crate) fn pos(&self) -> u64 {
        self.len
    }

    /// Writes one bit.
    pub(crate) fn write_bit(&mut self, bit: bool) {
        let p = self.len;
        if p % 8 == 0 {
            // New bytes start as zero, which is also what makes the final padding
            // zero bits (§2.1) without a separate step.
            self.bytes.push(0);
        }
        if bit {
            self.bytes[(p >> 3) as usize] |= 1 << (p & 7);
        }
        self.len += 1;
    }

    /// Writes the unsigned integer `v` in `width` bits, bit 0 first (§1.2).
    ///
    /// The caller has checked `v < 2^width`; bits of `v` at or above `width` would be
    /// silently dropped, which is exactly the bug range checks exist to prevent, so it
    /// is asserted.
    pub(crate) fn write_uint(&mut self, v: u64, width: u32) {
        assert!(width <= 64, "width {width} > 64");
        assert!(
            width == 64 || v >> width == 0,
            "value {v} does not fit {width} bits"
        );
        for i in 0..width {
            self.write_bit((v >> i) & 1 == 1);
        }
    }

    /// The bits written so far, in stream order.
    pub(crate) fn bits(&self) -> Vec<bool> {
        (0..self.len)
            .map(|p| (self.bytes[(p >> 3) as usize] >> (p & 7)) & 1 == 1)
            .collect()
    }

    /// The written bytes; the last byte's unused high bits are zero (§2.1).
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

/// Reads bits from a byte slice (spec §1.1).
#[derive(Debug, Clone)]
pub(crate) struct BitReader<'a> {
    bytes: &'a [u8],
    /// Stream offset of the next bit to read.
    pos: u64,
}

impl<'a> BitReader<'a> {
    /// A reader at bit 0 of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, pos: 0 }
    }

    /// A reader at bit `pos` of `bytes`.
    pub(crate) fn at(bytes: &'a [u8], pos: u64) -> BitReader<'a> {
        BitReader { bytes, pos }
    }

    /// Stream offset of the next bit.
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// Total bits in the input.
    pub(crate) fn total_bits(&self) -> u64 {
        self.bytes.len() as u64 * 8
    }

    /// Bits left after the current position.
    pub(crate) fn remaining(&self) -> u64 {
        self.total_bits() - self.pos
    }

    /// The bit at stream offset `p` (which must be inside the input).
    pub(crate) fn bit_at(&self, p: u64) -> bool {
        (self.bytes[(p >> 3) as usize] >> (p & 7)) & 1 == 1
    }

    /// Reads an unsigned integer of `width` bits (§1.2), or `None` without moving if
    /// fewer than `width` bits are left.
    pub(crate) fn read_uint(&mut self, width: u32) -> Option<u64> {
        assert!(width <= 64, "width {width} > 64");
        if u64::from(width) > self.remaining() {
            return None;
        }
        let mut v = 0u64;
        for i in 0..width {
            if self.bit_at(self.pos) {
                v |= 1 << i;
            }
            self.pos += 1;
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lsb_first_within_and_across_bytes() {
        let mut w = BitWriter::default();
        w.write_uint(1, 1);
        w.write_uint(5, 4);
        w.write_uint(2, 2);
        w.write_uint(300, 9);
        assert_eq!(w.pos(), 16);
        assert_eq!(w.into_bytes(), [0x4b, 0x96]);

        let bytes = [0x4b, 0x96];
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.read_uint(1), Some(1));
        assert_eq!(r.read_uint(4), Some(5));
        assert_eq!(r.read_uint(2), Some(2));
        assert_eq!(r.read_uint(10), None);
        assert_eq!(r.pos(), 7);
        assert_eq!(r.read_uint(9), Some(300));
        assert_eq!(r.read_uint(0), Some(0));
        assert_eq!(r.read_uint(1), None);
    }

    #[test]
    fn sixty_four_bit_values() {
        let mut w = BitWriter::default();
        w.write_uint(u64::MAX, 64);
        w.write_uint(0, 0);
        w.write_uint(1, 1);
        let bytes = w.into_bytes();
        assert_eq!(bytes.len(), 9);
        let mut r = BitReader::new(&bytes);
        assert_eq!(r.read_uint(64), Some(u64::MAX));
        assert_eq!(r.read_uint(1), Some(1));
        assert_eq!(r.remaining(), 7);
    }
}
