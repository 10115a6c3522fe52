//! Keyword lookups on schema nodes, by name, on a map or on a value that
//! may not be one. `doc::Map` compares keys in place up to a couple of dozen
//! members (nearly every schema node) and hashes past that, so these only
//! forward.
use crate::doc::{Map, Value};
use crate::keywords::table::Name;

/// `get`, `get_mut`, `contains_key` and `shift_remove` for schema nodes, by
/// name or by a keyword's row (`keywords::kw::TYPE`), which an interned key
/// matches with no text compared.
pub trait Fields {
    fn field<Q: Name + AsRef<str> + ?Sized>(&self, key: &Q) -> Option<&Value>;
    fn field_mut<Q: Name + AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<&mut Value>;
    fn has<Q: Name + AsRef<str> + ?Sized>(&self, key: &Q) -> bool {
        self.field(key).is_some()
    }
    /// Removes `key`, keeping the order of the other members.
    fn remove_field<Q: Name + AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<Value>;
}

impl Fields for Map {
    #[inline]
    fn field<Q: Name + AsRef<str> + ?Sized>(&self, key: &Q) -> Option<&Value> {
        match key.row() {
            Some(row) => self.index_of_row(row, key.as_ref()).and_then(|i| self.get_index(i)).map(|(_, v)| v),
            None => self.get(key.as_ref()),
        }
    }

    #[inline]
    fn field_mut<Q: Name + AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<&mut Value> {
        match key.row() {
            Some(row) => self.index_of_row(row, key.as_ref()).and_then(|i| self.get_index_mut(i)),
            None => self.get_mut(key.as_ref()),
        }
    }

    #[inline]
    fn remove_field<Q: Name + AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<Value> {
        match key.row() {
            Some(row) => self.index_of_row(row, key.as_ref()).map(|i| self.shift_remove_index(i).1),
            None => self.shift_remove(key.as_ref()),
        }
    }
}

impl Fields for Value {
    #[inline]
    fn field<Q: Name + AsRef<str> + ?Sized>(&self, key: &Q) -> Option<&Value> {
        self.as_object()?.field(key)
    }

    #[inline]
    fn field_mut<Q: Name + AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<&mut Value> {
        self.as_object_mut()?.field_mut(key)
    }

    #[inline]
    fn remove_field<Q: Name + AsRef<str> + ?Sized>(&mut self, key: &Q) -> Option<Value> {
        self.as_object_mut()?.remove_field(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn small_and_large_maps_answer_alike() {
        for n in [0, 1, 23, 24, 25, 80] {
            let mut m = Map::new();
            for i in 0..n {
                m.insert(format!("k{i}").into(), json!(i));
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
