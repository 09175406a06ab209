//! The `surqlc` binary's allocator, shared with the benches (by `#[path]`) so their figures are the CLI's.
//!
//! A build of thousands of tables makes millions of small allocations (syn's tokens): with
//! mimalloc instead of glibc's allocator, and freed memory kept for reuse instead of returned to
//! the OS and faulted in again, `surqlc build` of 10,000 tables takes half the time (docs/scale.md).

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc.h (v2 and v3); libmimalloc-sys names no constant for it.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// mimalloc's default purge delays (milliseconds; v3, v2): what the option reads when it is the one we mean.
const DEFAULT_PURGE_DELAYS: [std::os::raw::c_long; 2] = [1000, 10];

/// A run lasts seconds at most: never hand freed memory back to the OS. Left alone if the option
/// does not read as the purge delay's default (another mimalloc, or `MIMALLOC_PURGE_DELAY` set).
pub fn keep_freed_memory() {
    // SAFETY: reads and sets one of mimalloc's options by number; no pointer is involved.
    unsafe {
        if DEFAULT_PURGE_DELAYS.contains(&libmimalloc_sys::mi_option_get(PURGE_DELAY)) {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, -1);
        }
    }
}
