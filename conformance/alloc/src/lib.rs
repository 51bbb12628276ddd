//! A counting global allocator: bytes live on the current thread and their peak, so
//! tests can measure what decoding one input (or compiling one schema) allocates. The
//! one counting allocator of the Rust tests (conformance, the compiler's tests, the
//! fuzz targets). A binary or test that wants the numbers installs it:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOC: bitwire_count_alloc::Counting = bitwire_count_alloc::Counting;
//! ```
//!
//! Without it installed, [`peak_during`] reports 0.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the bytes live on this thread, and the peak since the last reset.
pub struct Counting;

thread_local! {
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: delegates every call to `System` unchanged; only updates two thread-local
// counters, which never allocate (const-initialized `Cell`s).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.with(|l| l.get()) + layout.size();
        LIVE.with(|l| l.set(live));
        PEAK.with(|p| p.set(p.get().max(live)));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.with(|l| l.set(l.get().saturating_sub(layout.size())));
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Peak bytes allocated on this thread while running `f`, above what was live before.
pub fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = LIVE.with(|l| l.get());
    PEAK.with(|p| p.set(base));
    let r = f();
    (r, PEAK.with(|p| p.get()) - base)
}
