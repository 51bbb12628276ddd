//! The `packet64` dataset of the product brief, from a fixed seed.

use bitwire_example::game::Packet64;

/// SplitMix64: tiny, fast, and the same sequence in every language (the datasets, the
/// delta lab's scenarios and the simulator's world all draw from it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Standard normal (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = self.unit().max(f64::MIN_POSITIVE);
        let u2 = self.unit();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    }
}

/// `n` packets: seed 42, 90% alive, health skewed toward critical values, positions
/// normal with sigma 500 clamped to the 12-bit signed range.
pub fn packet64(n: usize) -> Vec<Packet64> {
    let mut rng = SplitMix64::new(42);
    (0..n)
        .map(|_| {
            let is_alive = rng.below(10) != 0;
            // Half the packets carry critical health (0..50), the rest anything up to 511.
            let health = if rng.below(2) == 0 {
                rng.below(50)
            } else {
                rng.below(512)
            } as u16;
            let pos =
                |rng: &mut SplitMix64| (rng.normal() * 500.0).round().clamp(-2048.0, 2047.0) as i16;
            Packet64 {
                is_alive,
                weapon_id: rng.below(16) as u8,
                team_id: rng.below(4) as u8,
                health: if is_alive { health } else { 0 },
                pos_x: pos(&mut rng),
                pos_y: pos(&mut rng),
                rotation: rng.below(256) as u8,
                score: rng.below(65536) as u16,
            }
        })
        .collect()
}
