//! bitwire's delta (docs/spec.md §12) of every tick, against the previous tick (age 1) and
//! against the tick [`AGE`] ticks older (tick 0 for the first ticks).
//!
//! The bytes come from the **reference codec** (`bitwire_compiler::codec::encode_delta`,
//! the oracle the generated `encode_delta` of every language is tested against: the bytes
//! are the same by the spec's canonical form), each checked to decode back to its tick with
//! the reference `decode_delta`. The reference codec is written for obviousness, not speed,
//! so it gives sizes and the bytes every generated encoder must write, never times: those
//! are the generated code's ([`crate::delta_timing`] in Rust; `go/` and `ts/` read the
//! bytes from [`crate::encodings`]).

use crate::codes::AGE;
use crate::peers::Tick;
use crate::raw::Series;
use bitwire::Packed;
use bitwire_compiler::codec::{self, Value};
use bitwire_compiler::ir::{Schema, TypeId};

/// `delta.bw`, compiled at run time by the reference compiler.
const SCHEMA: &str = include_str!("../delta.bw");

/// The baseline ages measured, with each series' codec id.
pub const AGES: [(usize, &str); 2] = [(1, "bitwire-delta-1"), (AGE, "bitwire-delta-6")];

/// The tick a delta of tick `t` at baseline age `age` is made against.
pub fn baseline(t: usize, age: usize) -> usize {
    t.saturating_sub(age)
}

/// A scenario's bitwire bytes from the reference codec: every tick's full encoding, and per
/// age of [`AGES`] the delta of each tick `t ≥ 1` against tick [`baseline`]`(t, age)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// The full encoding of tick 0, 1, … (the generated Rust encoder's, which the
    /// reference decoder read back to make the deltas).
    pub full: Vec<Vec<u8>>,
    /// `deltas[a][t - 1]`: the delta of tick `t` at age `AGES[a].0`.
    pub deltas: Vec<Vec<Vec<u8>>>,
}

fn schema() -> Result<Schema, String> {
    bitwire_compiler::compile_source("delta.bw", SCHEMA).map_err(|d| d.render())
}

/// The reference bytes of `ticks` (`message`: `World` or `Cubes`), every delta checked to
/// decode back to its tick with the reference decoder.
pub fn reference<T: Tick>(scenario: &str, message: &str, ticks: &[T]) -> Result<Reference, String> {
    let schema = schema()?;
    let ty = schema
        .type_by_name(message)
        .ok_or_else(|| format!("delta.bw has no {message}"))?;
    let mut full = Vec::with_capacity(ticks.len());
    let mut values = Vec::with_capacity(ticks.len());
    for (i, t) in ticks.iter().enumerate() {
        let bytes = t
            .bw()
            .encode_to_vec()
            .map_err(|e| format!("{scenario} tick {i}: {e}"))?;
        values.push(
            codec::decode(&schema, ty, &bytes).map_err(|e| format!("{scenario} tick {i}: {e}"))?,
        );
        full.push(bytes);
    }
    let deltas = AGES
        .iter()
        .map(|&(age, _)| {
            (1..values.len())
                .map(|t| {
                    delta(&schema, ty, &values[baseline(t, age)], &values[t])
                        .map_err(|e| format!("{scenario} tick {t}, age {age}: {e}"))
                })
                .collect::<Result<Vec<_>, String>>()
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Reference { full, deltas })
}

/// The delta series of `ticks` (`message`: `World` or `Cubes`): tick 0 is the full
/// snapshot (the join), tick `t` the delta against tick `max(0, t - age)`.
pub fn series<T: Tick>(scenario: &str, message: &str, ticks: &[T]) -> Result<Vec<Series>, String> {
    Ok(series_of(scenario, &reference(scenario, message, ticks)?))
}

/// [`series`] from the reference bytes.
pub fn series_of(scenario: &str, r: &Reference) -> Vec<Series> {
    AGES.iter()
        .zip(&r.deltas)
        .map(|(&(age, codec), deltas)| {
            let join = r.full.first().map_or(0, |b| b.len() as u64);
            let bytes = std::iter::once(join)
                .chain(deltas.iter().map(|d| d.len() as u64))
                .collect();
            Series {
                scenario: scenario.into(),
                codec: codec.into(),
                label: format!("bitwire delta, baseline {age} tick{} old", if age == 1 { "" } else { "s" }),
                counted: format!(
                    "tick 0: the full snapshot (the join); tick t: the delta (docs/spec.md §12) against \
                     tick {}, as the reference codec writes it (bitwire_compiler::codec::encode_delta; \
                     the generated Rust, Go and TypeScript encoders are checked to write the same \
                     bytes), checked to decode back; no sequence numbers",
                    if age == 1 { "t - 1".to_string() } else { format!("max(0, t - {age})") }
                ),
                bytes,
            }
        })
        .collect()
}

/// The delta of `value` against `base`, checked to decode back.
fn delta(schema: &Schema, ty: TypeId, base: &Value, value: &Value) -> Result<Vec<u8>, String> {
    let bytes = codec::encode_delta(schema, ty, base, value).map_err(|e| e.to_string())?;
    let back = codec::decode_delta(schema, ty, base, &bytes).map_err(|e| e.to_string())?;
    if &back != value {
        return Err("the delta does not decode to the tick".into());
    }
    Ok(bytes)
}
