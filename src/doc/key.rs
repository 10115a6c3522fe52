//! The key of an object member, interned against the keyword table.
//!
//! Four keys in five of a real tool schema name a keyword (`type`,
//! `description`, `properties`, ...), and each is asked what it is several
//! times in a call: by the draft upgrade, every walk, the rules and the
//! checker. A key that names a keyword is stored as its row of
//! `keywords::KEYWORDS`, so it costs no allocation to parse, copy or drop,
//! and `keyword()` answers from the row. Any other key (a property
//! name, an unknown extension) is its own text, and `keyword()` answers
//! `None` without a lookup: a key is interned wherever it is made, so text
//! never spells a keyword.
//!
//! A key reads as a `&str` (`Deref`, `Borrow`, `AsRef`), compares, hashes and
//! orders as its text, and prints as its text does (`Display`, `Debug`).
use crate::keywords::table::{self, Keyword};
use std::borrow::{Borrow, Cow};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

#[derive(Clone, PartialEq, Eq)]
pub struct Key(Repr);

#[derive(Clone)]
enum Repr {
    Word(&'static Keyword),
    Text(Box<str>),
}

// Equality by variant is equality by text: a keyword's name is always `Word`,
// and its row is always one of the static `KEYWORDS` (`table::lookup`).
impl PartialEq for Repr {
    #[inline]
    fn eq(&self, other: &Repr) -> bool {
        match (self, other) {
            (Repr::Word(a), Repr::Word(b)) => std::ptr::eq(*a, *b),
            (Repr::Text(a), Repr::Text(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Repr {}

impl Key {
    /// The key's text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Word(k) => k.name,
            Repr::Text(s) => s,
        }
    }

    /// The keyword this key names, if it names one: no lookup.
    #[inline]
    pub fn keyword(&self) -> Option<&'static Keyword> {
        match self.0 {
            Repr::Word(k) => Some(k),
            Repr::Text(_) => None,
        }
    }

    /// Whether the key is the keyword at `row` of the table.
    #[inline]
    pub fn is_row(&self, row: u8) -> bool {
        matches!(self.0, Repr::Word(k) if k.row == row)
    }

    /// The key for `name`, copying it only when it names no keyword. Inlined
    /// natively only: in wasm, the lookup inlined at every site that makes a
    /// key cost 4.4 KB gzip and 1.4-2% more operators per call.
    #[cfg_attr(not(target_arch = "wasm32"), inline)]
    pub fn new(name: &str) -> Key {
        match table::lookup(name) {
            Some(k) => Key(Repr::Word(k)),
            None => Key(Repr::Text(name.into())),
        }
    }

    fn owned(name: String) -> Key {
        match table::lookup(&name) {
            Some(k) => Key(Repr::Word(k)),
            None => Key(Repr::Text(name.into_boxed_str())),
        }
    }

    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Word(k) => k.name.to_owned(),
            Repr::Text(s) => s.into_string(),
        }
    }
}

/// The empty key (no keyword is empty, so it is text, and costs no allocation).
impl Default for Key {
    fn default() -> Key {
        Key(Repr::Text(Box::default()))
    }
}

impl table::Name for Key {
    #[inline]
    fn keyword(&self) -> Option<&'static Keyword> {
        Key::keyword(self)
    }

    #[inline]
    fn interned(&self) -> Option<Option<&'static Keyword>> {
        Some(Key::keyword(self))
    }

    #[inline]
    fn row(&self) -> Option<u8> {
        Key::keyword(self).map(|k| k.row)
    }
}

impl Deref for Key {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    #[inline]
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl From<&str> for Key {
    fn from(name: &str) -> Key {
        Key::new(name)
    }
}

impl From<&String> for Key {
    fn from(name: &String) -> Key {
        Key::new(name)
    }
}

impl From<String> for Key {
    fn from(name: String) -> Key {
        Key::owned(name)
    }
}

impl From<Cow<'_, str>> for Key {
    fn from(name: Cow<'_, str>) -> Key {
        match name {
            Cow::Borrowed(s) => Key::new(s),
            Cow::Owned(s) => Key::owned(s),
        }
    }
}

/// A keyword's key, with no lookup: `node.insert(kw::TYPE.into(), ...)`,
/// where `"type".into()` finds the keyword by hashing the text.
impl From<&Keyword> for Key {
    #[inline]
    fn from(keyword: &Keyword) -> Key {
        // The row of the static table, whichever copy `keyword` is (a `kw::`
        // constant may be one of its own in a debug build).
        Key(Repr::Word(&table::KEYWORDS[keyword.row as usize]))
    }
}

impl From<&Key> for Key {
    fn from(key: &Key) -> Key {
        key.clone()
    }
}

impl From<Key> for String {
    fn from(key: Key) -> String {
        key.into_string()
    }
}

macro_rules! text_eq {
    ($($other:ty),*) => {$(
        impl PartialEq<$other> for Key {
            #[inline]
            fn eq(&self, other: &$other) -> bool {
                self.as_str() == AsRef::<str>::as_ref(other)
            }
        }
        impl PartialEq<Key> for $other {
            #[inline]
            fn eq(&self, other: &Key) -> bool {
                AsRef::<str>::as_ref(self) == other.as_str()
            }
        }
    )*};
}
text_eq!(str, &str, String);

impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Key {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Key, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Key, E> {
                Ok(Key::new(v))
            }
            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Key, E> {
                Ok(Key::owned(v))
            }
        }
        deserializer.deserialize_str(Visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keywords::KEYWORDS;

    /// A keyword's name is always its position, and other text its text, so
    /// keys compare as their text whichever way they were made.
    #[test]
    fn keys_are_interned_wherever_made() {
        for k in KEYWORDS {
            let key = Key::from(k.name);
            assert!(key.keyword().is_some_and(|found| std::ptr::eq(found, k)), "{}", k.name);
            assert_eq!(key, Key::from(k.name.to_owned()));
            assert_eq!(key, Key::from(Cow::Owned(k.name.to_owned())));
            assert_eq!(key.as_str(), k.name);
            assert_eq!(key.clone().into_string(), k.name);
        }
        for name in ["", "typ", "types", "Type", "x-vendor", "état", "$ref2"] {
            let key = Key::from(name);
            assert!(key.keyword().is_none(), "{name}");
            assert_eq!(key, Key::from(name.to_owned()));
            assert_eq!(key, name);
            assert_ne!(key, Key::from("type"));
        }
        assert_eq!(format!("{:?} {}", Key::from("type"), Key::from("a\"b")), format!("{:?} {}", "type", "a\"b"));
    }

    /// A name set asked by an interned key answers as its list would, for
    /// keywords and other names alike.
    #[test]
    fn name_sets_answer_for_keys_as_their_lists() {
        use crate::keywords::Names;
        let list: &'static [&'static str] = &["type", "$schema", "x-vendor", "additionalItems"];
        let set = Names::new(list);
        for k in KEYWORDS {
            assert_eq!(set.contains(&Key::from(k.name)), list.contains(&k.name), "{}", k.name);
        }
        for other in ["x-vendor", "x-other", "", "Type"] {
            assert_eq!(set.contains(&Key::from(other)), list.contains(&other), "{other}");
        }
    }

    /// No bigger than the boxed text it replaces a `String` with.
    #[test]
    fn a_key_is_two_words() {
        assert_eq!(std::mem::size_of::<Key>(), std::mem::size_of::<Box<str>>());
    }

    #[test]
    fn keys_hash_and_order_as_text() {
        use std::hash::BuildHasher;
        let state = std::collections::hash_map::RandomState::new();
        for name in ["type", "x"] {
            assert_eq!(state.hash_one(Key::from(name)), state.hash_one(name));
        }
        let mut keys: Vec<Key> = ["type", "b", "additionalProperties", "a"].into_iter().map(Key::from).collect();
        keys.sort();
        assert_eq!(keys.iter().map(Key::as_str).collect::<Vec<_>>(), ["a", "additionalProperties", "b", "type"]);
    }
}
