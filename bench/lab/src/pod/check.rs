//! The round-trip check every pod codec passes before it is timed (also the warm-up),
//! in the mode it is timed in: a reuse codec is checked through its reused buffers,
//! which start out holding other bytes and values, so a codec that appends instead of
//! replacing, or keeps stale values, fails here rather than being timed.

use super::peers::{Codec, Decode, Encode, Encoded, PodElem};

/// A wrapping sum of the values' bits: what the zero-copy "read every value" computes.
pub fn checksum<E: PodElem>(values: &[E]) -> u64 {
    values
        .iter()
        .fold(0u64, |acc, v| acc.wrapping_add(v.bits()))
}

/// Whether `a` and `b` hold the same values, bit for bit.
pub fn same<E: PodElem>(a: &[E], b: &[E]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.bits() == y.bits())
}

/// A codec's state after its check: the encoding (for a reuse encoder, its reused
/// buffer, which every timed call rewrites) and, for a reuse decoder, the reused values.
pub struct Checked<E> {
    /// The block's encoding.
    pub enc: Encoded,
    /// The reused decoded values (empty unless the decoder is `Decode::Reuse`).
    pub values: Vec<E>,
}

/// What a reused output buffer holds before the first call (it must be replaced).
const STALE_BYTES: [u8; 5] = [0xA5; 5];
/// How many stale values a reused decoded `Vec` holds before the first call.
const STALE_VALUES: usize = 3;

/// Checks that `codec` round-trips `values`: the decoded values equal the input and, for
/// zero-copy libraries, `read` gives their checksum. Returns the encoding and the reused
/// values, or why not.
pub fn round_trip<E: PodElem>(codec: &Codec<E>, values: &mut Vec<E>) -> Result<Checked<E>, String> {
    let enc = match codec.encode {
        Encode::Fresh(f) => f(values),
        Encode::Reuse(f) => {
            let mut buf = STALE_BYTES.to_vec();
            f(values, &mut buf);
            Encoded::whole(buf)
        }
    };
    let differ = |back: &[E]| {
        format!(
            "decoded {} values that differ from the {} encoded",
            back.len(),
            values.len()
        )
    };
    let mut reused = Vec::new();
    match codec.decode {
        Decode::Fresh(decode) | Decode::Read { decode, .. } => {
            let back = decode(enc.bytes()).ok_or("its decoder rejects its own encoding")?;
            if !same(&back, values) {
                return Err(differ(&back));
            }
        }
        Decode::Reuse(decode) => {
            reused = vec![E::zeroed(); STALE_VALUES];
            if !decode(enc.bytes(), &mut reused) {
                return Err("its decoder rejects its own encoding".into());
            }
            if !same(&reused, values) {
                return Err(differ(&reused));
            }
        }
    }
    if let Decode::Read { read, .. } = codec.decode {
        if read(enc.bytes()) != Some(checksum(values)) {
            return Err("reading every value gives a different checksum".into());
        }
    }
    Ok(Checked {
        enc,
        values: reused,
    })
}
