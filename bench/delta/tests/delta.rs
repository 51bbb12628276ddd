//! bitwire's delta sizes in the lab (the reference codec, `delta_sizes`) against the
//! format measurement's arithmetic (`codes`): both are docs/spec.md §12, one by running
//! the reference encoder, one by counting bits from the wire values. Every tick of the
//! quick scenarios at both baseline ages must agree to the byte, so the code costs the
//! report prints for §12 are the costs of the format the lab measures.

use bitwire_delta_lab::codes::{diff_bits, exp_golomb_bits, zigzag};
use bitwire_delta_lab::delta_sizes::{self, AGES};
use bitwire_delta_lab::scenario::Scenarios;
use bitwire_delta_lab::wire::{Element, Snapshot, TICK_WIDTH};

/// Bits of §12's delta of `cur` against `base`, counted from the wire values: the message
/// row (tick, list), the keyed list's events, changed rows and added elements.
fn predicted<S: Snapshot>(base: &S, cur: &S) -> u64 {
    let mut bits = 2; // the message's changed bits: tick, list
    if base.tick() != cur.tick() {
        bits += diff_bits(
            zigzag(base.tick().into(), cur.tick().into(), TICK_WIDTH),
            TICK_WIDTH,
        );
    }
    let (b, v) = (base.elements(), cur.elements());
    let mut list = 0;
    let (mut run, mut events) = (0u64, 0);
    for (i, old) in b.iter().enumerate() {
        let now = v.iter().find(|e| e.key() == old.key());
        let event = match now {
            Some(n) if n.scalars() == old.scalars() => None,
            Some(n) => {
                let fields = old.scalars().len() as u64 - 1;
                let changed: u64 = old
                    .scalars()
                    .iter()
                    .zip(n.scalars())
                    .skip(1)
                    .filter(|(a, b)| a.0 != b.0)
                    .map(|(a, b)| diff_bits(zigzag(a.0, b.0, a.1), a.1))
                    .sum();
                Some(1 + fields + changed) // op bit 0, the row's changed bits, the codes
            }
            None => Some(1), // op bit 1
        };
        match event {
            Some(cost) => {
                list += exp_golomb_bits(run) + cost;
                run = 0;
                events += 1;
            }
            None => run += 1,
        }
        if i + 1 == b.len() && run > 0 {
            list += exp_golomb_bits(run);
        }
    }
    let added: Vec<_> = v
        .iter()
        .filter(|e| !b.iter().any(|o| o.key() == e.key()))
        .collect();
    list += exp_golomb_bits(added.len() as u64);
    list += added
        .iter()
        .map(|e| e.scalars().iter().map(|s| u64::from(s.1)).sum::<u64>())
        .sum::<u64>();
    if events > 0 || !added.is_empty() {
        bits += list;
    }
    bits
}

fn check<S: Snapshot + bitwire_delta_lab::peers::Tick>(scenario: &str, message: &str, ticks: &[S]) {
    let series = delta_sizes::series(scenario, message, ticks).unwrap();
    assert_eq!(series.len(), AGES.len());
    for (s, (age, codec)) in series.iter().zip(AGES) {
        assert_eq!(s.codec, codec);
        for t in 1..ticks.len() {
            let bits = predicted(&ticks[t.saturating_sub(age)], &ticks[t]);
            assert_eq!(
                s.bytes[t],
                bits.div_ceil(8),
                "{scenario} tick {t}, age {age}"
            );
        }
    }
}

#[test]
fn the_reference_deltas_cost_what_the_code_measurement_counts() {
    let s = Scenarios::generate(true);
    check("world", "World", &s.world);
    check("cubes", "Cubes", &s.cubes);
}

#[test]
fn an_unchanged_tick_costs_one_byte() {
    // Both changed bits of the message zero: ceil(2 / 8) bytes (§12.3).
    let s = Scenarios::generate(true);
    let mut same = s.cubes[100].clone();
    same.tick = s.cubes[99].tick;
    let mut two = vec![s.cubes[99].clone(), same];
    two[1].cubes = two[0].cubes.clone();
    assert_eq!(predicted(&two[0], &two[1]), 2);
    let series = delta_sizes::series("cubes", "Cubes", &two).unwrap();
    assert_eq!(series[0].bytes[1], 1);
}
