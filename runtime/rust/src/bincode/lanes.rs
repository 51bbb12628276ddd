//! Bulk copies of number slices (spec §13.8): a `list<u64>` or `[f32; N]` is, on the
//! bincode wire, the little-endian bytes of the slice one after the other, so on a
//! little-endian host encoding is one `extend_from_slice` of the slice's bytes and
//! decoding one `copy_from_slice` into the destination's bytes. The byte views come
//! from `bytemuck` (this crate stays `#![forbid(unsafe_code)]`); a big-endian host
//! converts value by value with `to_le_bytes` / `from_le_bytes`, the same bytes.

use alloc::vec::Vec;

mod sealed {
    /// Only the number types below are lanes.
    pub trait Sealed {}
}

/// A number type whose bincode form is its own little-endian bytes, which the
/// runtime moves in bulk: `u8`…`u64`, `i8`…`i64`, `f32`, `f64` (spec §13.8). Sealed;
/// generated code names it only through the [`ByteReader`](super::ByteReader) and
/// [`ByteWriter`](super::ByteWriter) methods that take it.
pub trait Lane: Copy + Default + sealed::Sealed {
    /// Bytes of one value on the wire (and in memory).
    const BYTES: usize;

    /// Appends the little-endian bytes of `values` to `out`.
    #[doc(hidden)]
    fn extend(out: &mut Vec<u8>, values: &[Self]);

    /// Fills `out` from `bytes`, which hold exactly `out.len() * BYTES` bytes.
    #[doc(hidden)]
    fn fill(out: &mut [Self], bytes: &[u8]);
}

macro_rules! lanes {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}

        impl Lane for $t {
            const BYTES: usize = core::mem::size_of::<$t>();

            #[inline]
            fn extend(out: &mut Vec<u8>, values: &[Self]) {
                #[cfg(target_endian = "little")]
                out.extend_from_slice(bytemuck::cast_slice::<$t, u8>(values));
                #[cfg(not(target_endian = "little"))]
                each::extend(out, values, <$t>::to_le_bytes);
            }

            #[inline]
            fn fill(out: &mut [Self], bytes: &[u8]) {
                #[cfg(target_endian = "little")]
                bytemuck::cast_slice_mut::<$t, u8>(out).copy_from_slice(bytes);
                #[cfg(not(target_endian = "little"))]
                each::fill(out, bytes, <$t>::from_le_bytes);
            }
        }
    )*};
}

lanes!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

/// The value-by-value forms, used on big-endian hosts and compiled everywhere so
/// that the tests run them.
#[cfg_attr(target_endian = "little", allow(dead_code))]
pub(crate) mod each {
    use alloc::vec::Vec;

    /// Appends `to_le(v)` of every value.
    #[inline]
    pub(crate) fn extend<T: Copy, const N: usize>(
        out: &mut Vec<u8>,
        values: &[T],
        to_le: fn(T) -> [u8; N],
    ) {
        out.reserve(values.len() * N);
        for &v in values {
            out.extend_from_slice(&to_le(v));
        }
    }

    /// Fills `out` with `from_le` of each `N`-byte chunk of `bytes`.
    #[inline]
    pub(crate) fn fill<T, const N: usize>(out: &mut [T], bytes: &[u8], from_le: fn([u8; N]) -> T) {
        debug_assert_eq!(bytes.len(), out.len() * N);
        for (d, c) in out.iter_mut().zip(bytes.chunks_exact(N)) {
            let mut b = [0u8; N];
            b.copy_from_slice(c);
            *d = from_le(b);
        }
    }
}

/// Makes `v` exactly `len` elements long for [`Lane::fill`] to overwrite, reusing its
/// capacity: elements it already has are kept (they are all overwritten), only new
/// ones are zeroed, so decoding into a vector of the right length writes each byte
/// once. A vector that must grow grows to exactly `len` (not the doubling of a push),
/// so it never holds more than the decode budget charged for it (spec §11.5).
#[inline]
pub(crate) fn set_len<T: Lane>(v: &mut Vec<T>, len: usize) {
    if v.len() >= len {
        v.truncate(len);
    } else {
        v.reserve_exact(len - v.len());
        v.resize(len, T::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn bulk_and_value_by_value_give_the_same_bytes() {
        let values = [1u64, 0x0102_0304_0506_0708, u64::MAX];
        let mut bulk = vec![0xEE];
        u64::extend(&mut bulk, &values);
        let mut each = vec![0xEE];
        each::extend(&mut each, &values, u64::to_le_bytes);
        assert_eq!(bulk, each);
        assert_eq!(&bulk[9..17], &[8, 7, 6, 5, 4, 3, 2, 1]);

        let floats = [1.5f32, -0.0, f32::from_bits(0x7fc0_0001)];
        let mut bytes = Vec::new();
        f32::extend(&mut bytes, &floats);
        assert_eq!(&bytes[..4], &[0x00, 0x00, 0xc0, 0x3f]);
        assert_eq!(&bytes[8..], &[0x01, 0x00, 0xc0, 0x7f], "NaN payload kept");
        let mut back = [0f32; 3];
        f32::fill(&mut back, &bytes);
        let mut back_each = [0f32; 3];
        each::fill(&mut back_each, &bytes, f32::from_le_bytes);
        for ((a, b), c) in back.iter().zip(&back_each).zip(&floats) {
            assert_eq!((a.to_bits(), b.to_bits()), (c.to_bits(), c.to_bits()));
        }
    }

    #[test]
    fn fill_reads_unaligned_bytes() {
        let wire: Vec<u8> = (0u8..33).collect();
        let mut out = [0u32; 8];
        u32::fill(&mut out, &wire[1..]);
        assert_eq!(out[0], u32::from_le_bytes([1, 2, 3, 4]));
        assert_eq!(out[7], u32::from_le_bytes([29, 30, 31, 32]));
        let mut signed = [0i16; 2];
        i16::fill(&mut signed, &[0xfe, 0xff, 0x00, 0x80]);
        assert_eq!(signed, [-2, i16::MIN]);
    }

    #[test]
    fn set_len_keeps_capacity_and_zeroes_only_new_elements() {
        let mut v: Vec<u16> = Vec::with_capacity(16);
        v.extend([7, 7, 7]);
        let cap = v.capacity();
        set_len(&mut v, 5);
        assert_eq!(v, [7, 7, 7, 0, 0]);
        let mut small: Vec<u64> = Vec::with_capacity(100);
        set_len(&mut small, 150);
        assert_eq!(small.capacity(), 150, "grown exactly, not doubled");
        set_len(&mut v, 2);
        assert_eq!(v, [7, 7]);
        assert_eq!(v.capacity(), cap);
    }
}
