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
pub fn fixed_hasher() -> foldhash::fast::FoldHasher<'static> {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::default().build_hasher()
}
