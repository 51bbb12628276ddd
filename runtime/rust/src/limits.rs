//! Decode limits (spec §11): the budget a decoder charges every allocation against,
//! so that no input can make it allocate more than a bound proportional to its size.

/// Bytes of budget per input byte by default (spec §11.3).
pub const DEFAULT_BYTES_PER_INPUT_BYTE: u64 = 64;
/// Bytes of budget every decode starts with by default (spec §11.3).
pub const DEFAULT_BASE_BYTES: u64 = 1 << 20;
/// What the memory model charges an allocation beyond its contents (spec §11.2).
pub const ALLOCATION_OVERHEAD: u64 = 32;

/// How much a decoder may allocate: `base + per_input_byte × input length` bytes of the
/// memory model of spec §11 (lists, strings and bytes are charged as they are read; the
/// top-level value's own fixed size is not). Going over is
/// [`ErrorKind::LimitExceeded`](crate::ErrorKind::LimitExceeded), at the same bit in
/// every bitwire decoder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Budget every decode starts with, in bytes.
    pub base: u64,
    /// Budget added per byte of input.
    pub per_input_byte: u64,
}

impl Limits {
    /// The default limits: 1 MiB plus 64 bytes per input byte.
    pub const DEFAULT: Limits = Limits {
        base: DEFAULT_BASE_BYTES,
        per_input_byte: DEFAULT_BYTES_PER_INPUT_BYTE,
    };

    /// A fixed budget of `bytes`, whatever the input's length.
    pub const fn fixed(bytes: u64) -> Limits {
        Limits {
            base: bytes,
            per_input_byte: 0,
        }
    }

    /// The budget for an input of `len` bytes (saturating).
    pub const fn budget(&self, len: usize) -> u64 {
        self.base
            .saturating_add(self.per_input_byte.saturating_mul(len as u64))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// The charge of a sequence of `len` elements of `per_elem` bytes each (spec §11.2):
/// nothing for an empty one, else its contents plus one allocation's overhead.
#[inline]
pub(crate) fn charge(len: u64, per_elem: u64) -> u64 {
    if len == 0 {
        0
    } else {
        len.saturating_mul(per_elem)
            .saturating_add(ALLOCATION_OVERHEAD)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_grows_with_the_input_and_saturates() {
        assert_eq!(Limits::DEFAULT.budget(0), 1 << 20);
        assert_eq!(Limits::DEFAULT.budget(1000), (1 << 20) + 64_000);
        assert_eq!(Limits::fixed(10).budget(usize::MAX), 10);
        let huge = Limits {
            base: u64::MAX,
            per_input_byte: 2,
        };
        assert_eq!(huge.budget(5), u64::MAX);
        assert_eq!(charge(0, 100), 0);
        assert_eq!(charge(3, 100), 332);
        assert_eq!(charge(u64::MAX, 2), u64::MAX);
    }
}
