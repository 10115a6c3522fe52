//! JSON Pointer (RFC 6901) paths into a schema document.
use std::fmt;

/// A JSON Pointer kept as unescaped segments; rendered with `~0`/`~1` escapes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pointer(Vec<String>);

impl Pointer {
    pub fn root() -> Self {
        Pointer(Vec::new())
    }

    pub fn push(&mut self, seg: impl Into<String>) {
        self.0.push(seg.into());
    }

    pub fn pop(&mut self) {
        self.0.pop();
    }

    pub fn child(&self, seg: impl Into<String>) -> Self {
        let mut p = self.clone();
        p.push(seg);
        p
    }

    pub fn segments(&self) -> &[String] {
        &self.0
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Parses the fragment part of a local `$ref` (`#/a/b~1c`), percent-decoding first.
    pub fn parse_fragment(fragment: &str) -> Option<Self> {
        let decoded = percent_decode(fragment)?;
        if decoded.is_empty() {
            return Some(Pointer::root());
        }
        let rest = decoded.strip_prefix('/')?;
        Some(Pointer(
            rest.split('/')
                .map(|s| s.replace("~1", "/").replace("~0", "~"))
                .collect(),
        ))
    }

    /// Looks the pointer up in a JSON document.
    pub fn resolve<'v>(&self, doc: &'v serde_json::Value) -> Option<&'v serde_json::Value> {
        let mut cur = doc;
        for seg in &self.0 {
            cur = match cur {
                serde_json::Value::Object(m) => m.get(seg)?,
                serde_json::Value::Array(a) => {
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

    pub fn starts_with(&self, other: &Pointer) -> bool {
        self.0.starts_with(&other.0)
    }
}

impl fmt::Display for Pointer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for seg in &self.0 {
            f.write_str("/")?;
            f.write_str(&seg.replace('~', "~0").replace('/', "~1"))?;
        }
        Ok(())
    }
}

fn percent_decode(s: &str) -> Option<String> {
    if !s.contains('%') {
        return Some(s.to_string());
    }
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        let p = Pointer::parse_fragment("/a~1b/c~0d/%25").unwrap();
        assert_eq!(p.segments(), ["a/b", "c~d", "%"]);
        assert_eq!(p.to_string(), "/a~1b/c~0d/%");
    }

    #[test]
    fn resolves_arrays_and_rejects_leading_zero() {
        let doc = serde_json::json!({"a": [1, {"b": 2}]});
        assert_eq!(Pointer::parse_fragment("/a/1/b").unwrap().resolve(&doc), Some(&serde_json::json!(2)));
        assert_eq!(Pointer::parse_fragment("/a/01").unwrap().resolve(&doc), None);
        assert!(Pointer::parse_fragment("a").is_none());
    }
}
