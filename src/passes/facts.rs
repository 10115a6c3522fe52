//! What several rules ask about a node, its place in the document and the
//! call. Kept below every rule: a rule that needed a neighbour's question
//! tied the two files, and the rules' files imported each other in one
//! loop. Rule files still call one another's helpers (`strict::declare_required`,
//! `spill::strip`, ...), one way only: no two import each other.
use super::entries;
use crate::context::Cx;
use crate::doc::Map;
use crate::path::Path;

pub use crate::context::{ANY_RULE, MAPS_RULE};

/// Is the current node a branch of `anyOf`, `oneOf` or `allOf`?
pub fn branch_of_combinator(cx: &Cx) -> bool {
    let n = cx.path.len();
    n >= 2 && matches!(cx.path.raw_segments(n - 2).next().as_deref(), Some("anyOf" | "oneOf" | "allOf"))
}

/// Is `path` a branch of an `anyOf` or `oneOf` (its last two segments are the
/// keyword and an index)?
pub fn branch_of_union(path: &Path) -> bool {
    let n = path.len();
    n >= 2 && {
        let mut last = path.raw_segments(n - 2);
        matches!(last.next().as_deref(), Some("anyOf" | "oneOf")) && last.next().is_some_and(|i| i.bytes().all(|b| b.is_ascii_digit()))
    }
}

/// An object schema that says nothing about its members: no (or empty)
/// `properties`, no `additionalProperties`, no `patternProperties`, no union
/// or reference that could. In JSON Schema that is an open map
/// (`{"type": "object"}` as a parameter: any object; OpenAI's own shape rule
/// adds the empty `properties`, F3). Not the root: a root without properties
/// is how a tool without parameters is declared (providers.md F1, F3), and is
/// closed as such. Nor what stands where a recursive `$ref` was cut
/// (`refs`' placeholder: the definition's type and a description ending
/// `not expanded further)`): that object had members, and is closed as before.
pub fn is_free_form(node: &Map, cx: &Cx) -> bool {
    !cx.path.is_empty() && entries::free_form(node)
}

/// Does this call write open maps as entries? (`Cx::encodes_maps`, decided
/// once per call from its rules and options.)
pub fn encodes_maps(cx: &Cx) -> bool {
    cx.encodes_maps
}

/// Is `keyword` (a subschema slot) carried by the entries encoding on this
/// call, rather than dropped with the keyword? The value and name schemas of
/// a map become the entry's `value` and `key`.
pub fn carried(keyword: &str, cx: &Cx) -> bool {
    matches!(keyword, "additionalProperties" | "patternProperties" | "propertyNames") && encodes_maps(cx)
}
