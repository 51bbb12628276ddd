//! Decodes arbitrary bytes as each message of `examples/game.bw` with the generated
//! Rust code. Properties (bitcode's): decoding never panics; whatever decodes
//! re-encodes to exactly the input (canonical form, spec §2.4), also into a reused
//! buffer; and decoding that again gives an equal value.
#![no_main]

use bitwire_example::game::{Events, Input, Packet64, Snapshot};
use libfuzzer_sys::fuzz_target;

macro_rules! check {
    ($ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        if let Ok(value) = <$ty>::decode(bytes) {
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
