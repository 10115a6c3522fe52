//! The object of a [`Value`]: members in order, in one vector.
//!
//! Key order is data, so a map is its members' vector and nothing else: no
//! hash table to build, hash into or free for the handful of keywords a
//! schema node has. Lookups compare keys in place. The semantics are those of
//! `serde_json::Map` with `preserve_order` (the model this replaces): an
//! insert of a present key keeps its position and takes the new value,
//! `remove` swaps the last member into the gap, `shift_remove` closes it, and
//! two maps are equal when they hold the same members in any order.
//!
//! A map past `INDEXED` members (a wide `properties`, a long `$defs`) also
//! keeps a hash index of its member positions, kept exact by every edit, so
//! no lookup pattern turns quadratic. It is one pointer wide, so a value
//! stays small, and holds no copy of a key.
use super::key::Key;
use super::value::Value;
use crate::keywords::table::Keyword;
use hashbrown::HashTable;
use crate::hash::State;
use std::hash::BuildHasher;
use std::fmt;

/// The bit of table row `row` in `Map::rows`: none past the first 32.
#[inline]
fn bit(row: u8) -> u32 {
    1u32.checked_shl(row as u32).unwrap_or(0)
}

/// The bit of `key`'s table row, if it names a keyword.
#[inline]
fn row_bit(key: &Key) -> u32 {
    key.keyword().map_or(0, |k| bit(k.row))
}

/// `Map::rows` worked out from the members.
fn rows_of(members: &[(Key, Value)]) -> u32 {
    members.iter().fold(0, |rows, (k, _)| rows | row_bit(k))
}

/// Up to this many members, keys are compared in place.
const INDEXED: usize = 24;

/// An ordered JSON object.
#[derive(Clone, Default)]
pub struct Map {
    members: Vec<(Key, Value)>,
    /// Where each key is, for a map past `INDEXED` members.
    index: Option<Box<KeyIndex>>,
    /// Which of the table's first 32 keywords (the most used) are among the
    /// keys, one bit each: a lookup of one the map lacks (most of what rules
    /// ask) compares nothing. 32 bits keep a value at 20 bytes in wasm.
    rows: u32,
}

/// Member positions in a hash table keyed by their keys' hashes: the keys
/// themselves stay in `members`, so an index costs a word per member.
#[derive(Clone)]
struct KeyIndex {
    table: HashTable<usize>,
    hasher: State,
}

impl KeyIndex {
    fn build(members: &[(Key, Value)]) -> KeyIndex {
        let mut index = KeyIndex { table: HashTable::with_capacity(members.len()), hasher: State::default() };
        for i in 0..members.len() {
            index.pushed(members, i);
        }
        index
    }

    fn find(&self, members: &[(Key, Value)], key: &str) -> Option<usize> {
        self.table.find(self.hasher.hash_one(key), |&j| members[j].0 == key).copied()
    }

    /// Records `members[i]`, which the table does not hold yet.
    fn pushed(&mut self, members: &[(Key, Value)], i: usize) {
        let hasher = &self.hasher;
        self.table.insert_unique(hasher.hash_one(members[i].0.as_str()), i, |&j| hasher.hash_one(members[j].0.as_str()));
    }

    /// Points the entry that says `from` at `to` instead (`key` is the member's key).
    fn moved(&mut self, key: &str, from: usize, to: usize) {
        if let Some(at) = self.table.find_mut(self.hasher.hash_one(key), |&j| j == from) {
            *at = to;
        }
    }

    fn forget(&mut self, key: &str, i: usize) {
        if let Ok(entry) = self.table.find_entry(self.hasher.hash_one(key), |&j| j == i) {
            entry.remove();
        }
    }
}

impl Map {
    pub fn new() -> Self {
        Map { members: Vec::new(), index: None, rows: 0 }
    }

    pub fn with_capacity(capacity: usize) -> Self {
        Map { members: Vec::with_capacity(capacity), index: None, rows: 0 }
    }

    pub fn clear(&mut self) {
        self.members.clear();
        self.index = None;
        self.rows = 0;
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Where `key` is, if present.
    #[inline]
    pub fn index_of<Q: ?Sized + AsRef<str>>(&self, key: &Q) -> Option<usize> {
        let key = key.as_ref();
        if let Some(index) = &self.index {
            return index.find(&self.members, key);
        }
        let key = key.as_bytes();
        self.members.iter().position(|(k, _)| k.as_bytes() == key)
    }

    /// `index_of` for a key: a keyword's by its row, where the map's bits
    /// answer most misses at once.
    #[inline]
    fn index_of_key(&self, key: &Key) -> Option<usize> {
        match key.keyword() {
            Some(k) => self.index_of_row(k.row, k.name),
            None => self.index_of(key),
        }
    }

    /// Appends a member whose key the caller knows is not present (the
    /// parser, by the keys it has seen).
    pub(super) fn push_absent(&mut self, key: Key, value: Value) {
        debug_assert!(self.index_of_key(&key).is_none(), "{:?} is present", key.as_str());
        self.push_member(key, value);
    }

    /// Appends a member whose key is not present.
    fn push_member(&mut self, key: Key, value: Value) {
        self.rows |= row_bit(&key);
        self.members.push((key, value));
        match &mut self.index {
            Some(index) => index.pushed(&self.members, self.members.len() - 1),
            None if self.members.len() > INDEXED => self.reindex(),
            None => {}
        }
    }

    /// Builds the index again after an edit that moved many members.
    fn reindex(&mut self) {
        self.index = (self.members.len() > INDEXED).then(|| Box::new(KeyIndex::build(&self.members)));
    }

    /// Removes the member at `i`, moving the last one into its place.
    fn swap_remove_at(&mut self, i: usize) -> (Key, Value) {
        let last = self.members.len() - 1;
        if let Some(index) = &mut self.index {
            index.forget(&self.members[i].0, i);
            if i != last {
                index.moved(&self.members[last].0, last, i);
            }
        }
        let removed = self.members.swap_remove(i);
        self.rows &= !row_bit(&removed.0);
        removed
    }

    /// Removes the member at `index`, keeping the others' order. Panics past the end.
    pub fn shift_remove_index(&mut self, index: usize) -> (Key, Value) {
        self.shift_remove_at(index)
    }

    /// Removes the member at `i`, keeping the others' order.
    fn shift_remove_at(&mut self, i: usize) -> (Key, Value) {
        let removed = self.members.remove(i);
        self.rows &= !row_bit(&removed.0);
        self.reindex();
        removed
    }

    /// One bit per keyword of the table's first 32 rows the map holds (bit
    /// `row`): which keywords a node has, with no key compared.
    #[inline]
    pub fn keyword_bits(&self) -> u32 {
        debug_assert_eq!(self.rows, rows_of(&self.members), "rows out of step");
        self.rows
    }

    /// The bit `keyword_bits` has for `keyword`: none past the table's first 32 rows.
    #[inline]
    pub fn bit(keyword: &Keyword) -> u32 {
        bit(keyword.row)
    }

    /// Whether every key has a bit (`keyword_bits`): a keyword of the table's
    /// first 32 rows, as most schema nodes' keys are. Then the bits are the
    /// whole key set, and a question about the keys is a mask.
    #[inline]
    pub fn keys_are_bits(&self) -> bool {
        self.keyword_bits().count_ones() as usize == self.members.len()
    }

    /// Where the keyword at `row` (named `name`) is: rows compared, no text.
    #[inline]
    pub fn index_of_row(&self, row: u8, name: &str) -> Option<usize> {
        debug_assert_eq!(self.rows, rows_of(&self.members), "rows out of step");
        let bit = bit(row);
        if bit != 0 {
            if self.rows & bit == 0 {
                return None;
            }
        } else if self.keys_are_bits() {
            // A keyword past the first 32 rows has no bit, but when every key
            // has one, none is this keyword.
            return None;
        }
        if let Some(index) = &self.index {
            return index.find(&self.members, name);
        }
        self.members.iter().position(|(k, _)| k.is_row(row))
    }

    #[inline]
    pub fn get<Q: ?Sized + AsRef<str>>(&self, key: &Q) -> Option<&Value> {
        if self.index.is_some() {
            return self.index_of(key).map(|i| &self.members[i].1);
        }
        let key = key.as_ref().as_bytes();
        self.members.iter().find(|(k, _)| k.as_bytes() == key).map(|(_, v)| v)
    }

    #[inline]
    pub fn get_mut<Q: ?Sized + AsRef<str>>(&mut self, key: &Q) -> Option<&mut Value> {
        if self.index.is_some() {
            return self.index_of(key).map(|i| &mut self.members[i].1);
        }
        let key = key.as_ref().as_bytes();
        self.members.iter_mut().find(|(k, _)| k.as_bytes() == key).map(|(_, v)| v)
    }

    pub fn get_key_value<Q: ?Sized + AsRef<str>>(&self, key: &Q) -> Option<(&Key, &Value)> {
        self.index_of(key).map(|i| {
            let (k, v) = &self.members[i];
            (k, v)
        })
    }

    #[inline]
    pub fn contains_key<Q: ?Sized + AsRef<str>>(&self, key: &Q) -> bool {
        self.index_of(key).is_some()
    }

    /// The member at `index`, in order.
    pub fn get_index(&self, index: usize) -> Option<(&Key, &Value)> {
        self.members.get(index).map(|(k, v)| (k, v))
    }

    /// The value of the member at `index`, to edit.
    pub fn get_index_mut(&mut self, index: usize) -> Option<&mut Value> {
        self.members.get_mut(index).map(|(_, v)| v)
    }

    /// Sets `key` to `value`: in place if present (returning the old value),
    /// else as the last member.
    pub fn insert(&mut self, key: Key, value: Value) -> Option<Value> {
        match self.index_of_key(&key) {
            Some(i) => Some(std::mem::replace(&mut self.members[i].1, value)),
            None => {
                self.push_member(key, value);
                None
            }
        }
    }

    /// Sets `key` to `value` at `index`; a present key moves there (`index`
    /// then counts the members without it). Panics past the end.
    pub fn shift_insert(&mut self, index: usize, key: Key, value: Value) -> Option<Value> {
        let old = match self.index_of_key(&key) {
            Some(i) => {
                let (k, old) = self.members.remove(i);
                self.members.insert(index, (k, value));
                Some(old)
            }
            None => {
                self.rows |= row_bit(&key);
                self.members.insert(index, (key, value));
                None
            }
        };
        self.reindex();
        old
    }

    /// Removes `key`, moving the last member into its place.
    pub fn remove<Q: ?Sized + AsRef<str>>(&mut self, key: &Q) -> Option<Value> {
        self.swap_remove(key)
    }

    pub fn remove_entry<Q: ?Sized + AsRef<str>>(&mut self, key: &Q) -> Option<(Key, Value)> {
        self.index_of(key).map(|i| self.swap_remove_at(i))
    }

    pub fn swap_remove<Q: ?Sized + AsRef<str>>(&mut self, key: &Q) -> Option<Value> {
        self.index_of(key).map(|i| self.swap_remove_at(i).1)
    }

    /// Removes `key`, keeping the order of the others.
    pub fn shift_remove<Q: ?Sized + AsRef<str>>(&mut self, key: &Q) -> Option<Value> {
        self.index_of(key).map(|i| self.shift_remove_at(i).1)
    }

    pub fn shift_remove_entry<Q: ?Sized + AsRef<str>>(&mut self, key: &Q) -> Option<(Key, Value)> {
        self.index_of(key).map(|i| self.shift_remove_at(i))
    }

    /// Inserts every member of `other` (emptied) in its order.
    pub fn append(&mut self, other: &mut Self) {
        let members = std::mem::take(&mut other.members);
        self.extend(members);
    }

    pub fn entry<S: Into<Key>>(&mut self, key: S) -> Entry<'_> {
        let key = key.into();
        match self.index_of_key(&key) {
            Some(index) => Entry::Occupied(OccupiedEntry { map: self, index }),
            None => Entry::Vacant(VacantEntry { map: self, key }),
        }
    }

    pub fn retain<F: FnMut(&Key, &mut Value) -> bool>(&mut self, mut keep: F) {
        self.members.retain_mut(|(k, v)| keep(k, v));
        self.rows = rows_of(&self.members);
        self.reindex();
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(self.members.iter())
    }

    pub fn iter_mut(&mut self) -> IterMut<'_> {
        IterMut(self.members.iter_mut())
    }

    pub fn keys(&self) -> Keys<'_> {
        Keys(self.members.iter())
    }

    pub fn values(&self) -> Values<'_> {
        Values(self.members.iter())
    }

    pub fn values_mut(&mut self) -> ValuesMut<'_> {
        ValuesMut(self.members.iter_mut())
    }

    pub fn into_values(self) -> impl DoubleEndedIterator<Item = Value> + ExactSizeIterator {
        self.members.into_iter().map(|(_, v)| v)
    }

    pub fn into_keys(self) -> impl DoubleEndedIterator<Item = Key> + ExactSizeIterator {
        self.members.into_iter().map(|(k, _)| k)
    }

    /// The members, in order.
    pub fn as_slice(&self) -> &[(Key, Value)] {
        &self.members
    }

    /// Appends a member without looking for its key: for a builder that
    /// knows the key is new.
    pub(crate) fn push_unique(&mut self, key: Key, value: Value) {
        debug_assert!(!self.contains_key(&key));
        self.push_member(key, value);
    }
}

/// A place in a map for one key, present or not.
pub enum Entry<'a> {
    Vacant(VacantEntry<'a>),
    Occupied(OccupiedEntry<'a>),
}

pub struct VacantEntry<'a> {
    map: &'a mut Map,
    key: Key,
}

pub struct OccupiedEntry<'a> {
    map: &'a mut Map,
    index: usize,
}

impl<'a> Entry<'a> {
    pub fn key(&self) -> &Key {
        match self {
            Entry::Vacant(e) => &e.key,
            Entry::Occupied(e) => e.key(),
        }
    }

    pub fn or_insert(self, default: Value) -> &'a mut Value {
        match self {
            Entry::Vacant(e) => e.insert(default),
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    pub fn or_insert_with<F: FnOnce() -> Value>(self, default: F) -> &'a mut Value {
        match self {
            Entry::Vacant(e) => e.insert(default()),
            Entry::Occupied(e) => e.into_mut(),
        }
    }

    pub fn or_default(self) -> &'a mut Value {
        self.or_insert(Value::Null)
    }

    pub fn and_modify<F: FnOnce(&mut Value)>(self, f: F) -> Self {
        match self {
            Entry::Occupied(mut e) => {
                f(e.get_mut());
                Entry::Occupied(e)
            }
            vacant => vacant,
        }
    }
}

impl<'a> VacantEntry<'a> {
    pub fn key(&self) -> &Key {
        &self.key
    }

    pub fn insert(self, value: Value) -> &'a mut Value {
        self.map.push_member(self.key, value);
        &mut self.map.members.last_mut().expect("just pushed").1
    }
}

impl<'a> OccupiedEntry<'a> {
    pub fn key(&self) -> &Key {
        &self.map.members[self.index].0
    }

    pub fn get(&self) -> &Value {
        &self.map.members[self.index].1
    }

    pub fn get_mut(&mut self) -> &mut Value {
        &mut self.map.members[self.index].1
    }

    pub fn into_mut(self) -> &'a mut Value {
        &mut self.map.members[self.index].1
    }

    pub fn insert(&mut self, value: Value) -> Value {
        std::mem::replace(self.get_mut(), value)
    }

    /// Removes the member, moving the last one into its place.
    pub fn remove(self) -> Value {
        self.map.swap_remove_at(self.index).1
    }

    pub fn shift_remove(self) -> Value {
        self.map.shift_remove_at(self.index).1
    }
}

/// Same members, in any order (as `serde_json::Map` compares).
impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        if self.len() != other.len() {
            return false;
        }
        // In the same order is the common case, and needs no lookup.
        if self.members.iter().zip(&other.members).all(|((a, x), (b, y))| a == b && x == y) {
            return true;
        }
        self.members.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Eq for Map {}

impl fmt::Debug for Map {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.members.iter().map(|(k, v)| (k, v))).finish()
    }
}

impl<Q: ?Sized + AsRef<str>> std::ops::Index<&Q> for Map {
    type Output = Value;
    fn index(&self, key: &Q) -> &Value {
        self.get(key).expect("no such key in the map")
    }
}

impl<Q: ?Sized + AsRef<str>> std::ops::IndexMut<&Q> for Map {
    fn index_mut(&mut self, key: &Q) -> &mut Value {
        self.get_mut(key).expect("no such key in the map")
    }
}

impl<K: Into<Key>> Extend<(K, Value)> for Map {
    fn extend<I: IntoIterator<Item = (K, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k.into(), v);
        }
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let mut map = Map::new();
        map.extend(iter);
        map
    }
}

pub struct Iter<'a>(std::slice::Iter<'a, (Key, Value)>);
pub struct IterMut<'a>(std::slice::IterMut<'a, (Key, Value)>);

impl<'a> Iterator for Iter<'a> {
    type Item = (&'a Key, &'a Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl Clone for Iter<'_> {
    fn clone(&self) -> Self {
        Iter(self.0.clone())
    }
}

impl<'a> Iterator for IterMut<'a> {
    type Item = (&'a Key, &'a mut Value);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (&*k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for IterMut<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (&*k, v))
    }
}

impl ExactSizeIterator for IterMut<'_> {}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a Key, &'a Value);
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl<'a> IntoIterator for &'a mut Map {
    type Item = (&'a Key, &'a mut Value);
    type IntoIter = IterMut<'a>;
    fn into_iter(self) -> IterMut<'a> {
        self.iter_mut()
    }
}

impl IntoIterator for Map {
    type Item = (Key, Value);
    type IntoIter = std::vec::IntoIter<(Key, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.members.into_iter()
    }
}

macro_rules! projection {
    ($name:ident, $inner:ty, $item:ty, |$m:ident| $get:expr) => {
        #[derive(Debug)]
        pub struct $name<'a>($inner);

        impl<'a> Iterator for $name<'a> {
            type Item = $item;
            #[inline]
            fn next(&mut self) -> Option<$item> {
                self.0.next().map(|$m| $get)
            }
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.0.size_hint()
            }
        }

        impl<'a> DoubleEndedIterator for $name<'a> {
            fn next_back(&mut self) -> Option<$item> {
                self.0.next_back().map(|$m| $get)
            }
        }

        impl ExactSizeIterator for $name<'_> {}
    };
}

projection!(Keys, std::slice::Iter<'a, (Key, Value)>, &'a Key, |m| &m.0);
projection!(Values, std::slice::Iter<'a, (Key, Value)>, &'a Value, |m| &m.1);
projection!(ValuesMut, std::slice::IterMut<'a, (Key, Value)>, &'a mut Value, |m| &mut m.1);

impl Clone for Keys<'_> {
    fn clone(&self) -> Self {
        Keys(self.0.clone())
    }
}

impl Clone for Values<'_> {
    fn clone(&self) -> Self {
        Values(self.0.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A keyword past the bits' 32 rows is found by its row in every kind
    /// of map: keys all keywords with bits, with it, with a property name,
    /// past the indexed size.
    #[test]
    fn keywords_without_a_bit_are_found_by_row() {
        let high = crate::keywords::kw::PROPERTY_ORDERING;
        assert_eq!(bit(high.row), 0, "a keyword past the first 32 rows");
        let low = ["type", "properties", "required", "description"];
        for extra in [None, Some("propertyOrdering"), Some("name"), Some("$comment")] {
            for wide in [false, true] {
                let mut m = Map::new();
                for k in low {
                    m.insert(k.into(), Value::Null);
                }
                if wide {
                    for i in 0..30 {
                        m.insert(format!("p{i}").into(), Value::Null);
                    }
                }
                if let Some(k) = extra {
                    m.insert(k.into(), Value::Bool(true));
                }
                let want = m.get("propertyOrdering").is_some();
                assert_eq!(m.index_of_row(high.row, high.name).is_some(), want, "{extra:?}, wide {wide}");
                assert_eq!(want, extra == Some("propertyOrdering"));
            }
        }
    }

    /// Random edits on a `Map` and on `serde_json::Map` (an `IndexMap` with
    /// `preserve_order`, the model this replaces) leave the same members in
    /// the same order, below and past the indexed size, and every lookup
    /// agrees.
    #[test]
    fn edits_match_serde_json_map() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        // Half the keys name keywords (rows past 32 included), which the
        // map also finds by their row.
        let keywords = crate::keywords::KEYWORDS;
        let name = |n: u64| if n % 2 == 0 { keywords[(n / 2) as usize % keywords.len()].name.to_string() } else { format!("k{n}") };
        for round in 0..40 {
            let keys = if round % 2 == 0 { 12 } else { 130 };
            let (mut ours, mut theirs) = (Map::new(), serde_json::Map::new());
            for step in 0..600u64 {
                let key = name(next(keys));
                match next(8) {
                    0..=2 => {
                        assert_eq!(ours.insert(key.clone().into(), Value::from(step)).is_some(), theirs.insert(key, step.into()).is_some());
                    }
                    3 => assert_eq!(ours.remove(&key).is_some(), theirs.swap_remove(&key).is_some()),
                    4 => assert_eq!(ours.shift_remove(&key).is_some(), theirs.shift_remove(&key).is_some()),
                    5 if !ours.is_empty() => {
                        let at = next(ours.len() as u64) as usize;
                        if ours.contains_key(&key) || at < ours.len() {
                            ours.shift_insert(at, key.clone().into(), Value::from(step));
                            theirs.shift_insert(at, key, step.into());
                        }
                    }
                    6 => {
                        let cut = next(600);
                        ours.retain(|_, v| v.as_u64().is_some_and(|n| n % 600 > cut));
                        theirs.retain(|_, v| v.as_u64().is_some_and(|n| n % 600 > cut));
                    }
                    _ => {
                        ours.entry(key.clone()).or_insert(Value::from(step));
                        theirs.entry(key).or_insert(step.into());
                    }
                }
                let order: Vec<&str> = ours.keys().map(|k| k.as_str()).collect();
                let theirs_order: Vec<&str> = theirs.keys().map(String::as_str).collect();
                assert_eq!(order, theirs_order, "round {round}, step {step}");
                for k in 0..keys {
                    let k = name(k);
                    assert_eq!(ours.get(&k).and_then(Value::as_u64), theirs.get(&k).and_then(serde_json::Value::as_u64), "{k}");
                }
                for k in keywords {
                    let by_row = ours.index_of_row(k.row, k.name);
                    assert_eq!(by_row, ours.index_of(k.name), "{} by its row, round {round}, step {step}", k.name);
                }
                let all_bits = ours.keys().all(|k| k.keyword().is_some_and(|kw| kw.row < 32));
                assert_eq!(ours.keys_are_bits(), all_bits, "round {round}, step {step}");
            }
        }
    }

    #[test]
    fn equal_maps_may_differ_in_order() {
        let a: Map = (0..40).map(|i| (format!("k{i}"), Value::from(i))).collect();
        let b: Map = (0..40).rev().map(|i| (format!("k{i}"), Value::from(i))).collect();
        assert_eq!(a, b);
        let mut c = b.clone();
        c.insert("k3".into(), Value::Null);
        assert_ne!(a, c);
    }
}
