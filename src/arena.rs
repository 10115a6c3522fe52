//! The module's allocator: a bump region for the duration of each export
//! call, in front of the standard one.
//!
//! A call parses a schema into a tree, rewrites it, writes it out and drops
//! it: tens of thousands of small allocations, all dead by the time the call
//! returns. Through the standard allocator (dlmalloc) every one of them is a
//! malloc and a free; natively, malloc and free were about a quarter of the
//! instructions of a pass over the real MCP schemas. Here, inside a call, an
//! allocation moves a pointer and a free does nothing (or gives back the last
//! block), and the next call starts the region over.
//!
//! Safe because of what lives across calls: nothing the core allocates does.
//! The core keeps no lazy tables or caches on the heap (foldhash's seed is a
//! plain static), and anything added that would (a `OnceLock`'d table, a
//! thread-local cache) must not allocate inside a call. The answer string a
//! call returns is read and freed by the glue before the export returns to
//! JavaScript, so it is dead before the next call starts. What the glue
//! allocates between calls (the input strings) is outside any call and comes
//! from the standard allocator. A block is told apart by its address, never
//! by the mode at the time it is freed. A panic aborts into a trap, and the
//! shim replaces the instance, memory and all.
//!
//! A value made inside a call may be left in the region instead of dropped
//! (`CallArena::may_leave`, `crate::pipeline::discard`): the answer's tree is, once
//! written out, when no block of the call came from the standard allocator.
//!
//! Bounded: the region starts small and grows to what calls needed, up to
//! `MAX_REGION` (4 MiB); past the region's end a call takes its blocks from the
//! standard allocator and frees them there. So a 10 MB schema costs what it
//! did, plus the region once grown (at most 4 MiB, kept), and memory does not
//! grow across repeated calls.
use core::alloc::{GlobalAlloc, Layout};
use core::cell::Cell;
use std::alloc::System;

/// The module's allocator (the wasm build only; tests make their own).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
pub static ALLOC: CallArena = CallArena::new();

#[cfg(all(target_arch = "wasm32", target_feature = "atomics"))]
compile_error!("the call arena assumes one thread: wasm32 without the atomics feature");

const FIRST_REGION: usize = 256 * 1024;
const MAX_REGION: usize = 4 * 1024 * 1024;

pub struct CallArena {
    /// The region: [start, end). Empty until the first call.
    start: Cell<usize>,
    end: Cell<usize>,
    /// The next free byte of the region.
    next: Cell<usize>,
    /// Nested calls (an export calling another): only the outermost resets.
    depth: Cell<u32>,
    /// Bytes the current call took from the standard allocator because the
    /// region was full: what the region grows by before the next call.
    overflow: Cell<usize>,
}

// wasm32 without atomics runs one thread (checked above).
unsafe impl Sync for CallArena {}

impl CallArena {
    pub const fn new() -> Self {
        CallArena { start: Cell::new(0), end: Cell::new(0), next: Cell::new(0), depth: Cell::new(0), overflow: Cell::new(0) }
    }

    fn owns(&self, ptr: *mut u8) -> bool {
        let p = ptr as usize;
        p >= self.start.get() && p < self.end.get()
    }

    /// A block from the region, or None when it does not fit.
    fn bump(&self, layout: Layout) -> Option<*mut u8> {
        let at = self.next.get().checked_add(layout.align() - 1)? & !(layout.align() - 1);
        let end = at.checked_add(layout.size())?;
        (end <= self.end.get()).then(|| {
            self.next.set(end);
            at as *mut u8
        })
    }

    /// Runs one export call with the region in use.
    pub fn call<R>(&'static self, f: impl FnOnce() -> R) -> R {
        let depth = self.depth.get();
        if depth == 0 {
            self.reset();
        }
        self.depth.set(depth + 1);
        let out = f();
        self.depth.set(depth);
        out
    }

    /// Whether a value made inside the current call may be left to the region
    /// instead of dropped: inside a call, and every block of the call came
    /// from the region (none overflowed to the standard allocator), so the
    /// next call's reset takes them all back. Dropping would walk the whole
    /// tree only to free nothing.
    pub fn may_leave(&self) -> bool {
        self.depth.get() > 0 && self.overflow.get() == 0
    }

    /// Starts the region over, first growing it to what the last call needed.
    fn reset(&self) {
        let size = self.end.get() - self.start.get();
        let wanted = size.saturating_add(self.overflow.get()).clamp(FIRST_REGION, MAX_REGION);
        if size < wanted {
            let grown = wanted.next_power_of_two().min(MAX_REGION);
            // SAFETY: the old region's blocks all belong to calls that have
            // returned; alignment 16 suits every block the core asks for.
            unsafe {
                if size > 0 {
                    System.dealloc(self.start.get() as *mut u8, Layout::from_size_align_unchecked(size, 16));
                }
                let at = System.alloc(Layout::from_size_align_unchecked(grown, 16));
                let (start, end) = if at.is_null() { (0, 0) } else { (at as usize, at as usize + grown) };
                self.start.set(start);
                self.end.set(end);
            }
        }
        self.next.set(self.start.get());
        self.overflow.set(0);
    }
}

unsafe impl GlobalAlloc for CallArena {
    #[inline(never)]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if self.depth.get() > 0 {
            if let Some(at) = self.bump(layout) {
                return at;
            }
            self.overflow.set(self.overflow.get().saturating_add(layout.size()));
        }
        System.alloc(layout)
    }

    #[inline(never)]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        if self.owns(ptr) {
            // The last block goes back (a string built and dropped, a
            // temporary vector); any other waits for the next call.
            if ptr as usize + layout.size() == self.next.get() {
                self.next.set(ptr as usize);
            }
            return;
        }
        System.dealloc(ptr, layout)
    }

    #[inline(never)]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !self.owns(ptr) {
            return System.realloc(ptr, layout, new_size);
        }
        let p = ptr as usize;
        if p + layout.size() == self.next.get() && self.depth.get() > 0 {
            // The last block grows or shrinks where it is.
            if let Some(end) = p.checked_add(new_size).filter(|&e| e <= self.end.get()) {
                self.next.set(end);
                return ptr;
            }
        }
        if new_size <= layout.size() {
            return ptr;
        }
        let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
        let to = self.alloc(new_layout);
        if !to.is_null() {
            core::ptr::copy_nonoverlapping(ptr, to, layout.size());
            self.dealloc(ptr, layout);
        }
        to
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arena() -> &'static CallArena {
        Box::leak(Box::new(CallArena::new()))
    }

    fn layout(size: usize, align: usize) -> Layout {
        Layout::from_size_align(size, align).unwrap()
    }

    #[test]
    fn blocks_inside_a_call_come_from_the_region_and_do_not_overlap() {
        let a = arena();
        a.call(|| unsafe {
            let mut blocks = Vec::new();
            for (i, (size, align)) in [(3, 1), (8, 8), (1, 16), (40, 4), (7, 2)].into_iter().enumerate() {
                let p = a.alloc(layout(size, align));
                assert!(a.owns(p), "block {i} is outside the region");
                assert_eq!(p as usize % align, 0, "block {i} is misaligned");
                core::ptr::write_bytes(p, i as u8 + 1, size);
                blocks.push((p, size, i as u8 + 1));
            }
            for &(p, size, byte) in &blocks {
                assert!((0..size).all(|k| *p.add(k) == byte), "a later block overwrote an earlier one");
            }
        });
    }

    #[test]
    fn values_may_be_left_only_inside_a_call_that_did_not_overflow() {
        let a = arena();
        assert!(!a.may_leave());
        a.call(|| {
            assert!(a.may_leave());
            unsafe {
                let big = layout(MAX_REGION * 2, 8);
                let p = a.alloc(big);
                assert!(!a.owns(p));
                assert!(!a.may_leave(), "a block outside the region would leak");
                a.dealloc(p, big);
            }
        });
        assert!(!a.may_leave());
    }

    #[test]
    fn outside_a_call_blocks_come_from_the_standard_allocator() {
        let a = arena();
        a.call(|| ());
        unsafe {
            let p = a.alloc(layout(64, 8));
            assert!(!a.owns(p));
            a.dealloc(p, layout(64, 8));
        }
    }

    #[test]
    fn the_last_block_is_given_back_and_grows_in_place() {
        let a = arena();
        a.call(|| unsafe {
            let first = a.alloc(layout(16, 8));
            let p = a.alloc(layout(10, 1));
            a.dealloc(p, layout(10, 1));
            assert_eq!(a.alloc(layout(10, 1)), p, "the freed last block was not reused");
            core::ptr::copy_nonoverlapping(b"0123456789".as_ptr(), p, 10);
            let grown = a.realloc(p, layout(10, 1), 1000);
            assert_eq!(grown, p, "the last block moved to grow");
            // Not the last block: it moves, and keeps its contents.
            core::ptr::write_bytes(first, 7, 16);
            let moved = a.realloc(first, layout(16, 8), 32);
            assert_ne!(moved, first);
            assert!((0..16).all(|k| *moved.add(k) == 7));
            assert_eq!(std::slice::from_raw_parts(grown, 10), b"0123456789");
        });
    }

    #[test]
    fn a_full_region_overflows_and_the_next_call_gets_a_bigger_one() {
        let a = arena();
        let first = a.call(|| unsafe {
            let p = a.alloc(layout(FIRST_REGION + 1, 1));
            assert!(!a.owns(p), "a block bigger than the region came from it");
            *p.add(FIRST_REGION) = 1;
            a.dealloc(p, layout(FIRST_REGION + 1, 1));
            a.end.get() - a.start.get()
        });
        assert_eq!(first, FIRST_REGION);
        a.call(|| unsafe {
            assert!(a.end.get() - a.start.get() > FIRST_REGION, "the region did not grow");
            let p = a.alloc(layout(FIRST_REGION + 1, 1));
            assert!(a.owns(p));
        });
        // Never past the bound, however much a call asked for.
        a.call(|| unsafe {
            let p = a.alloc(layout(10 * MAX_REGION, 1));
            a.dealloc(p, layout(10 * MAX_REGION, 1));
        });
        a.call(|| assert_eq!(a.end.get() - a.start.get(), MAX_REGION));
    }

    #[test]
    fn the_next_call_starts_the_region_over_and_nested_calls_do_not() {
        let a = arena();
        let outer = a.call(|| unsafe {
            let p = a.alloc(layout(32, 8));
            let inner = a.call(|| a.alloc(layout(32, 8)));
            assert_ne!(inner, p, "a nested call reset the region under its caller");
            p
        });
        assert_eq!(a.call(|| unsafe { a.alloc(layout(32, 8)) }), outer);
    }
}
