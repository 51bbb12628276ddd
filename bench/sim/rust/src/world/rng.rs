//! SplitMix64: the world's fixed-seed randomness (NPC placement and behaviour, hot
//! spots, spawn points) — the benchmark datasets' generator, whose sequence the
//! TypeScript clients repeat (bench/sim/ts/src/rng.ts); the tests pin it.

pub use bitwire_bench::dataset::SplitMix64;

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn the_reference_sequence() {
        // SplitMix64's published first outputs for seed 0.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn ranges_hold() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            let r = rng.range(-3.0, 5.0);
            assert!((-3.0..5.0).contains(&r));
            assert!(rng.below(6) < 6);
            assert!(rng.normal().is_finite());
        }
    }
}
