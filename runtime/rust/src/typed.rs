//! Typed reads and writes built on the bit primitives: signed integers (spec §3),
//! floats with canonical NaN (§3.2) and quantized floats (§4.3). They keep generated
//! code short; each is a thin `#[inline]` wrapper, so the generated code compiles to
//! the same instructions as if it spelled the arithmetic out.

use crate::{
    f32_from_wire, f32_to_wire, f64_from_wire, f64_to_wire, sign_extend, to_twos_complement,
    BitReader, BitWriter, Error, Result,
};

impl BitWriter<'_> {
    /// Writes an `iN` (`bits` = N): the low N bits of the two's-complement value.
    /// The caller has checked that `value` fits in N bits.
    #[inline(always)]
    pub fn write_int(&mut self, value: i64, bits: u32) {
        self.write_bits(to_twos_complement(value, bits), bits);
    }

    /// Writes an `f32`, any NaN as the canonical NaN.
    #[inline(always)]
    pub fn write_f32(&mut self, value: f32) {
        self.write_bits(f32_to_wire(value), 32);
    }

    /// Writes an `f64`, any NaN as the canonical NaN.
    #[inline(always)]
    pub fn write_f64(&mut self, value: f64) {
        self.write_bits(f64_to_wire(value), 64);
    }

    /// Quantizes `value` for a value starting `offset` bits after the current
    /// position (the offset is only used for the error): NaN and values outside
    /// `min..=max` are `OutOfRange`.
    #[inline]
    pub fn quantize(&self, value: f64, min: f64, max: f64, steps: u64, offset: u32) -> Result<u64> {
        if !(min <= value && value <= max) {
            return Err(crate::float::float_range_error(
                self.bit_pos() + u64::from(offset),
                value.to_bits(),
                min.to_bits(),
                max.to_bits(),
            ));
        }
        Ok(crate::float::grid_index(value, min, max, steps))
    }

    /// [`Self::quantize`] with the division replaced by one multiplication by `factor`:
    /// the grid index is `floor((value - min) * factor + 0.5)`. Only for `f32` fields
    /// whose generated code passes a factor the compiler proved to give §4.3's index for
    /// every `f32` in `min..=max` (`compiler/src/plan/quant.rs`); the range check and
    /// its error are [`Self::quantize`]'s.
    #[inline]
    pub fn quantize_scaled(
        &self,
        value: f64,
        min: f64,
        max: f64,
        factor: f64,
        offset: u32,
    ) -> Result<u64> {
        if !(min <= value && value <= max) {
            return Err(crate::float::float_range_error(
                self.bit_pos() + u64::from(offset),
                value.to_bits(),
                min.to_bits(),
                max.to_bits(),
            ));
        }
        // In `0.5..=steps + 0.5`, non-negative, so truncating is `floor`; the compiler
        // proves factors only for grids of at most 2^12 steps, so converting through
        // `i64` gives the same integer with fewer instructions than `as u64` (no
        // unsigned fix-up on x86-64).
        Ok(((value - min) * factor + 0.5) as i64 as u64)
    }
}

impl BitReader<'_> {
    /// Reads an `iN` (`bits` = N) and sign-extends it.
    #[inline(always)]
    pub fn read_int(&mut self, bits: u32) -> Result<i64> {
        Ok(sign_extend(self.read_bits(bits)?, bits))
    }

    /// Reads an `f32`; a non-canonical NaN is `NonCanonical` at the value.
    #[inline(always)]
    pub fn read_f32(&mut self) -> Result<f32> {
        let at = self.bit_pos();
        f32_from_wire(self.read_bits(32)?, at)
    }

    /// Reads an `f64`; a non-canonical NaN is `NonCanonical` at the value.
    #[inline(always)]
    pub fn read_f64(&mut self) -> Result<f64> {
        let at = self.bit_pos();
        f64_from_wire(self.read_bits(64)?, at)
    }

    /// Fills `out` with bytes read as consecutive `u8` values (a `[u8; N]`).
    #[inline]
    pub fn read_byte_array(&mut self, out: &mut [u8]) -> Result<()> {
        self.check_byte_array(out.len())?;
        self.fill_bytes(out);
        Ok(())
    }

    /// Skips the `len` bytes of a `[u8; N]`, failing as [`Self::read_byte_array`] does.
    #[inline]
    pub fn skip_byte_array(&mut self, len: usize) -> Result<()> {
        self.check_byte_array(len)?;
        self.skip_bits(len as u64 * 8)
    }

    /// An array has no length to check first (spec §5.5): when the input ends inside it,
    /// the error is `Truncated` at the first incomplete element, path `[i]`, as reading
    /// one `u8` at a time would report.
    #[inline]
    fn check_byte_array(&self, len: usize) -> Result<()> {
        let left = self.remaining_bits();
        if (len as u64).saturating_mul(8) > left {
            let i = left / 8;
            let e = Error::truncated(self.bit_pos() + i * 8, 8, left % 8);
            return Err(e.at_index(i as usize));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;
    use alloc::vec::Vec;

    #[test]
    fn signed_float_and_quantized_round_trip() {
        let mut buf = Vec::new();
        let mut w = BitWriter::new(&mut buf);
        w.write_int(-3, 4);
        w.write_f32(f32::NAN);
        w.write_f64(-0.0);
        let q = w.quantize(0.5, 0.0, 1.0, 255, 0).unwrap();
        w.write_bits(q, 8);
        let e = w.quantize(1.5, 0.0, 1.0, 255, 2).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::OutOfRange, 110));
        w.finish();

        let mut r = BitReader::new(&buf);
        assert_eq!(r.read_int(4).unwrap(), -3);
        assert!(r.read_f32().unwrap().is_nan());
        assert_eq!(r.read_f64().unwrap().to_bits(), (-0.0f64).to_bits());
        assert_eq!(r.read_bits(8).unwrap(), 128);
    }

    #[test]
    fn non_canonical_nan_is_reported_at_the_value() {
        let mut buf = Vec::new();
        let mut w = BitWriter::new(&mut buf);
        w.write_bits(0, 3);
        w.write_bits(0x7FC0_0001, 32);
        w.finish();
        let mut r = BitReader::new(&buf);
        r.read_bits(3).unwrap();
        let e = r.read_f32().unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::NonCanonical, 3));
    }
}
