//! The **test codec** of testdata/vectors/envelope/README.md: a list of at most 255
//! `u32`, whose "delta" is each value's difference from the baseline's. It only stands in
//! for a generated `delta message` in the tests of the baseline rings (spec §12 is the
//! real delta encoding); the same codec exists in the Go and TypeScript tests.

use bitwire::{BitReader, BitWriter, Delta, Packed, Result};

/// Test codec: a list of `u32`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct U32List(pub Vec<u32>);

impl Packed for U32List {
    const MIN_BITS: u64 = 8;
    const MAX_BITS: Option<u64> = Some(8 + 255 * 32);

    fn write(&self, w: &mut BitWriter<'_>) -> Result<()> {
        if self.0.len() > 255 {
            return Err(w.length_error(0, self.0.len(), 255));
        }
        w.write_bits(self.0.len() as u64, 8);
        for &v in &self.0 {
            w.write_bits(v.into(), 32);
        }
        Ok(())
    }

    fn read(r: &mut BitReader<'_>) -> Result<Self> {
        let len = r.read_bits(8)? as usize;
        let mut values = Vec::with_capacity(len);
        for _ in 0..len {
            values.push(r.read_bits(32)? as u32);
        }
        Ok(U32List(values))
    }
}

impl Delta for U32List {
    fn write_delta(&self, baseline: &Self, w: &mut BitWriter<'_>) -> Result<()> {
        let at = |i: usize| baseline.0.get(i).copied().unwrap_or(0);
        let diffs = self.0.iter().enumerate();
        U32List(diffs.map(|(i, v)| v.wrapping_sub(at(i))).collect()).write(w)
    }

    fn read_delta(baseline: &Self, r: &mut BitReader<'_>) -> Result<Self> {
        let at = |i: usize| baseline.0.get(i).copied().unwrap_or(0);
        let diffs = U32List::read(r)?.0.into_iter().enumerate();
        Ok(U32List(diffs.map(|(i, d)| d.wrapping_add(at(i))).collect()))
    }
}
