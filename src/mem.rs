//! `memcmp` for the wasm module, eight bytes a step.
//!
//! Every comparison of two strings or byte slices the core makes (a key
//! against a name, a type against `"object"`, a branch against another)
//! calls it. On wasm32 the standard library's comes from compiler_builtins
//! and compares a byte at a time; its definition is a weak symbol, so this
//! one takes its place at link time. Kept out of line: inlined at every
//! comparison it made the module 36 KB larger and the calls slower.
//! Natively (for its tests) only `compare` is built: the platform's C
//! library has its own `memcmp`.
use core::ptr::read_unaligned;

/// The module's `memcmp` (see the module's comment).
///
/// # Safety
/// As `compare`.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
#[inline(never)]
pub unsafe extern "C" fn memcmp(a: *const u8, b: *const u8, n: usize) -> i32 {
    // SAFETY: the caller's promise is compare's.
    unsafe { compare(a, b, n) }
}

/// Compares `n` bytes at `a` and `b` as unsigned bytes: negative, zero or
/// positive as `a`'s first differing byte is below, equal to or above `b`'s.
///
/// # Safety
/// `a` and `b` must each be valid for reads of `n` bytes.
#[inline(always)]
unsafe fn compare(a: *const u8, b: *const u8, n: usize) -> i32 {
    let mut i = 0;
    // SAFETY (each read): below `n`, for which both are valid.
    unsafe {
        while i + 8 <= n {
            let (x, y) = (read_unaligned(a.add(i) as *const u64), read_unaligned(b.add(i) as *const u64));
            if x != y {
                // Little-endian: the lowest differing bit is in the first differing byte.
                return first_difference(a, b, i + ((x ^ y).trailing_zeros() / 8) as usize);
            }
            i += 8;
        }
        if i + 4 <= n {
            let (x, y) = (read_unaligned(a.add(i) as *const u32), read_unaligned(b.add(i) as *const u32));
            if x != y {
                return first_difference(a, b, i + ((x ^ y).trailing_zeros() / 8) as usize);
            }
            i += 4;
        }
        while i < n {
            if *a.add(i) != *b.add(i) {
                return first_difference(a, b, i);
            }
            i += 1;
        }
    }
    0
}

/// `a[at] - b[at]`, as unsigned bytes.
///
/// # Safety
/// `at` is below the `n` both are valid for.
#[inline(always)]
unsafe fn first_difference(a: *const u8, b: *const u8, at: usize) -> i32 {
    // SAFETY: the caller's.
    unsafe { i32::from(*a.add(at)) - i32::from(*b.add(at)) }
}

#[cfg(test)]
mod tests {
    use super::compare;

    /// Every length to 40, one byte changed at every place, each way, with
    /// bytes on both sides of 0x80 (compared unsigned).
    #[test]
    fn orders_as_slices_do_at_every_length_and_place() {
        for n in 0..=40usize {
            let a: Vec<u8> = (0..n).map(|i| (i * 37 % 251) as u8).collect();
            assert_eq!(unsafe { compare(a.as_ptr(), a.as_ptr(), n) }, 0, "equal, {n}");
            for at in 0..n {
                for byte in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                    let mut b = a.clone();
                    b[at] = byte;
                    let want = a.cmp(&b);
                    for (x, y, want) in [(&a, &b, want), (&b, &a, want.reverse())] {
                        let got = unsafe { compare(x.as_ptr(), y.as_ptr(), n) };
                        assert_eq!(got.cmp(&0), want, "{n} bytes, {byte:#x} at {at}");
                    }
                }
            }
        }
    }
}
