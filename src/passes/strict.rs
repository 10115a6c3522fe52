//! OpenAI strict mode: sanitize, then enforce (seed 000, contract §1).
use crate::lookup::Fields;
use super::spill::strip;
use crate::values::common_type;
use super::{is_null_schema, json_text, types_of};
use crate::keywords::is_annotation;
use crate::error::{Error, Result};
use crate::context::Cx;
use crate::json;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

/// `default` is not permitted in strict mode (F37 `'default' is not permitted`);
/// its value is kept as ` (default: X)` in an existing description that does not
/// already mention one (contract §1.1). Either way the keyword is gone from the
/// wire, which the report says (issue 21): `default-inlined` when the
/// description now carries it (or already named a default, which it keeps),
/// lossy `default-dropped` when there was no description to carry it.
pub fn default_to_description(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let Some(default) = node.remove_field(kw::DEFAULT) else { return Ok(()) };
    cx.count("defaultsInlined");
    let text = json_text(&default);
    let kept = match node.field_mut(kw::DESCRIPTION) {
        Some(Value::String(d)) if !d.contains("(default:") => {
            d.push_str(&format!(" (default: {text})"));
            Ok("it was moved into description")
        }
        Some(Value::String(_)) => Ok("the description already names a default"),
        _ => Err("there is no description to carry it"),
    };
    cx.enter("default")?;
    match kept {
        Ok(how) => {
            let id = cx.target.id;
            cx.note("default-inlined", || format!("default {text} is not accepted by {id}; {how}"));
        }
        Err(why) => {
            let id = cx.target.id;
            cx.lossy_with("default-dropped", || format!("default {text} is not accepted by {id} and {why}; it was removed"))
        },
    }
    cx.leave();
    Ok(())
}

/// Patterns with lookaround or backreferences, features outside the
/// provider's engine (pydantic-ai's OpenAI transformer and the pi-ai Responses
/// walker drop these; Google's services compile with RE2, which has neither),
/// are removed (and spilled). Only a pattern the target keeps: one it does not
/// is spilled with the other stripped keywords by `strip-unsupported`.
pub fn regex_subset(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if cx.keeps(kw::PATTERN) && node.field(kw::PATTERN).and_then(Value::as_str).is_some_and(super::regex::needs_backtracking) {
        strip(node, &["pattern".into()], cx);
    }
    Ok(())
}

/// With `stripStrictConstraints`, the constraints the first strict release (and
/// fine-tuned models today) reject are stripped and spilled (seed 003 §1.1).
pub fn strip_constraints(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !cx.opts.strip_strict_constraints {
        return Ok(());
    }
    let keys: Vec<Key> = node.keys().filter(crate::keywords::is_strict_constraint).cloned().collect();
    strip(node, &keys, cx);
    Ok(())
}

/// Strict nodes need a `type`: inferred from `enum`, `properties` or `items`,
/// or from keywords that constrain one type only.
/// An enum of scalars of several types (`["a", "b", 3]`, Zod's literal
/// union) cannot be typed with one keyword: it becomes an `anyOf` of one
/// typed enum per type, which accepts exactly the same values. (Seed 000's
/// normalizer leaves it for the checker, and the call fails open.) An enum
/// holding an object or an array is left so.
pub fn infer_strict_type(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if node.has(kw::TYPE) || node.has(kw::REF) || node.has(kw::ANY_OF) {
        return Ok(());
    }
    let inferred = if let Some(Value::Array(values)) = node.field(kw::ENUM) {
        let non_null: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        match common_type(&non_null) {
            Some(t) if t != "object" && t != "array" => {
                if non_null.len() < values.len() {
                    Some(json!([t, "null"]))
                } else {
                    Some(json!(t))
                }
            }
            None => {
                if let Some(branches) = enum_by_type(values) {
                    split_enum(node, branches, cx);
                }
                None
            }
            _ => None,
        }
    } else if node.has(kw::PROPERTIES) {
        Some(json!("object"))
    } else if node.has(kw::ITEMS) || node.has(kw::PREFIX_ITEMS) {
        Some(json!("array"))
    } else {
        // What the Gemini targets infer too (`types::infer_type`): the type
        // the node's keywords constrain, where they all constrain one. Not
        // inside oneOf or not, where accepting less can make the whole accept
        // more, nor on a combinator's branch, which is read with its node
        // (`{"required": ["a"]}` beside the node's properties).
        one_implied_type(node).filter(|_| !cx.under_exclusion() && !super::facts::branch_of_combinator(cx)).map(|t| json!(t))
    };
    if let Some(t) = inferred {
        node.insert(kw::TYPE.into(), t);
        cx.count("typesInferred");
    }
    Ok(())
}

/// The one type every type-specific keyword of `node` constrains (`minimum`:
/// number, `minLength`, `pattern`, `format`: string, `maxItems`: array,
/// `required`: object); `None` with none, or with keywords of two types.
fn one_implied_type(node: &Map) -> Option<&'static str> {
    let mut implied = node.keys().filter_map(|k| crate::keywords::implied_type(k));
    let first = implied.next()?;
    implied.all(|t| t == first).then_some(first)
}

/// The branches of an enum of scalars of several types, one per type in the
/// order the values first show it: `{"type": t, "enum": [its values]}`, an
/// integer type where every number is one, and `{"type": "null"}` for null.
/// `None` when a value is an object or an array.
fn enum_by_type(values: &[Value]) -> Option<Vec<Value>> {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for v in values {
        let kind = match v {
            Value::String(_) => "string",
            Value::Number(_) => "number",
            Value::Bool(_) => "boolean",
            Value::Null => "null",
            Value::Array(_) | Value::Object(_) => return None,
        };
        match groups.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, members)) => members.push(v.clone()),
            None => groups.push((kind, vec![v.clone()])),
        }
    }
    let branches = groups
        .into_iter()
        .map(|(kind, members)| {
            let kind = if kind == "number" && members.iter().all(|m| crate::values::value_has_type(m, "integer")) { "integer" } else { kind };
            let mut branch = Map::with_capacity(2);
            branch.insert(kw::TYPE.into(), Value::String(kind.to_string()));
            if kind != "null" {
                branch.insert(kw::ENUM.into(), Value::Array(members));
            }
            Value::Object(branch)
        })
        .collect();
    Some(branches)
}

/// Puts `anyOf: branches` where the node's `enum` stood (`enum_by_type`).
fn split_enum(node: &mut Map, branches: Vec<Value>, cx: &mut Cx) {
    let Some(at) = node.index_of("enum") else { return };
    let types: Vec<String> = branches.iter().filter_map(|b| b.field(kw::TYPE).and_then(Value::as_str)).map(str::to_string).collect();
    node.shift_remove_index(at);
    node.shift_insert(at, "anyOf".into(), Value::Array(branches));
    cx.count("enumsSplitByType");
    let target = cx.target.id;
    cx.note("enum-split-by-type", || {
        format!("an enum of {} values became an anyOf of one typed enum per type, which accepts the same values: {target} needs a type on every node", types.join(", "))
    });
}

/// Every object closed and fully required; optional properties become nullable
/// (contract §1.3). A pure union gets a null branch appended in place; anything
/// else is wrapped, since siblings beside `anyOf` are conjunctive and an appended
/// branch would not make the node nullable.
pub fn enforce_object(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if !types_of(node).has("object") {
        return Ok(());
    }
    match node.field(kw::ADDITIONAL_PROPERTIES) {
        None | Some(Value::Bool(false)) => {}
        Some(_) => {
            return Err(Error::StrictUnrepresentable {
                pointer: cx.path.child("additionalProperties"),
                message: "an open map (additionalProperties other than false) cannot be expressed in OpenAI strict mode"
                    .into(),
            })
        }
    }
    let closing = !node.has(kw::ADDITIONAL_PROPERTIES);
    node.insert(kw::ADDITIONAL_PROPERTIES.into(), Value::Bool(false));
    if !node.has(kw::PROPERTIES) {
        node.insert(kw::PROPERTIES.into(), json!({}));
    }
    // A required name the object does not declare is a member of any type;
    // closed, the object could never be given it (and deleting the name would
    // let the tool be called without it). Most schemas list their required
    // names in the properties' order (`names_in_order`): then none is
    // undeclared, and the loop below reads them in one pass. Asked once, for both.
    let in_order = match node.field(kw::PROPERTIES) {
        Some(Value::Object(props)) => {
            let required = node.field(kw::REQUIRED).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            super::shapes::names_in_order(required, props)
        }
        _ => false,
    };
    let undeclared = if in_order { Vec::new() } else { undeclared_required(node) };
    if !undeclared.is_empty() {
        return Err(Error::StrictUnrepresentable {
            pointer: cx.path.child("required"),
            message: format!(
                "required names without a property ({}) are members of any type, which a closed strict object cannot have",
                undeclared.join(", ")
            ),
        });
    }
    if !matches!(node.field(kw::PROPERTIES), Some(Value::Object(_))) {
        return Ok(());
    }
    // Taken from its place, which the list written below takes again.
    let listed = match node.field_mut(kw::REQUIRED) {
        Some(Value::Array(r)) => std::mem::take(r),
        _ => Vec::new(),
    };
    let Some(Value::Object(props)) = node.field_mut(kw::PROPERTIES) else { return Ok(()) };
    // In the properties' order, a property is required when it is the next
    // name listed, and when every property is, the list is already the one
    // written below. Otherwise the names are sorted for the lookups (a scan
    // per property is quadratic at thousands).
    let mut sorted: Vec<&str> = Vec::new();
    if !in_order {
        sorted = listed.iter().filter_map(Value::as_str).collect();
        crate::sort::sort(&mut sorted);
    }
    let every = in_order && listed.len() == props.len();
    let mut all = Vec::with_capacity(if every { 0 } else { props.len() });
    let mut next = 0;
    for (name, schema) in props.iter_mut() {
        if !every {
            all.push(Value::String(name.as_str().to_owned()));
        }
        let required = if in_order {
            let listed_next = listed.get(next).and_then(Value::as_str) == Some(name.as_str());
            next += usize::from(listed_next);
            listed_next
        } else {
            sorted.binary_search(&name.as_str()).is_ok()
        };
        if required || accepts_null(schema) {
            continue;
        }
        make_nullable(schema);
        cx.count("optionalToNullable");
    }
    drop(sorted); // it borrows `listed`, which the list written may be
    node.insert(kw::REQUIRED.into(), Value::Array(if every { listed } else { all }));
    if closing {
        super::merge::mark_closed(node, cx);
    }
    Ok(())
}

fn accepts_null(v: &Value) -> bool {
    let Value::Object(m) = v else { return false };
    types_of(m).has("null")
        || m.field(kw::ENUM).and_then(Value::as_array).is_some_and(|e| e.contains(&Value::Null))
        || m.field(kw::ANY_OF).and_then(Value::as_array).is_some_and(|b| b.iter().any(|x| is_null_schema(x) || accepts_null(x)))
}

fn make_nullable(schema: &mut Value) {
    let Value::Object(m) = schema else { return };
    let pure = m.has(kw::ANY_OF) && m.keys().all(|k| k == "anyOf" || is_annotation(k));
    if pure {
        if let Some(Value::Array(branches)) = m.field_mut(kw::ANY_OF) {
            branches.push(null_type());
        }
        return;
    }
    let mut inner = std::mem::take(m);
    let mut wrapper = Map::new();
    for key in [kw::TITLE, kw::DESCRIPTION] {
        if let Some(v) = inner.remove_field(key) {
            wrapper.insert(key.into(), v);
        }
    }
    let inner = Value::Object(inner);
    // A typeless `inner` is wrapped too; the checker then rejects it and the call fails open.
    wrapper.insert(kw::ANY_OF.into(), Value::Array(vec![inner, null_type()]));
    *m = wrapper;
}

/// `{"type": "null"}`, its key made without a lookup.
fn null_type() -> Value {
    let mut m = Map::with_capacity(1);
    m.insert(kw::TYPE.into(), Value::String("null".to_owned()));
    Value::Object(m)
}

/// A free-form object cannot be strict: closing it (every strict object is
/// closed, contract §1.3) leaves a tool that can never receive the members it
/// takes (`{"args": {"type": "object"}}` sent as `{properties: {},
/// additionalProperties: false}`). The call fails open with the reason,
/// where the object stays open.
pub fn open_objects(node: &mut Map, cx: &mut Cx) -> Result<()> {
    if cx.target.caps.closed_objects && super::facts::is_free_form(node, cx) {
        return Err(Error::StrictUnrepresentable {
            pointer: cx.path.to_pointer(),
            message: format!(
                "a free-form object (no properties, no additionalProperties) is an open map; {} would close it, and the tool could never receive its members",
                cx.target.id
            ),
        });
    }
    Ok(())
}

/// The names in `required` that `properties` does not declare, each once, in
/// order (a set says which were seen: a list compared each with all before it).
fn undeclared_required(node: &Map) -> Vec<String> {
    let props = node.field(kw::PROPERTIES).and_then(Value::as_object);
    let required = node.field(kw::REQUIRED).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    if props.is_some_and(|p| super::shapes::names_in_order(required, p)) {
        return Vec::new();
    }
    let mut names: Vec<String> = Vec::new();
    let mut seen: crate::hash::HashSet<&str> = Default::default();
    for name in required.iter().filter_map(Value::as_str) {
        if !props.is_some_and(|p| p.has(name)) && seen.insert(name) {
            names.push(name.to_string());
        }
    }
    names
}

/// A required name without a property is a member of any type the object
/// admits (`{"type": "object", "required": ["data"]}` takes `data` of any
/// type), not one to delete: where the target needs required names declared,
/// or closes the object, it is declared with the widest schema the object
/// allows (its `additionalProperties` schema, else `{}`, which the target's
/// rules then write as it can), reported `required-declared`. An object
/// closed in the input (`additionalProperties: false`) admits no such member;
/// there nothing is declared, and false is returned.
pub fn declare_required(node: &mut Map, cx: &mut Cx) -> Result<bool> {
    let names = undeclared_required(node);
    if names.is_empty() {
        return Ok(true);
    }
    let widest = match node.field(kw::ADDITIONAL_PROPERTIES) {
        Some(Value::Bool(false)) => return Ok(false),
        Some(Value::Object(s)) if !node.has(kw::PATTERN_PROPERTIES) => Value::Object(s.clone()),
        _ => json!({}),
    };
    let mut declared = Map::new();
    cx.enter("properties")?;
    for name in &names {
        cx.enter(name.as_str())?;
        let mut schema = widest.clone();
        if let Value::Object(m) = &mut schema {
            super::apply(m, cx)?;
        }
        cx.leave();
        declared.insert(name.into(), schema);
    }
    cx.leave();
    match node.field_mut(kw::PROPERTIES) {
        Some(Value::Object(props)) => props.extend(declared),
        _ => drop(node.insert(kw::PROPERTIES.into(), Value::Object(declared))),
    }
    cx.count("requiredDeclared");
    cx.note("required-declared", || {
        format!("required names without a property were declared as properties of any type the object allows: {}", names.join(", "))
    });
    Ok(true)
}

#[cfg(test)]
mod tests {
    use crate::json;
    use crate::{normalize, targets, Options};

    /// Required names in the properties' order (some, all) or not, each read
    /// as required where listed: only the others become nullable, and the
    /// written `required` lists every property in order.
    #[test]
    fn required_names_in_any_order_keep_their_properties_required() {
        let strict = targets::get("openai-strict").unwrap();
        let props = json!({"a": {"type": "string"}, "b": {"type": "string"}, "c": {"type": "string"}});
        for listed in [json!([]), json!(["a"]), json!(["a", "c"]), json!(["c", "a"]), json!(["b"]), json!(["a", "b", "c"]), json!(["c", "b", "a"])] {
            let schema = json!({"type": "object", "properties": props.clone(), "required": listed.clone()});
            let out = normalize(&schema, strict, &Options::default()).unwrap().schema;
            assert_eq!(out["required"], json!(["a", "b", "c"]), "{listed}");
            for name in ["a", "b", "c"] {
                let want = if listed.as_array().unwrap().contains(&json!(name)) {
                    json!({"type": "string"})
                } else {
                    json!({"anyOf": [{"type": "string"}, {"type": "null"}]})
                };
                assert_eq!(out["properties"][name], want, "{name} of {listed}");
            }
        }
    }
}
