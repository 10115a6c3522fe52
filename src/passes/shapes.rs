//! Objects, arrays and the root in the shapes the wire requires.
use crate::lookup::Fields;
use super::facts::{branch_of_combinator, branch_of_union};
use super::merge::{as_written, object_like, overlay_branch, unite_objects, SharedMembers};
use crate::intersect::conjoin_all;
use super::spill::render;
use crate::values::value_has_type;
use super::{append_description, apply, types_of};
use crate::keywords;
use crate::options::SpillFormat;
use crate::error::Result;
use crate::context::Cx;
use crate::json;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

/// Objects get `properties` (OpenAI F3 `object schema missing properties`, the
/// Google contract §2.4); `required` keeps only declared names where the target
/// insists (Gemini, Groq F25 `'required' present but 'properties' is missing`).
/// On a target whose unions carry nothing beside `anyOf` (`Caps::lone_any_of`),
/// a union branch keeps its names until the union's own keywords are moved into
/// it (`lone_any_of`): `anyOf: [{required: ["a"]}]` beside `properties: {a}`
/// declares `a` then. Where only objects may carry `properties`, `required`
/// and `propertyOrdering` (`Caps::object_only_fields`: Gemini's "only allowed
/// for OBJECT type"), a node of another type loses them, which changes nothing
/// it accepts.
pub fn object_shapes(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let caps = cx.target.caps;
    let types = types_of(node);
    let (object, typed) = (types.has("object"), !types.is_empty());
    if caps.object_only_fields && !object && typed {
        if may_hold_object_only_fields(node) {
            for key in crate::keywords::OBJECT_ONLY_FIELDS {
                node.remove_field(*key);
            }
        }
        return Ok(());
    }
    if !(object || caps.required_declared && node.has(kw::REQUIRED)) {
        return Ok(());
    }
    if object && caps.object_properties && !matches!(node.field(kw::PROPERTIES), Some(Value::Object(_))) {
        node.insert(kw::PROPERTIES.into(), json!({}));
    }
    // A required name without a property is a member of any type: declared,
    // not deleted, on an object of its own (a union branch's `required` is a
    // condition on its parent's members, which the branch must not retype).
    if object && caps.required_declared && !branch_of_combinator(cx) {
        super::strict::declare_required(node, cx)?;
    }
    // On Gemini a union branch's names wait for the union's properties, which
    // lone_any_of moves into the branch, and are checked there.
    if caps.required_declared && !(caps.lone_any_of && branch_of_union(&cx.path)) {
        declared_required(node, cx);
    } else if let Some(Value::Array(required)) = node.field_mut(kw::REQUIRED) {
        // Nearly always names, each once: nothing to drop.
        if !crate::values::names_once(required) {
            let mut seen = crate::hash::HashSet::default();
            required.retain(|r| r.as_str().is_some_and(|name| seen.insert(name.to_string())));
        }
    }
    Ok(())
}

/// Whether `node` may hold one of `OBJECT_ONLY_FIELDS`: most nodes that are
/// not objects hold none, and their bits say so at once. `properties` and
/// `required` have bits; `propertyOrdering`, which has none, is absent when
/// every key has one.
#[inline]
pub(crate) fn may_hold_object_only_fields(node: &Map) -> bool {
    node.keyword_bits() & (Map::bit(kw::PROPERTIES) | Map::bit(kw::REQUIRED)) != 0 || !node.keys_are_bits()
}

/// `required` with each name once, and only names of declared properties
/// (reported `required-undeclared` when one is removed).
pub fn declared_required(node: &mut Map, cx: &mut Cx) {
    let Some(Value::Array(required)) = node.field(kw::REQUIRED) else { return };
    let props = node.field(kw::PROPERTIES).and_then(Value::as_object);
    // Nearly always every name is declared and there once: the array made
    // below would be this one.
    if props.is_some_and(|p| names_in_order(required, p)) {
        return;
    }
    let declared = |r: &Value| r.as_str().is_some_and(|name| props.is_some_and(|p| p.has(name)));
    if required.iter().all(declared) && crate::values::distinct_strings(required) {
        return;
    }
    let mut seen = crate::hash::HashSet::default();
    let mut kept = Vec::new();
    let mut dropped = Vec::new();
    for r in required {
        let Some(name) = r.as_str() else { continue };
        if !seen.insert(name) {
            continue;
        }
        if !props.is_some_and(|p| p.has(name)) {
            dropped.push(name.to_string());
        } else {
            kept.push(Value::String(name.to_string()));
        }
    }
    if !dropped.is_empty() {
        cx.lossy_with("required-undeclared", || format!("required names without a property were removed: {}", dropped.join(", ")));
    }
    node.insert(kw::REQUIRED.into(), Value::Array(kept));
}

/// Whether `required` names keys of `props` in the keys' order, each once, as
/// most schemas write it: then every name is declared and there once, found
/// in one pass over both, where looking each name up compared it with the
/// keys before it.
pub(crate) fn names_in_order(required: &[Value], props: &Map) -> bool {
    let mut keys = props.keys();
    required.iter().all(|r| r.as_str().is_some_and(|name| keys.any(|k| k == name)))
}

/// Properties whose "may be null" was dropped below (Cloud Code Assist has no way
/// to say it) stop being required, so the model can leave them out (contract §3.4).
pub fn optional_nullables(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if cx.null_dropped.is_empty() {
        return Ok(());
    }
    let Some(Value::Object(props)) = node.field(kw::PROPERTIES) else { return Ok(()) };
    // Each property is found by the current pointer's id and two segments
    // (a pointer's text per property was quadratic in depth: a nullable
    // object per level), and the names go in a set (each required name was
    // compared with every nullable one).
    let mut nullable: crate::hash::HashSet<Key> = Default::default();
    for name in props.keys() {
        if cx.null_dropped_below(name.as_str()) {
            nullable.insert(name.clone());
        }
    }
    if nullable.is_empty() {
        return Ok(());
    }
    if let Some(Value::Array(required)) = node.field_mut(kw::REQUIRED) {
        required.retain(|r| !r.as_str().is_some_and(|n| nullable.contains(n)));
    }
    Ok(())
}

/// Arrays get `items` (OpenAI F34 `array schema missing items`, even non-strict;
/// a Gemini array without items fails the request). A tuple (`prefixItems`) on a
/// target without tuples gets the `items` it can express (`tuples::to_items`).
pub fn array_items(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if super::tuples::to_items(node, cx)? {
        return Ok(());
    }
    if !cx.target.caps.array_items || !types_of(node).has("array") || node.has(kw::ITEMS) {
        return Ok(());
    }
    cx.enter("items")?;
    let mut items = if cx.target.caps.typed_nodes {
        cx.lossy("array-items-added", "an array without items got string items: the target needs an item type");
        json!({"type": "string"})
    } else {
        json!({})
    };
    if let Value::Object(m) = &mut items {
        apply(m, cx)?;
    }
    cx.leave();
    node.insert(kw::ITEMS.into(), items);
    cx.count("arrayItemsAdded");
    Ok(())
}

/// Gemini generates properties in `propertyOrdering` order; without it, the order
/// is alphabetical. Keeping the schema's order keeps the author's intent (the
/// google-genai SDK adds it the same way for objects with more than one property).
pub fn property_ordering(node: &mut Map, _cx: &mut Cx) -> Result<()> {
    let Some(Value::Object(props)) = node.field(kw::PROPERTIES) else { return Ok(()) };
    if props.len() < 2 {
        node.remove_field(kw::PROPERTY_ORDERING);
        return Ok(());
    }
    let names: Vec<Value> = props.keys().map(|k| Value::String(k.as_str().to_owned())).collect();
    node.insert(kw::PROPERTY_ORDERING.into(), Value::Array(names));
    Ok(())
}

/// The root of a tool's parameters must be `type: "object"` with no combinator
/// (OpenAI F4/F5 even without strict, Anthropic F13, Gemini). A root union of
/// objects is merged into one object (the OpenClaw approach, seed 004); a root
/// that cannot be an object is wrapped as the single property `value`
/// (WordPress abilities may take scalar input: providers.md footnote p). What
/// the root can be is read from its types, `enum`/`const` values, union
/// branches and type-specific keywords, so an untyped scalar root
/// (`{"enum": ["text", 1]}`) is wrapped like a typed one, and a root that says
/// nothing (`{}`) is an object with no declared properties: an MCP tool's
/// arguments are an object (issue 21), never a made-up `value`.
pub fn root_object(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !cx.at_root() || !cx.target.caps.root_object {
        return Ok(());
    }
    let mut changed = false;
    if let Some(Value::Array(entries)) = node.field(kw::ALL_OF).cloned() {
        changed = true;
        node.remove_field(kw::ALL_OF);
        let objs: Vec<Map> = entries.iter().filter_map(|e| e.as_object().map(|e| as_written(e, cx))).collect();
        let mut acc = as_written(node, cx);
        match conjoin_all(&mut acc, &objs).then_some(acc) {
            Some(m) => *node = m,
            None => {
                cx.lossy("root-union-merged", "root allOf entries conflict; they were overlaid in order");
                for e in objs {
                    overlay_branch(node, e);
                }
            }
        }
        // Read as written, the members lost what the target's rules added to
        // them (the objects they closed: Anthropic's SDK closes every object),
        // and members that several entries declare are new conjunctions
        // (`items` of two entries), while only the root gets the rules again
        // below. They get them now, as the next run would.
        SharedMembers::every(node).rerun(node, cx, &mut |v, cx| match v {
            Value::Object(m) => apply(m, cx),
            _ => Ok(()),
        })?;
    }
    for word in [kw::ANY_OF, kw::ONE_OF] {
        let key = word.name;
        let Some(Value::Array(branches)) = node.remove_field(word) else { continue };
        changed = true;
        let scalar = {
            let objs = flatten_unions(&branches);
            !objs.is_empty() && objs.iter().all(|b| root_kinds(b).is_some_and(|k| !k.object))
        };
        if scalar {
            node.insert(key.into(), Value::Array(branches));
            if is_object_root(decided_kinds(node)) {
                // The root's type says object and no branch can be one: the
                // two admit nothing together, and the declared type decides
                // (as it does for values of another type), so the union goes.
                node.remove_field(word);
                cx.lossy_with("root-union-merged", || format!("root {key} admits no object, which the root's type requires; it was dropped"));
                cx.count("rootUnionsMerged");
            }
            // Else no branch can be an object: the union is a scalar root,
            // wrapped whole below instead of merged into an object of nothing.
            continue;
        }
        let objs = take_flattened(branches);
        let count = objs.len();
        let object_like: Vec<Map> = objs.into_iter().filter(object_like).collect();
        if object_like.len() < count {
            cx.lossy_with("root-union-merged", || format!("root {key} had non-object branches; only the object branches were kept"));
        } else {
            cx.lossy_with("root-union-merged", || format!("root {key} of objects was merged into one object"));
        }
        if !object_like.is_empty() {
            // Members several branches declare are united into new subschemas
            // (`{const: "circle"}` and `{const: "rect"}` into one enum) that no
            // rule has seen: they get the rules now, as the next run would.
            let shared = SharedMembers::of(&object_like.iter().collect::<Vec<_>>());
            overlay_branch(node, unite_objects(object_like));
            shared.rerun(node, cx, &mut |v, cx| match v {
                Value::Object(m) => apply(m, cx),
                _ => Ok(()),
            })?;
        }
        cx.count("rootUnionsMerged");
    }
    let kinds = decided_kinds(node);
    if is_object_root(kinds) {
        if node.field(kw::TYPE).and_then(Value::as_str) != Some("object") {
            if kinds.is_some_and(|k| k.null) {
                cx.lossy("root-null-dropped", "the root also admitted null; a tool's arguments are an object, so the root is the object");
            }
            // `["object"]` is an object root, but the check (and F4's
            // validators) want the string; an untyped root is an object.
            node.insert(kw::TYPE.into(), json!("object"));
            changed = true;
        }
    } else {
        let mut inner = std::mem::take(node);
        let defs = inner.remove_field(kw::DEFS);
        if changed {
            // Reshaped above (a merged union's properties), the node missed the
            // rules that ran before this one; as `value` it gets them now, as the
            // next run would.
            cx.enter("properties")?;
            cx.enter("value")?;
            apply(&mut inner, cx)?;
            cx.leave();
            cx.leave();
        }
        changed = true;
        let mut props = Map::new();
        props.insert("value".into(), Value::Object(inner));
        node.insert(kw::TYPE.into(), json!("object"));
        node.insert(kw::PROPERTIES.into(), Value::Object(props));
        node.insert(kw::REQUIRED.into(), json!(["value"]));
        cx.lossy("root-wrapped", "the root was not an object; it became the single property \"value\"");
        if let Some(defs) = defs {
            node.insert(kw::DEFS.into(), defs);
        }
        cx.count("rootsWrapped");
    }
    changed |= root_assertions(node, cx);
    if changed {
        // The reshaped root needs the node rules once more (properties, strictness);
        // on an object root without combinators this rule changes nothing, so it ends.
        apply(node, cx)?;
    }
    Ok(())
}

/// On an object root, `not`, `enum`, `const` and `if`/`then`/`else` are
/// rejected outright (F4) except where the target takes them (MCP: any
/// 2020-12 schema of type object); a wrapped scalar root took them into
/// `value`. `enum` and `const` say which arguments the tool takes, so where
/// they cannot stay they are spilled into the description, for the model,
/// and reported; the round trip still checks the arguments against them.
fn root_assertions(node: &mut Map, cx: &mut Cx) -> bool {
    if cx.target.caps.root_assertions {
        return false;
    }
    let spill = cx.target.caps.spill
        && cx.opts.spill != SpillFormat::None
        && !cx.opts.strip_keywords.iter().any(|k| k == "description");
    let mut spilled = Vec::new();
    let mut changed = false;
    // Looked up by row: the root is asked for six keywords on every call.
    for word in [kw::NOT, kw::ENUM, kw::CONST, kw::IF, kw::THEN, kw::ELSE] {
        let key = word.name;
        let Some(value) = node.remove_field(word) else { continue };
        changed = true;
        if spill && matches!(key, "enum" | "const") {
            spilled.push((Key::from(key), value));
        } else {
            let id = cx.target.id;
            cx.lossy_with("keyword-dropped", || format!("root {key} is not accepted by {id}; it was removed"));
        }
    }
    if !spilled.is_empty() {
        let names: Vec<&str> = spilled.iter().map(|(k, _)| k.as_str()).collect();
        cx.lossy(
            "keyword-spilled",
            format!("root {} not accepted by {}; moved into description", names.join(", "), cx.target.id),
        );
        append_description(node, &render(&spilled, cx.opts.spill), super::spill::separator(cx));
    }
    changed
}

/// What a root can be, as far as the wire cares: an object, null, or any
/// other JSON type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Kinds {
    object: bool,
    null: bool,
    other: bool,
}

impl Kinds {
    fn of_type(t: &str) -> Kinds {
        match t {
            "object" => Kinds { object: true, ..Kinds::default() },
            "null" => Kinds { null: true, ..Kinds::default() },
            _ => Kinds { other: true, ..Kinds::default() },
        }
    }

    fn of_value(v: &Value) -> Kinds {
        match v {
            Value::Object(_) => Kinds::of_type("object"),
            Value::Null => Kinds::of_type("null"),
            _ => Kinds::of_type("string"),
        }
    }

    fn or(self, o: Kinds) -> Kinds {
        Kinds { object: self.object || o.object, null: self.null || o.null, other: self.other || o.other }
    }

    fn and(self, o: Kinds) -> Kinds {
        Kinds { object: self.object && o.object, null: self.null && o.null, other: self.other && o.other }
    }
}

fn kinds_of_types(types: &[&str]) -> Option<Kinds> {
    (!types.is_empty()).then(|| types.iter().fold(Kinds::default(), |k, t| k.or(Kinds::of_type(t))))
}

/// The kinds the root admits, as `root_kinds` reads them, except that values
/// or branches none of which has the declared type accept nothing: the
/// declared type decides, as it did before values were read.
fn decided_kinds(node: &Map) -> Option<Kinds> {
    match root_kinds(node) {
        Some(k) if k == Kinds::default() => kinds_of_types(&types_of(node)),
        k => k,
    }
}

/// Whether a root of these kinds is the object root (an object, or an
/// object or null), not a value to wrap.
fn is_object_root(kinds: Option<Kinds>) -> bool {
    kinds.map_or(true, |k| !k.other && (k.object || !k.null))
}

/// The kinds a schema admits (None: any): its `type`; narrowed by its
/// `enum`/`const` values (those of a declared type), and by its union's
/// branches; without any of these, what its type-specific keywords imply
/// (`properties`: an object, `items`: an array, `minLength`: a string).
fn root_kinds(node: &Map) -> Option<Kinds> {
    let declared = types_of(node);
    let mut out = kinds_of_types(&declared);
    let values: Option<Vec<&Value>> = match (node.field(kw::CONST), node.field(kw::ENUM)) {
        (Some(c), _) => Some(vec![c]),
        (None, Some(Value::Array(e))) => Some(e.iter().collect()),
        _ => None,
    };
    if let Some(values) = values {
        let typed = |v: &&&Value| declared.is_empty() || declared.iter().any(|t| value_has_type(v, t));
        out = Some(values.iter().filter(typed).fold(Kinds::default(), |k, v| k.or(Kinds::of_value(v))));
    }
    for word in [kw::ANY_OF, kw::ONE_OF] {
        let Some(Value::Array(branches)) = node.field(word) else { continue };
        if branches.is_empty() {
            continue;
        }
        let union = branches
            .iter()
            .try_fold(Kinds::default(), |k, b| b.as_object().and_then(root_kinds).map(|b| k.or(b)));
        if let Some(u) = union {
            out = Some(out.map_or(u, |o| o.and(u)));
        }
    }
    if out.is_none() {
        let implied = node.keys().filter_map(|k| keywords::implied_type(k)).fold(Kinds::default(), |k, t| k.or(Kinds::of_type(t)));
        out = (implied != Kinds::default()).then_some(implied);
    }
    out
}

/// The branches of a root union with nested pure unions spliced in
/// (`(string ∨ A) ∨ B` is `string ∨ A ∨ B`), so an object inside one is merged
/// like any other instead of being dropped with its union. Strict targets
/// splice unions before this rule runs and the others do not; read flat, both
/// families merge the same objects.
fn flatten_unions(branches: &[Value]) -> Vec<&Map> {
    let mut out = Vec::with_capacity(branches.len());
    let mut todo: Vec<&Value> = branches.iter().rev().collect();
    while let Some(b) = todo.pop() {
        let Value::Object(m) = b else { continue };
        match wrapped_union(m) {
            Some(inner) => todo.extend(inner.iter().rev()),
            None => out.push(m),
        }
    }
    out
}

/// `flatten_unions`, taking the branches.
fn take_flattened(branches: Vec<Value>) -> Vec<Map> {
    let mut out = Vec::with_capacity(branches.len());
    let mut todo: Vec<Value> = branches.into_iter().rev().collect();
    while let Some(b) = todo.pop() {
        let Value::Object(mut m) = b else { continue };
        if wrapped_union(&m).is_some() {
            if let Some(Value::Array(inner)) = m.remove_field(kw::ANY_OF) {
                todo.extend(inner.into_iter().rev());
            }
        } else {
            out.push(m);
        }
    }
    out
}

/// The branches of a node that is nothing but an `anyOf` (and annotations).
fn wrapped_union(m: &Map) -> Option<&Vec<Value>> {
    match m.field(kw::ANY_OF) {
        Some(Value::Array(inner)) if m.keys().all(|k| k == "anyOf" || crate::keywords::is_annotation(k)) => Some(inner),
        _ => None,
    }
}

/// `nullable` sits right after `type`, wherever the rule that set it ran, so a
/// second run (which reads it back as a null type) writes the same key order.
pub fn nullable_after_type(node: &mut Map, _cx: &mut Cx) -> Result<()> {
    let Some(at) = node.keys().position(|k| k == "type") else { return Ok(()) };
    let Some(now) = node.keys().position(|k| k == "nullable") else { return Ok(()) };
    if now != at + 1 {
        let v = node.remove_field(kw::NULLABLE).unwrap_or(Value::Bool(true));
        let at = node.keys().position(|k| k == "type").unwrap_or(0);
        node.shift_insert(at + 1, "nullable".into(), v);
    }
    Ok(())
}

/// A `patternProperties` map on a target that has `additionalProperties` but
/// not `patternProperties` (Anthropic: F14) becomes `additionalProperties` of
/// the pattern schemas: every key is then allowed (lossy, reported), instead of
/// the map silently turning into a closed, empty object.
pub fn pattern_properties_to_additional(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if cx.target.caps.keeps(kw::PATTERN_PROPERTIES) || !cx.target.caps.keeps(kw::ADDITIONAL_PROPERTIES) {
        return Ok(());
    }
    let Some(Value::Object(patterns)) = node.remove_field(kw::PATTERN_PROPERTIES) else { return Ok(()) };
    if node.has(kw::ADDITIONAL_PROPERTIES) || patterns.is_empty() {
        return Ok(());
    }
    let mut schemas: Vec<Value> = Vec::new();
    for s in patterns.values() {
        if !schemas.contains(s) {
            schemas.push(s.clone());
        }
    }
    let value = if schemas.len() == 1 { schemas.remove(0) } else { Value::Object(Map::from_iter([("anyOf".to_string(), Value::Array(schemas))])) };
    node.insert(kw::ADDITIONAL_PROPERTIES.into(), value);
    cx.lossy(
        "pattern-properties-widened",
        format!("patternProperties ({}) became additionalProperties: keys are no longer checked against the patterns", patterns.keys().cloned().collect::<Vec<_>>().join(", ")),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `object_shapes` on `schema` for a target with the base profile, or one
    /// that declares its required names (Gemini's).
    fn shaped(schema: Value, declaring: bool) -> Value {
        let caps = crate::profile::Caps { object_properties: true, required_declared: declaring, ..crate::profile::BASE };
        let profile = crate::profile::Profile { id: "openai", caps: &caps, on_violation: crate::profile::OnViolation::Report };
        let opts = crate::options::Options::default();
        let mut cx = crate::context::Cx::new(profile, &[], &opts);
        cx.enter("properties").unwrap();
        cx.enter("p").unwrap();
        let Value::Object(mut m) = schema else { unreachable!() };
        object_shapes(&mut m, &mut cx).unwrap();
        Value::Object(m)
    }

    #[test]
    fn names_in_order_is_an_ordered_subsequence_of_the_keys() {
        let props = json!({"a": {}, "b": {}, "c": {}});
        let props = props.as_object().unwrap();
        let holds = |names: Value| names_in_order(names.as_array().unwrap(), props);
        assert!(holds(json!([])));
        assert!(holds(json!(["a", "b", "c"])));
        assert!(holds(json!(["a", "c"])));
        assert!(!holds(json!(["c", "a"])), "out of order");
        assert!(!holds(json!(["a", "a"])), "a name twice");
        assert!(!holds(json!(["a", "x"])), "undeclared");
        assert!(!holds(json!(["a", 1])), "not a name");
    }

    #[test]
    fn required_keeps_each_name_once() {
        for names in [crate::json!(["a", "b", "a", 1, "b"]), crate::json!(["a", "b", "a"])] {
            let repeated = crate::json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": names});
            for declaring in [false, true] {
                assert_eq!(shaped(repeated.clone(), declaring)["required"], crate::json!(["a", "b"]), "{names} declaring {declaring}");
            }
        }
        // Undeclared names go only where the target declares its required names.
        let undeclared = crate::json!({"type": "object", "properties": {"a": {}}, "required": ["a", "z"]});
        assert_eq!(shaped(undeclared.clone(), false)["required"], crate::json!(["a", "z"]));
        // A list already as it would be made is left as it is.
        let plain = crate::json!({"type": "object", "properties": {"a": {}, "b": {}}, "required": ["b", "a"]});
        for declaring in [false, true] {
            assert_eq!(shaped(plain.clone(), declaring), plain);
        }
    }

    /// A map holding any of the object-only fields is never answered "holds
    /// none", whatever else it holds; maps of other keywords with bits are.
    #[test]
    fn object_only_fields_are_never_missed() {
        for field in crate::keywords::OBJECT_ONLY_FIELDS {
            for others in [json!({}), json!({"type": "string"}), json!({"type": "string", "description": "d", "x-extra": 1})] {
                let mut m = others.as_object().unwrap().clone();
                m.insert((*field).into(), json!([]));
                assert!(may_hold_object_only_fields(&m), "{} beside {others}", field.name);
            }
        }
        for none in [json!({}), json!({"type": "string", "description": "d", "enum": ["a"], "items": {}})] {
            assert!(!may_hold_object_only_fields(none.as_object().unwrap()), "{none}");
        }
    }
}
