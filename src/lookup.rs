//! Keyword lookups on schema nodes.
//!
//! serde_json's map hashes every key it is asked for with SipHash, about 170
//! instructions for a short keyword, and nearly every schema node has a handful
//! of keys: a scan that compares lengths first answers in a few dozen. The rules
//! ask each node for many keywords, so this was the largest single cost of a
//! normalization (about a fifth of its instructions on the real MCP schemas).
use crate::doc::{Map, Value};

/// Maps up to this many entries are scanned; larger ones use the hash index.
const SCAN: usize = 16;

/// `get`, `get_mut` and `contains_key` for schema nodes, by scanning small maps.
pub trait Fields {
    fn field(&self, key: &str) -> Option<&Value>;
    fn field_mut(&mut self, key: &str) -> Option<&mut Value>;
    fn has(&self, key: &str) -> bool {
        self.field(key).is_some()
    }
    /// `shift_remove`, which hashes the key even when it is absent (the usual
    /// case: rules remove keywords a node may hold); a scan answers that first.
    fn remove_field(&mut self, key: &str) -> Option<Value>;
}

impl Fields for Map<String, Value> {
    fn field(&self, key: &str) -> Option<&Value> {
        if self.len() <= SCAN {
            self.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get(key)
        }
    }

    fn field_mut(&mut self, key: &str) -> Option<&mut Value> {
        if self.len() <= SCAN {
            self.iter_mut().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
        } else {
            self.get_mut(key)
        }
    }

    fn remove_field(&mut self, key: &str) -> Option<Value> {
        if self.len() <= SCAN && !self.keys().any(|k| k == key) {
            return None;
        }
        self.shift_remove(key)
    }
}

impl Fields for Value {
    fn field(&self, key: &str) -> Option<&Value> {
        self.as_object()?.field(key)
    }

    fn field_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.as_object_mut()?.field_mut(key)
    }

    fn remove_field(&mut self, key: &str) -> Option<Value> {
        self.as_object_mut()?.remove_field(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn small_and_large_maps_answer_alike() {
        for n in [0, 1, SCAN - 1, SCAN, SCAN + 1, 3 * SCAN] {
            let mut m = Map::new();
            for i in 0..n {
                m.insert(format!("k{i}"), json!(i));
            }
            let mut v = Value::Object(m.clone());
            for i in 0..n + 2 {
                let k = format!("k{i}");
                assert_eq!(m.field(&k), m.get(&k), "{n} {k}");
                assert_eq!(v.field(&k).cloned(), m.get(&k).cloned());
                assert_eq!(m.has(&k), m.contains_key(&k));
                if let Some(x) = v.field_mut(&k) {
                    *x = json!("changed");
                }
            }
            assert!(v.as_object().unwrap().values().all(|x| x == "changed"));
        }
        assert_eq!(json!([1]).field("0"), None);
    }
}
