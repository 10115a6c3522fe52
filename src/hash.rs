//! The hash maps and sets the core keeps, on foldhash's fast hasher instead
//! of std's SipHash: every key is a short string or a number, hashed in the
//! hot loops (the strict rules fingerprint each object they close; the ref
//! index, the wide-object key index, the report's counters), where SipHash
//! was about a fortieth of openai-strict's instructions. Nothing iterates
//! these maps into an output (std's seeds were random per process natively),
//! so the hasher changes no output.
pub type State = foldhash::fast::RandomState;
pub type HashMap<K, V> = std::collections::HashMap<K, V, State>;
pub type HashSet<K> = std::collections::HashSet<K, State>;
pub type IndexMap<K, V> = indexmap::IndexMap<K, V, State>;

/// A hasher with a fixed seed, for a structural hash compared within a call.
pub fn fixed_hasher() -> WordHasher {
    WordHasher(0)
}

/// The structural hashes' hasher (merge.rs's fingerprint of every object a
/// strict target closes, values.rs's bucketing of long lists): each word
/// written is mixed in by one rotate, xor and 64-bit multiply (FxHash's
/// step). foldhash mixes by a 64×64→128-bit multiply, which wasm32 does
/// not have and builds from four smaller ones; the fingerprints alone were
/// 4% of an openai-strict call's operators. Its results are only compared
/// with each other, or bucketed again by a `HashMap`'s own seeded hasher,
/// so a weaker mix costs at most a collision: a merge reading an object as
/// one the target closed, or a bucket holding one more value to compare.
pub struct WordHasher(u64);

impl WordHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl std::hash::Hasher for WordHasher {
    /// The length, then the bytes eight at a time, the last word padded with
    /// zeros (the length tells `"a"` from `"a\0"`).
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.add(bytes.len() as u64);
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.add(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(last));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u16(&mut self, i: u16) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::fixed_hasher;
    use std::hash::{Hash, Hasher};

    fn hash_of(v: impl Hash) -> u64 {
        let mut h = fixed_hasher();
        v.hash(&mut h);
        h.finish()
    }

    /// Strings of NUL bytes differ only in length, which the zero padding of
    /// the last word would hide; so do byte slices one word long and longer.
    #[test]
    fn texts_that_pad_alike_hash_apart() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..=24 {
            assert!(seen.insert(hash_of("\0".repeat(n))), "{n} NULs");
            assert!(seen.insert(hash_of(&vec![0u8; n][..])), "{n} zero bytes");
        }
        assert_ne!(hash_of(("ab", "c")), hash_of(("a", "bc")));
        assert_eq!(hash_of(("type", 3u8)), hash_of(("type", 3u8)));
    }
}
