//! Where each `$id` and `$anchor` of a document lives, and ref resolution.
use crate::lookup::Fields;
use crate::draft::Moves;
use crate::pointer::Pointer;
use crate::walk;
use crate::doc::Value;
use crate::hash::{HashMap, HashSet};
use crate::keywords::kw;

pub struct Index {
    /// Each resource by its `$id` as written and by its base URI.
    ids: HashMap<String, Pointer>,
    /// Every resource with its base URI, in document order: the root first
    /// (base: its `$id`, or none), then each node with a `$id` that is not an
    /// anchor, its `$id` resolved against the base of the resource it stands in.
    resources: Vec<(Pointer, String)>,
    /// Anchors by name, whichever resource holds them (the first wins).
    anchors: HashMap<String, Pointer>,
    /// Anchors by the resource that holds them and their name.
    scoped_anchors: HashMap<(String, String), Pointer>,
    /// Every `$ref` (or `$dynamicRef`) with where it is written, in document
    /// order, found by the same walk.
    sites: Vec<(Pointer, String)>,
}

impl Index {
    pub fn build(doc: &Value) -> Self {
        let mut ids = HashMap::default();
        let mut anchors = HashMap::default();
        let mut scoped_anchors = HashMap::default();
        let mut resources = vec![(Pointer::root(), String::new())];
        let mut sites = Vec::new();
        // Pre-order: a resource is indexed before anything inside it. The
        // pointer is written out only at the few nodes that hold a reference,
        // an id or an anchor.
        walk::visit_trail(doc, &mut walk::Trail::default(), &mut |node, trail| {
            let Value::Object(m) = node else { return };
            let reference = m.field(kw::REF).or_else(|| m.field(kw::DYNAMIC_REF)).and_then(Value::as_str);
            let id = m.field(kw::ID);
            if reference.is_none() && id.is_none() && !m.has(kw::ANCHOR) && !m.has(kw::DYNAMIC_ANCHOR) {
                return;
            }
            let path = &trail.pointer();
            if let Some(r) = reference {
                sites.push((path.clone(), r.to_string()));
            }
            let mut anchor_names = Vec::new();
            if let Some(Value::String(id)) = id {
                match id.strip_prefix('#') {
                    // draft-06/07 spelled anchors as `"$id": "#name"`.
                    Some(anchor) if !anchor.is_empty() => anchor_names.push(anchor.to_string()),
                    _ => {
                        let written = id.split('#').next().unwrap_or_default().to_string();
                        let base = resolve_uri(&enclosing(&resources, path).1, &written);
                        ids.entry(base.clone()).or_insert_with(|| path.clone());
                        ids.entry(written).or_insert_with(|| path.clone());
                        if path.is_empty() {
                            resources[0].1 = base;
                        } else {
                            resources.push((path.clone(), base));
                        }
                    }
                }
            }
            for key in ["$anchor", "$dynamicAnchor"] {
                if let Some(Value::String(a)) = m.get(key) {
                    anchor_names.push(a.clone());
                }
            }
            if anchor_names.is_empty() {
                return;
            }
            let resource = enclosing(&resources, path).0.to_string();
            for name in anchor_names {
                anchors.entry(name.clone()).or_insert_with(|| path.clone());
                scoped_anchors.entry((resource.clone(), name)).or_insert_with(|| path.clone());
            }
        });
        Index { ids, resources, anchors, scoped_anchors, sites }
    }

    /// Every `$ref` (or `$dynamicRef`) written as a string, with where, in
    /// document order.
    pub fn sites(&self) -> &[(Pointer, String)] {
        &self.sites
    }

    /// The resource a node at `at` stands in: the innermost one holding it
    /// (its own, when the node has a `$id`).
    fn resource_at(&self, at: &Pointer) -> &(Pointer, String) {
        enclosing(&self.resources, at)
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

    /// The pointer a `$ref` written at `at` designates, if it stays inside the
    /// document. In 2020-12 a `$ref` resolves against the base URI of the
    /// resource it stands in (Core §8.2.1, §9.1.1): `#/$defs/S` inside an
    /// embedded `{"$id": "c.json", "$defs": {"S": ...}}` is c.json's own `S`.
    pub fn resolve(&self, reference: &str, at: &Pointer, moves: &Moves) -> Option<Pointer> {
        let (uri, fragment) = match reference.split_once('#') {
            Some((u, f)) => (u, f),
            None => (reference, ""),
        };
        let (here, base) = self.resource_at(at);
        let resource = if uri.is_empty() { here.clone() } else { self.resource(&resolve_uri(base, uri), uri)? };
        if fragment.is_empty() {
            return Some(resource);
        }
        if fragment.starts_with('/') || fragment.starts_with("%2F") {
            let rel = Pointer::parse_fragment(fragment)?;
            // The fragment is written against the resource as it was before
            // the draft upgrade moved keys (`definitions` → `$defs`).
            let mut full = moves.original(&resource);
            full.append(&rel);
            return Some(moves.translate(&full));
        }
        self.scoped_anchors.get(&(resource.to_string(), fragment.to_string())).or_else(|| self.anchors.get(fragment)).cloned()
    }

    /// An embedded resource by its `$id`: by the base URI the ref resolves
    /// to, then as written, then by trailing path.
    fn resource(&self, absolute: &str, uri: &str) -> Option<Pointer> {
        if let Some(p) = self.ids.get(absolute).or_else(|| self.ids.get(uri)) {
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
        let exists = |p: &Pointer| doc.at(p).is_some_and(Value::is_object);
        let found = self
            .resolve(reference, at, moves)
            .or_else(|| Index::resolve_relative(reference, at))
            .filter(exists);
        if let Some(p) = found {
            return Some((p, false));
        }
        // Inside an embedded resource, a ref its own base does not resolve
        // may have been written against the document root (as if the `$id`
        // were not there); that reading is a repair, and reported as one.
        let inside = !self.resource_at(at).0.is_empty();
        let from_root = if inside { self.resolve(reference, &Pointer::root(), moves).filter(exists) } else { None };
        from_root.or_else(|| self.repair(reference, doc)).map(|p| (p, true))
    }

    /// What a `$dynamicRef` at `at` designates. Its lexical target, unless
    /// the fragment names a `$dynamicAnchor` that the target carries: then the
    /// outermost resource of the dynamic scope that declares the same dynamic
    /// anchor wins (Core §8.2.3.2). Evaluation starts at the root, so the
    /// root resource is the outermost; where it has no such anchor, the
    /// lexical target stands (the scopes between are not tracked).
    pub fn dynamic_target(&self, reference: &str, at: &Pointer, doc: &Value, moves: &Moves) -> Option<(Pointer, bool)> {
        let lexical = self.target(reference, at, doc, moves)?;
        let name = reference.split_once('#').map_or("", |(_, f)| f);
        if name.is_empty() || name.starts_with('/') {
            return Some(lexical);
        }
        let dynamic = |p: &Pointer| doc.at(p).and_then(|n| n.get("$dynamicAnchor")).and_then(Value::as_str) == Some(name);
        if !dynamic(&lexical.0) {
            return Some(lexical);
        }
        match self.scoped_anchors.get(&(Pointer::root().to_string(), name.to_string())) {
            Some(outer) if dynamic(outer) => Some((outer.clone(), lexical.1)),
            _ => Some(lexical),
        }
    }

    /// `(cyclic, barren)`: targets on a ref cycle, and those that can reach
    /// themselves without crossing a property or item. `doc` is the document
    /// the index was built from.
    pub fn cycles(&self, doc: &Value, moves: &Moves) -> (HashSet<Pointer>, HashSet<Pointer>) {
        let mut refs: Vec<(Pointer, Pointer)> = Vec::new();
        for (path, r) in &self.sites {
            if let Some((t, _)) = self.target(r, path, doc, moves) {
                refs.push((path.clone(), t));
            }
        }
        if refs.is_empty() {
            return Default::default();
        }
        let mut targets: Vec<Pointer> = refs.iter().map(|(_, t)| t.clone()).collect();
        targets.push(Pointer::root());
        // Any total order does for deduplication; the rendered text needs no allocation.
        crate::sort::sort_by(&mut targets, |a, b| a.as_str().cmp(b.as_str()));
        targets.dedup();
        let number: HashMap<&str, usize> = targets.iter().enumerate().map(|(i, t)| (t.as_str(), i)).collect();
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
                    consumes |= crate::keywords::consumes(s);
                }
                if let Some(&from) = number.get(at.prefix_str(k)) {
                    edges[from].push((to, consumes));
                }
            }
        }
        let cyclic_at = on_cycle(&edges, false);
        let barren_at = on_cycle(&edges, true);
        let mut cyclic = HashSet::default();
        let mut barren = HashSet::default();
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

/// The innermost of `resources` (in document order, the root first) holding
/// `at`: in pre-order, the last one that is a prefix of it.
fn enclosing<'r>(resources: &'r [(Pointer, String)], at: &Pointer) -> &'r (Pointer, String) {
    resources.iter().rev().find(|(p, _)| at.starts_with(p)).unwrap_or(&resources[0])
}

/// `reference` resolved against `base` (RFC 3986 §5.2, without query
/// handling): absolute references stand; others replace the base's last
/// path segment, or its path (`/x`), or all but its scheme (`//host/x`).
fn resolve_uri(base: &str, reference: &str) -> String {
    let scheme_end = |s: &str| {
        let end = s.find(':')?;
        let name = &s[..end];
        (name.starts_with(|c: char| c.is_ascii_alphabetic())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c)))
        .then_some(end)
    };
    if reference.is_empty() {
        return base.to_string();
    }
    if base.is_empty() || scheme_end(reference).is_some() {
        return remove_dot_segments(reference);
    }
    let scheme = scheme_end(base).map_or("", |end| &base[..=end]);
    if reference.starts_with("//") {
        return format!("{scheme}{reference}");
    }
    let rest = &base[scheme.len()..];
    let authority = match rest.strip_prefix("//") {
        Some(after) => &rest[..2 + after.find('/').unwrap_or(after.len())],
        None => "",
    };
    if reference.starts_with('/') {
        return format!("{scheme}{authority}{}", remove_dot_segments(reference));
    }
    let path = &rest[authority.len()..];
    let dir = path.rfind('/').map_or("", |i| &path[..=i]);
    format!("{scheme}{authority}{}", remove_dot_segments(&format!("{dir}{reference}")))
}

/// `.` and `..` segments of a path (RFC 3986 §5.2.4), for `$id`s such as
/// `../common/defs.json`.
fn remove_dot_segments(path: &str) -> String {
    if !path.split('/').any(|s| s == "." || s == "..") {
        return path.to_string();
    }
    let mut out: Vec<&str> = Vec::new();
    let segments: Vec<&str> = path.split('/').collect();
    for (i, s) in segments.iter().enumerate() {
        match *s {
            "." => {}
            ".." => {
                if out.len() > 1 || out.first().is_some_and(|f| !f.is_empty()) {
                    out.pop();
                }
            }
            other => out.push(other),
        }
        // A path ending in a dot segment still names a directory.
        if i + 1 == segments.len() && matches!(*s, "." | "..") {
            out.push("");
        }
    }
    out.join("/")
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
            if doc.at(&q).is_some_and(Value::is_object) {
                return Some(q);
            }
        }
        // A definitions key that itself contains `/` ("components/schemas").
        for split in 2..segs.len() {
            let mut q = Pointer::root().child(segs[..split].join("/"));
            for s in &segs[split..] {
                q.push(s);
            }
            if doc.at(&q).is_some_and(Value::is_object) {
                return Some(q);
            }
        }
        let last = segs.last()?;
        for defs in ["$defs", "definitions"] {
            let q = Pointer::root().child(defs).child(last.as_str());
            if doc.at(&q).is_some_and(Value::is_object) {
                return Some(q);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn uris_resolve_against_their_base() {
        assert_eq!(resolve_uri("", "c.json"), "c.json");
        assert_eq!(resolve_uri("https://x.org/a/b.json", "c.json"), "https://x.org/a/c.json");
        assert_eq!(resolve_uri("https://x.org/a/b.json", "../c.json"), "https://x.org/c.json");
        assert_eq!(resolve_uri("https://x.org/a/b.json", "/c.json"), "https://x.org/c.json");
        assert_eq!(resolve_uri("https://x.org/a/b.json", "//y.org/c.json"), "https://y.org/c.json");
        assert_eq!(resolve_uri("https://x.org/a/b.json", "urn:t:b"), "urn:t:b");
        assert_eq!(resolve_uri("dir/b.json", "./c.json"), "dir/c.json");
        assert_eq!(resolve_uri("TreeNode", "TreeNode"), "TreeNode");
    }

    /// A `$ref` resolves against the resource it stands in (issue 22 item 4),
    /// nested resources included; outside any, against the root.
    #[test]
    fn refs_resolve_inside_their_resource() {
        let doc = json!({
            "$id": "https://x.org/root.json",
            "$defs": {
                "S": {"type": "integer"},
                "r": {"$id": "sub/c.json", "$defs": {"S": {"type": "string"}, "d": {"$id": "d.json", "$anchor": "here"}}}
            }
        });
        let index = Index::build(&doc);
        let moves = Moves::default();
        let at = |p: &str| Pointer::parse_fragment(p).unwrap();
        let got = |r: &str, from: &str| index.target(r, &at(from), &doc, &moves).map(|(p, repaired)| (p.to_string(), repaired));
        assert_eq!(got("#/$defs/S", ""), Some(("/$defs/S".into(), false)));
        assert_eq!(got("#/$defs/S", "/$defs/r/properties/x"), Some(("/$defs/r/$defs/S".into(), false)));
        assert_eq!(got("#", "/$defs/r/properties/x"), Some(("/$defs/r".into(), false)));
        assert_eq!(got("d.json", "/$defs/r"), Some(("/$defs/r/$defs/d".into(), false)));
        assert_eq!(got("https://x.org/sub/d.json", ""), Some(("/$defs/r/$defs/d".into(), false)));
        assert_eq!(got("sub/d.json#here", ""), Some(("/$defs/r/$defs/d".into(), false)));
        assert_eq!(got("root.json#/$defs/S", "/$defs/r"), Some(("/$defs/S".into(), false)));
        // Written against the document root from inside a resource: a repair.
        assert_eq!(got("#/$defs/r/$defs/S", "/$defs/r"), Some(("/$defs/r/$defs/S".into(), true)));
    }
}
