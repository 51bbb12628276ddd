//! The Rust lab at the quick scale: every library round-trips every game dataset (the
//! string-heavy `profiles` included), the hand-written baseline writes bitwire's bytes, and the `lab` output has every dataset
//! × library and parses. Timings are produced but never asserted on.

use bitwire::Packed;
use std::collections::BTreeSet;
use std::time::Duration;

use bitwire_example::game;
use bitwire_lab::datasets::{self, Scale};
use bitwire_lab::lab::alloc::CountingAlloc;
use bitwire_lab::lab::contender::Contender;
use bitwire_lab::lab::harness::Plan;
use bitwire_lab::lab::suite::{batch_contenders, contenders};
use bitwire_lab::lab::{run, Options};
use bitwire_lab::{corpus, handwritten, peers};

#[global_allocator]
static ALLOC: CountingAlloc = CountingAlloc;

const LIBRARIES: [&str; 9] = [
    "bitwire",
    "handwritten",
    "bitcode",
    "wincode",
    "bincode1",
    "bincode2",
    "postcard",
    "flatbuffers",
    "prost",
];
/// Every library but the hand-written baseline, which `profiles` does not have.
const PROFILES_LIBRARIES: [&str; 8] = [
    "bitwire",
    "bitcode",
    "wincode",
    "bincode1",
    "bincode2",
    "postcard",
    "flatbuffers",
    "prost",
];
const BATCH_LIBRARIES: [&str; 7] = [
    "bitwire", "bitcode", "wincode", "bincode1", "bincode2", "postcard", "prost",
];

fn libraries(cs: Vec<Result<Contender, String>>) -> Vec<&'static str> {
    cs.into_iter()
        .map(|c| c.unwrap_or_else(|e| panic!("{e}")).library)
        .collect()
}

#[test]
fn every_library_round_trips_every_dataset() {
    let s = Scale::QUICK;
    let snapshot = datasets::snapshot(s.snapshot_ticks, s.entities);
    let input = datasets::input(s.input_clients, s.input_ticks);
    let events = datasets::events(s.events);
    let packets = datasets::packet64(s.packet64);
    let profiles = bitwire_lab::profiles::profiles(s.profiles);
    assert_eq!(libraries(contenders(&snapshot)), LIBRARIES);
    assert_eq!(libraries(contenders(&input)), LIBRARIES);
    assert_eq!(libraries(contenders(&events)), LIBRARIES);
    assert_eq!(libraries(contenders(&packets)), LIBRARIES);
    // The string-heavy dataset has no hand-written baseline.
    assert_eq!(libraries(contenders(&profiles)), PROFILES_LIBRARIES);
    assert_eq!(libraries(batch_contenders(&snapshot)), BATCH_LIBRARIES);
    assert_eq!(libraries(batch_contenders(&input)), BATCH_LIBRARIES);
    assert_eq!(libraries(batch_contenders(&events)), BATCH_LIBRARIES);
    assert_eq!(libraries(batch_contenders(&packets)), BATCH_LIBRARIES);
    assert_eq!(libraries(batch_contenders(&profiles)), BATCH_LIBRARIES);
    // bitwire packs an Input into 8 bytes.
    let bitwire = contenders(&input).remove(0).expect("bitwire round-trips");
    assert_eq!(bitwire.library, "bitwire");
    assert!(bitwire.frames.iter().all(|f| f.len() == 8));
}

#[test]
fn handwritten_bytes_equal_bitwire_bytes() {
    let s = Scale::QUICK;
    let mut out = Vec::new();
    for m in datasets::snapshot(s.snapshot_ticks, s.entities) {
        out.clear();
        handwritten::encode_snapshot(&peers::Snapshot::from(&m), &mut out);
        assert_eq!(out, m.encode_to_vec().unwrap());
        let back = handwritten::decode_snapshot(&out).unwrap();
        assert_eq!(back, peers::Snapshot::from(&m));
    }
    for m in datasets::input(s.input_clients, s.input_ticks) {
        out.clear();
        handwritten::encode_input(&peers::Input::from(&m), &mut out);
        assert_eq!(out, m.encode_to_vec().unwrap());
    }
    for m in datasets::events(s.events) {
        out.clear();
        handwritten::encode_events(&peers::Events::from(&m), &mut out);
        assert_eq!(out, m.encode_to_vec().unwrap());
    }
    for m in datasets::packet64(s.packet64) {
        out.clear();
        handwritten::packet64::encode(&m, &mut out);
        assert_eq!(out, m.encode_to_vec().unwrap());
    }
    // Edge values: the ends of every range, long strings, a large tick.
    let edge = game::Input {
        seq: u16::MAX,
        move_x: -1.0,
        move_y: 1.0,
        buttons: game::Buttons {
            fire: true,
            aim: false,
            jump: true,
            crouch: false,
            reload: true,
            use_item: true,
        },
        yaw: 360.0,
        pitch: -90.0,
    };
    out.clear();
    handwritten::encode_input(&peers::Input::from(&edge), &mut out);
    assert_eq!(out, edge.encode_to_vec().unwrap());
    let events = game::Events {
        tick: u32::MAX,
        events: vec![
            game::Event::Chat(game::Chat {
                from: "x".repeat(16),
                text: "é".repeat(128),
            }),
            game::Event::Leave(4095),
            game::Event::RoundOver,
        ],
    };
    out.clear();
    handwritten::encode_events(&peers::Events::from(&events), &mut out);
    assert_eq!(out, events.encode_to_vec().unwrap());
    assert_eq!(
        handwritten::decode_events(&out),
        Some(peers::Events::from(&events))
    );
}

#[test]
fn lab_output_has_every_dataset_and_library() {
    let dir = std::env::temp_dir().join(format!("bitwire-lab-rgame-{}", std::process::id()));
    corpus::write(&dir, Scale::QUICK).expect("corpus writes");
    let mut opts = Options::new(true, dir.clone());
    opts.plan = Plan {
        rounds: 1,
        min_sample: Duration::ZERO,
    };
    opts.scaling = vec![100, 1000];
    opts.scaling_plan = |_, _| Plan {
        rounds: 1,
        min_sample: Duration::ZERO,
    };
    let value = run(&opts).expect("lab runs");
    std::fs::remove_dir_all(&dir).ok();

    let text = serde_json::to_string(&value).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).expect("output parses");
    assert_eq!(v["format"], 1);
    assert_eq!(v["language"], "rust");
    assert!(v["runtime"].as_str().unwrap().starts_with("rustc "));
    assert_eq!(v["quick"], true);
    let records = v["records"].as_array().unwrap();
    let mut seen = BTreeSet::new();
    for r in records {
        for key in ["messages", "bytes", "zstd_bytes", "lz4_bytes"] {
            assert!(r[key].as_u64().unwrap() > 0, "{key} in {r}");
        }
        for key in ["encode_ns", "decode_ns", "encode_allocs", "decode_allocs"] {
            assert!(r[key].as_f64().is_some(), "{key} in {r}");
        }
        let key = (
            r["dataset"].as_str().unwrap().to_string(),
            r["variant"].as_str().unwrap().to_string(),
            r["library"].as_str().unwrap().to_string(),
        );
        assert!(seen.insert(key), "duplicate record {r}");
    }
    for dataset in ["packet64", "snapshot", "input", "events", "profiles"] {
        let libs: &[&str] = if dataset == "profiles" {
            &PROFILES_LIBRARIES
        } else {
            &LIBRARIES
        };
        for lib in libs {
            assert!(seen.contains(&(dataset.into(), String::new(), (*lib).into())));
        }
        for lib in BATCH_LIBRARIES {
            assert!(seen.contains(&(dataset.into(), "batch".into(), lib.into())));
        }
    }
    assert_eq!(
        records.len(),
        4 * LIBRARIES.len() + PROFILES_LIBRARIES.len() + 5 * BATCH_LIBRARIES.len()
    );
    let scaling = v["scaling"].as_array().unwrap();
    assert_eq!(scaling.len(), 2 * 5);
    for s in scaling {
        assert!(s["encode_pps"].as_f64().unwrap() > 0.0);
        assert!(s["decode_pps"].as_f64().unwrap() > 0.0);
    }
}
