//! `deltabench measure`: the Rust side of the delta lab. For each scenario: the bytes of
//! every tick in each full-snapshot encoding of [`crate::peers`] (each checked to decode
//! back first), bitwire's full encode and decode time per tick, bitwire's delta sizes
//! ([`crate::delta_sizes`]; its times: the slot in [`scenario`]), and the format measurement of [`crate::codes`]; all into one raw
//! file ([`crate::raw`]).
//!
//! Times are medians over `rounds` passes over every tick of the scenario (the values
//! built and the encodings made before the clock starts); they go into the report, never
//! into a test.

use crate::codes::{self, CodesRow};
use crate::delta_timing::per_tick;
use crate::peers::{self, Tick, PEERS};
use crate::raw::{RawFile, Series, Timing, FORMAT};
use crate::scenario::{Manifest, Scenarios};
use crate::wire::{CUBE_FIELDS, ENTITY_FIELDS};
use bitwire::Packed;
use flatbuffers::FlatBufferBuilder;
use std::hint::black_box;

/// Timed passes per figure in a full run; quick runs use 3.
pub const ROUNDS: usize = 21;

/// Measures both scenarios (read with `manifest`) and returns the raw file.
pub fn run(s: &Scenarios, manifest: &Manifest, rounds: usize) -> Result<RawFile, String> {
    let mut series = Vec::new();
    let mut timings = Vec::new();
    scenario("world", &s.world, rounds, &mut series, &mut timings)?;
    scenario("cubes", &s.cubes, rounds, &mut series, &mut timings)?;
    Ok(RawFile {
        format: FORMAT.into(),
        program: "deltabench measure".into(),
        runtime: env!("DELTA_LAB_RUSTC").into(),
        quick: s.quick,
        ticks: s.world.len(),
        scenarios: manifest
            .files
            .iter()
            .map(|f| (f.scenario.clone(), f.fnv1a64.clone()))
            .collect(),
        series,
        timings,
        codes: codes_rows(s),
    })
}

/// The format measurement ([`crate::codes`]) on both scenarios at baseline ages 1 and
/// [`codes::AGE`].
pub fn codes_rows(s: &Scenarios) -> Vec<CodesRow> {
    let entity: Vec<&str> = ENTITY_FIELDS.iter().map(|f| f.name).collect();
    let cube: Vec<&str> = CUBE_FIELDS.iter().map(|f| f.name).collect();
    let mut rows = Vec::new();
    for age in [1, codes::AGE] {
        rows.push(codes::measure("world", &s.world, age, &entity));
        rows.push(codes::measure("cubes", &s.cubes, age, &cube));
    }
    rows
}

fn label(peer: peers::Peer) -> &'static str {
    match peer {
        peers::Peer::Bitwire => "bitwire, full snapshot",
        peers::Peer::Bitcode => "bitcode 0.6 (f32 fields)",
        peers::Peer::BitcodeZstd => "bitcode 0.6 (f32 fields) + zstd-3",
        peers::Peer::BitcodeWire => "bitcode 0.6 (wire integers)",
        peers::Peer::BitcodeWireZstd => "bitcode 0.6 (wire integers) + zstd-3",
        peers::Peer::Flatbuffers => "FlatBuffers 25.12.19",
    }
}

fn scenario<T: Tick>(
    name: &str,
    ticks: &[T],
    rounds: usize,
    series: &mut Vec<Series>,
    timings: &mut Vec<Timing>,
) -> Result<(), String> {
    let mut fbb = FlatBufferBuilder::new();
    for &peer in PEERS {
        let bytes = ticks
            .iter()
            .enumerate()
            .map(|(i, t)| {
                peers::encode(peer, t, &mut fbb)
                    .map(|b| b.len() as u64)
                    .map_err(|e| format!("{name} tick {i}: {e}"))
            })
            .collect::<Result<Vec<u64>, String>>()?;
        series.push(Series {
            scenario: name.into(),
            codec: peer.id().into(),
            label: label(peer).into(),
            counted: peer.counted().into(),
            bytes,
        });
    }
    let message = if name == "world" { "World" } else { "Cubes" };
    series.extend(crate::delta_sizes::series(name, message, ticks)?);
    timings.push(full_timing(name, ticks, rounds)?);
    let delta = crate::delta_timing::timings(name, ticks, rounds, series)?;
    timings.extend(delta);
    Ok(())
}

/// bitwire's full encode and decode per tick: `encode` into a reused buffer, `decode`
/// building the value.
fn full_timing<T: Tick>(name: &str, ticks: &[T], rounds: usize) -> Result<Timing, String> {
    let values: Vec<T::Bw> = ticks.iter().map(Tick::bw).collect();
    let encoded = values
        .iter()
        .map(|v| v.encode_to_vec().map_err(|e| format!("{name}: {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    let mut out = Vec::with_capacity(encoded.iter().map(Vec::len).max().unwrap_or(0));
    let encode_ns = per_tick(rounds, values.len(), || {
        for v in &values {
            out.clear();
            black_box(v.encode(&mut out)).ok();
        }
    });
    let decode_ns = per_tick(rounds, values.len(), || {
        for b in &encoded {
            black_box(T::Bw::decode(b)).ok();
        }
    });
    Ok(Timing {
        scenario: name.into(),
        codec: "bitwire".into(),
        encode_ns,
        decode_ns,
        rounds,
        note: "full snapshot: encode into a reused buffer; decode builds the value".into(),
    })
}
