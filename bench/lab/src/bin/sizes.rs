//! Encoded size per message: bitwire against bitcode, bincode 1.3 and postcard on the
//! lab's datasets, raw and after zstd level 3 (see `bitwire_lab::sizes`).
//!
//!     cargo run --release -p bitwire-lab --bin sizes [-- --quick]

use bitwire_example::game;
use bitwire_lab::datasets::{self, Scale};
use bitwire_lab::peers;
use bitwire_lab::sizes::{compare, table, SizeRow};

fn enc<T>(f: fn(&T) -> Result<Vec<u8>, bitwire::Error>) -> impl Fn(&T) -> Vec<u8> {
    move |m| f(m).expect("dataset values encode")
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let s = if quick { Scale::QUICK } else { Scale::FULL };

    let snapshot = datasets::snapshot(s.snapshot_ticks, s.entities);
    let input = datasets::input(s.input_clients, s.input_ticks);
    let results: Vec<(String, Vec<SizeRow>)> = vec![
        (
            format!("snapshot, {} entities", s.entities),
            compare::<_, peers::Snapshot>(&snapshot, |m| enc(game::Snapshot::encode_to_vec)(m)),
        ),
        (
            "input".to_string(),
            compare::<_, peers::Input>(&input, |m| enc(game::Input::encode_to_vec)(m)),
        ),
        (
            "events".to_string(),
            compare::<_, peers::Events>(&datasets::events(s.events), |m| {
                enc(game::Events::encode_to_vec)(m)
            }),
        ),
        (
            "packet64".to_string(),
            compare::<_, peers::Packet64>(&datasets::packet64(s.packet64), |m| {
                enc(game::Packet64::encode_to_vec)(m)
            }),
        ),
    ];
    for (name, rows) in &results {
        println!("{}", table(name, rows));
    }

    println!("Goals on snapshot and input (issue 5): bitwire raw <= bitcode raw; bitwire zstd within 10% of bitcode zstd");
    for (name, rows) in results.iter().take(2) {
        let bw = &rows[0];
        let bc = rows
            .iter()
            .find(|r| r.library.starts_with("bitcode"))
            .expect("bitcode row");
        println!(
            "  {name}: raw {:.2} vs {:.2} ({}), zstd stream {:.2} vs {:.2} = {:.3}x ({})",
            bw.raw(),
            bc.raw(),
            if bw.raw() <= bc.raw() {
                "met"
            } else {
                "NOT met"
            },
            bw.zstd(),
            bc.zstd(),
            bw.zstd() / bc.zstd(),
            if bw.zstd() <= bc.zstd() * 1.1 {
                "met"
            } else {
                "NOT met"
            },
        );
    }
    println!("  (the FlatBuffers goal, raw <= 1/3 of FlatBuffers, is not measured yet)");
}
