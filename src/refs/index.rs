//! Where each `$id` and `$anchor` of a document lives, and ref resolution.
use crate::lookup::Fields;
use crate::draft::Moves;
use crate::pointer::Pointer;
use crate::walk;
use serde_json::Value;
use std::collections::{HashMap, HashSet};

pub struct Index {
    ids: HashMap<String, Pointer>,
    anchors: HashMap<String, Pointer>,
}

impl Index {
    pub fn build(doc: &Value) -> Self {
        let mut ids = HashMap::new();
        let mut anchors = HashMap::new();
        walk::visit(doc, &mut Pointer::root(), &mut |node, path| {
            let Value::Object(m) = node else { return };
            if let Some(Value::String(id)) = m.field("$id") {
                match id.strip_prefix('#') {
                    // draft-06/07 spelled anchors as `"$id": "#name"`.
                    Some(anchor) if !anchor.is_empty() => {
                        anchors.entry(anchor.to_string()).or_insert_with(|| path.clone());
                    }
                    _ => {
                        ids.entry(id.trim_end_matches('#').to_string()).or_insert_with(|| path.clone());
                    }
                }
            }
            for key in ["$anchor", "$dynamicAnchor"] {
                if let Some(Value::String(a)) = m.get(key) {
                    anchors.entry(a.clone()).or_insert_with(|| path.clone());
                }
            }
        });
        Index { ids, anchors }
    }

    /// A Relative JSON Pointer (`"1/home"`: up one level from the ref's node,
    /// then `/home`), as zod-to-json-schema's `$refStrategy: "relative"` writes.
    pub fn resolve_relative(reference: &str, at: &Pointer) -> Option<Pointer> {
        let digits = reference.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 || !(reference.len() == digits || reference.as_bytes()[digits] == b'/') {
            return None;
        }
        let up: usize = reference[..digits].parse().ok()?;
        let segs = at.segments();
        let keep = segs.len().checked_sub(up)?;
        let mut p = Pointer::root();
        for s in &segs[..keep] {
            p.push(s);
        }
        for s in Pointer::parse_fragment(&reference[digits..])?.segments() {
            p.push(s);
        }
        Some(p)
    }

    /// The pointer a `$ref` designates, if it stays inside the document.
    pub fn resolve(&self, reference: &str, moves: &Moves) -> Option<Pointer> {
        let (uri, fragment) = match reference.split_once('#') {
            Some((u, f)) => (u, f),
            None => (reference, ""),
        };
        let base = if uri.is_empty() { Pointer::root() } else { self.resource(uri)? };
        if fragment.is_empty() {
            return Some(base);
        }
        if fragment.starts_with('/') || fragment.starts_with("%2F") {
            let rel = Pointer::parse_fragment(fragment)?;
            let mut full = base;
            full.append(&rel);
            return Some(moves.translate(&full));
        }
        self.anchors.get(fragment).cloned()
    }

    /// An embedded resource by its `$id`: exact, then by trailing path.
    fn resource(&self, uri: &str) -> Option<Pointer> {
        if let Some(p) = self.ids.get(uri) {
            return Some(p.clone());
        }
        self.ids
            .iter()
            .filter(|(id, _)| id.ends_with(&format!("/{uri}")) || uri.ends_with(&format!("/{id}")))
            .min_by_key(|(_, p)| p.len())
            .map(|(_, p)| p.clone())
    }
}

impl Index {
    /// Ref targets that can reach themselves through refs (the root counts as a
    /// target), following the expansion's view: nested `$defs` are not part of
    /// the schema that contains them.
    /// What a `$ref` at `at` designates, the way the expander reads it: as
    /// written, as a relative pointer, then as a known generator artifact.
    pub fn target(&self, reference: &str, at: &Pointer, doc: &Value, moves: &Moves) -> Option<(Pointer, bool)> {
        let found = self
            .resolve(reference, moves)
            .or_else(|| Index::resolve_relative(reference, at))
            .filter(|p| p.resolve(doc).is_some_and(Value::is_object));
        match found {
            Some(p) => Some((p, false)),
            None => self.repair(reference, doc).map(|p| (p, true)),
        }
    }

    /// `(cyclic, barren)`: targets on a ref cycle, and those that can reach
    /// themselves without crossing a property or item.
    pub fn cycles(&self, doc: &Value, moves: &Moves) -> (HashSet<Pointer>, HashSet<Pointer>) {
        let mut refs: Vec<(Pointer, Pointer)> = Vec::new();
        walk::visit(doc, &mut Pointer::root(), &mut |node, path| {
            let Some(r) = node.field("$ref").or_else(|| node.field("$dynamicRef")).and_then(Value::as_str) else { return };
            if let Some((t, _)) = self.target(r, path, doc, moves) {
                refs.push((path.clone(), t));
            }
        });
        if refs.is_empty() {
            return Default::default();
        }
        let mut targets: Vec<Pointer> = refs.iter().map(|(_, t)| t.clone()).collect();
        targets.push(Pointer::root());
        // Any total order does for deduplication; the rendered text needs no allocation.
        targets.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        targets.dedup();
        let number: HashMap<&Pointer, usize> = targets.iter().enumerate().map(|(i, t)| (t, i)).collect();
        // Keywords have no `~` or `/`, so the escaped segments compare as written.
        let within = |t: &Pointer, at: &Pointer| {
            at.starts_with(t) && !at.raw_segments(t.len()).any(|s| s == "$defs" || s == "definitions")
        };
        const CONSUMING: &[&str] =
            &["properties", "items", "prefixItems", "additionalProperties", "patternProperties", "contains", "dependentSchemas"];
        // Edges carry whether the path from the target to the ref crosses a property or item.
        let edges: Vec<Vec<(usize, bool)>> = targets
            .iter()
            .map(|t| {
                refs.iter()
                    .filter(|(at, _)| within(t, at))
                    .filter_map(|(at, u)| {
                        let consumes = at.raw_segments(t.len()).any(|s| CONSUMING.contains(&s));
                        number.get(u).map(|&i| (i, consumes))
                    })
                    .collect()
            })
            .collect();
        let reaches_itself = |start: usize, barren_only: bool| {
            let mut seen = vec![false; targets.len()];
            let mut stack: Vec<usize> =
                edges[start].iter().filter(|(_, c)| !(barren_only && *c)).map(|(n, _)| *n).collect();
            while let Some(n) = stack.pop() {
                if n == start {
                    return true;
                }
                if !std::mem::replace(&mut seen[n], true) {
                    stack.extend(edges[n].iter().filter(|(_, c)| !(barren_only && *c)).map(|(m, _)| *m));
                }
            }
            false
        };
        let mut cyclic = HashSet::new();
        let mut barren = HashSet::new();
        for (i, t) in targets.iter().enumerate() {
            if reaches_itself(i, false) {
                cyclic.insert(t.clone());
                if reaches_itself(i, true) {
                    barren.insert(t.clone());
                }
            }
        }
        (cyclic, barren)
    }
}

impl Index {
    /// A best reading of a local ref that does not resolve as written, for the
    /// artifacts schema generators leave: zod-to-json-schema's `basePath` and
    /// `definitionPath` (`#/definitions/Args/properties/home` when the document
    /// root is `Args`), and OpenAPI-style `#/components/schemas/X` for a `$defs/X`.
    pub fn repair(&self, reference: &str, doc: &Value) -> Option<Pointer> {
        let fragment = reference.strip_prefix('#')?;
        let p = Pointer::parse_fragment(fragment)?;
        let segs = p.segments();
        for skip in 1..segs.len() {
            let mut q = Pointer::root();
            for s in &segs[skip..] {
                q.push(s);
            }
            if q.resolve(doc).is_some_and(Value::is_object) {
                return Some(q);
            }
        }
        // A definitions key that itself contains `/` ("components/schemas").
        for split in 2..segs.len() {
            let mut q = Pointer::root().child(segs[..split].join("/"));
            for s in &segs[split..] {
                q.push(s);
            }
            if q.resolve(doc).is_some_and(Value::is_object) {
                return Some(q);
            }
        }
        let last = segs.last()?;
        for defs in ["$defs", "definitions"] {
            let q = Pointer::root().child(defs).child(last.as_str());
            if q.resolve(doc).is_some_and(Value::is_object) {
                return Some(q);
            }
        }
        None
    }
}
