//! Decodes arbitrary bytes as each message of `examples/game.bw` with the generated
//! Rust code. Properties (bitcode's): decoding never panics; whatever decodes
//! re-encodes to exactly the input (canonical form, spec §2.4), also into a reused
//! buffer; and decoding that again gives an equal value. And the resource bound of
//! spec §11: decoding allocates at most the default budget for the input's length
//! plus the value's fixed part, measured by a counting allocator.
#![no_main]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use bitwire::Limits;
use bitwire_example::game::{Events, Input, Packet64, Snapshot};
use libfuzzer_sys::fuzz_target;

/// Counts bytes live and their peak (the fuzzer runs one input at a time).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to the system allocator unchanged; the wrapper only
// updates two atomic counters, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// The fixed part of every message of `examples/game.bw` (no arrays held out of line)
/// and an error's allocation fit in this.
const FIXED: usize = 64 * 1024;

macro_rules! check {
    ($ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let decoded = <$ty>::decode(bytes);
        let peak = PEAK.load(Ordering::Relaxed) - base;
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
