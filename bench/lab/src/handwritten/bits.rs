//! A minimal LSB-first bit writer and reader (spec §1.1), plus the quantization and
//! varint helpers the hand-written codecs share.

/// Appends bits to a byte vector, least significant bit first.
pub struct Writer<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    n: u32,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out`.
    #[inline]
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        Writer { out, acc: 0, n: 0 }
    }

    /// Writes the low `bits` (at most 32) bits of `v`.
    #[inline]
    pub fn put(&mut self, v: u64, bits: u32) {
        debug_assert!(bits <= 32);
        self.acc |= (v & ((1u64 << bits) - 1)) << self.n;
        self.n += bits;
        if self.n >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// Writes one bit.
    #[inline]
    pub fn bit(&mut self, b: bool) {
        self.put(u64::from(b), 1);
    }

    /// Writes bytes, 8 bits each.
    #[inline]
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.put(u64::from(x), 8);
        }
    }

    /// Writes a prefix varint with 4-bit groups (spec §5.4) of a `width`-bit type.
    #[inline]
    pub fn varint(&mut self, v: u64, width: u32) {
        let gmax = width / 4;
        let groups = (64 - v.leading_zeros()).div_ceil(4).max(1);
        let ones = (1u64 << (groups - 1)) - 1;
        self.put(ones, if groups < gmax { groups } else { groups - 1 });
        let mut left = groups * 4;
        let mut v = v;
        while left > 0 {
            let take = left.min(32);
            self.put(v, take);
            v = v.checked_shr(take).unwrap_or(0);
            left -= take;
        }
    }

    /// Flushes the last partial byte (zero padding).
    #[inline]
    pub fn finish(self) {
        let bytes = self.n.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

/// Reads bits from a byte slice, least significant bit first.
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data`.
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Reader { data, pos: 0 }
    }

    /// Reads `bits` (at most 32) bits; `None` past the end of the input.
    #[inline]
    pub fn get(&mut self, bits: u32) -> Option<u64> {
        debug_assert!(bits <= 32);
        let end = self.pos + bits as usize;
        if end > self.data.len() * 8 {
            return None;
        }
        let byte = self.pos >> 3;
        let word = match self.data.get(byte..byte + 8) {
            Some(b) => u64::from_le_bytes(b.try_into().ok()?),
            None => {
                let mut buf = [0u8; 8];
                let tail = &self.data[byte..];
                buf[..tail.len()].copy_from_slice(tail);
                u64::from_le_bytes(buf)
            }
        };
        let v = (word >> (self.pos & 7)) & ((1u64 << bits) - 1);
        self.pos = end;
        Some(v)
    }

    /// Reads one bit.
    #[inline]
    pub fn bit(&mut self) -> Option<bool> {
        Some(self.get(1)? != 0)
    }

    /// Reads `len` bytes as a string (UTF-8 is checked, as safe Rust requires).
    #[inline]
    pub fn string(&mut self, len: usize) -> Option<String> {
        let mut b = Vec::with_capacity(len);
        for _ in 0..len {
            b.push(self.get(8)? as u8);
        }
        String::from_utf8(b).ok()
    }

    /// Reads a prefix varint with 4-bit groups of a `width`-bit type.
    #[inline]
    pub fn varint(&mut self, width: u32) -> Option<u64> {
        let gmax = width / 4;
        let mut groups = 1;
        while groups < gmax && self.bit()? {
            groups += 1;
        }
        let mut v = 0u64;
        let mut got = 0;
        while got < groups * 4 {
            let take = (groups * 4 - got).min(32);
            v |= self.get(take)? << got;
            got += take;
        }
        Some(v)
    }

    /// Bytes consumed so far, the last partial byte included.
    #[inline]
    pub fn bytes_used(&self) -> usize {
        self.pos.div_ceil(8)
    }
}

/// A float range stored as an integer number of steps.
#[derive(Clone, Copy)]
pub struct Quant {
    /// Lowest value.
    pub min: f64,
    /// Highest value.
    pub max: f64,
    /// Number of steps from `min` to `max`.
    pub steps: u32,
}

impl Quant {
    /// The step index of `x`.
    #[inline]
    pub fn q(self, x: f32) -> u64 {
        let step = (self.max - self.min) / f64::from(self.steps);
        ((f64::from(x) - self.min) / step).round() as u64
    }

    /// The value of step `q`, as the spec computes it (§4.3).
    #[inline]
    pub fn v(self, q: u64) -> f32 {
        if q == u64::from(self.steps) {
            return self.max as f32;
        }
        (self.min + ((self.max - self.min) * q as f64) / f64::from(self.steps)) as f32
    }
}
