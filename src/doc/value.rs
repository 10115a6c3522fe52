//! The tree every pass edits: a JSON value whose objects are [`Map`]s, one
//! vector of members each, in order.
//!
//! The API is `serde_json::Value`'s (with `preserve_order`), so a pass reads
//! as it always has; what changed is underneath: no hash table per object,
//! no hashing per lookup, an object's clone is one vector's. Numbers are
//! `serde_json::Number`, so every number reads and writes exactly as before.
//! `From` conversions to and from `serde_json::Value` serve callers that hold
//! one.
use super::map::Map;
use crate::pointer::Pointer;
use serde_json::Number;
use std::borrow::Cow;
use std::fmt;

#[derive(Clone, Default, PartialEq, Eq)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

static NULL: Value = Value::Null;

// A value's size is every member's and item's: held here so that it grows
// only on purpose (a map's keyword bits were sized to keep it at 24 in wasm).
#[cfg(target_arch = "wasm32")]
const _: () = assert!(std::mem::size_of::<Value>() == 24 && std::mem::size_of::<Map>() == 20);
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Value>() == 40 && std::mem::size_of::<Map>() == 40);

impl Value {
    pub fn get<I: Index>(&self, index: I) -> Option<&Value> {
        index.index_into(self)
    }

    pub fn get_mut<I: Index>(&mut self, index: I) -> Option<&mut Value> {
        index.index_into_mut(self)
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The object, taken out of the value.
    pub fn into_object(self) -> Option<Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn as_object_mut(&mut self) -> Option<&mut Map> {
        match self {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    pub fn is_array(&self) -> bool {
        matches!(self, Value::Array(_))
    }

    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_array_mut(&mut self) -> Option<&mut Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn is_string(&self) -> bool {
        matches!(self, Value::String(_))
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn is_number(&self) -> bool {
        matches!(self, Value::Number(_))
    }

    pub fn as_number(&self) -> Option<&Number> {
        match self {
            Value::Number(n) => Some(n),
            _ => None,
        }
    }

    pub fn is_i64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_i64())
    }

    pub fn is_u64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_u64())
    }

    pub fn is_f64(&self) -> bool {
        matches!(self, Value::Number(n) if n.is_f64())
    }

    pub fn as_i64(&self) -> Option<i64> {
        self.as_number().and_then(Number::as_i64)
    }

    pub fn as_u64(&self) -> Option<u64> {
        self.as_number().and_then(Number::as_u64)
    }

    /// A copy, unless the value nests deeper than `max_depth` (the depth
    /// `walk::value_depth` counts: the root is at 0, its members and items at
    /// 1): one walk where a depth check then `clone` took two. The recursion
    /// stops one level past the limit.
    pub fn clone_within(&self, max_depth: usize) -> Option<Value> {
        fn copy(v: &Value, depth: usize, max: usize) -> Option<Value> {
            if depth > max {
                return None;
            }
            Some(match v {
                Value::Object(m) => {
                    let mut out = Map::with_capacity(m.len());
                    for (k, c) in m {
                        out.push_unique(k.clone(), copy(c, depth + 1, max)?);
                    }
                    Value::Object(out)
                }
                Value::Array(items) => Value::Array(items.iter().map(|c| copy(c, depth + 1, max)).collect::<Option<_>>()?),
                scalar => scalar.clone(),
            })
        }
        copy(self, 0, max_depth)
    }

    pub fn as_f64(&self) -> Option<f64> {
        self.as_number().and_then(Number::as_f64)
    }

    pub fn is_boolean(&self) -> bool {
        matches!(self, Value::Bool(_))
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    pub fn as_null(&self) -> Option<()> {
        self.is_null().then_some(())
    }

    /// The value `pointer` names inside this one (array indexes without
    /// leading zeros, as RFC 6901 writes them).
    pub fn at(&self, pointer: &Pointer) -> Option<&Value> {
        let mut cur = self;
        for seg in pointer.raw_segments(0) {
            let seg = crate::pointer::unescape(seg);
            cur = match cur {
                Value::Object(m) => m.get(seg.as_ref())?,
                Value::Array(a) => {
                    if seg.len() > 1 && seg.starts_with('0') {
                        return None;
                    }
                    a.get(seg.parse::<usize>().ok()?)?
                }
                _ => return None,
            };
        }
        Some(cur)
    }

    /// The value at a JSON pointer (RFC 6901), `""` being this one.
    pub fn pointer(&self, pointer: &str) -> Option<&Value> {
        let mut at = self;
        for token in tokens(pointer)? {
            at = match at {
                Value::Object(m) => m.get(&*token)?,
                Value::Array(a) => a.get(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    pub fn pointer_mut(&mut self, pointer: &str) -> Option<&mut Value> {
        let mut at = self;
        for token in tokens(pointer)? {
            at = match at {
                Value::Object(m) => m.get_mut(&*token)?,
                Value::Array(a) => a.get_mut(array_index(&token)?)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// Takes the value, leaving `null`.
    pub fn take(&mut self) -> Value {
        std::mem::take(self)
    }
}

/// A pointer's tokens, unescaped: none for `""`, and `None` for text that
/// is not a pointer (it does not start with `/`).
fn tokens(pointer: &str) -> Option<impl Iterator<Item = Cow<'_, str>>> {
    let rest = if pointer.is_empty() { None } else { Some(pointer.strip_prefix('/')?) };
    Some(rest.into_iter().flat_map(|r| r.split('/')).map(crate::pointer::unescape))
}

/// An array index in a pointer: digits, no sign, no leading zero.
fn array_index(token: &str) -> Option<usize> {
    if token.starts_with('+') || (token.starts_with('0') && token.len() != 1) {
        return None;
    }
    token.parse().ok()
}

/// What indexes a value: a key (`str`, `String`) or an array position.
pub trait Index {
    #[doc(hidden)]
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value>;
    #[doc(hidden)]
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value>;
    #[doc(hidden)]
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value;
}

impl Index for usize {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_array().and_then(|a| a.get(*self))
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_array_mut().and_then(|a| a.get_mut(*self))
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        match v {
            Value::Array(a) => {
                let len = a.len();
                a.get_mut(*self).unwrap_or_else(|| panic!("index {} out of bounds for an array of {len}", self))
            }
            _ => panic!("cannot index a non-array with a number"),
        }
    }
}

impl Index for str {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        v.as_object().and_then(|m| m.get(self))
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        v.as_object_mut().and_then(|m| m.get_mut(self))
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        if v.is_null() {
            *v = Value::Object(Map::new());
        }
        match v {
            Value::Object(m) => m.entry(self).or_insert(Value::Null),
            _ => panic!("cannot index a non-object with a key"),
        }
    }
}

impl Index for String {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        self.as_str().index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        self.as_str().index_into_mut(v)
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        self.as_str().index_or_insert(v)
    }
}

impl<T: ?Sized + Index> Index for &T {
    fn index_into<'v>(&self, v: &'v Value) -> Option<&'v Value> {
        (**self).index_into(v)
    }
    fn index_into_mut<'v>(&self, v: &'v mut Value) -> Option<&'v mut Value> {
        (**self).index_into_mut(v)
    }
    fn index_or_insert<'v>(&self, v: &'v mut Value) -> &'v mut Value {
        (**self).index_or_insert(v)
    }
}

/// `v["key"]`, `v[0]`: `null` when absent.
impl<I: Index> std::ops::Index<I> for Value {
    type Output = Value;
    fn index(&self, index: I) -> &Value {
        index.index_into(self).unwrap_or(&NULL)
    }
}

/// `v["key"] = x` inserts into an object (a `null` becomes one).
impl<I: Index> std::ops::IndexMut<I> for Value {
    fn index_mut(&mut self, index: I) -> &mut Value {
        index.index_or_insert(self)
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Null => f.write_str("Null"),
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Number(n) => write!(f, "Number({n})"),
            Value::String(s) => write!(f, "String({s:?})"),
            Value::Array(a) => {
                f.write_str("Array ")?;
                f.debug_list().entries(a).finish()
            }
            Value::Object(m) => {
                f.write_str("Object ")?;
                fmt::Debug::fmt(m, f)
            }
        }
    }
}

/// Compact JSON text; `{:#}` indents it.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        if f.alternate() {
            self.write_pretty(&mut text, 0);
        } else {
            self.write_json(&mut text);
        }
        f.write_str(&text)
    }
}

// Comparisons with plain Rust values, as `serde_json::Value` offers them.

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == Some(other.as_str())
    }
}

impl PartialEq<Value> for str {
    fn eq(&self, other: &Value) -> bool {
        other.as_str() == Some(self)
    }
}

impl PartialEq<Value> for &str {
    fn eq(&self, other: &Value) -> bool {
        other.as_str() == Some(*self)
    }
}

impl PartialEq<Value> for String {
    fn eq(&self, other: &Value) -> bool {
        other.as_str() == Some(self.as_str())
    }
}

macro_rules! eq_scalar {
    ($($ty:ty => $read:ident as $as:ty),* $(,)?) => {$(
        impl PartialEq<$ty> for Value {
            fn eq(&self, other: &$ty) -> bool {
                self.$read() == Some(*other as $as)
            }
        }
        impl PartialEq<Value> for $ty {
            fn eq(&self, other: &Value) -> bool {
                other.$read() == Some(*self as $as)
            }
        }
        impl PartialEq<$ty> for &Value {
            fn eq(&self, other: &$ty) -> bool {
                self.$read() == Some(*other as $as)
            }
        }
    )*};
}

eq_scalar! {
    i8 => as_i64 as i64, i16 => as_i64 as i64, i32 => as_i64 as i64, i64 => as_i64 as i64, isize => as_i64 as i64,
    u8 => as_u64 as u64, u16 => as_u64 as u64, u32 => as_u64 as u64, u64 => as_u64 as u64, usize => as_u64 as u64,
    f64 => as_f64 as f64, bool => as_bool as bool,
}

// Building values.

macro_rules! from_integer {
    ($($ty:ty)*) => {$(
        impl From<$ty> for Value {
            fn from(n: $ty) -> Value {
                Value::Number(n.into())
            }
        }
    )*};
}

from_integer!(i8 i16 i32 i64 isize u8 u16 u32 u64 usize);

impl From<f32> for Value {
    fn from(f: f32) -> Value {
        Number::from_f64(f as f64).map_or(Value::Null, Value::Number)
    }
}

impl From<f64> for Value {
    /// `null` for a NaN or an infinity, which JSON cannot write.
    fn from(f: f64) -> Value {
        Number::from_f64(f).map_or(Value::Null, Value::Number)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(s.to_owned())
    }
}

impl From<&String> for Value {
    fn from(s: &String) -> Value {
        Value::String(s.clone())
    }
}

impl From<Cow<'_, str>> for Value {
    fn from(s: Cow<'_, str>) -> Value {
        Value::String(s.into_owned())
    }
}

impl From<Number> for Value {
    fn from(n: Number) -> Value {
        Value::Number(n)
    }
}

impl From<Map> for Value {
    fn from(m: Map) -> Value {
        Value::Object(m)
    }
}

impl<T: Into<Value>> From<Vec<T>> for Value {
    fn from(v: Vec<T>) -> Value {
        Value::Array(v.into_iter().map(Into::into).collect())
    }
}

impl<T: Clone + Into<Value>> From<&[T]> for Value {
    fn from(v: &[T]) -> Value {
        Value::Array(v.iter().cloned().map(Into::into).collect())
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

impl From<()> for Value {
    fn from(_: ()) -> Value {
        Value::Null
    }
}

impl<T: Into<Value>> FromIterator<T> for Value {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Value {
        Value::Array(iter.into_iter().map(Into::into).collect())
    }
}

impl<K: Into<String>, V: Into<Value>> FromIterator<(K, V)> for Value {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Value {
        Value::Object(iter.into_iter().map(|(k, v)| (k.into(), v.into())).collect())
    }
}

/// What `json!` interpolates: read by reference, so nothing is moved.
pub trait ToJson {
    fn to_json(&self) -> Value;
}

impl ToJson for Value {
    fn to_json(&self) -> Value {
        self.clone()
    }
}

impl ToJson for Map {
    fn to_json(&self) -> Value {
        Value::Object(self.clone())
    }
}

impl ToJson for str {
    fn to_json(&self) -> Value {
        Value::String(self.to_owned())
    }
}

impl ToJson for String {
    fn to_json(&self) -> Value {
        Value::String(self.clone())
    }
}

impl ToJson for super::Key {
    fn to_json(&self) -> Value {
        Value::String(self.as_str().to_owned())
    }
}

impl ToJson for Cow<'_, str> {
    fn to_json(&self) -> Value {
        Value::String(self.to_string())
    }
}

impl ToJson for Number {
    fn to_json(&self) -> Value {
        Value::Number(self.clone())
    }
}

macro_rules! to_json_copy {
    ($($ty:ty)*) => {$(
        impl ToJson for $ty {
            fn to_json(&self) -> Value {
                Value::from(*self)
            }
        }
    )*};
}

to_json_copy!(bool i8 i16 i32 i64 isize u8 u16 u32 u64 usize f32 f64);

impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Value {
        self.as_ref().map_or(Value::Null, ToJson::to_json)
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: ToJson, const N: usize> ToJson for [T; N] {
    fn to_json(&self) -> Value {
        self[..].to_json()
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Value {
        self[..].to_json()
    }
}

impl<T: ToJson> ToJson for std::collections::BTreeSet<T> {
    fn to_json(&self) -> Value {
        Value::Array(self.iter().map(ToJson::to_json).collect())
    }
}

impl<T: ToJson> ToJson for std::collections::BTreeMap<String, T> {
    fn to_json(&self) -> Value {
        Value::Object(self.iter().map(|(k, v)| (k.clone(), v.to_json())).collect())
    }
}

impl<T: ?Sized + ToJson> ToJson for &T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

impl<T: ?Sized + ToJson> ToJson for &mut T {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

impl<T: ?Sized + ToJson> ToJson for Box<T> {
    fn to_json(&self) -> Value {
        (**self).to_json()
    }
}

impl ToJson for serde_json::Value {
    fn to_json(&self) -> Value {
        Value::from(self)
    }
}

#[cfg(test)]
mod tests {

    /// `pointer` answers as `serde_json::Value::pointer` does, escapes and
    /// array indexes included.
    #[test]
    fn pointers_read_as_serde_json_reads_them() {
        let ours = json!({"a/b": {"m~n": [10, {"": 1}]}, "": 2, "0": 3});
        let theirs = serde_json::Value::from(&ours);
        for p in ["", "/", "/a~1b", "/a~1b/m~0n/0", "/a~1b/m~0n/1/", "/a~1b/m~0n/01", "/a~1b/m~0n/+1", "/0", "a", "/x/y", "/a~1b/m~0n/2"] {
            assert_eq!(ours.pointer(p).map(serde_json::Value::from), theirs.pointer(p).cloned(), "{p:?}");
            let mut copy = ours.clone();
            assert_eq!(copy.pointer_mut(p).map(|v| serde_json::Value::from(&*v)), theirs.pointer(p).cloned(), "{p:?}");
        }
    }

    /// `at` reads a parsed pointer as `pointer` reads its text.
    #[test]
    fn a_parsed_pointer_names_what_its_text_names() {
        let doc = json!({"a/b": {"m~n": [10, {"": 1}]}, "": 2, "0": 3, "a": [1, {"b": 2}]});
        for p in ["", "/", "/a~1b", "/a~1b/m~0n/0", "/a~1b/m~0n/1/", "/a~1b/m~0n/01", "/0", "/x/y", "/a/1/b", "/a/01", "/a/2"] {
            let parsed = crate::pointer::Pointer::parse_fragment(p).expect("a fragment");
            assert_eq!(doc.at(&parsed), doc.pointer(p), "{p:?}");
        }
        assert_eq!(doc.at(&crate::pointer::Pointer::parse_fragment("/a/1/b").unwrap()), Some(&json!(2)));
    }
}
