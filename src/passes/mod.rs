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
use crate::keywords::Keyword;

pub const fn pass(name: &'static str, run: fn(&mut Map, &mut Cx) -> Result<()>) -> Pass {
    Pass { name, stage: Stage::Sanitize, run, needs: needs(name) }
}

pub const fn enforce(name: &'static str, run: fn(&mut Map, &mut Cx) -> Result<()>) -> Pass {
    Pass { name, stage: Stage::Enforce, run, needs: needs(name) }
}

/// The rules that act only on a node holding one of a few keywords, by name,
/// with those keywords: each returns at once, changing and reporting nothing,
/// on a node with none of them (its first lines say so; tests/corpus.rs
/// holds it on every node of the corpus for every target). Most nodes hold
/// none, and `apply` then skips the call on the node's keyword bits. A rule
/// not listed here runs on every node. Only the table's first 32 keywords
/// have a bit (`doc::Map`), which `needs` checks at compile time.
pub const TRIGGERS: &[(&str, &[&Keyword])] = &[
    ("additional-false-only", &[kw::ADDITIONAL_PROPERTIES]),
    ("anchored-alternatives", &[kw::PATTERN]),
    ("collapse-unions", &[kw::ANY_OF]),
    ("const-to-enum", &[kw::CONST]),
    ("declare-required", &[kw::REQUIRED]),
    ("default-to-description", &[kw::DEFAULT]),
    ("distribute-siblings", &[kw::ANY_OF]),
    ("drop-not", &[kw::NOT]),
    ("enforce-object", &[kw::TYPE]),
    ("exclusive-bounds", &[kw::EXCLUSIVE_MINIMUM, kw::EXCLUSIVE_MAXIMUM]),
    ("literal-unions", &[kw::ANY_OF, kw::ONE_OF]),
    ("lone-any-of", &[kw::ANY_OF]),
    ("merge-all-of", &[kw::ALL_OF]),
    ("never-items", &[kw::ITEMS]),
    ("null-unions", &[kw::ANY_OF]),
    ("nullable-after-type", &[kw::NULLABLE]),
    ("one-of-to-any-of", &[kw::ONE_OF]),
    ("optional-nullables", &[kw::PROPERTIES]),
    ("patterns", &[kw::PATTERN]),
    ("property-ordering", &[kw::PROPERTIES]),
    ("regex-subset", &[kw::PATTERN]),
    ("splice-unions", &[kw::ANY_OF]),
    ("string-enums", &[kw::ENUM]),
    ("string-format-first", &[kw::PATTERN, kw::FORMAT]),
    ("string-pattern-first", &[kw::PATTERN, kw::FORMAT]),
    ("type-arrays", &[kw::TYPE]),
    ("type-branches", &[kw::ANY_OF]),
    ("type-unions", &[kw::ANY_OF]),
    ("unicode-classes", &[kw::PATTERN]),
];

/// The keyword bits of the rule named `name` (`TRIGGERS`), 0 for any other.
const fn needs(name: &str) -> u32 {
    let mut i = 0;
    while i < TRIGGERS.len() {
        let (rule, keywords) = TRIGGERS[i];
        if crate::keywords::table::const_eq(rule.as_bytes(), name.as_bytes()) {
            let mut bits = 0u32;
            let mut k = 0;
            while k < keywords.len() {
                assert!(keywords[k].row < 32, "a trigger keyword has no bit in doc::Map");
                bits |= 1 << keywords[k].row;
                k += 1;
            }
            return bits;
        }
        i += 1;
    }
    0
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
        if p.needs != 0 && node.keyword_bits() & p.needs == 0 {
            continue;
        }
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

impl Types<'_> {
    /// Whether `name` (a JSON type's) is among the types: `contains`, with
    /// each compared by its length and then as two overlapping 4-byte words
    /// (every JSON type's name is 4 to 7 bytes), where `==` on text calls
    /// `memcmp` in wasm. Rules ask it of nearly every node.
    #[inline]
    pub fn has(&self, name: &'static str) -> bool {
        self.iter().any(|t| same_type_name(t, name))
    }
}

/// `t == name`, for a `name` of 4 to 8 bytes without `memcmp`; any other
/// length by `==`.
#[inline(always)]
fn same_type_name(t: &str, name: &str) -> bool {
    let (a, b) = (t.as_bytes(), name.as_bytes());
    let n = b.len();
    if a.len() != n {
        return false;
    }
    if !(4..=8).contains(&n) {
        return a == b;
    }
    let word = |s: &[u8], at: usize| u32::from_le_bytes([s[at], s[at + 1], s[at + 2], s[at + 3]]);
    word(a, 0) == word(b, 0) && word(a, n - 4) == word(b, n - 4)
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

pub use crate::values::{is_empty_enum, is_never};

/// Appends a sentence to a node's description.
pub fn append_description(node: &mut Map, text: &str, separator: &str) {
    match node.field_mut(kw::DESCRIPTION) {
        Some(Value::String(d)) if !d.is_empty() => {
            d.push_str(separator);
            d.push_str(text);
        }
        _ => {
            node.insert(kw::DESCRIPTION.into(), Value::String(text.to_string()));
        }
    }
}

pub(crate) use crate::doc::json_text;

#[cfg(test)]
mod tests {
    use super::*;

    /// `has` answers as `contains` for every JSON type's name, against each
    /// name, names one byte away (any byte changed, one more, one fewer) and
    /// names of other lengths.
    #[test]
    fn has_is_contains() {
        const NAMES: [&str; 7] = ["object", "array", "string", "number", "integer", "boolean", "null"];
        let mut listed: Vec<String> = NAMES.iter().map(|n| n.to_string()).collect();
        for name in NAMES {
            for at in 0..name.len() {
                for with in [b'\0', b'a', b'z', b'A', 0x7f] {
                    let mut near = name.as_bytes().to_vec();
                    near[at] = with;
                    listed.push(String::from_utf8(near).unwrap());
                }
            }
            listed.extend([format!("{name}s"), format!("x{name}"), name[1..].to_string(), name[..name.len() - 1].to_string()]);
        }
        listed.extend(["".to_string(), "a".to_string(), "date-time-x".to_string()]);
        for t in &listed {
            let types = Types::One([t.as_str()]);
            for name in NAMES {
                assert_eq!(types.has(name), types.contains(&name), "{t:?} has {name}");
            }
        }
        let many = Types::Many(vec!["null", "strinG", "array"]);
        assert!(many.has("null") && many.has("array") && !many.has("string") && !Types::None.has("null"));
    }
}
