//! Smoke tests of the lab at the quick scale: deterministic datasets, valid values, a
//! corpus the reference codec agrees with (peers: `tests/game_peers.rs`).

use bitwire::Packed;
use bitwire_example::game;
use bitwire_lab::corpus;
use bitwire_lab::datasets::{self, Scale};

#[test]
fn datasets_are_deterministic_and_in_range() {
    let s = Scale::QUICK;
    let a = datasets::snapshot(s.snapshot_ticks, s.entities);
    assert_eq!(a, datasets::snapshot(s.snapshot_ticks, s.entities));
    assert_eq!(a.len(), s.snapshot_ticks);
    assert!(a.iter().all(|m| m.entities.len() == s.entities));
    // Positions move smoothly: no entity jumps more than a sprint's worth per tick,
    // except on respawn (health back to 100 after being dead).
    for w in a.windows(2) {
        for (e0, e1) in w[0].entities.iter().zip(&w[1].entities) {
            assert_eq!(e0.id, e1.id);
            let d = (e1.pos.x - e0.pos.x).abs().max((e1.pos.y - e0.pos.y).abs());
            assert!(d < 1.0 || e0.health == 0, "entity {} jumped {d} m", e0.id);
        }
    }
    let i = datasets::input(s.input_clients, s.input_ticks);
    assert_eq!(i, datasets::input(s.input_clients, s.input_ticks));
    assert_eq!(i.len(), s.input_clients * s.input_ticks);
    let e = datasets::events(s.events);
    assert_eq!(e, datasets::events(s.events));
    assert!(e.iter().all(|m| !m.events.is_empty()));
}

#[test]
fn corpus_agrees_with_reference_codec_and_reads_back() {
    let dir = std::env::temp_dir().join(format!("bitwire-lab-test-{}", std::process::id()));
    let manifest = corpus::write(&dir, Scale::QUICK).expect("corpus writes");
    for d in manifest["datasets"].as_array().expect("datasets") {
        let name = d["name"].as_str().expect("name");
        let bin = std::fs::read(dir.join(format!("{name}.bin"))).expect("bin file");
        let frames = corpus::read_bin(&bin).expect("bin file parses");
        assert_eq!(frames.len() as u64, d["count"].as_u64().expect("count"));
        let jsonl = std::fs::read_to_string(dir.join(format!("{name}.jsonl"))).expect("jsonl");
        assert_eq!(jsonl.lines().count(), frames.len());
    }
    let snap_bin = std::fs::read(dir.join("snapshot.bin")).unwrap();
    let snap = corpus::read_bin(&snap_bin).unwrap();
    let s = Scale::QUICK;
    assert_eq!(
        game::Snapshot::decode(snap[0]).unwrap(),
        datasets::snapshot(s.snapshot_ticks, s.entities)[0]
    );
    std::fs::remove_dir_all(&dir).ok();
}
