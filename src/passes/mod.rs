//! Node rules. Each file holds one concern; each rule's doc comment says which
//! providers need it and why. Rules run inside one post-order walk: when a rule
//! sees a node, every subschema below it is already normalized for the target.
pub mod bounds;
pub mod combinators;
pub mod constants;
pub mod entries;
pub mod enums;
pub mod facts;
pub mod lone_any_of;
pub mod maps;
pub mod merge;
pub mod never;
pub mod open_maps;
pub mod prune;
pub mod regex;
pub mod shapes;
pub mod spill;
pub mod strict;
pub mod tuples;
pub mod type_unions;
pub mod types;

use crate::lookup::Fields;
use crate::error::Result;
use crate::context::Cx;
pub use crate::context::{Pass, Stage};
use crate::doc::{Map, Value};
use crate::keywords::kw;

pub const fn pass(name: &'static str, run: fn(&mut Map, &mut Cx) -> Result<()>) -> Pass {
    Pass { name, stage: Stage::Sanitize, run }
}

pub const fn enforce(name: &'static str, run: fn(&mut Map, &mut Cx) -> Result<()>) -> Pass {
    Pass { name, stage: Stage::Enforce, run }
}

/// Runs the target's rules on one node whose subschemas are already normalized.
/// Rules that build new subschemas (type-array splits, merges) call this on them.
pub fn apply(node: &mut Map, cx: &mut Cx) -> Result<()> {
    // What the rules below this node ruled out (a property or branch that now
    // accepts nothing, a union left with one branch) goes first, as the next
    // run's never-prune would take it.
    prune::prune_never(node, cx);
    types::narrow_to_values(node);
    for p in cx.rules {
        if p.stage == Stage::Enforce && cx.opts.strict_stage == crate::options::StrictStage::Sanitize {
            continue;
        }
        (p.run)(node, cx)?;
    }
    Ok(())
}

/// `apply` for a subschema a rule built at the current pointer (one branch
/// of a split type array): the rules see it as that branch, never as the
/// document's root, even at the root's pointer.
pub fn apply_branch(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let outer = std::mem::replace(&mut cx.in_branch, true);
    let out = apply(node, cx);
    cx.in_branch = outer;
    out
}

/// The node's `type` as a list (empty when absent).
pub fn types_of(node: &Map) -> Types<'_> {
    match node.field(kw::TYPE) {
        Some(Value::String(t)) => Types::One([t.as_str()]),
        Some(Value::Array(ts)) => Types::Many(ts.iter().filter_map(Value::as_str).collect()),
        _ => Types::None,
    }
}

/// What `types_of` answers: a slice of type names. A single `type` string,
/// nearly every node's, is held without an allocation (the rules ask for it
/// on every node they visit).
#[derive(Debug, Clone)]
pub enum Types<'a> {
    None,
    One([&'a str; 1]),
    Many(Vec<&'a str>),
}

impl<'a> std::ops::Deref for Types<'a> {
    type Target = [&'a str];
    fn deref(&self) -> &[&'a str] {
        match self {
            Types::None => &[],
            Types::One(t) => t,
            Types::Many(ts) => ts,
        }
    }
}

impl<const N: usize> PartialEq<[&str; N]> for Types<'_> {
    fn eq(&self, other: &[&str; N]) -> bool {
        **self == *other
    }
}

/// `{"type": "null"}`, possibly with annotations.
pub fn is_null_schema(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    (m.field(kw::TYPE).and_then(Value::as_str) == Some("null") && !m.has(kw::ANY_OF))
        || m.field(kw::ENUM).and_then(Value::as_array).is_some_and(|e| e.len() == 1 && e[0].is_null())
        || m.field(kw::CONST) == Some(&Value::Null) && !m.has(kw::TYPE)
}

pub use crate::keywords::{is_empty_enum, is_never};

/// Appends a sentence to a node's description.
pub fn append_description(node: &mut Map, text: &str, separator: &str) {
    match node.field_mut(kw::DESCRIPTION) {
        Some(Value::String(d)) if !d.is_empty() => {
            d.push_str(separator);
            d.push_str(text);
        }
        _ => {
            node.insert("description".into(), Value::String(text.to_string()));
        }
    }
}

pub(crate) use crate::doc::json_text;
