//! The delta encoding (spec §12): a value encoded against a baseline the receiver
//! already holds. Unchanged fields cost one changed bit, changed scalars the difference
//! code of their wire values (§12.4), keyed lists a run of events over the baseline and
//! the added elements (§12.5).
//!
//! Generated code implements [`Delta`] for every `delta message` and prints the struct
//! rows; the codes and the keyed list walk are here, once: [`BitWriter::write_diff`],
//! [`BitReader::read_diff`], the Exp-Golomb code ([`BitWriter::write_golomb`],
//! [`BitReader::read_golomb`]), [`write_keyed_delta`] and [`read_keyed_delta`].

use alloc::vec::Vec;

use crate::error::Detail;
use crate::limits::charge;
use crate::reader::Chunk;
use crate::{BitReader, BitWriter, Error, ErrorKind, Limits, Packed, Result, ResultExt};

/// Most leading zero bits of a keyed list's added count (spec §12.5).
pub const MAX_COUNT_ZEROS: u32 = 63;

/// `bits_for(n)` of spec §1.3.
#[inline(always)]
const fn bits_for(n: u64) -> u32 {
    64 - n.leading_zeros()
}

/// The low `width` bits set.
#[inline(always)]
const fn low_mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// A value that can be sent as a delta against a baseline the peer holds (spec §12):
/// generated code implements it for every `delta message`, with the two building
/// blocks [`write_delta`](Delta::write_delta) and [`read_delta`](Delta::read_delta).
/// What callers use is provided, as for [`Packed`]: bring the trait into scope
/// (`use bitwire::Delta;`).
///
/// ```ignore
/// let bytes = current.encode_delta_to_vec(&acked)?; // against the acknowledged one
/// let next = World::decode_delta(&acked, &bytes)?;  // the receiver holds `acked` too
/// assert_eq!(next, current);
/// ```
pub trait Delta: Packed {
    /// Writes the delta of `self` against `baseline` (no padding) at the writer's
    /// position. On error the writer may hold part of it; [`Delta::encode_delta`]
    /// rolls it back. Errors name a kind and a path, and bit 0 (spec §12.7).
    fn write_delta(&self, baseline: &Self, w: &mut BitWriter<'_>) -> Result<()>;

    /// Reads a delta against `baseline` at the reader's position: the value.
    fn read_delta(baseline: &Self, r: &mut BitReader<'_>) -> Result<Self>;

    /// Checks a delta against `baseline` at the reader's position, failing exactly when
    /// [`Delta::read_delta`] does. Decodes and drops the value: a delta copies the
    /// baseline's unchanged parts and has to compare replaced ones with it, so a check
    /// that builds nothing would not be much cheaper.
    #[inline]
    fn check_delta(baseline: &Self, r: &mut BitReader<'_>) -> Result<()> {
        Self::read_delta(baseline, r).map(drop)
    }

    /// Appends the delta of `self` against `baseline`, padded with zero bits to a byte
    /// (spec §12.3), to `out` and returns the number of bytes written. On error `out` is
    /// left as it was. A value equal to its baseline takes `ceil(k / 8)` zero bytes, `k`
    /// the number of fields that can change.
    fn encode_delta(&self, baseline: &Self, out: &mut Vec<u8>) -> Result<usize> {
        let len = out.len();
        let mut w = BitWriter::new(out);
        match self.write_delta(baseline, &mut w) {
            Ok(()) => Ok(w.finish()),
            Err(e) => {
                out.truncate(len);
                Err(e)
            }
        }
    }

    /// [`Delta::encode_delta`] into a new vector.
    fn encode_delta_to_vec(&self, baseline: &Self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_delta(baseline, &mut out)?;
        Ok(out)
    }

    /// Decodes the whole of `bytes` as a delta against `baseline` (zero padding, no
    /// trailing bytes, spec §2.2), with the default decode budget for its length.
    fn decode_delta(baseline: &Self, bytes: &[u8]) -> Result<Self> {
        Self::decode_delta_with(baseline, bytes, &Limits::DEFAULT)
    }

    /// [`Delta::decode_delta`] with the decode budget of `limits` (spec §12.8).
    fn decode_delta_with(baseline: &Self, bytes: &[u8], limits: &Limits) -> Result<Self> {
        let mut r = BitReader::with_limits(bytes, limits);
        let value = Self::read_delta(baseline, &mut r)?;
        r.finish()?;
        Ok(value)
    }

    /// Checks that `bytes` is a valid delta against `baseline`: `Ok(())` exactly when
    /// [`Delta::decode_delta`] succeeds, else the same error.
    fn verify_delta(baseline: &Self, bytes: &[u8]) -> Result<()> {
        Self::verify_delta_with(baseline, bytes, &Limits::DEFAULT)
    }

    /// [`Delta::verify_delta`] with the decode budget of `limits`.
    fn verify_delta_with(baseline: &Self, bytes: &[u8], limits: &Limits) -> Result<()> {
        let mut r = BitReader::with_limits(bytes, limits);
        Self::check_delta(baseline, &mut r)?;
        r.finish()
    }
}

impl BitWriter<'_> {
    /// Writes the difference code (spec §12.4) of a scalar of `width` wire bits that
    /// changed from `base` to `value` (both below `2^width`, and different):
    /// the zigzag `z` of `value - base` in `width` bits, as `n - 1 = bits_for(z) - 1`
    /// in `prefix_bits` (`bits_for(width - 1)`) bits, then the low `n - 1` bits of `z`.
    #[inline]
    pub fn write_diff(&mut self, base: u64, value: u64, width: u32, prefix_bits: u32) {
        debug_assert!((1..=64).contains(&width));
        debug_assert_eq!(prefix_bits, bits_for(u64::from(width) - 1));
        debug_assert_ne!(base, value);
        let mask = low_mask(width);
        let s = crate::sign_extend(value.wrapping_sub(base) & mask, width);
        let z = ((s << 1) ^ (s >> 63)) as u64 & mask;
        let m = bits_for(z) - 1;
        self.write_bits(u64::from(m), prefix_bits);
        self.write_bits(z & low_mask(m), m);
    }

    /// Writes a scalar's changed bit and, when `value` differs from `base`, its
    /// difference code ([`BitWriter::write_diff`]). Returns whether it changed.
    #[inline]
    pub fn write_scalar_delta(
        &mut self,
        base: u64,
        value: u64,
        width: u32,
        prefix_bits: u32,
    ) -> bool {
        if base == value {
            self.write_bool(false);
            return false;
        }
        self.write_bool(true);
        self.write_diff(base, value, width, prefix_bits);
        true
    }

    /// Writes `x` in the Exp-Golomb code of spec §12.5: with `k = bits_for(x + 1) - 1`,
    /// `k` zero bits, a one bit, then `x + 1 - 2^k` in `k` bits.
    #[inline(always)]
    pub fn write_golomb(&mut self, x: u64) {
        if x < u64::from(u32::MAX) {
            // `2k + 1 <= 63` bits: one write.
            let (code, bits) = golomb_code(x);
            self.write_bits(code, bits);
        } else {
            self.write_long_golomb(x);
        }
    }

    /// [`BitWriter::write_golomb`] of `x >= 2^32 - 1`.
    #[cold]
    fn write_long_golomb(&mut self, x: u64) {
        let x1 = u128::from(x) + 1;
        let k = 127 - x1.leading_zeros();
        if k == 64 {
            // x = 2^64 - 1: no list is that long, but the code exists.
            self.write_bits(0, 64);
            self.write_bits(1, 1);
            self.write_bits(0, 64);
            return;
        }
        self.write_bits(1u64 << k, k + 1);
        self.write_bits((x1 - (1u128 << k)) as u64, k);
    }

    /// Writes a keyed list event (spec §12.5): the gap `gap` in Exp-Golomb code, then
    /// the op bit (`removed`: 1, changed: 0).
    #[inline(always)]
    pub fn write_event(&mut self, gap: u64, removed: bool) {
        if gap < u64::from(u32::MAX >> 1) {
            let (code, bits) = golomb_code(gap);
            self.write_bits(code | u64::from(removed) << bits, bits + 1);
        } else {
            self.write_long_golomb(gap);
            self.write_bool(removed);
        }
    }
}

/// The Exp-Golomb code of `x < 2^32 - 1` as bits to write and their number (at most 63).
#[inline(always)]
fn golomb_code(x: u64) -> (u64, u32) {
    let x1 = x + 1;
    let k = 63 - x1.leading_zeros();
    // `k` zeros, the one bit, then the `k` bits below it.
    ((1u64 << k) | ((x1 - (1u64 << k)) << (k + 1)), 2 * k + 1)
}

impl BitReader<'_> {
    /// Reads a difference code (spec §12.4) of a scalar of `width` wire bits whose
    /// baseline wire value is `base`, and returns the new wire value as a chunk of
    /// `width` bits that starts at the code: the full decoder's checks then report
    /// their errors at the code's first bit, as §12.4 requires. `Truncated` and
    /// `OutOfRange` (a length prefix of `width` or more) are at that bit too.
    #[inline]
    pub fn read_diff(&mut self, base: u64, width: u32, prefix_bits: u32) -> Result<Chunk> {
        debug_assert!((1..=64).contains(&width));
        let start = self.bit_pos();
        let left = self.remaining_bits();
        if u64::from(prefix_bits) > left {
            return Err(Error::truncated(start, u64::from(prefix_bits), left));
        }
        let m = self.read_bits(prefix_bits)?;
        if m >= u64::from(width) {
            return Err(Error::out_of_range(
                start,
                i128::from(m),
                0,
                i128::from(width) - 1,
            ));
        }
        let m = m as u32;
        if u64::from(m) > self.remaining_bits() {
            let need = u64::from(prefix_bits + m);
            return Err(Error::truncated(start, need, left));
        }
        let z = (1u64 << m) | self.read_bits(m)?;
        let s = (z >> 1) ^ 0u64.wrapping_sub(z & 1);
        let u = base.wrapping_add(s) & low_mask(width);
        Ok(Chunk::new(u, width, start))
    }

    /// Reads an Exp-Golomb code (spec §12.5) with at most `max_zeros` (at most 63)
    /// leading zero bits: `OutOfRange` at the code when a zero bit follows the last
    /// one allowed, `Truncated` there when the input ends first.
    #[inline]
    pub fn read_golomb(&mut self, max_zeros: u32) -> Result<u64> {
        debug_assert!(max_zeros <= MAX_COUNT_ZEROS);
        let start = self.bit_pos();
        let left = self.remaining_bits();
        let avail = left.min(64) as u32;
        // Bits past the end of the input load as zeros: only the first `avail` count.
        let tz = self.peek_at(start).trailing_zeros();
        let zeros = if tz < avail && tz <= max_zeros {
            tz
        } else if max_zeros < avail {
            return Err(Error::out_of_range(
                start,
                i128::from(tz.min(max_zeros + 1)),
                0,
                i128::from(max_zeros),
            ));
        } else {
            return Err(Error::truncated(start, u64::from(avail) + 1, left));
        };
        let need = u64::from(2 * zeros + 1);
        if need > left {
            return Err(Error::truncated(start, need, left));
        }
        self.read_bits(zeros + 1)?;
        let rest = self.read_bits(zeros)?;
        Ok((1u64 << zeros) - 1 + rest)
    }

    /// Whether the bits read from stream bit `from` up to the current position are the
    /// first `bits` bits of `encoding` (a value written by a [`BitWriter`]): a delta's
    /// replaced value must differ from the baseline's (spec §12.6).
    pub fn same_bits_since(&self, from: u64, encoding: &[u8], bits: u64) -> bool {
        if self.bit_pos().checked_sub(from) != Some(bits) || encoding.len() as u64 * 8 < bits {
            return false;
        }
        let other = BitReader::new(encoding);
        let mut done = 0;
        while done < bits {
            let n = (bits - done).min(64) as u32;
            let mask = low_mask(n);
            if self.peek_at(from + done) & mask != other.peek_at(done) & mask {
                return false;
            }
            done += u64::from(n);
        }
        true
    }
}

/// What the decoder of a keyed list checks and charges (spec §12.5, §12.8), from the
/// codec plan: the list's `max`, the fewest bits of an element, and the decode budget
/// charge per element of the decoded list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeyedList {
    /// The list's `max`, if it has one.
    pub max: Option<u64>,
    /// Fewest bits an element encodes to (`Truncated` when the added ones cannot fit).
    pub elem_min_bits: u64,
    /// Budget charge per element (its memory footprint, spec §11.2).
    pub charge_per_elem: u64,
}

impl KeyedList {
    /// The plan of a keyed list: its `max`, the fewest bits of an element, and the
    /// budget charge per element.
    pub const fn new(max: Option<u64>, elem_min_bits: u64, charge_per_elem: u64) -> KeyedList {
        KeyedList {
            max,
            elem_min_bits,
            charge_per_elem,
        }
    }
}

/// Whether the keys of `list` are strictly ascending (spec §12.1).
fn ascending<T, K: Ord>(list: &[T], key: &impl Fn(&T) -> K) -> bool {
    list.windows(2).all(|pair| key(&pair[0]) < key(&pair[1]))
}

#[cold]
#[inline(never)]
fn invalid_key(bit: u64) -> Error {
    Error::new(ErrorKind::InvalidKey, bit)
}

/// Whether two lists of a keyed list that are not both in key order have the same full
/// encoding (then the list is unchanged, §12.2); writes each element pair, compares
/// and takes them back. Errors are the full encoder's.
fn same_encodings<T>(
    w: &mut BitWriter<'_>,
    base: &[T],
    cur: &[T],
    full: &mut impl FnMut(&T, &mut BitWriter<'_>) -> Result<()>,
) -> Result<bool> {
    if base.len() != cur.len() {
        return Ok(false);
    }
    for (i, (b, c)) in base.iter().zip(cur).enumerate() {
        let a = w.mark();
        full(b, w).at_index(i)?;
        let m = w.mark();
        full(c, w).at_index(i)?;
        let same = w.same_bits(a, m);
        w.rewind(a);
        if !same {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Writes the keyed list delta (spec §12.5) of `cur` against `base`, after the list's
/// changed bit: events over the baseline (gaps of unchanged elements in Exp-Golomb,
/// then an op bit: 0 and the element's `row`, or 1 for removed), then the count of
/// added elements and their `full` encodings, ascending by key. Returns whether
/// anything was written that the receiver needs (an event or an added element): when
/// not, the list is unchanged and the caller takes the bits back.
///
/// `row(base, cur, w)` writes a kept element's struct row without its key and returns
/// whether any field changed; `full` is the element's full encoder. Every element of
/// both lists is checked on the way as the full encoder would (a removed one is
/// encoded and taken back). Lists longer than `list.max` are `InvalidLength`; lists
/// not strictly ascending by `key` are `InvalidKey`, unless both have the same full
/// encoding (an unchanged list is not a keyed list delta at all). Errors carry the
/// element's index and no useful bit: the caller reports encoder errors at bit 0.
pub fn write_keyed_delta<T, K: Ord + Copy>(
    w: &mut BitWriter<'_>,
    base: &[T],
    cur: &[T],
    list: &KeyedList,
    key: impl Fn(&T) -> K,
    mut row: impl FnMut(&T, &T, &mut BitWriter<'_>) -> Result<bool>,
    mut full: impl FnMut(&T, &mut BitWriter<'_>) -> Result<()>,
) -> Result<bool> {
    if let Some(max) = list.max {
        for l in [base, cur] {
            if l.len() as u64 > max {
                return Err(Error::invalid_length(0, l.len() as u64, max));
            }
        }
    }
    if !ascending(base, &key) || !ascending(cur, &key) {
        if same_encodings(w, base, cur, &mut full)? {
            return Ok(false);
        }
        return Err(invalid_key(0));
    }
    let (mut j, mut gap, mut kept, mut events) = (0, 0u64, 0, false);
    for (p, b) in base.iter().enumerate() {
        let kb = key(b);
        // Elements of `cur` before this key are added ones, written after the events.
        while j < cur.len() && key(&cur[j]) < kb {
            j += 1;
        }
        let mark = w.mark();
        if j < cur.len() && key(&cur[j]) == kb {
            w.write_event(gap, false);
            if row(b, &cur[j], w).at_index(p)? {
                gap = 0;
                events = true;
            } else {
                w.rewind(mark);
                gap += 1;
            }
            j += 1;
            kept += 1;
        } else {
            full(b, w).at_index(p)?;
            w.rewind(mark);
            w.write_event(gap, true);
            gap = 0;
            events = true;
        }
    }
    if gap > 0 {
        w.write_golomb(gap);
    }
    let added = cur.len() - kept;
    w.write_golomb(added as u64);
    if added > 0 {
        let (mut p, mut n) = (0, 0);
        for c in cur {
            let kc = key(c);
            while p < base.len() && key(&base[p]) < kc {
                p += 1;
            }
            if p < base.len() && key(&base[p]) == kc {
                continue;
            }
            full(c, w).at_index(n)?;
            n += 1;
        }
    }
    Ok(events || added > 0)
}

/// Reads a keyed list delta (spec §12.5) against `base`, after the list's changed
/// bit, with every check of §12.5 and the charge of §12.8 in stream order; returns the
/// decoded list: the kept elements (unchanged ones cloned from `base`, changed ones
/// from `row`) and the added ones (from `full`), merged by key.
///
/// `row(base, r)` reads a changed element's struct row without its key and returns
/// the element and whether any field changed. Errors inside an element carry its
/// index: the position in `base` for a changed one, among the added ones for an added
/// one. A `base` not strictly ascending by `key` is `InvalidKey` at bit 0 (§12.7).
pub fn read_keyed_delta<T: Clone, K: Ord + Copy>(
    r: &mut BitReader<'_>,
    base: &[T],
    list: &KeyedList,
    key: impl Fn(&T) -> K,
    mut row: impl FnMut(&T, &mut BitReader<'_>) -> Result<(T, bool)>,
    mut full: impl FnMut(&mut BitReader<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    if !ascending(base, &key) {
        return Err(invalid_key(0));
    }
    // The kept elements are copies of the baseline's, bounded by it: not charged.
    let mut kept: Vec<T> = Vec::with_capacity(base.len());
    let (mut p, mut events) = (0, 0u64);
    while p < base.len() {
        let start = r.bit_pos();
        let left = (base.len() - p) as u64;
        let gap = r.read_golomb(bits_for(left + 1) - 1)?;
        if gap > left {
            return Err(Error::out_of_range(
                start,
                i128::from(gap),
                0,
                i128::from(left),
            ));
        }
        let gap = gap as usize;
        kept.extend_from_slice(&base[p..p + gap]);
        p += gap;
        if p == base.len() {
            break;
        }
        events += 1;
        if !r.read_bool().at_index(p)? {
            let (v, any) = row(&base[p], r).at_index(p)?;
            if !any {
                return Err(r.error(ErrorKind::NonCanonical, 0).at_index(p));
            }
            kept.push(v);
        }
        p += 1;
    }
    let count_start = r.bit_pos();
    let added = r.read_golomb(MAX_COUNT_ZEROS)?;
    let total = u128::from(kept.len() as u64) + u128::from(added);
    if let Some(max) = list.max {
        if total > u128::from(max) {
            let len = u64::try_from(total).unwrap_or(u64::MAX);
            return Err(Error::invalid_length(count_start, len, max));
        }
    }
    let left = r.remaining_bits();
    if added
        .checked_mul(list.elem_min_bits)
        .is_none_or(|need| need > left)
    {
        let need = added.saturating_mul(list.elem_min_bits);
        return Err(Error::truncated(count_start, need, left));
    }
    // `added` is at most the bits left, so `total` fits in a u64.
    let total = total as u64;
    r.charge(charge(total, list.charge_per_elem), count_start)?;
    let Ok(total) = usize::try_from(total) else {
        let detail = Detail::Length {
            len: total,
            max: usize::MAX as u64,
        };
        return Err(Error::new(ErrorKind::LimitExceeded, count_start).with_detail(detail));
    };
    if events == 0 && added == 0 {
        return Err(r.error(ErrorKind::NonCanonical, 0));
    }
    let mut out = Vec::with_capacity(total);
    let mut kept = kept.into_iter().peekable();
    let mut last: Option<K> = None;
    for j in 0..added as usize {
        let start = r.bit_pos();
        let v = full(r).at_index(j)?;
        let k = key(&v);
        if last.is_some_and(|l| k <= l) || base.binary_search_by_key(&k, &key).is_ok() {
            return Err(invalid_key(start).at_index(j));
        }
        last = Some(k);
        while let Some(e) = kept.next_if(|e| key(e) < k) {
            out.push(e);
        }
        out.push(v);
    }
    out.extend(kept);
    Ok(out)
}

#[cfg(test)]
mod tests;
