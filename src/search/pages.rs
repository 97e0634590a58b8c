//! Memory for the transposition table: one block aligned to 2 MB that Linux is asked
//! to back with huge pages. A table of megabytes probed at random misses the
//! translation cache at nearly every probe with 4 KB pages; with 2 MB pages a 16 MB
//! table needs only eight entries of it. Elsewhere the block is ordinary memory.

use rayon::prelude::*;
use std::alloc::{self, Layout};
use std::mem::MaybeUninit;
use std::ptr::NonNull;

/// The alignment asked for: the size of an x86-64 (and most arm64) huge page.
const HUGE_PAGE: usize = 2 << 20;

/// Bytes written by one task of a parallel fill or clear (1 MB).
pub const BYTES_PER_TASK: usize = 1 << 20;

/// A fixed number of `T`, allocated but not yet written: writing is what commits
/// the pages, so [`Reserved::fill`] does it (in parallel, perhaps on another thread).
pub struct Reserved<T> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: a `Reserved` owns its memory alone, as a `Vec<T>` does.
unsafe impl<T: Send> Send for Reserved<T> {}

/// A fixed number of `T` in huge-page-aligned memory, every one written.
pub struct PageBlock<T> {
    ptr: NonNull<T>,
    len: usize,
}

// SAFETY: a `PageBlock` owns its elements as a `Box<[T]>` does.
unsafe impl<T: Send> Send for PageBlock<T> {}
// SAFETY: shared access hands out only `&T`, as a `Box<[T]>` does.
unsafe impl<T: Sync> Sync for PageBlock<T> {}

fn layout<T>(len: usize) -> Option<Layout> {
    let size = std::mem::size_of::<T>().checked_mul(len)?;
    let align = std::mem::align_of::<T>().max(if size >= HUGE_PAGE { HUGE_PAGE } else { 1 });
    Layout::from_size_align(size.max(1), align).ok()
}

impl<T> Reserved<T> {
    /// Room for `len` (at least one) `T`; None when the system refuses the memory.
    pub fn new(len: usize) -> Option<Reserved<T>> {
        const { assert!(std::mem::size_of::<T>() > 0) };
        let len = len.max(1);
        let layout = layout::<T>(len)?;
        // SAFETY: the layout's size is not zero.
        let ptr = NonNull::new(unsafe { alloc::alloc(layout) }.cast::<T>())?;
        advise_huge_pages(ptr.as_ptr().cast(), layout.size());
        Some(Reserved { ptr, len })
    }

    /// The block, each element `T::default()`, written in parallel (on the current
    /// rayon pool, else the global one).
    pub fn fill(self) -> PageBlock<T>
    where
        T: Default + Send,
    {
        let this = std::mem::ManuallyDrop::new(self);
        let (ptr, len) = (this.ptr, this.len);
        // SAFETY: the memory is ours alone, `len` elements long and aligned for `T`;
        // `MaybeUninit` makes no claim that it is written.
        let slots =
            unsafe { std::slice::from_raw_parts_mut(ptr.as_ptr().cast::<MaybeUninit<T>>(), len) };
        let per_task = (BYTES_PER_TASK / std::mem::size_of::<T>()).max(1);
        slots.par_chunks_mut(per_task).for_each(|chunk| {
            for slot in chunk {
                slot.write(T::default());
            }
        });
        PageBlock { ptr, len }
    }
}

impl<T> Drop for Reserved<T> {
    fn drop(&mut self) {
        if let Some(layout) = layout::<T>(self.len) {
            // SAFETY: allocated in `new` with this very layout; nothing was written,
            // so nothing needs dropping.
            unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
        }
    }
}

impl<T> std::ops::Deref for PageBlock<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `fill` wrote all `len` elements, and the block lives as long as self.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T> Drop for PageBlock<T> {
    fn drop(&mut self) {
        // SAFETY: every element was written by `fill` and is dropped once, here.
        unsafe {
            std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(
                self.ptr.as_ptr(),
                self.len,
            ))
        };
        if let Some(layout) = layout::<T>(self.len) {
            // SAFETY: allocated by `Reserved::new` with this very layout.
            unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
        }
    }
}

/// Ask Linux to back the block with huge pages. Only advice: where the kernel
/// declines (or on other systems) the block is ordinary memory and works the same.
#[cfg(target_os = "linux")]
fn advise_huge_pages(addr: *mut std::ffi::c_void, len: usize) {
    /// `MADV_HUGEPAGE` of Linux's `<sys/mman.h>`.
    const MADV_HUGEPAGE: std::ffi::c_int = 14;
    unsafe extern "C" {
        // The C library's, linked into every Rust program on Linux.
        fn madvise(
            addr: *mut std::ffi::c_void,
            len: usize,
            advice: std::ffi::c_int,
        ) -> std::ffi::c_int;
    }
    if len >= HUGE_PAGE {
        // SAFETY: the range is one live allocation of ours; the call only advises
        // and its failure is harmless, so its result is ignored.
        let _ = unsafe { madvise(addr, len, MADV_HUGEPAGE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut std::ffi::c_void, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_filled_block_holds_defaults_and_is_aligned() {
        let block = Reserved::<[u64; 3]>::new(200_000).expect("5 MB").fill();
        assert_eq!(block.len(), 200_000);
        assert_eq!(block.as_ptr() as usize % HUGE_PAGE, 0);
        assert!(block.iter().all(|x| *x == [0; 3]));
        let small = Reserved::<u8>::new(0).expect("one byte").fill();
        assert_eq!(&*small, &[0]);
        // Reserved and dropped unwritten.
        drop(Reserved::<u64>::new(1 << 20));
    }

    #[test]
    fn an_absurd_size_is_refused() {
        assert!(Reserved::<[u64; 6]>::new(usize::MAX / 8).is_none());
    }
}
