//! The baseline: the `packet64` layout packed by hand with shifts and masks, as a
//! team would write it without a schema compiler. Same bytes as the generated code
//! (checked by the benchmark before it times anything).

use bitwire_example::game::Packet64;

/// Appends the 8-byte encoding of `p`. Like typical hand-written code it masks
/// fields to their widths instead of checking ranges.
#[inline]
pub fn encode(p: &Packet64, out: &mut Vec<u8>) {
    let word = u64::from(p.is_alive)
        | (u64::from(p.weapon_id) & 0xF) << 1
        | (u64::from(p.team_id) & 0x3) << 5
        | (u64::from(p.health) & 0x1FF) << 7
        | (p.pos_x as u64 & 0xFFF) << 16
        | (p.pos_y as u64 & 0xFFF) << 28
        | u64::from(p.rotation) << 40
        | u64::from(p.score) << 48;
    out.extend_from_slice(&word.to_le_bytes());
}

/// Like [`encode`], but refuses out-of-range fields instead of masking them, as the
/// generated code must (spec §3.1): the fair baseline for the cost of safety. Returns
/// `false`, writing nothing, when a field is out of range.
#[inline]
pub fn encode_checked(p: &Packet64, out: &mut Vec<u8>) -> bool {
    let over = u64::from(p.weapon_id) >> 4
        | u64::from(p.team_id) >> 2
        | u64::from(p.health) >> 9
        | (i64::from(p.pos_x) + 2048) as u64 >> 12
        | (i64::from(p.pos_y) + 2048) as u64 >> 12;
    if over != 0 {
        return false;
    }
    encode(p, out);
    true
}

/// Decodes an 8-byte packet; `None` if the input is not exactly 8 bytes.
#[inline]
pub fn decode(bytes: &[u8]) -> Option<Packet64> {
    let word = u64::from_le_bytes(bytes.try_into().ok()?);
    let signed12 = |v: u64| ((v << 52) as i64 >> 52) as i16;
    Some(Packet64 {
        is_alive: word & 1 != 0,
        weapon_id: (word >> 1 & 0xF) as u8,
        team_id: (word >> 5 & 0x3) as u8,
        health: (word >> 7 & 0x1FF) as u16,
        pos_x: signed12(word >> 16 & 0xFFF),
        pos_y: signed12(word >> 28 & 0xFFF),
        rotation: (word >> 40) as u8,
        score: (word >> 48) as u16,
    })
}
