//! The ring both ends keep: N slots, snapshot `e` in slot `e mod N`, where `e` is the
//! sequence number unwrapped to 64 bits (the wire carries its low 16; serial-number
//! arithmetic recovers the rest, docs/framing.md §10.2). Each slot remembers its `e`,
//! so a lookup never returns another snapshot than the one asked for.

use alloc::vec::Vec;

pub(crate) struct Ring<T> {
    slots: Vec<Option<(u64, T)>>,
}

impl<T> Ring<T> {
    /// A ring of `n` empty slots (`n` in 1..=255, checked by the callers).
    pub(crate) fn new(n: u8) -> Ring<T> {
        let mut slots = Vec::with_capacity(n.into());
        slots.resize_with(n.into(), || None);
        Ring { slots }
    }

    /// The number of slots, N.
    pub(crate) fn size(&self) -> u8 {
        // At most 255 slots: `new` made them from a u8.
        self.slots.len() as u8
    }

    fn index(&self, ext: u64) -> usize {
        (ext % self.slots.len() as u64) as usize
    }

    /// Snapshot `ext`, if its slot still holds it.
    pub(crate) fn get(&self, ext: u64) -> Option<&T> {
        match &self.slots[self.index(ext)] {
            Some((e, value)) if *e == ext => Some(value),
            _ => None,
        }
    }

    /// Stores snapshot `ext` (dropping what its slot held) and returns it.
    pub(crate) fn put(&mut self, ext: u64, value: T) -> &T {
        let i = self.index(ext);
        &self.slots[i].insert((ext, value)).1
    }
}

/// Unwraps the 16-bit `seq` against the 64-bit `newest` (whose low 16 bits are the
/// newest sequence number): `newest + d`, with `d` = `seq - newest` modulo 2^16 read as
/// a signed 16-bit number. `None` when that would be below 0.
pub(crate) fn unwrap_seq(newest: u64, seq: u16) -> Option<u64> {
    let d = seq.wrapping_sub(newest as u16) as i16;
    newest.checked_add_signed(d.into())
}
