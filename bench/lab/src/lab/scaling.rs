//! `packet64` throughput at growing dataset sizes: packets generated with
//! `bitwire_bench::dataset` (seed 42, checked against the corpus), each library encoding
//! every packet into one contiguous buffer and decoding them back from it.

use std::hint::black_box;

use bitwire_bench::dataset;
use bitwire_example::game as bw;
use serde_json::{json, Value};

use super::harness::{compare, Plan};
use crate::peers::codecs::{Bincode1, Bitcode, Bitwire, Handwritten, Wincode};
use crate::peers::{plain, Codec};

/// One library's encode and decode passes over the first `n` packets.
struct Lane<'a> {
    library: &'static str,
    encode: Box<dyn FnMut(usize) + 'a>,
    decode: Box<dyn FnMut(usize) + 'a>,
}

/// Encodes every value into one stream; checks that each encoding has the same size
/// (so the stream can be split without lengths) and decodes back to its value.
fn lane<'a, M, C>(library: &'static str, values: &'a [M]) -> Result<Lane<'a>, String>
where
    M: PartialEq,
    C: Codec<M> + Default + 'a,
{
    let mut codec = C::default();
    let mut stream = Vec::new();
    for m in values {
        codec.append(m, &mut stream);
    }
    let size = stream.len() / values.len().max(1);
    if size == 0 || stream.len() != size * values.len() {
        return Err(format!(
            "{library}: packets do not all encode to the same size"
        ));
    }
    for (m, chunk) in values.iter().zip(stream.chunks_exact(size)) {
        if codec.value(chunk).as_ref() != Some(m) {
            return Err(format!("{library}: a packet does not round-trip"));
        }
    }
    let mut enc = C::default();
    let mut out: Vec<u8> = Vec::new();
    let mut dec = C::default();
    Ok(Lane {
        library,
        encode: Box::new(move |n| {
            out.clear();
            for m in &values[..n] {
                enc.append(black_box(m), &mut out);
            }
            black_box(&out);
        }),
        decode: Box::new(move |n| {
            for chunk in stream[..n * size].chunks_exact(size) {
                black_box(dec.decode(black_box(chunk)));
            }
        }),
    })
}

/// Runs one side (`encode` or `decode`) of every lane on `n` packets; packets per second.
fn side(lanes: &mut [Lane<'_>], encode: bool, n: usize, plan: Plan) -> Vec<f64> {
    let mut passes: Vec<Box<dyn FnMut() + '_>> = lanes
        .iter_mut()
        .map(|l| {
            let f = if encode { &mut l.encode } else { &mut l.decode };
            Box::new(move || f(n)) as Box<dyn FnMut() + '_>
        })
        .collect();
    let mut fs: Vec<&mut dyn FnMut()> = passes
        .iter_mut()
        .map(|b| &mut **b as &mut dyn FnMut())
        .collect();
    compare(plan, n, &mut fs)
        .into_iter()
        .map(|ns| 1e9 / ns)
        .collect()
}

/// The `scaling` array of the raw result file: every size in `sizes` (ascending) for
/// bitwire, handwritten, bitcode, wincode and bincode 1.3. `corpus` is the corpus's
/// packet64 dataset, which the generated packets must start with; `plan(n)` says how to
/// time `n` packets; `progress` receives one line per step.
pub fn scaling(
    sizes: &[usize],
    corpus: &[bw::Packet64],
    plan: impl Fn(usize) -> Plan,
    progress: &mut dyn FnMut(String),
) -> Result<Vec<Value>, String> {
    let largest = sizes.iter().copied().max().unwrap_or(0);
    progress(format!(
        "packet64 scaling: generating {largest} packets (seed 42)"
    ));
    let packets = dataset::packet64(largest);
    let common = corpus.len().min(largest);
    if packets[..common] != corpus[..common] {
        return Err("generated packets differ from the corpus's packet64".to_string());
    }
    let plain: Vec<plain::Packet64> = packets.iter().map(plain::Packet64::from).collect();
    progress("packet64 scaling: checking every library on every packet".to_string());
    let mut lanes = Vec::new();
    for l in [
        lane::<_, Bitwire>("bitwire", &packets),
        lane::<_, Handwritten>("handwritten", &packets),
        lane::<_, Bitcode>("bitcode", &plain),
        lane::<_, Wincode>("wincode", &plain),
        lane::<_, Bincode1>("bincode1", &plain),
    ] {
        match l {
            Ok(l) => lanes.push(l),
            Err(e) => eprintln!("[rust] packet64 scaling: left out: {e}"),
        }
    }
    let mut out = Vec::new();
    for &n in sizes {
        progress(format!(
            "packet64 scaling: {n} packets, encode/decode ({} libraries)",
            lanes.len()
        ));
        let enc = side(&mut lanes, true, n, plan(n));
        let dec = side(&mut lanes, false, n, plan(n));
        for ((l, e), d) in lanes.iter().zip(enc).zip(dec) {
            out.push(json!({
                "library": l.library,
                "packets": n,
                "encode_pps": e,
                "decode_pps": d,
            }));
        }
    }
    Ok(out)
}
