//! Open maps and values of any type, on targets that cannot express them
//! (issue 18, "Lose less"): strict modes close every object and need a type
//! on every node (OpenAI "Supported schemas": `additionalProperties: false`
//! must always be set; Anthropic strict likewise), and Gemini's `Schema` has
//! no `additionalProperties` at all (F15, F43), so a map's value schema was
//! lost there. Frameworks give up the same way (openai/openai-agents-python#4277,
//! openai/openai-agents-js#1629, elizaOS/eliza#11249: record arguments that
//! always arrive empty). Instead, the lossless encodings of `entries` are
//! written: an open map as an array of `{"key", "value"}` entries, a value of
//! any type as a string of JSON text. `restoreArguments` undoes both, so the
//! rewrites are notes (`map-as-entries`, `any-as-json`), not lossy.
//!
//! Both rules run after the unions are in the target's form (a type list's
//! object branch is a node of its own) and before the rules that strip what
//! the target refuses (which would spill `propertyNames` and drop
//! `additionalProperties` first). Options `openMaps: "keep"` and
//! `anyValues: "keep"` turn them off.
use super::entries::{self, ENTRIES_NOTE, JSON_NOTE, KEY, NOTE_SEPARATOR, VALUE};
use super::facts::{carried, encodes_maps};
use super::{append_description, apply, is_never, json_text, types_of};
use crate::error::Result;
use crate::keywords::{self, is_annotation, is_resolution};
use crate::lookup::Fields;
use crate::options::AnyValues;
use crate::pointer::Pointer;
use crate::context::Cx;
use crate::json;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

pub use super::facts::{ANY_RULE, MAPS_RULE};


/// The keyword whose subschema the node at `path` is (`properties` for
/// `/properties/a`, `items` for `/items`), read by the keyword table.
fn slot_keyword(path: &crate::path::Path) -> Option<std::borrow::Cow<'_, str>> {
    crate::walk::keyword_segments(path.raw_segments(0)).last()
}

/// A value of any type, where the target needs a type on every node, becomes
/// a string holding its JSON text: `{}`, `items: {}`, `{"description": "..."}`
/// (OpenAI strict: "needs a type on every node"; Gemini typed it as a plain
/// string, which the model then filled with text, not the value). Only where
/// the node holds a value of the instance (`keywords::VALUE_SLOTS`, and a
/// map's value when maps go out as entries); a union branch stays as it is.
pub fn any_as_json(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if cx.opts.any_values != AnyValues::Json || !cx.target.caps.typed_nodes || cx.in_branch || !entries::accepts_any_object(node) {
        return Ok(());
    }
    let at = slot_keyword(&cx.path);
    let value_slot = at.is_some_and(|k| keywords::VALUE_SLOTS.contains(&&*k) || (carried(&k, cx) && k != "propertyNames"));
    if !value_slot {
        return Ok(());
    }
    write_any(node, cx);
    Ok(())
}

/// Rewrites an any-value node in place (its annotations kept, `default` and
/// `examples` as JSON text), counted and noted at the current pointer.
fn write_any(node: &mut Map, cx: &mut Cx) {
    let old = std::mem::take(node);
    node.insert(kw::TYPE.into(), json!("string"));
    for (k, v) in old {
        let v = match k.as_str() {
            "default" => Value::String(json_text(&v)),
            "examples" => match v {
                Value::Array(xs) => Value::Array(xs.iter().map(|x| Value::String(json_text(x))).collect()),
                other => other,
            },
            _ => v,
        };
        node.insert(k, v);
    }
    append_description(node, JSON_NOTE, NOTE_SEPARATOR);
    cx.count("anyValuesAsJson");
    cx.note("any-as-json", || "a value of any type is sent as a string of its JSON text; restoreArguments parses it back".into());
}

/// A schema for a value of any type, written as `write_any` writes one and
/// then given the target's rules (a `stripKeywords` of `description` takes the
/// note off now, not on the next normalization).
fn any_value(cx: &mut Cx, annotations: Option<&Map>) -> Result<Value> {
    let mut m = annotations.cloned().unwrap_or_default();
    write_any(&mut m, cx);
    apply(&mut m, cx)?;
    Ok(Value::Object(m))
}

/// What a map node's members are: the value schema and, where one pattern
/// names them, that pattern.
struct Members {
    value: Value,
    pattern: Option<Value>,
    /// The pointer the value schema came from (for the report).
    from: Pointer,
}

/// The node's undeclared members, if it is an open map this rule can write:
/// `additionalProperties` other than `false`, one `patternProperties` entry
/// beside no other `additionalProperties` than `false`, or nothing at all
/// (a free-form object, `facts::is_free_form`; not a union branch, whose
/// members are its parent's).
fn members(node: &Map, cx: &Cx) -> Option<Members> {
    // Most object nodes declare properties and say nothing of other members,
    // or close them, and have no patterns: no map, whatever the rest says
    // (the two arms below that answer `None` for them), asked before the
    // node's keys are.
    let closed_or_declared = match node.field(kw::ADDITIONAL_PROPERTIES) {
        None => node.field(kw::PROPERTIES).and_then(Value::as_object).is_some_and(|p| !p.is_empty()),
        Some(Value::Bool(false)) => true,
        Some(_) => false,
    };
    if closed_or_declared && node.field(kw::PATTERN_PROPERTIES).and_then(Value::as_object).map_or(true, Map::is_empty) {
        return None;
    }
    let object = types_of(node).has("object")
        || (!node.has(kw::TYPE) && !node.has(kw::ANY_OF) && !node.has(kw::REF) && super::types::implied(node) == Some("object"));
    // Keywords the target refuses go with the node onto the array, where its
    // own rules strip and report them as before.
    let carries = |k: &Key| keywords::MAP_KEYWORDS.contains(&k.as_str()) || is_annotation(k) || is_resolution(k) || cx.target.caps.refuses(k);
    if !object || !node.keys().all(carries) {
        return None;
    }
    // The root stays an object: there a map's members go in the entries
    // property beside its declared ones (`maps_as_entries`). A root without
    // properties is a tool without parameters, not a free-form map.
    let root = cx.at_root();
    let additional = node.field(kw::ADDITIONAL_PROPERTIES);
    let patterns = node.field(kw::PATTERN_PROPERTIES).and_then(Value::as_object).filter(|p| !p.is_empty());
    let names = node.field(kw::PROPERTY_NAMES);
    if matches!(names, Some(Value::Bool(false))) {
        return None;
    }
    let only_values = cx.target.caps.additional_false_only;
    match (additional, patterns) {
        (Some(Value::Bool(false)) | None, Some(p)) if p.len() == 1 => {
            let (pattern, value) = p.iter().next()?;
            // One pattern for the key: not beside a propertyNames pattern too.
            if names.and_then(|n| n.field(kw::PATTERN)).is_some() || is_never(value) {
                return None;
            }
            Some(Members {
                value: value.clone(),
                pattern: Some(Value::String(pattern.to_string())),
                from: cx.path.child("patternProperties").child(pattern.as_str()),
            })
        }
        (_, Some(_)) | (Some(Value::Bool(false)), None) => None,
        (Some(s), None) => {
            // WebMCP keeps an open object; it only cannot check its values.
            if is_never(s) || (only_values && entries::accepts_any(s)) {
                return None;
            }
            Some(Members { value: s.clone(), pattern: None, from: cx.path.child("additionalProperties") })
        }
        (None, None) if root => None,
        (None, None) => {
            // On a wire without `additionalProperties` (Gemini's Schema), a
            // closed empty object goes out as `{"type": "object",
            // "properties": {}}`, which cannot be told from a free-form one:
            // there only an object without `properties` is read as a map,
            // so normalizing an output again leaves it as it is.
            let written_empty = node.has(kw::PROPERTIES) && !cx.target.caps.keeps(kw::ADDITIONAL_PROPERTIES);
            let free = types_of(node).has("object")
                && !written_empty
                && node.field(kw::PROPERTIES).map_or(true, |p| p.as_object().is_some_and(Map::is_empty))
                && super::facts::is_free_form(node, cx)
                && !super::facts::branch_of_combinator(cx);
            (free && !only_values).then(|| Members { value: Value::Bool(true), pattern: None, from: cx.path.to_pointer() })
        }
    }
}

/// An open map becomes an array of entries (`entries`): a map without
/// declared properties is replaced by the array, one with declared properties
/// keeps them and holds its other members in one more, optional property
/// (`entries::extra_property_name`). Reported `map-as-entries`.
pub fn maps_as_entries(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !encodes_maps(cx) {
        return Ok(());
    }
    let Some(members) = members(node, cx) else { return Ok(()) };
    // A required name without a property is a member the map must have: it
    // is declared, and the map becomes a mixed one.
    if !super::strict::declare_required(node, cx)? {
        return Ok(());
    }
    let declared: Vec<Key> =
        node.field(kw::PROPERTIES).and_then(Value::as_object).map(|p| p.keys().cloned().collect()).unwrap_or_default();
    if declared.is_empty() && !cx.at_root() {
        let array = pure(node, members, cx)?;
        *node = array;
    } else {
        let name = entries::extra_property_name(|n| declared.iter().any(|d| d == n));
        let mut names = node.remove_field(kw::PROPERTY_NAMES);
        node.remove_field(kw::ADDITIONAL_PROPERTIES);
        node.remove_field(kw::PATTERN_PROPERTIES);
        // Keys the map's names allow that are not declared properties: a
        // declared name sent again as an entry is a conflict, never a member.
        // When every allowed name is declared (a Zod record over an enum of
        // keys, all required), the object is already exact without entries.
        if !undeclared_names(&mut names, &declared) {
            return Ok(());
        }
        cx.enter("properties")?;
        cx.enter(name.as_str())?;
        let mut array = entries_array(members, names.as_ref(), cx)?;
        append_description(&mut array, ENTRIES_NOTE, NOTE_SEPARATOR);
        apply(&mut array, cx)?;
        cx.leave();
        cx.leave();
        match node.field_mut(kw::PROPERTIES) {
            Some(Value::Object(props)) => drop(props.insert(name.into(), Value::Object(array))),
            _ => drop(node.insert(kw::PROPERTIES.into(), json!({name.clone(): Value::Object(array)}))),
        }
    }
    cx.count("mapsAsEntries");
    cx.note("map-as-entries", || {
        "an open map is sent as an array of {\"key\", \"value\"} entries; restoreArguments turns it back into the map".into()
    });
    Ok(())
}

/// Takes the declared property names out of a `propertyNames` `enum` (or
/// `const`); false when no name is left, so the map has no other member.
fn undeclared_names(names: &mut Option<Value>, declared: &[Key]) -> bool {
    let Some(Value::Object(n)) = names else { return true };
    if let Some(Value::Array(values)) = n.field_mut(kw::ENUM) {
        values.retain(|v| !v.as_str().is_some_and(|k| declared.iter().any(|d| d == k)));
        return !values.is_empty();
    }
    !n.field(kw::CONST).and_then(Value::as_str).is_some_and(|k| declared.iter().any(|d| d == k))
}

/// The array that replaces a map without declared properties: its title,
/// description (then `ENTRIES_NOTE`) and null marker kept, `minProperties` and
/// `maxProperties` as `minItems` and `maxItems`, a `default` as entries.
fn pure(node: &mut Map, members: Members, cx: &mut Cx) -> Result<Map> {
    let names = node.remove_field(kw::PROPERTY_NAMES);
    let mut array = entries_array(members, names.as_ref(), cx)?;
    for (k, v) in std::mem::take(node) {
        match k.as_str() {
            "minProperties" => drop(array.insert(kw::MIN_ITEMS.into(), v)),
            "maxProperties" => drop(array.insert(kw::MAX_ITEMS.into(), v)),
            "default" => {
                if let Value::Object(m) = v {
                    array.insert(k, Value::Array(m.into_iter().map(|(key, value)| json!({KEY: key, VALUE: value})).collect()));
                }
            }
            "nullable" => drop(array.insert(k, v)),
            // Examples of the map would each need writing as entries; they
            // only annotate, and are left out.
            "examples" => {}
            _ if keywords::MAP_KEYWORDS.contains(&k.as_str()) => {}
            // Annotations, and what the target refuses (its rules remove it
            // from the array and report it, as they would have from the map).
            _ => drop(array.insert(k, v)),
        }
    }
    append_description(&mut array, ENTRIES_NOTE, NOTE_SEPARATOR);
    Ok(array)
}

/// `{"type": "array", "items": {entry}}`, the entry object normalized for the
/// target: `key` a string with the name constraints, `value` the value schema
/// (a value of any type as JSON text, with `anyValues: "json"`).
fn entries_array(members: Members, names: Option<&Value>, cx: &mut Cx) -> Result<Map> {
    let mut key = Map::new();
    key.insert(kw::TYPE.into(), json!("string"));
    if let Some(Value::Object(n)) = names {
        for (k, v) in n {
            if k != "type" {
                key.insert(k.clone(), v.clone());
            }
        }
    }
    if let Some(p) = members.pattern {
        key.insert(kw::PATTERN.into(), p);
    }
    let value = if entries::accepts_any(&members.value) && cx.opts.any_values == AnyValues::Json && cx.target.caps.typed_nodes {
        cx.at_path(members.from, |cx| any_value(cx, members.value.as_object()))?
    } else {
        match members.value {
            Value::Bool(true) => json!({}),
            v => v,
        }
    };
    cx.enter("items")?;
    cx.enter("properties")?;
    cx.enter(KEY)?;
    apply(&mut key, cx)?;
    cx.leave();
    cx.leave();
    let mut item = Map::new();
    item.insert(kw::TYPE.into(), json!("object"));
    item.insert(kw::PROPERTIES.into(), json!({KEY: Value::Object(key), VALUE: value}));
    item.insert(kw::REQUIRED.into(), json!([KEY, VALUE]));
    if cx.target.caps.keeps(kw::ADDITIONAL_PROPERTIES) {
        item.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
    }
    apply(&mut item, cx)?;
    cx.leave();
    let mut array = Map::new();
    array.insert(kw::TYPE.into(), json!("array"));
    array.insert(kw::ITEMS.into(), Value::Object(item));
    Ok(array)
}
