//! Encoded size per message: bitwire against every peer library on the lab's datasets,
//! raw and after zstd level 3 and lz4, one message at a time and as one batch (see
//! `bitwire_lab::sizes`).
//!
//!     cargo run --release -p bitwire-lab --bin sizes [-- --quick]

use bitwire_lab::datasets::{self, Scale};
use bitwire_lab::sizes::{compare, compare_batch, table, SizeRow};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let s = if quick { Scale::QUICK } else { Scale::FULL };

    let snapshot = datasets::snapshot(s.snapshot_ticks, s.entities);
    let input = datasets::input(s.input_clients, s.input_ticks);
    let events = datasets::events(s.events);
    let packets = datasets::packet64(s.packet64);
    let snapshot_name = format!("snapshot, {} entities", s.entities);
    let results: Vec<(String, Vec<SizeRow>)> = vec![
        (snapshot_name.clone(), compare(&snapshot)),
        ("input".to_string(), compare(&input)),
        ("events".to_string(), compare(&events)),
        ("packet64".to_string(), compare(&packets)),
        (format!("{snapshot_name}, batch"), compare_batch(&snapshot)),
        ("input, batch".to_string(), compare_batch(&input)),
        ("events, batch".to_string(), compare_batch(&events)),
        ("packet64, batch".to_string(), compare_batch(&packets)),
    ];
    for (name, rows) in &results {
        println!("{}", table(name, rows));
    }

    println!("Goals on snapshot and input (issue 5): bitwire raw <= bitcode raw; bitwire zstd within 10% of bitcode zstd; bitwire raw <= 1/3 of FlatBuffers");
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    for (name, rows) in results.iter().take(2) {
        let find = |lib: &str| rows.iter().find(|r| r.library == lib);
        let (Some(bw), Some(bc)) = (find("bitwire"), find("bitcode")) else {
            println!("  {name}: bitwire or bitcode row missing");
            continue;
        };
        println!(
            "  {name}: raw {:.2} vs {:.2} ({}), zstd stream {:.2} vs {:.2} = {:.3}x ({})",
            bw.raw(),
            bc.raw(),
            met(bw.raw() <= bc.raw()),
            bw.zstd(),
            bc.zstd(),
            bw.zstd() / bc.zstd(),
            met(bw.zstd() <= bc.zstd() * 1.1),
        );
        if let Some(fb) = find("flatbuffers") {
            println!(
                "  {name}: raw {:.2} vs FlatBuffers {:.2} = {:.3}x ({})",
                bw.raw(),
                fb.raw(),
                bw.raw() / fb.raw(),
                met(bw.raw() * 3.0 <= fb.raw()),
            );
        }
    }
}
