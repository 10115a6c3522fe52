//! Between a `Doc` and `crate::doc::Value`, for the parts of the core that
//! still work on values: a subtree out (only the part a caller needs becomes
//! a value; the rest of the document never does), without recursion.
use super::{Doc, Node, NodeId};
use crate::doc::{Map, Number, Value};

impl Doc<'_> {
    /// The subtree at `id` as the `crate::doc::Value` that parsing its text
    /// would give (numbers read as serde_json reads them, duplicate keys
    /// already settled by the parser).
    pub fn to_value(&self, id: NodeId) -> Value {
        // (container, next child, what is built so far) per open level.
        enum Built {
            Array(Vec<Value>),
            Object(Map),
        }
        let mut stack: Vec<(NodeId, usize, Built)> = Vec::new();
        let mut next = id;
        loop {
            let mut done = match self.node(next) {
                Node::Null => Value::Null,
                Node::Bool(b) => Value::Bool(b),
                Node::Number(s) => number(self.raw(s), s.reformat()),
                Node::String(s) => Value::String(self.text(s).into_owned()),
                Node::Array(r) => {
                    if r.len == 0 {
                        Value::Array(Vec::new())
                    } else {
                        stack.push((next, 0, Built::Array(Vec::with_capacity(r.len as usize))));
                        next = self.items[r.start as usize];
                        continue;
                    }
                }
                Node::Object(r) => {
                    if r.len == 0 {
                        Value::Object(Map::new())
                    } else {
                        stack.push((next, 0, Built::Object(Map::with_capacity(r.len as usize))));
                        next = self.members[r.start as usize].value;
                        continue;
                    }
                }
            };
            // Hand the finished value to its parent; close every parent it completes.
            loop {
                let Some((container, at, built)) = stack.last_mut() else { return done };
                let members = self.members(*container);
                match built {
                    Built::Array(items) => items.push(done),
                    // A document's object never repeats a key (the parser
                    // settles repeats, the edits replace): nothing to look up.
                    Built::Object(map) => map.push_unique(self.text(members[*at].key).into(), done),
                }
                *at += 1;
                let len = match built {
                    Built::Array(_) => self.items(*container).len(),
                    Built::Object(_) => members.len(),
                };
                if *at < len {
                    next = match built {
                        Built::Array(_) => self.items(*container)[*at],
                        Built::Object(_) => members[*at].value,
                    };
                    break;
                }
                let Some((_, _, built)) = stack.pop() else { unreachable!("the stack was not empty") };
                done = match built {
                    Built::Array(items) => Value::Array(items),
                    Built::Object(map) => Value::Object(map),
                };
            }
        }
    }

    /// How many containers deep the subtree at `id` nests (0 for a scalar).
    pub fn depth(&self, id: NodeId) -> usize {
        let (mut max, mut stack) = (0, vec![(id, 1usize)]);
        while let Some((node, depth)) = stack.pop() {
            if !matches!(self.node(node), Node::Array(_) | Node::Object(_)) {
                continue;
            }
            max = max.max(depth);
            stack.extend(self.items(node).iter().map(|&c| (c, depth + 1)));
            stack.extend(self.members(node).iter().map(|m| (m.value, depth + 1)));
        }
        max
    }
}

/// A number's text (valid JSON, checked by the parser) as serde_json reads it:
/// `u64`, then `i64`, then `f64` (`-0` is a float there, as it is here).
/// `reformat` is the parser's flag for text that is not such an integer
/// (`fits_integer`): every other text is one, so it parses as one.
pub(super) fn number(text: &str, reformat: bool) -> Value {
    let n = if reformat {
        text.parse::<f64>().ok().and_then(Number::from_f64)
    } else if text.starts_with('-') {
        text.parse::<i64>().ok().map(Number::from)
    } else {
        text.parse::<u64>().ok().map(Number::from)
    };
    n.map_or(Value::Null, Value::Number)
}
