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
        let number: HashMap<&str, usize> = targets.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
        const CONSUMING: &[&str] =
            &["properties", "items", "prefixItems", "additionalProperties", "patternProperties", "contains", "dependentSchemas"];
        // Edges run from each target to the refs within it (not below a `$defs`
        // of its own), and carry whether the path from the target to the ref
        // crosses a property or item. A ref's containing targets are among its
        // own prefixes, looked up by their text (keywords have no `~` or `/`,
        // so the escaped segments compare as written): comparing every target
        // with every ref was quadratic in the number of definitions.
        let mut edges: Vec<Vec<(usize, bool)>> = vec![Vec::new(); targets.len()];
        for (at, u) in &refs {
            let Some(&to) = number.get(u.as_str()) else { continue };
            let segments: Vec<&str> = at.raw_segments(0).collect();
            let mut consumes = false;
            for k in (0..=segments.len()).rev() {
                if let Some(&s) = segments.get(k) {
                    if s == "$defs" || s == "definitions" {
                        break;
                    }
                    consumes |= CONSUMING.contains(&s);
                }
                if let Some(&from) = number.get(at.prefix_str(k)) {
                    edges[from].push((to, consumes));
                }
            }
        }
        let cyclic_at = on_cycle(&edges, false);
        let barren_at = on_cycle(&edges, true);
        let mut cyclic = HashSet::new();
        let mut barren = HashSet::new();
        for (i, t) in targets.iter().enumerate() {
            if cyclic_at[i] {
                cyclic.insert(t.clone());
                if barren_at[i] {
                    barren.insert(t.clone());
                }
            }
        }
        (cyclic, barren)
    }
}

/// Which nodes can reach themselves (along edges that do not consume, with
/// `barren_only`): the members of strongly connected components with a cycle,
/// found by Tarjan's algorithm with an explicit stack (linear; a search from
/// every node was quadratic, and recursion would follow the graph's depth).
fn on_cycle(edges: &[Vec<(usize, bool)>], barren_only: bool) -> Vec<bool> {
    const UNSEEN: usize = usize::MAX;
    /// The search's state; `open` numbers a node and puts it on both stacks.
    struct Search {
        index: Vec<usize>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        calls: Vec<(usize, usize)>,
        next: usize,
    }
    impl Search {
        fn open(&mut self, v: usize) {
            self.index[v] = self.next;
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            self.calls.push((v, 0));
        }
    }
    let n = edges.len();
    let usable = |(_, consumes): &(usize, bool)| !(barren_only && *consumes);
    let mut s = Search { index: vec![UNSEEN; n], low: vec![0; n], on_stack: vec![false; n], stack: Vec::new(), calls: Vec::new(), next: 0 };
    let mut result = vec![false; n];
    for root in 0..n {
        if s.index[root] != UNSEEN {
            continue;
        }
        s.open(root);
        while let Some(&(v, pos)) = s.calls.last() {
            if let Some(&edge) = edges[v].get(pos) {
                if let Some(top) = s.calls.last_mut() {
                    top.1 += 1;
                }
                if !usable(&edge) {
                    continue;
                }
                let w = edge.0;
                if s.index[w] == UNSEEN {
                    s.open(w);
                } else if s.on_stack[w] {
                    s.low[v] = s.low[v].min(s.index[w]);
                }
                continue;
            }
            s.calls.pop();
            if let Some(&(parent, _)) = s.calls.last() {
                s.low[parent] = s.low[parent].min(s.low[v]);
            }
            if s.low[v] == s.index[v] {
                let mut members = Vec::new();
                while let Some(w) = s.stack.pop() {
                    s.on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let loops = members.len() > 1 || edges[v].iter().any(|e| e.0 == v && usable(e));
                if loops {
                    for m in members {
                        result[m] = true;
                    }
                }
            }
        }
    }
    result
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
