//! Building nodes and editing containers. Edits change only the nodes they
//! name: a container whose child list must grow moves that list to the end
//! of its vector (the old run is left unused), so nothing else is copied.
//! Members keep their order, as `crate::doc::Map` with `preserve_order` does
//! for `insert`, `shift_insert` and `shift_remove` (tests/doc.rs holds each
//! to it). An edit aimed at the wrong kind of node changes nothing.
use super::{Doc, Member, Node, NodeId, Run, Str, MAX_TEXT};

impl Doc<'_> {
    fn add(&mut self, node: Node) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).expect("a document holds fewer than 2^32 nodes"));
        self.nodes.push(node);
        id
    }

    /// Copies new text into the document's own buffer.
    fn own(&mut self, text: &str, flag: bool) -> Str {
        let start = self.text.len();
        assert!(start + text.len() <= MAX_TEXT, "a document's own text stays under {MAX_TEXT} bytes");
        self.text.push_str(text);
        Str::new(start, text.len(), flag, true)
    }

    pub fn new_null(&mut self) -> NodeId {
        self.add(Node::Null)
    }

    pub fn new_bool(&mut self, b: bool) -> NodeId {
        self.add(Node::Bool(b))
    }

    pub fn new_string(&mut self, text: &str) -> NodeId {
        let s = self.own(text, false);
        self.add(Node::String(s))
    }

    pub fn new_u64(&mut self, n: u64) -> NodeId {
        let s = self.own(&n.to_string(), false);
        self.add(Node::Number(s))
    }

    pub fn new_i64(&mut self, n: i64) -> NodeId {
        let s = self.own(&n.to_string(), false);
        self.add(Node::Number(s))
    }

    /// A float, written as serde_json writes it; `None` for NaN and the
    /// infinities, which JSON cannot hold.
    pub fn new_f64(&mut self, n: f64) -> Option<NodeId> {
        let text = serde_json::Number::from_f64(n)?.to_string();
        let s = self.own(&text, false);
        Some(self.add(Node::Number(s)))
    }

    /// An array of the given nodes (shared, not copied).
    pub fn new_array(&mut self, items: &[NodeId]) -> NodeId {
        let run = Run { start: self.items.len() as u32, len: items.len() as u32 };
        self.items.extend_from_slice(items);
        self.add(Node::Array(run))
    }

    /// An object of the given members, in order; a repeated key keeps its
    /// first place and its last value.
    pub fn new_object(&mut self, members: &[(&str, NodeId)]) -> NodeId {
        let id = self.add(Node::Object(Run { start: self.members.len() as u32, len: 0 }));
        for &(key, value) in members {
            self.set(id, key, value);
        }
        id
    }

    /// The node `id` becomes what `with` is (`with` stays as it is). A
    /// container gets its own child list, the children themselves shared.
    pub fn replace(&mut self, id: NodeId, with: NodeId) {
        let node = match self.node(with) {
            Node::Array(r) => Node::Array(self.copy_run_items(r)),
            Node::Object(r) => Node::Object(self.copy_run_members(r)),
            n => n,
        };
        self.nodes[id.index()] = node;
    }

    /// A new node that is `id` with its own child list (children shared): an
    /// edit to the copy leaves every other reference to `id` as it was.
    pub fn copy(&mut self, id: NodeId) -> NodeId {
        let new = self.add(Node::Null);
        self.replace(new, id);
        new
    }

    fn copy_run_items(&mut self, r: Run) -> Run {
        let start = self.items.len();
        self.items.extend_from_within(r.range());
        Run { start: start as u32, len: r.len }
    }

    fn copy_run_members(&mut self, r: Run) -> Run {
        let start = self.members.len();
        self.members.extend_from_within(r.range());
        Run { start: start as u32, len: r.len }
    }

    /// An object's member run, moved to the end of the member vector unless
    /// it already ends there, so that it can grow in place.
    fn members_at_end(&mut self, obj: NodeId) -> Option<Run> {
        let Node::Object(mut r) = self.node(obj) else { return None };
        if r.start as usize + r.len as usize != self.members.len() {
            r = self.copy_run_members(r);
            self.nodes[obj.index()] = Node::Object(r);
        }
        Some(r)
    }

    fn items_at_end(&mut self, arr: NodeId) -> Option<Run> {
        let Node::Array(mut r) = self.node(arr) else { return None };
        if r.start as usize + r.len as usize != self.items.len() {
            r = self.copy_run_items(r);
            self.nodes[arr.index()] = Node::Array(r);
        }
        Some(r)
    }

    fn position(&self, obj: NodeId, key: &str) -> Option<usize> {
        self.members(obj).iter().position(|m| self.key_is(m.key, key))
    }

    /// Sets `key` to `value`: in its place if present (returning the old
    /// value), else appended (serde_json: `Map::insert`).
    pub fn set(&mut self, obj: NodeId, key: &str, value: NodeId) -> Option<NodeId> {
        let Node::Object(r) = self.node(obj) else { return None };
        if let Some(at) = self.position(obj, key) {
            let m = &mut self.members[r.start as usize + at];
            return Some(std::mem::replace(&mut m.value, value));
        }
        let key = self.own(key, false);
        let r = self.members_at_end(obj)?;
        self.members.push(Member { key, value });
        self.nodes[obj.index()] = Node::Object(Run { len: r.len + 1, ..r });
        None
    }

    /// Puts `key` at position `index` with `value`; a key already present
    /// moves there, returning its old value (serde_json: `Map::shift_insert`).
    /// An index past the end (past the last position, for a key that moves)
    /// changes nothing.
    pub fn insert(&mut self, obj: NodeId, index: usize, key: &str, value: NodeId) -> Option<NodeId> {
        let Node::Object(r) = self.node(obj) else { return None };
        match self.position(obj, key) {
            Some(at) if index < r.len as usize => {
                let run = &mut self.members[r.range()];
                let old = std::mem::replace(&mut run[at].value, value);
                if at < index {
                    run[at..=index].rotate_left(1);
                } else {
                    run[index..=at].rotate_right(1);
                }
                Some(old)
            }
            None if index <= r.len as usize => {
                let key = self.own(key, false);
                let r = self.members_at_end(obj)?;
                self.members.push(Member { key, value });
                self.members[r.start as usize + index..].rotate_right(1);
                self.nodes[obj.index()] = Node::Object(Run { len: r.len + 1, ..r });
                None
            }
            _ => None,
        }
    }

    /// Removes `key`, keeping the others in order (serde_json:
    /// `Map::shift_remove`).
    pub fn remove(&mut self, obj: NodeId, key: &str) -> Option<NodeId> {
        let Node::Object(r) = self.node(obj) else { return None };
        let at = self.position(obj, key)?;
        let run = &mut self.members[r.range()];
        let old = run[at].value;
        run[at..].rotate_left(1);
        if r.range().end == self.members.len() {
            self.members.pop();
        }
        self.nodes[obj.index()] = Node::Object(Run { len: r.len - 1, ..r });
        Some(old)
    }

    /// Appends an item to an array.
    pub fn push(&mut self, arr: NodeId, value: NodeId) {
        if let Some(r) = self.items_at_end(arr) {
            self.items.push(value);
            self.nodes[arr.index()] = Node::Array(Run { len: r.len + 1, ..r });
        }
    }

    /// Inserts an item at `index` (at most the length).
    pub fn insert_item(&mut self, arr: NodeId, index: usize, value: NodeId) {
        if index > self.items(arr).len() {
            return;
        }
        if let Some(r) = self.items_at_end(arr) {
            self.items.push(value);
            self.items[r.start as usize + index..].rotate_right(1);
            self.nodes[arr.index()] = Node::Array(Run { len: r.len + 1, ..r });
        }
    }

    /// Replaces the item at `index`, returning the old one.
    pub fn set_item(&mut self, arr: NodeId, index: usize, value: NodeId) -> Option<NodeId> {
        let Node::Array(r) = self.node(arr) else { return None };
        let slot = self.items[r.range()].get_mut(index)?;
        Some(std::mem::replace(slot, value))
    }

    /// Removes the item at `index`, keeping the rest in order.
    pub fn remove_item(&mut self, arr: NodeId, index: usize) -> Option<NodeId> {
        let Node::Array(r) = self.node(arr) else { return None };
        let run = &mut self.items[r.range()];
        let old = *run.get(index)?;
        run[index..].rotate_left(1);
        if r.range().end == self.items.len() {
            self.items.pop();
        }
        self.nodes[arr.index()] = Node::Array(Run { len: r.len - 1, ..r });
        Some(old)
    }
}
