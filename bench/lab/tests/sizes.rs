//! "Raw size never worse than today's" (issue 17) as a test: bitwire's encoded bytes of
//! each quick-corpus game dataset, pinned. Sizes are deterministic (fixed seeds, fixed
//! wire format), so this needs no timing; the report's `size-raw-reference` goal checks the
//! same on a full run against `bench/results/2026-11-27`.
//!
//! A failure means a change made some message larger. If a change makes them smaller on
//! purpose, lower the pin to the printed figure.

use bitwire::Packed;
use bitwire_lab::datasets::{self, Scale};
use bitwire_lab::profiles;

/// bitwire's total bytes per quick-corpus dataset (`Scale::QUICK`), as of issue 17's start
/// (commit 5cc1deb): the pin.
const PINNED: [(&str, usize); 5] = [
    ("packet64", 800),
    ("snapshot", 8818),
    ("input", 480),
    ("events", 1338),
    ("profiles", 51741),
];

fn total<T: Packed>(msgs: &[T]) -> usize {
    msgs.iter()
        .map(|m| {
            m.encode_to_vec()
                .expect("dataset values are in range")
                .len()
        })
        .sum()
}

fn measured() -> [(&'static str, usize); 5] {
    let s = Scale::QUICK;
    [
        ("packet64", total(&datasets::packet64(s.packet64))),
        (
            "snapshot",
            total(&datasets::snapshot(s.snapshot_ticks, s.entities)),
        ),
        (
            "input",
            total(&datasets::input(s.input_clients, s.input_ticks)),
        ),
        ("events", total(&datasets::events(s.events))),
        ("profiles", total(&profiles::profiles(s.profiles))),
    ]
}

#[test]
fn bitwire_raw_sizes_never_grow() {
    let now = measured();
    let mut grown = Vec::new();
    for ((name, bytes), (pinned_name, pinned)) in now.iter().zip(PINNED) {
        assert_eq!(*name, pinned_name);
        if *bytes > pinned {
            grown.push(format!("{name}: {bytes} bytes, pinned {pinned}"));
        } else if *bytes < pinned {
            eprintln!("{name}: {bytes} bytes, smaller than the pin {pinned}: lower the pin");
        }
    }
    assert!(grown.is_empty(), "bitwire's encodings grew: {grown:?}");
}
