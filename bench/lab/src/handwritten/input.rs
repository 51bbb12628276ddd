//! `Input`: 60 bits, packed into one little-endian `u64` by hand.

use crate::peers::plain::{Buttons, Input};

use super::bits::Quant;

const AXIS: Quant = Quant {
    min: -1.0,
    max: 1.0,
    steps: 255,
};
const YAW: Quant = Quant {
    min: 0.0,
    max: 360.0,
    steps: 4095,
};
const PITCH: Quant = Quant {
    min: -90.0,
    max: 90.0,
    steps: 1023,
};

/// Appends the 8-byte encoding of `m`.
#[inline]
pub fn encode_input(m: &Input, out: &mut Vec<u8>) {
    let b = &m.buttons;
    let buttons = u64::from(b.fire)
        | u64::from(b.aim) << 1
        | u64::from(b.jump) << 2
        | u64::from(b.crouch) << 3
        | u64::from(b.reload) << 4
        | u64::from(b.use_item) << 5;
    let word = u64::from(m.seq)
        | AXIS.q(m.move_x) << 16
        | AXIS.q(m.move_y) << 24
        | buttons << 32
        | YAW.q(m.yaw) << 38
        | PITCH.q(m.pitch) << 50;
    out.extend_from_slice(&word.to_le_bytes());
}

/// Decodes an 8-byte input; `None` if `bytes` is not 8 bytes long.
#[inline]
pub fn decode_input(bytes: &[u8]) -> Option<Input> {
    let w = u64::from_le_bytes(bytes.try_into().ok()?);
    let bit = |i: u32| w >> i & 1 != 0;
    Some(Input {
        seq: w as u16,
        move_x: AXIS.v(w >> 16 & 0xFF),
        move_y: AXIS.v(w >> 24 & 0xFF),
        buttons: Buttons {
            fire: bit(32),
            aim: bit(33),
            jump: bit(34),
            crouch: bit(35),
            reload: bit(36),
            use_item: bit(37),
        },
        yaw: YAW.v(w >> 38 & 0xFFF),
        pitch: PITCH.v(w >> 50 & 0x3FF),
    })
}
