//! The trait every generated type implements, and the top-level encode/decode
//! functions (spec §2) behind its provided `encode` / `decode` / `verify` methods.

use alloc::vec::Vec;

use alloc::boxed::Box;

use crate::{BitReader, BitWriter, Limits, Result};

/// A type with a packed encoding. Generated code implements it for every named
/// type (struct, message, enum, union): the constants and the three building blocks
/// [`write`](Packed::write), [`read`](Packed::read) and [`check`](Packed::check).
/// Everything a caller uses — [`encode`](Packed::encode),
/// [`decode`](Packed::decode), [`verify`](Packed::verify) and their variants — is
/// provided here, once, on top of them; bring the trait into scope to call them
/// (`use bitwire::Packed;`), as with `std::io::Write`.
///
/// ```
/// use bitwire::{BitReader, BitWriter, ErrorKind, Packed, Result};
///
/// /// A hand-written `u4`, refusing 16 and above.
/// #[derive(Debug, PartialEq)]
/// struct Nibble(u8);
///
/// impl Packed for Nibble {
///     const MIN_BITS: u64 = 4;
///     const MAX_BITS: Option<u64> = Some(4);
///
///     fn write(&self, w: &mut BitWriter<'_>) -> Result<()> {
///         if self.0 > 15 {
///             return Err(w.range_error(0, self.0.into(), 0, 15));
///         }
///         w.write_bits(self.0.into(), 4);
///         Ok(())
///     }
///
///     fn read(r: &mut BitReader<'_>) -> Result<Self> {
///         Ok(Nibble(r.read_bits(4)? as u8))
///     }
/// }
///
/// let bytes = Nibble(9).encode_to_vec()?;
/// assert_eq!(bytes, [0x09]);
/// assert_eq!(Nibble::decode(&bytes)?, Nibble(9));
/// assert_eq!(Nibble::decode(&[0x19]).unwrap_err().kind(), ErrorKind::InvalidPadding);
/// assert_eq!(Nibble(16).encode_to_vec().unwrap_err().to_string(), "OutOfRange at bit 0: 16 not in 0..=15");
/// # Ok::<(), bitwire::Error>(())
/// ```
pub trait Packed: Sized {
    /// Fewest bits any value encodes to (spec §6.1).
    const MIN_BITS: u64;
    /// Most bits any value encodes to, or `None` when the type holds an unbounded
    /// list, string or bytes value.
    const MAX_BITS: Option<u64>;

    /// Writes the value's bit stream (no padding) at the writer's position. On error
    /// the writer may hold part of the value; [`Packed::encode`] rolls it back.
    fn write(&self, w: &mut BitWriter<'_>) -> Result<()>;

    /// Reads a value at the reader's position.
    fn read(r: &mut BitReader<'_>) -> Result<Self>;

    /// Checks a value at the reader's position without building it, leaving the reader
    /// where [`Packed::read`] would and failing with exactly the error `read` would
    /// give. Generated code implements it with a checker that allocates nothing; the
    /// default, for hand-written types, reads the value and drops it.
    #[inline]
    fn check(r: &mut BitReader<'_>) -> Result<()> {
        Self::read(r).map(drop)
    }

    /// Appends the top-level encoding (spec §2.1: the bit stream padded with zero
    /// bits to a byte) to `out` and returns the number of bytes written. Reuse `out`
    /// (`out.clear()`) and encoding allocates nothing once it has grown. On error `out`
    /// is left as it was. See [`encode_packed`].
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) -> Result<usize> {
        encode_packed(self, out)
    }

    /// The top-level encoding in a new vector.
    #[inline]
    fn encode_to_vec(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        encode_packed(self, &mut out)?;
        Ok(out)
    }

    /// Decodes a top-level value from the whole of `bytes` (spec §2.2: zero padding,
    /// no trailing bytes), with the default decode budget. See [`decode_packed`].
    #[inline]
    fn decode(bytes: &[u8]) -> Result<Self> {
        decode_packed(bytes)
    }

    /// [`Packed::decode`] with the decode budget of `limits` (spec §11).
    #[inline]
    fn decode_with(bytes: &[u8], limits: &Limits) -> Result<Self> {
        decode_packed_with(bytes, limits)
    }

    /// Checks that `bytes` is a valid top-level encoding without building the value
    /// (for generated types, without allocating): `Ok(())` exactly when
    /// [`Packed::decode`] succeeds, else the same error. See [`verify_packed`].
    #[inline]
    fn verify(bytes: &[u8]) -> Result<()> {
        verify_packed::<Self>(bytes)
    }

    /// [`Packed::verify`] with the decode budget of `limits`: it fails exactly when
    /// [`Packed::decode_with`] does with the same limits.
    #[inline]
    fn verify_with(bytes: &[u8], limits: &Limits) -> Result<()> {
        verify_packed_with::<Self>(bytes, limits)
    }
}

/// Appends the top-level encoding of `value` (spec §2.1: the bit stream padded with
/// zero bits to a byte boundary) to `out` and returns the number of bytes written.
/// On error `out` is truncated back to its original length, so a reused buffer never
/// holds half a message.
#[inline]
pub fn encode_packed<T: Packed>(value: &T, out: &mut Vec<u8>) -> Result<usize> {
    let len = out.len();
    let mut w = BitWriter::new(out);
    match value.write(&mut w) {
        Ok(()) => Ok(w.finish()),
        Err(e) => {
            out.truncate(len);
            Err(e)
        }
    }
}

/// Decodes a top-level value from the whole of `bytes` (spec §2.2): the padding after
/// the value must be zero and nothing may follow it.
#[inline]
pub fn decode_packed<T: Packed>(bytes: &[u8]) -> Result<T> {
    decode_packed_with(bytes, &Limits::DEFAULT)
}

/// [`decode_packed`] with the decode budget of `limits` (spec §11) instead of the
/// default one.
#[inline]
pub fn decode_packed_with<T: Packed>(bytes: &[u8], limits: &Limits) -> Result<T> {
    let mut r = BitReader::with_limits(bytes, limits);
    let value = T::read(&mut r)?;
    finish_top_level(&mut r)?;
    Ok(value)
}

/// Checks that the whole of `bytes` is a valid top-level encoding of a `T` without
/// building the value (with generated types, without allocating): `Ok(())` exactly
/// when [`decode_packed`] would succeed, and otherwise the same error (kind, bit,
/// path). For checking untrusted input before storing or forwarding it.
#[inline]
pub fn verify_packed<T: Packed>(bytes: &[u8]) -> Result<()> {
    verify_packed_with::<T>(bytes, &Limits::DEFAULT)
}

/// [`verify_packed`] with the decode budget of `limits`: it fails exactly when
/// [`decode_packed_with`] does with the same limits.
#[inline]
pub fn verify_packed_with<T: Packed>(bytes: &[u8], limits: &Limits) -> Result<()> {
    let mut r = BitReader::with_limits(bytes, limits);
    T::check(&mut r)?;
    finish_top_level(&mut r)
}

/// The end of a top-level value (spec §2.2): zero padding, no bytes after it. The
/// checks of `BitReader::finish`, on the borrowed reader: moving the reader into
/// `finish` costs a store-forwarding stall that doubled the decode time of a 64-bit
/// message (measured on packet64).
#[inline(always)]
fn finish_top_level(r: &mut BitReader<'_>) -> Result<()> {
    let end = r.bit_pos();
    let pad = ((8 - (end & 7)) & 7) as u32;
    if pad != 0 {
        let value = r.read_bits(pad)?;
        if value != 0 {
            return Err(crate::reader::invalid_padding(end, value, pad));
        }
    }
    let left = r.remaining_bits();
    if left != 0 {
        return Err(crate::reader::trailing_data(
            end + u64::from(pad),
            ((end + u64::from(pad) + left) / 8) as usize,
        ));
    }
    Ok(())
}

/// Converts the elements of a fixed array `[T; N]`, collected by a generated decoder,
/// into the array. Generated code always passes exactly `N` elements.
///
/// # Panics
///
/// If `items` does not hold exactly `N` elements (a bug in the generated code).
#[inline]
pub fn array_from_vec<T, const N: usize>(items: Vec<T>) -> [T; N] {
    match items.try_into() {
        Ok(array) => array,
        Err(items) => panic!("array of {N} built from {} elements", items.len()),
    }
}

/// A heap array of `N` copies of `value`, built on the heap (a large array made on the
/// stack first could overflow it): generated code holds arrays the memory model puts
/// out of line (spec §11) in a `Box`.
pub fn boxed_array<T: Clone, const N: usize>(value: T) -> Box<[T; N]> {
    boxed_array_from_vec(alloc::vec![value; N])
}

/// The heap array of exactly `N` decoded `items`.
pub fn boxed_array_from_vec<T, const N: usize>(items: Vec<T>) -> Box<[T; N]> {
    match items.into_boxed_slice().try_into() {
        Ok(array) => array,
        Err(items) => panic!("array of {N} built from {} elements", items.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Error, ErrorKind};
    use alloc::vec;

    /// A hand-written `{ flag: bool, n: u4 }` that refuses `n > 15`.
    #[derive(Debug, PartialEq)]
    struct Small {
        flag: bool,
        n: u8,
    }

    impl Packed for Small {
        const MIN_BITS: u64 = 5;
        const MAX_BITS: Option<u64> = Some(5);

        fn write(&self, w: &mut BitWriter<'_>) -> Result<()> {
            if self.n > 15 {
                return Err(w.error(ErrorKind::OutOfRange, 1));
            }
            w.write_bits(u64::from(self.flag) | u64::from(self.n) << 1, 5);
            Ok(())
        }

        fn read(r: &mut BitReader<'_>) -> Result<Self> {
            let c = r.read_chunk(5);
            Ok(Small {
                flag: c.get(0, 1)? != 0,
                n: c.get(1, 4)? as u8,
            })
        }
    }

    #[test]
    fn encode_appends_and_rolls_back() {
        let mut out = vec![0xEE];
        let n = encode_packed(&Small { flag: true, n: 5 }, &mut out).unwrap();
        assert_eq!((n, out.as_slice()), (1, &[0xEE, 0x0B][..]));
        let e: Error = encode_packed(&Small { flag: true, n: 16 }, &mut out).unwrap_err();
        assert_eq!((e.kind(), e.bit()), (ErrorKind::OutOfRange, 1));
        assert_eq!(
            out,
            [0xEE, 0x0B],
            "failed encode leaves the buffer as it was"
        );
    }

    #[test]
    fn decode_checks_padding_and_trailing_bytes() {
        assert_eq!(
            decode_packed::<Small>(&[0x0B]).unwrap(),
            Small { flag: true, n: 5 }
        );
        let e = decode_packed::<Small>(&[0x2B]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidPadding);
        let e = decode_packed::<Small>(&[0x0B, 0]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::TrailingData);
    }

    #[test]
    fn verify_agrees_with_decode() {
        for bytes in [&[0x0B][..], &[0x2B], &[0x0B, 0], &[], &[0xff, 0xff]] {
            assert_eq!(
                verify_packed::<Small>(bytes),
                decode_packed::<Small>(bytes).map(drop),
                "{bytes:?}"
            );
        }
    }
}
