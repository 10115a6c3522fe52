//! The lossless encodings of what a strict or proto wire cannot hold, shared by
//! the rules that write them and by `args`, which undoes them:
//!
//! - an open map (an object whose members are not all declared:
//!   `additionalProperties` other than `false`, or an object with no
//!   properties at all) is sent as an array of entries,
//!   `[{"key": "...", "value": ...}]`, one per member. A map that also
//!   declares properties keeps them, and its other members go in one more
//!   property, `extra_property_name`, holding the entries;
//! - a value of any JSON type (`{}`, a node with only annotations) is sent as a
//!   string holding its JSON text;
//! - a tuple whose positions differ (`prefixItems`, every position required)
//!   is sent as an object of its positions, `"0"`, `"1"`, ..., each required,
//!   and the items after them, where it has any, as the array `REST`.
//!
//! The shapes, names and descriptions here are the contract between the two
//! sides: change them together.
use crate::keywords;
use crate::keywords::Keyword;
use crate::lookup::Fields;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// The entry member holding a map member's name.
pub const KEY: &str = "key";
/// The entry member holding a map member's value.
pub const VALUE: &str = "value";
/// The property that holds the undeclared members of a map that also
/// declares properties, unless a declared property already has the name.
pub const EXTRA: &str = "additional_properties";

/// The property of a tuple sent as an object that holds the items after its
/// positions (no position is named by anything but digits).
pub const REST: &str = "rest";

/// What the model reads on a tuple sent as an object.
pub const TUPLE_NOTE: &str = "A list of fixed positions sent as an object: the first item as \"0\", the second as \"1\", and so on.";
/// What it reads on one that has items after its positions.
pub const TUPLE_REST_NOTE: &str = "A list of fixed positions sent as an object: the first item as \"0\", the second as \"1\", and so on; the items after them as the list \"rest\".";

/// Between a node's own description and the note on its encoding: a blank
/// line, as a spill is written (seed 003 §2.1).
pub const NOTE_SEPARATOR: &str = "\n\n";

/// What the model reads on an entries array.
pub const ENTRIES_NOTE: &str = "A map sent as a list of {\"key\": ..., \"value\": ...} entries, one per member; each key at most once.";
/// What the model reads on a value sent as JSON text.
pub const JSON_NOTE: &str = "Any JSON value, written as JSON text (for example {\"a\": 1}, [1, 2], \"text\", 3, true or null).";

/// The name of the property holding a mixed map's undeclared members: `EXTRA`,
/// with `_` put before it until no declared property has the name.
pub fn extra_property_name(declared: impl Fn(&str) -> bool) -> String {
    let mut name = EXTRA.to_string();
    while declared(&name) {
        name.insert(0, '_');
    }
    name
}

/// A schema that accepts every JSON value: `true`, or an object whose keywords
/// only annotate (`description`, `default`, ...) or name resolution targets
/// (`$id`, `$defs`, anchors), none of which constrains the value.
pub fn accepts_any(schema: &Value) -> bool {
    match schema {
        Value::Bool(b) => *b,
        Value::Object(m) => accepts_any_object(m),
        _ => false,
    }
}

/// `accepts_any` for an object schema.
pub fn accepts_any_object(node: &Map) -> bool {
    node.keys().all(|k| keywords::is_annotation(k) || keywords::is_resolution(k))
}

/// An object schema that says nothing about its members (no or empty
/// `properties`, no `additionalProperties`, `patternProperties`, union or
/// reference that could): every member is a value of any type. Not what
/// stands where a recursive `$ref` was cut (`refs`' placeholder: the
/// definition's type and a description ending `not expanded further)`),
/// whose object had members. Where it stands (a root is a tool without
/// parameters) is the caller's to say (`facts::is_free_form`).
pub fn free_form(node: &Map) -> bool {
    const SAYS_MEMBERS: &[&Keyword] = &[kw::ADDITIONAL_PROPERTIES, kw::PATTERN_PROPERTIES, kw::ANY_OF, kw::ONE_OF, kw::ALL_OF, kw::REF];
    super::types_of(node).has("object")
        && node.field(kw::PROPERTIES).map_or(true, |p| p.as_object().is_some_and(Map::is_empty))
        && !SAYS_MEMBERS.iter().any(|k| node.has(k))
        && !node.field(kw::DESCRIPTION).and_then(Value::as_str).is_some_and(|d| d.ends_with(", not expanded further)"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn extra_name_avoids_declared_properties() {
        assert_eq!(extra_property_name(|_| false), "additional_properties");
        let taken = ["additional_properties", "_additional_properties"];
        assert_eq!(extra_property_name(|n| taken.contains(&n)), "__additional_properties");
    }

    #[test]
    fn any_value_schemas() {
        for s in [json!(true), json!({}), json!({"description": "x", "default": 1, "$comment": "c"})] {
            assert!(accepts_any(&s), "{s}");
        }
        for s in [json!(false), json!({"type": "string"}), json!({"$ref": "#/$defs/a"}), json!({"minLength": 1}), json!(1)] {
            assert!(!accepts_any(&s), "{s}");
        }
    }
}
