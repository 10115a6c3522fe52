//! Sorting with one copy of the sorting code. The standard library's sorts are
//! generic over the element and the comparison, so each call site compiled
//! its own (five stable and five unstable instantiations, about 62 KB of the
//! 1 MB wasm module). Here the work is one merge sort over indices, comparing
//! through a `dyn` reference; only moving the elements into their new order is
//! per type. Stable: where it stands in for `sort_unstable`, equal elements
//! are indistinguishable, so the result is the same.
use std::cmp::Ordering;

/// Sorts `v` by `cmp`, stably.
pub fn sort_by<T>(v: &mut Vec<T>, cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = permutation(v.len(), &|a, b| cmp(&v[a], &v[b]));
    let mut slots: Vec<Option<T>> = v.drain(..).map(Some).collect();
    v.extend(order.into_iter().filter_map(|i| slots[i].take()));
}

/// Sorts `v` by `key`, stably.
pub fn sort_by_key<T, K: Ord>(v: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `v` in its natural order.
pub fn sort<T: Ord>(v: &mut Vec<T>) {
    sort_by(v, T::cmp);
}

/// The order of `0..n` sorted by `cmp` on indices: a bottom-up merge sort,
/// O(n log n) comparisons, stable (ties keep the lower index first).
fn permutation(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut from: Vec<usize> = (0..n).collect();
    let mut to = vec![0; n];
    let mut width = 1;
    while width < n {
        let mut start = 0;
        while start < n {
            let mid = (start + width).min(n);
            let end = (start + 2 * width).min(n);
            let (mut l, mut r, mut k) = (start, mid, start);
            while l < mid && r < end {
                // The right run's element goes first only when strictly less: stable.
                if cmp(from[r], from[l]) == Ordering::Less {
                    to[k] = from[r];
                    r += 1;
                } else {
                    to[k] = from[l];
                    l += 1;
                }
                k += 1;
            }
            to[k..k + (mid - l)].copy_from_slice(&from[l..mid]);
            k += mid - l;
            to[k..k + (end - r)].copy_from_slice(&from[r..end]);
            start = end;
        }
        std::mem::swap(&mut from, &mut to);
        width *= 2;
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_as_the_standard_stable_sort_does() {
        let mut seed = 7u64;
        for n in [0, 1, 2, 3, 7, 8, 9, 31, 64, 100, 1000] {
            let mut v: Vec<(u8, usize)> = (0..n)
                .map(|i| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    ((seed >> 59) as u8, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            sort_by_key(&mut v, |p| p.0);
            assert_eq!(v, want, "n = {n}");
        }
        let mut words = vec!["b", "a", "c", "a"];
        sort(&mut words);
        assert_eq!(words, ["a", "a", "b", "c"]);
    }
}
