//! The plan's questions to the memory model of spec §11, which the layout pass owns
//! (`crate::layout::memory`): what one element of a list costs a decoder's budget,
//! and which arrays and union payloads are held out of line.

use crate::ir::{MemoryLayout, Schema, Type};
use crate::layout::memory::{array_out_of_line, memory_of, payload_out_of_line};

/// Bytes of one value of `ty` including its out-of-line parts: what a decoder charges
/// per element of a list of `ty`.
pub fn footprint(schema: &Schema, ty: &Type) -> u64 {
    memory_of(ty, &schema.types).footprint
}

/// Whether an array of `len` elements of `elem` is held out of line.
pub fn out_of_line(schema: &Schema, elem: &Type, len: u64) -> bool {
    array_out_of_line(&memory_of(elem, &schema.types), len)
}

/// Whether a union payload of type `ty` is held out of line.
pub fn payload_held_out_of_line(schema: &Schema, ty: &Type) -> bool {
    payload_out_of_line(&memory_of(ty, &schema.types))
}

/// Whether a value of memory layout `m` held as one alternative among others (a
/// message in a dispatch value) is held out of line, as a union payload would be.
pub fn value_held_out_of_line(m: &MemoryLayout) -> bool {
    payload_out_of_line(m)
}
