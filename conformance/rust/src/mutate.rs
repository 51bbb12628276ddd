//! Hostile inputs derived from valid encodings, shared by the Rust property test and
//! the differential corpus that the Go and TypeScript runners check.

use bitwire_compiler::codec::random::Rng;

/// Byte strings derived from a valid encoding: bit flips, a truncation, an extension,
/// a byte replacement, unrelated random bytes, and all ones (every length prefix and
/// varint at its largest).
pub fn mutations(rng: &mut Rng, valid: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for _ in 0..4 {
        let mut b = valid.to_vec();
        if !b.is_empty() {
            let bit = rng.below(b.len() as u64 * 8) as usize;
            b[bit / 8] ^= 1 << (bit % 8);
        }
        out.push(b);
    }
    out.push(valid[..rng.below(valid.len() as u64 + 1) as usize].to_vec());
    let mut longer = valid.to_vec();
    longer.push(rng.next_u64() as u8);
    out.push(longer);
    let mut replaced = valid.to_vec();
    if !replaced.is_empty() {
        let at = rng.below(replaced.len() as u64) as usize;
        replaced[at] = rng.next_u64() as u8;
    }
    out.push(replaced);
    let n = rng.below(24) as usize;
    out.push((0..n).map(|_| rng.next_u64() as u8).collect());
    out.push(vec![0xff; rng.below(16) as usize + 1]);
    out
}
