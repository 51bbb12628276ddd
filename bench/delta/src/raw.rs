//! The raw result files of the delta lab (`DIR/raw/*.json`): one per measuring program
//! and runtime (`rust.json` from `deltabench measure`, `colyseus.json` from
//! `ts/colyseus.mjs`, `go.json` from `go/`, `ts-node.json`, `ts-bun.json` and
//! `ts-deno.json` from `ts/src/delta.ts`), in one format (bench/delta/README.md), which
//! the report reads.

use crate::codes::CodesRow;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The `format` of a raw file.
pub const FORMAT: &str = "bitwire-delta-lab/1";

/// Codec ids a raw file may use, in report order, with the colour index of each.
pub const CODECS: &[&str] = &[
    "bitwire",
    "bitwire-delta-1",
    "bitwire-delta-6",
    "bitcode",
    "bitcode-zstd",
    "bitcode-wire",
    "bitcode-wire-zstd",
    "flatbuffers",
    "colyseus",
    "colyseus-all",
    "colyseus-f32",
    "colyseus-f32-all",
];

/// A codec's name in the charts (the tables use the raw file's label).
pub fn short_label(codec: &str) -> &'static str {
    match codec {
        "bitwire" => "bitwire full",
        "bitwire-delta-1" => "bitwire delta (age 1)",
        "bitwire-delta-6" => "bitwire delta (age 6)",
        "bitcode" => "bitcode (f32)",
        "bitcode-zstd" => "bitcode + zstd (f32)",
        "bitcode-wire" => "bitcode (wire ints)",
        "bitcode-wire-zstd" => "bitcode + zstd (wire ints)",
        "flatbuffers" => "FlatBuffers",
        "colyseus" => "Colyseus patch (int)",
        "colyseus-all" => "Colyseus encodeAll (int)",
        "colyseus-f32" => "Colyseus patch (float32)",
        "colyseus-f32-all" => "Colyseus encodeAll (float32)",
        _ => "?",
    }
}

/// Scenario ids.
pub const SCENARIOS: &[&str] = &["world", "cubes"];

/// A raw file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    /// [`FORMAT`].
    pub format: String,
    /// What measured (`deltabench measure`, `ts/colyseus.mjs`, `go/ (deltago)`, …).
    pub program: String,
    /// The runtime and library versions (`rustc 1.95.0`, `node v20.20.2, @colyseus/schema 5.0.34`,
    /// `go1.26.8`, `bun 1.4.5`).
    pub runtime: String,
    /// Quick mode.
    pub quick: bool,
    /// Ticks per scenario.
    pub ticks: usize,
    /// The FNV-1a 64 of each scenario file measured (from its manifest).
    pub scenarios: BTreeMap<String, String>,
    /// Bytes per tick, one series per scenario and codec.
    pub series: Vec<Series>,
    /// Encode and decode times.
    #[serde(default)]
    pub timings: Vec<Timing>,
    /// The format measurement ([`crate::codes`]).
    #[serde(default)]
    pub codes: Vec<CodesRow>,
}

/// The bytes of every tick of one scenario in one codec.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// A [`SCENARIOS`] id.
    pub scenario: String,
    /// A [`CODECS`] id.
    pub codec: String,
    /// The codec as the report names it (library and version, the shape encoded).
    pub label: String,
    /// What one tick's bytes are.
    pub counted: String,
    /// Bytes of tick 0, 1, …: `ticks` values.
    pub bytes: Vec<u64>,
}

/// Median times of one codec on one scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Timing {
    /// A [`SCENARIOS`] id.
    pub scenario: String,
    /// A [`CODECS`] id.
    pub codec: String,
    /// Median ns to encode one tick (over `rounds` passes over every tick).
    pub encode_ns: f64,
    /// Median ns to decode one tick.
    pub decode_ns: f64,
    /// Passes timed.
    pub rounds: usize,
    /// What exactly was timed.
    pub note: String,
}

impl RawFile {
    /// Checks what the report relies on: the format, known ids, one series per scenario
    /// and codec, `ticks` values in each, positive times.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("format {:?}, expected {FORMAT:?}", self.format));
        }
        if self.ticks == 0 {
            return Err("ticks is 0".into());
        }
        let mut seen = std::collections::BTreeSet::new();
        for s in &self.series {
            known(&s.scenario, &s.codec)?;
            if !seen.insert((&s.scenario, &s.codec)) {
                return Err(format!("{} {}: reported twice", s.scenario, s.codec));
            }
            if s.bytes.len() != self.ticks {
                return Err(format!(
                    "{} {}: {} values for {} ticks",
                    s.scenario,
                    s.codec,
                    s.bytes.len(),
                    self.ticks
                ));
            }
        }
        for t in &self.timings {
            known(&t.scenario, &t.codec)?;
            let ok = |v: f64| v.is_finite() && v > 0.0;
            if !ok(t.encode_ns) || !ok(t.decode_ns) || t.rounds == 0 {
                return Err(format!(
                    "{} {}: times must be positive",
                    t.scenario, t.codec
                ));
            }
        }
        Ok(())
    }
}

fn known(scenario: &str, codec: &str) -> Result<(), String> {
    if !SCENARIOS.contains(&scenario) {
        return Err(format!("unknown scenario {scenario:?}"));
    }
    if !CODECS.contains(&codec) {
        return Err(format!("unknown codec {codec:?}"));
    }
    Ok(())
}
