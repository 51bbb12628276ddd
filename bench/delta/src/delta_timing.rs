//! bitwire's delta encode and decode per tick, with the generated Rust code
//! (`bitwire::Delta`): each tick against the one `age` ticks older, as
//! [`crate::delta_sizes`] measures sizes with the reference codec. Before timing, every
//! generated delta is checked: its length equals the reference codec's for that tick,
//! and it decodes (against the receiver's baseline: the decoded older tick) to what the
//! full encoding of the tick decodes to.

use crate::peers::Tick;
use crate::raw::{Series, Timing};
use crate::stats::median;
use bitwire::{Delta, Packed};
use std::hint::black_box;
use std::time::Instant;

/// The timings of both baseline ages of [`crate::delta_sizes::AGES`], checked against
/// the reference codec's `series` of the same scenario.
pub fn timings<T: Tick>(
    name: &str,
    ticks: &[T],
    rounds: usize,
    series: &[Series],
) -> Result<Vec<Timing>, String>
where
    T::Bw: Delta,
{
    let values: Vec<T::Bw> = ticks.iter().map(Tick::bw).collect();
    let received = values
        .iter()
        .map(|v| {
            let bytes = v.encode_to_vec().map_err(|e| format!("{name}: {e}"))?;
            T::Bw::decode(&bytes).map_err(|e| format!("{name}: {e}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let mut out = Vec::new();
    for &(age, codec) in &crate::delta_sizes::AGES {
        let reference = series
            .iter()
            .find(|s| s.scenario == name && s.codec == codec)
            .ok_or_else(|| format!("{name}: no reference series {codec}"))?;
        let pairs: Vec<(usize, usize)> = (1..values.len())
            .map(|t| (t, t.saturating_sub(age)))
            .collect();
        let mut deltas = Vec::with_capacity(pairs.len());
        for &(t, b) in &pairs {
            let d = values[t]
                .encode_delta_to_vec(&values[b])
                .map_err(|e| format!("{name} tick {t}, age {age}: {e}"))?;
            if d.len() as u64 != reference.bytes[t] {
                return Err(format!(
                    "{name} tick {t}, age {age}: generated delta {} bytes, reference {}",
                    d.len(),
                    reference.bytes[t]
                ));
            }
            let back = T::Bw::decode_delta(&received[b], &d)
                .map_err(|e| format!("{name} tick {t}, age {age}: {e}"))?;
            if back != received[t] {
                return Err(format!(
                    "{name} tick {t}, age {age}: the delta decodes to another value"
                ));
            }
            deltas.push(d);
        }
        let mut buf = Vec::with_capacity(deltas.iter().map(Vec::len).max().unwrap_or(0));
        let encode_ns = per_tick(rounds, pairs.len(), || {
            for &(t, b) in &pairs {
                buf.clear();
                black_box(values[t].encode_delta(&values[b], &mut buf)).ok();
            }
        });
        let decode_ns = per_tick(rounds, pairs.len(), || {
            for (&(_, b), d) in pairs.iter().zip(&deltas) {
                black_box(T::Bw::decode_delta(&received[b], d)).ok();
            }
        });
        out.push(Timing {
            scenario: name.into(),
            codec: codec.into(),
            encode_ns,
            decode_ns,
            rounds,
            note: format!(
                "delta against the tick {age} older (ticks 1..): encode_delta into a reused buffer; decode_delta builds the value from the decoded baseline"
            ),
        });
    }
    Ok(out)
}

/// The median over `rounds` runs of `pass` (one pass over `ticks` ticks), in ns per
/// tick, after one untimed pass.
pub fn per_tick(rounds: usize, ticks: usize, mut pass: impl FnMut()) -> f64 {
    pass();
    let mut ns: Vec<f64> = (0..rounds.max(1))
        .map(|_| {
            let start = Instant::now();
            pass();
            start.elapsed().as_nanos() as f64 / ticks.max(1) as f64
        })
        .collect();
    median(&mut ns).unwrap_or(f64::NAN)
}
