//! Counting allocations: a global allocator that forwards to the system allocator and,
//! while counting is switched on, counts every `alloc` and `realloc`. A program opts in
//! with `#[global_allocator] static A: CountingAlloc = CountingAlloc;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

static ON: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicU64 = AtomicU64::new(0);

/// The counting allocator (counts only between [`count`]'s start and end).
pub struct CountingAlloc;

// SAFETY: every call is forwarded unchanged to `System`.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if ON.load(Relaxed) {
            COUNT.fetch_add(1, Relaxed);
        }
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if ON.load(Relaxed) {
            COUNT.fetch_add(1, Relaxed);
        }
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if ON.load(Relaxed) {
            COUNT.fetch_add(1, Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

/// The number of allocations `f` makes, or `None` if [`CountingAlloc`] is not the
/// program's global allocator.
pub fn count(f: impl FnOnce()) -> Option<u64> {
    if !installed() {
        return None;
    }
    COUNT.store(0, Relaxed);
    ON.store(true, Relaxed);
    f();
    ON.store(false, Relaxed);
    Some(COUNT.load(Relaxed))
}

/// Whether [`CountingAlloc`] is the global allocator (probed with one allocation).
pub fn installed() -> bool {
    COUNT.store(0, Relaxed);
    ON.store(true, Relaxed);
    drop(std::hint::black_box(Box::new(0u64)));
    ON.store(false, Relaxed);
    COUNT.load(Relaxed) > 0
}
