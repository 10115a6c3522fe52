//! [`Value`] through serde, for the Rust API (a `Value` inside a caller's
//! own serde types) and as the oracle the tests hold the core's own parser
//! and writers to, and conversions to and from `serde_json::Value` for
//! callers that hold one. The JSON entry points use neither: they parse with
//! `doc::parse_value` and answer through `doc::WriteJson`, so the wasm module
//! carries no serde_json reader or writer.
use super::map::Map;
use super::value::Value;
use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Number(n) => n.serialize(s),
            Value::String(text) => s.serialize_str(text),
            Value::Array(items) => s.collect_seq(items),
            Value::Object(m) => m.serialize(s),
        }
    }
}

impl Serialize for Map {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut out = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            out.serialize_entry(k, v)?;
        }
        out.end()
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Value;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
                Ok(Value::Bool(b))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
                Ok(Value::Number(n.into()))
            }
            fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
                Ok(Value::Number(n.into()))
            }
            fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
                Ok(Value::from(n))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Value, E> {
                Ok(Value::String(s.to_owned()))
            }
            fn visit_string<E>(self, s: String) -> Result<Value, E> {
                Ok(Value::String(s))
            }
            fn visit_none<E>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
                Deserialize::deserialize(d)
            }
            fn visit_unit<E>(self) -> Result<Value, E> {
                Ok(Value::Null)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
                let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(Value::Array(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
                // A repeated key keeps its first position and takes the last
                // value, as serde_json's ordered map does.
                let mut map = Map::new();
                while let Some(key) = access.next_key::<super::Key>()? {
                    let value: Value = access.next_value()?;
                    map.insert(key, value);
                }
                Ok(Value::Object(map))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Map {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Value::deserialize(d)? {
            Value::Object(m) => Ok(m),
            _ => Err(de::Error::invalid_type(de::Unexpected::Other("a value that is not an object"), &"a JSON object")),
        }
    }
}

impl From<serde_json::Value> for Value {
    fn from(v: serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(b),
            serde_json::Value::Number(n) => Value::Number(n),
            serde_json::Value::String(s) => Value::String(s),
            serde_json::Value::Array(a) => Value::Array(a.into_iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => {
                let mut out = Map::with_capacity(m.len());
                for (k, v) in m {
                    out.push_unique(k.into(), Value::from(v));
                }
                Value::Object(out)
            }
        }
    }
}

impl From<&serde_json::Value> for Value {
    fn from(v: &serde_json::Value) -> Value {
        match v {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(n.clone()),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(a) => Value::Array(a.iter().map(Value::from).collect()),
            serde_json::Value::Object(m) => {
                let mut out = Map::with_capacity(m.len());
                for (k, v) in m {
                    out.push_unique(k.into(), Value::from(v));
                }
                Value::Object(out)
            }
        }
    }
}

impl From<Value> for serde_json::Value {
    fn from(v: Value) -> serde_json::Value {
        match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(b),
            Value::Number(n) => serde_json::Value::Number(n),
            Value::String(s) => serde_json::Value::String(s),
            Value::Array(a) => serde_json::Value::Array(a.into_iter().map(serde_json::Value::from).collect()),
            Value::Object(m) => serde_json::Value::Object(m.into_iter().map(|(k, v)| (k.into_string(), serde_json::Value::from(v))).collect()),
        }
    }
}

impl From<&Value> for serde_json::Value {
    fn from(v: &Value) -> serde_json::Value {
        match v {
            Value::Null => serde_json::Value::Null,
            Value::Bool(b) => serde_json::Value::Bool(*b),
            Value::Number(n) => serde_json::Value::Number(n.clone()),
            Value::String(s) => serde_json::Value::String(s.clone()),
            Value::Array(a) => serde_json::Value::Array(a.iter().map(serde_json::Value::from).collect()),
            Value::Object(m) => serde_json::Value::Object(m.iter().map(|(k, v)| (k.to_string(), serde_json::Value::from(v))).collect()),
        }
    }
}

impl PartialEq<serde_json::Value> for Value {
    fn eq(&self, other: &serde_json::Value) -> bool {
        match (self, other) {
            (Value::Null, serde_json::Value::Null) => true,
            (Value::Bool(a), serde_json::Value::Bool(b)) => a == b,
            (Value::Number(a), serde_json::Value::Number(b)) => a == b,
            (Value::String(a), serde_json::Value::String(b)) => a == b,
            (Value::Array(a), serde_json::Value::Array(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y),
            (Value::Object(a), serde_json::Value::Object(b)) => a.len() == b.len() && a.iter().all(|(k, v)| b.get(k.as_str()).is_some_and(|w| v == w)),
            _ => false,
        }
    }
}

impl PartialEq<Value> for serde_json::Value {
    fn eq(&self, other: &Value) -> bool {
        other == self
    }
}

/// Reads a `T` out of a value (options, tool fields).
pub fn from_value<T: de::DeserializeOwned>(v: Value) -> Result<T, serde_json::Error> {
    serde_json::from_value(serde_json::Value::from(v))
}

/// A value from anything serde can write.
pub fn to_value<T: ?Sized + Serialize>(v: &T) -> Result<Value, serde_json::Error> {
    serde_json::to_value(v).map(Value::from)
}

/// Parses JSON text (no depth guard: `crate::json::parse` adds it).
pub fn from_str(text: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str(text)
}
