//! Decodes arbitrary bytes as each message of `examples/game.bw` with the generated
//! Rust code. Properties (bitcode's): decoding never panics; whatever decodes
//! re-encodes to exactly the input (canonical form, spec §2.4), also into a reused
//! buffer; and decoding that again gives an equal value. And the resource bound of
//! spec §11: decoding allocates at most the default budget for the input's length
//! plus the value's fixed part, measured by a counting allocator.
#![no_main]

use bitwire::{Limits, Packed};
use bitwire_count_alloc::{peak_during, Counting};
use bitwire_example::game::{Events, Input, Packet64, Snapshot};
use libfuzzer_sys::fuzz_target;

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fixed part of every message of `examples/game.bw` (no arrays held out of line)
/// and an error's allocation fit in this.
const FIXED: usize = 64 * 1024;

macro_rules! check {
    ($ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let (decoded, peak) = peak_during(|| <$ty>::decode(bytes));
        let bound = Limits::DEFAULT.budget(bytes.len()) as usize + FIXED;
        assert!(
            peak <= bound,
            "decoding {} bytes allocated {peak} (bound {bound})",
            bytes.len()
        );
        if let Ok(value) = decoded {
            let mut buf = vec![0xAA; 3];
            buf.clear();
            value.encode(&mut buf).expect("a decoded value re-encodes");
            assert_eq!(buf, bytes, "decode → encode changed the bytes");
            let again = <$ty>::decode(&buf).expect("re-encoded bytes decode");
            assert_eq!(again, value);
        }
    }};
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, bytes)) = data.split_first() else { return };
    match which % 4 {
        0 => check!(Packet64, bytes),
        1 => check!(Input, bytes),
        2 => check!(Snapshot, bytes),
        _ => check!(Events, bytes),
    }
});
