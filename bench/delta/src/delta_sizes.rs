//! bitwire's delta (docs/spec.md §12) of every tick, against the previous tick (age 1) and
//! against the tick [`AGE`] ticks older (tick 0 for the first ticks).
//!
//! The bytes come from the **reference codec** (`bitwire_compiler::codec::encode_delta`,
//! the oracle the generated `encode_delta` of every language is tested against: the bytes
//! are the same by the spec's canonical form), each checked to decode back to its tick with
//! the reference `decode_delta`. The reference codec is written for obviousness, not speed,
//! so it gives sizes and no times; the generated code's times go next to bitwire's full
//! encode and decode once it exists (the slot in [`crate::measure`]).

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

fn schema() -> Result<Schema, String> {
    bitwire_compiler::compile_source("delta.bw", SCHEMA).map_err(|d| d.render())
}

/// The delta series of `ticks` (`message`: `World` or `Cubes`): tick 0 is the full
/// snapshot (the join), tick `t` the delta against tick `max(0, t - age)`.
pub fn series<T: Tick>(scenario: &str, message: &str, ticks: &[T]) -> Result<Vec<Series>, String> {
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
        full.push(bytes.len() as u64);
    }
    AGES.iter()
        .map(|&(age, codec)| {
            let mut bytes = vec![full.first().copied().unwrap_or(0)];
            for t in 1..values.len() {
                let base = &values[t.saturating_sub(age)];
                let d = delta(&schema, ty, base, &values[t]).map_err(|e| format!("{scenario} tick {t}, age {age}: {e}"))?;
                bytes.push(d as u64);
            }
            Ok(Series {
                scenario: scenario.into(),
                codec: codec.into(),
                label: format!("bitwire delta, baseline {age} tick{} old", if age == 1 { "" } else { "s" }),
                counted: format!(
                    "tick 0: the full snapshot (the join); tick t: the delta (docs/spec.md §12) against \
                     tick {}, as the reference codec writes it (bitwire_compiler::codec::encode_delta; \
                     generated code writes the same bytes), checked to decode back; no sequence numbers",
                    if age == 1 { "t - 1".to_string() } else { format!("max(0, t - {age})") }
                ),
                bytes,
            })
        })
        .collect()
}

/// The length of the delta of `value` against `base`, checked to decode back.
fn delta(schema: &Schema, ty: TypeId, base: &Value, value: &Value) -> Result<usize, String> {
    let bytes = codec::encode_delta(schema, ty, base, value).map_err(|e| e.to_string())?;
    let back = codec::decode_delta(schema, ty, base, &bytes).map_err(|e| e.to_string())?;
    if &back != value {
        return Err("the delta does not decode to the tick".into());
    }
    Ok(bytes.len())
}
