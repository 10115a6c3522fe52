//! The document models. Of the vocabulary they know only the keyword table
//! (keywords/table.rs), which object keys are interned against ([`Key`]).
//!
//! [`Value`] is the tree every pass edits today: `serde_json::Value`'s API
//! over objects that are one ordered vector of members ([`Map`]), with a hash
//! index only past a couple of dozen members. Numbers are `serde_json::Number`
//! and text is written as serde_json writes it (answers by `Value::write_json`,
//! checked against serde_json's own text), so outputs are what they were when
//! the core ran on `serde_json::Value`. `json!` builds one.
//!
//! [`Doc`] is the flat arena the core is moving to: JSON text parsed once
//! into a few vectors, edited by small ids, serialized once.
//!
//! - Nodes live in one `Vec`, addressed by `NodeId` (a `u32`). An array's
//!   items and an object's members are contiguous runs of two more vectors,
//!   so a document is four allocations, whatever its size.
//! - Object members are ordered `(key, node)` pairs: key order is data.
//!   Duplicate keys keep the first key's position and the last value, as an
//!   insert into a [`Map`] does.
//! - Keys and strings are spans of the input, unescaped only when read (a
//!   flag says whether a span holds escapes); text the edits add lives in the
//!   document's own buffer. Numbers keep their input text.
//! - A node may be referenced from several places (an inlined `$ref`):
//!   serialization follows ids, so shared subtrees are never copied. An edit
//!   to a shared node shows everywhere it is referenced; `copy` first to
//!   change one place.
//! - Nothing recurses: parsing, serializing, pointer search and dropping are
//!   loops over explicit stacks, and nesting past the document's depth limit
//!   is an `Error::TooDeep` with the pointer where it happened.
//!
//! Its output is byte for byte what `serde_json::to_string` writes for the
//! value parsed from the same text (tests/doc.rs, fuzz/).
mod convert;
mod edit;
mod key;
#[macro_use]
mod macros;
mod map;
mod number;
mod parse;
mod serde;
mod share;
mod value;
mod write;

pub use self::key::Key;
pub use self::map::{Entry, Map, OccupiedEntry, VacantEntry};
pub use self::parse::{Captured, Container, Deferred};
pub use self::serde::{from_str, from_value, to_value};
pub use self::share::{write_sharing, write_unchanged, SAME};
pub use self::value::{Index, ToJson, Value};
pub use self::write::WriteJson;
pub(crate) use self::write::{write_json_member, write_json_struct};
pub use serde_json::Number;

use crate::pointer::Pointer;
use std::borrow::Cow;

/// JSON text to a [`Value`], built as it is read: the value `Doc::parse`
/// then `Doc::to_value` give, and serde_json's, with serde_json's error
/// messages. Nothing here recurses and there is no depth limit; the `_within`
/// parses stop past a depth (`crate::json::parse_capped` gives them the
/// one the walks and the drop that come after can take).
pub fn parse_value(text: &str) -> crate::error::Result<Value> {
    parse::parse_value(text)
}

/// `parse_value` that gives up, with `None`, at a container nested deeper
/// than `cap`.
pub fn parse_value_within(text: &str, cap: usize) -> crate::error::Result<Option<Value>> {
    parse::parse_value_within(text, cap)
}

/// `parse_value_within`, leaving the values of a root `$defs` or
/// `definitions` object's entries unread (checked, and `null` in their place)
/// for [`Deferred::take`]: what a caller reads only where a reference
/// reaches.
pub fn parse_value_deferring_within(text: &str, cap: usize) -> crate::error::Result<Option<(Value, Deferred)>> {
    parse::parse_value_deferring_within(text, cap)
}

/// A value's compact JSON text, as the output writes it: the canonical form
/// rules compare values by and spill them as.
pub fn json_text(v: &Value) -> String {
    let mut out = String::new();
    v.write_json(&mut out);
    out
}

/// A node of a document: an index into its node vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A piece of text: a span of the input, or of the document's own buffer
/// (`OWNED`). For strings and keys, `FLAG` says the input span holds
/// backslash escapes (owned text is stored unescaped); for numbers, that the
/// text is not already what serde_json writes for it (see `write::number`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Str {
    start: u32,
    /// The length in the low 30 bits, `FLAG` and `OWNED` above them.
    len: u32,
}

const FLAG: u32 = 1 << 31;
const OWNED: u32 = 1 << 30;
/// The longest span, and so the largest input and own buffer a document holds.
pub const MAX_TEXT: usize = (OWNED - 1) as usize;

impl Str {
    fn new(start: usize, len: usize, flag: bool, owned: bool) -> Str {
        debug_assert!(start <= MAX_TEXT && len <= MAX_TEXT);
        Str { start: start as u32, len: len as u32 | if flag { FLAG } else { 0 } | if owned { OWNED } else { 0 } }
    }
    pub fn len(self) -> usize {
        (self.len & !(FLAG | OWNED)) as usize
    }
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// A string or key span with backslash escapes.
    pub fn escaped(self) -> bool {
        self.len & FLAG != 0
    }
    /// A number whose text is not what serde_json writes for it.
    fn reformat(self) -> bool {
        self.len & FLAG != 0
    }
    fn owned(self) -> bool {
        self.len & OWNED != 0
    }
}

/// A run of the item or member vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    start: u32,
    len: u32,
}

impl Run {
    fn range(self) -> std::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Null,
    Bool(bool),
    Number(Str),
    String(Str),
    Array(Run),
    Object(Run),
}

/// One object member: its key and the node it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Member {
    pub key: Str,
    pub value: NodeId,
}

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Null,
    Bool,
    Number,
    String,
    Array,
    Object,
}

// Sizes held so they never grow by accident: a node is a tag and two u32s.
const _: () = assert!(std::mem::size_of::<NodeId>() == 4);
const _: () = assert!(std::mem::size_of::<Str>() == 8);
const _: () = assert!(std::mem::size_of::<Node>() == 12);
const _: () = assert!(std::mem::size_of::<Member>() == 12);

/// A parsed (and possibly edited) JSON document. Borrows the input text.
#[derive(Clone, Debug)]
pub struct Doc<'s> {
    src: &'s str,
    /// Text the edits added (keys, strings, numbers), unescaped.
    text: String,
    nodes: Vec<Node>,
    items: Vec<NodeId>,
    members: Vec<Member>,
    root: NodeId,
    max_depth: usize,
    /// How many containers deep the parsed text nests: at least `depth` of
    /// the root as parsed (a repeated key's dropped value counts too); edits
    /// leave it as it was.
    text_depth: usize,
}

impl<'s> Doc<'s> {
    /// Parses JSON text. Nesting deeper than `max_depth` containers is
    /// `Error::TooDeep` with the pointer of the first container past it;
    /// text that is not JSON is `Error::InvalidJson` with the message
    /// serde_json gives for it.
    pub fn parse(src: &'s str, max_depth: usize) -> crate::error::Result<Doc<'s>> {
        parse::parse(src, max_depth)
    }

    /// `parse` with no depth limit, reading the arrays at `paths` (key paths
    /// from the root, the empty path for the root itself; a key must be
    /// written without escapes to match) straight into values, as
    /// `parse_value` would: each stands in the document as an empty array,
    /// its value beside it. The document's `text_depth` counts them. An array
    /// nesting deeper than `cap` containers stays in the document, as does
    /// every one after it. For a text of which only some arrays are wanted
    /// as values (a request body's tools), at the cost of one parse.
    pub fn parse_capturing(src: &'s str, paths: &'static [&'static [&'static str]], cap: usize) -> crate::error::Result<(Doc<'s>, Vec<Captured>)> {
        parse::parse_capturing(src, paths, cap, &[])
    }

    /// `parse_capturing`, leaving unread the entries of every `$defs` or
    /// `definitions` object at a captured item's schema slot (`slots`, key
    /// paths from the item): checked, `null` in their place, and each
    /// captured array's [`Deferred`] reads them from the text when asked.
    pub fn parse_capturing_deferring(
        src: &'s str,
        paths: &'static [&'static [&'static str]],
        cap: usize,
        slots: &'static [&'static [&'static str]],
    ) -> crate::error::Result<(Doc<'s>, Vec<Captured>)> {
        parse::parse_capturing(src, paths, cap, slots)
    }

    /// An empty document whose root is `null`, for building from scratch.
    pub fn new(max_depth: usize) -> Doc<'static> {
        Doc { src: "", text: String::new(), nodes: vec![Node::Null], items: Vec::new(), members: Vec::new(), root: NodeId(0), max_depth, text_depth: 0 }
    }

    pub fn root(&self) -> NodeId {
        self.root
    }

    pub fn set_root(&mut self, id: NodeId) {
        self.root = id;
    }

    /// The nesting limit serialization and pointer search hold to.
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// How many containers deep the parsed text nests, counted while it was
    /// parsed: a bound on `depth` of any node as parsed, without a walk (the
    /// text may nest deeper than the document, where a repeated key's earlier
    /// value was dropped).
    pub fn text_depth(&self) -> usize {
        self.text_depth
    }

    fn node(&self, id: NodeId) -> Node {
        self.nodes[id.index()]
    }

    pub fn kind(&self, id: NodeId) -> Kind {
        match self.node(id) {
            Node::Null => Kind::Null,
            Node::Bool(_) => Kind::Bool,
            Node::Number(_) => Kind::Number,
            Node::String(_) => Kind::String,
            Node::Array(_) => Kind::Array,
            Node::Object(_) => Kind::Object,
        }
    }

    pub fn as_bool(&self, id: NodeId) -> Option<bool> {
        match self.node(id) {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// A string node's text, unescaped.
    pub fn as_str(&self, id: NodeId) -> Option<Cow<'_, str>> {
        match self.node(id) {
            Node::String(s) => Some(self.text(s)),
            _ => None,
        }
    }

    /// A number node's text as written in the input (or as built).
    pub fn number_text(&self, id: NodeId) -> Option<&str> {
        match self.node(id) {
            Node::Number(s) => Some(self.raw(s)),
            _ => None,
        }
    }

    /// A number node as serde_json reads it: `u64`, `i64` or `f64`.
    pub fn as_f64(&self, id: NodeId) -> Option<f64> {
        self.number_text(id).and_then(|t| t.parse().ok())
    }

    /// An array's items (empty for anything else).
    pub fn items(&self, id: NodeId) -> &[NodeId] {
        match self.node(id) {
            Node::Array(r) => &self.items[r.range()],
            _ => &[],
        }
    }

    /// An object's members in order (empty for anything else).
    pub fn members(&self, id: NodeId) -> &[Member] {
        match self.node(id) {
            Node::Object(r) => &self.members[r.range()],
            _ => &[],
        }
    }

    /// The value of `key` in an object. A linear scan: schema objects are small.
    pub fn get(&self, obj: NodeId, key: &str) -> Option<NodeId> {
        self.members(obj).iter().find(|m| self.key_is(m.key, key)).map(|m| m.value)
    }

    /// The text of a span as written: escapes left in (for input spans).
    pub fn raw(&self, s: Str) -> &str {
        let r = s.start as usize..s.start as usize + s.len();
        if s.owned() {
            &self.text[r]
        } else {
            &self.src[r]
        }
    }

    /// The text of a key or string, unescaped. Borrowed unless it had escapes.
    pub fn text(&self, s: Str) -> Cow<'_, str> {
        let raw = self.raw(s);
        if s.escaped() {
            Cow::Owned(write::unescape(raw))
        } else {
            Cow::Borrowed(raw)
        }
    }

    /// Does key (or string) `s` read `text`? Compares bytes unless escaped.
    pub fn key_is(&self, s: Str, text: &str) -> bool {
        if s.escaped() {
            self.text(s) == text
        } else {
            s.len() == text.len() && self.raw(s) == text
        }
    }

    /// The node at `pointer` below `from` (RFC 6901; array indexes without
    /// leading zeros, as `Pointer::resolve` reads them).
    pub fn resolve(&self, from: NodeId, pointer: &Pointer) -> Option<NodeId> {
        let mut cur = from;
        for seg in pointer.raw_segments(0) {
            let seg = crate::pointer::unescape(seg);
            cur = match self.node(cur) {
                Node::Object(_) => self.get(cur, &seg)?,
                Node::Array(_) => {
                    if seg.len() > 1 && seg.starts_with('0') {
                        return None;
                    }
                    *self.items(cur).get(seg.parse::<usize>().ok()?)?
                }
                _ => return None,
            };
        }
        Some(cur)
    }

    /// The pointer of the first place, in document order, where `target` is
    /// reached from `from`; `None` if it is not below it within the depth
    /// limit. A search over the whole subtree (shared nodes once per
    /// reference): for errors and reports, not for hot paths.
    pub fn pointer_to(&self, from: NodeId, target: NodeId) -> Option<Pointer> {
        if from == target {
            return Some(Pointer::root());
        }
        let mut path = Pointer::root();
        // (container, next child) per open level, as the writer walks.
        let mut stack: Vec<(NodeId, usize)> = vec![(from, 0)];
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let i = *next;
            *next += 1;
            let child = match self.node(node) {
                Node::Array(r) if i < r.len as usize => self.items[r.start as usize + i],
                Node::Object(r) if i < r.len as usize => self.members[r.start as usize + i].value,
                _ => {
                    stack.pop();
                    path.pop();
                    continue;
                }
            };
            match self.node(node) {
                Node::Array(_) => path.push_index(i),
                _ => path.push(self.text(self.members(node)[i].key)),
            }
            if child == target {
                return Some(path);
            }
            if matches!(self.node(child), Node::Array(_) | Node::Object(_)) && stack.len() < self.max_depth {
                stack.push((child, 0));
            } else {
                path.pop();
            }
        }
        None
    }
}

