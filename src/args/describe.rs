//! Schemas in words, for messages a model can act on: "an integer ≥ 1",
//! "one of "asc", "desc"", "a string of at most 80 characters".
use crate::lookup::Fields;
use super::{preview, Original};
use crate::keywords;
use crate::pointer::Pointer;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// How deep a phrase follows items, refs and branches before it stops.
const MAX_NEST: usize = 3;

pub fn describe(doc: &Original, m: &Map, at: &Pointer) -> String {
    phrase(doc, m, at, 0)
}

/// "is" or "are", for the subject `place` names (the arguments are plural).
pub fn is_are(at: &Pointer) -> &'static str {
    if at.is_empty() {
        "are"
    } else {
        "is"
    }
}

fn phrase(doc: &Original, m: &Map, at: &Pointer, depth: usize) -> String {
    if depth > MAX_NEST {
        return "a value of the shape described".into();
    }
    if let Some(r) = m.field(kw::REF).and_then(Value::as_str) {
        if !m.has(kw::TYPE) && !m.has(kw::ENUM) && !m.has(kw::CONST) {
            if let Some((p, Value::Object(t))) = doc.deref(r, false, at) {
                return phrase(doc, t, &p, depth + 1);
            }
        }
    }
    if let Some(c) = m.field(kw::CONST) {
        return format!("exactly {}", preview(c));
    }
    if let Some(Value::Array(values)) = m.field(kw::ENUM) {
        return one_of(values);
    }
    let mut types: Vec<&str> = match m.field(kw::TYPE) {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if types.is_empty() {
        for key in m.keys() {
            if let Some(t) = keywords::implied_type(key) {
                if !types.contains(&t) {
                    types.push(t);
                }
            }
        }
    }
    if types.is_empty() {
        return branches(doc, m, at, depth);
    }
    let parts: Vec<String> = types
        .iter()
        .map(|t| type_phrase(doc, t, m, at, depth))
        .collect();
    join_or(parts)
}

fn branches(doc: &Original, m: &Map, at: &Pointer, depth: usize) -> String {
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(bs)) = m.get(key) {
            let mut parts: Vec<String> = Vec::new();
            for (i, b) in bs.iter().enumerate().take(6) {
                if let Value::Object(b) = b {
                    let p = phrase(doc, b, &at.child(key).child(i.to_string()), depth + 1);
                    if !parts.contains(&p) {
                        parts.push(p);
                    }
                }
            }
            if bs.len() > 6 {
                parts.push(format!("one of {} other shapes", bs.len() - 6));
            }
            if !parts.is_empty() {
                return if parts.len() == 1 {
                    parts.remove(0)
                } else {
                    format!("either {}", join_or(parts))
                };
            }
        }
    }
    if let Some(Value::Array(all)) = m.field(kw::ALL_OF) {
        if let Some((i, Value::Object(first))) = all
            .iter()
            .enumerate()
            .find(|(_, b)| b.as_object().is_some_and(|b| !b.is_empty()))
        {
            return phrase(
                doc,
                first,
                &at.child("allOf").child(i.to_string()),
                depth + 1,
            );
        }
    }
    "a value of the shape described".into()
}

fn type_phrase(
    doc: &Original,
    t: &str,
    m: &Map,
    at: &Pointer,
    depth: usize,
) -> String {
    match t {
        "integer" => format!("an integer{}", number_bounds(m)),
        "number" => format!("a number{}", number_bounds(m)),
        "string" => format!("a string{}", string_bounds(m)),
        "boolean" => "true or false".into(),
        "null" => "null".into(),
        "array" => {
            let mut s = format!(
                "an array{}",
                count_bounds(m, "minItems", "maxItems", "item")
            );
            if let Some(Value::Object(items)) = m.field(kw::ITEMS) {
                if !items.is_empty() {
                    s.push_str(&format!(
                        " whose items are each {}",
                        phrase(doc, items, &at.child("items"), depth + 1)
                    ));
                }
            }
            s
        }
        "object" => {
            let required: Vec<String> = m
                .field(kw::REQUIRED)
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .take(8)
                        .map(|n| format!("`{n}`"))
                        .collect()
                })
                .unwrap_or_default();
            if required.is_empty() {
                "an object".into()
            } else {
                format!("an object with {}", join_and(required))
            }
        }
        other => format!("a value of type {other}"),
    }
}

fn num(m: &Map, k: &str) -> Option<String> {
    m.get(k).filter(|v| v.is_number()).map(Value::to_string)
}

fn number_bounds(m: &Map) -> String {
    let mut parts = Vec::new();
    match (num(m, "minimum"), num(m, "maximum")) {
        (Some(lo), Some(hi)) => parts.push(format!(" between {lo} and {hi}")),
        (lo, hi) => {
            if let Some(lo) = lo {
                parts.push(format!(" ≥ {lo}"));
            }
            if let Some(hi) = hi {
                parts.push(format!(" ≤ {hi}"));
            }
        }
    }
    if let Some(lo) = num(m, "exclusiveMinimum") {
        parts.push(format!(" > {lo}"));
    }
    if let Some(hi) = num(m, "exclusiveMaximum") {
        parts.push(format!(" < {hi}"));
    }
    if let Some(d) = num(m, "multipleOf") {
        parts.push(format!(" that is a multiple of {d}"));
    }
    parts.join(" and")
}

fn count_bounds(m: &Map, min_key: &str, max_key: &str, unit: &str) -> String {
    let plural = |n: u64| {
        if n == 1 {
            unit.to_string()
        } else {
            format!("{unit}s")
        }
    };
    match (
        m.get(min_key).and_then(Value::as_u64),
        m.get(max_key).and_then(Value::as_u64),
    ) {
        (Some(lo), Some(hi)) if lo == hi => format!(" of exactly {lo} {}", plural(lo)),
        (Some(lo), Some(hi)) => format!(" of {lo} to {hi} {}", plural(hi)),
        (Some(lo), None) => format!(" of at least {lo} {}", plural(lo)),
        (None, Some(hi)) => format!(" of at most {hi} {}", plural(hi)),
        (None, None) => String::new(),
    }
}

fn string_bounds(m: &Map) -> String {
    let mut s = count_bounds(m, "minLength", "maxLength", "character");
    if let Some(Value::String(p)) = m.field(kw::PATTERN) {
        s.push_str(&format!(" matching the pattern /{p}/"));
    }
    if let Some(Value::String(f)) = m.field(kw::FORMAT) {
        s.push_str(&format!(" in {f} format"));
    }
    s
}

fn one_of(values: &[Value]) -> String {
    match values {
        [] => "nothing (the schema allows no value)".into(),
        [only] => format!("exactly {}", preview(only)),
        _ => {
            let shown: Vec<String> = values.iter().take(12).map(preview).collect();
            let more = if values.len() > 12 {
                format!(", … ({} values in all)", values.len())
            } else {
                String::new()
            };
            format!("one of {}{more}", shown.join(", "))
        }
    }
}

fn join_or(parts: Vec<String>) -> String {
    join(parts, "or")
}

fn join_and(parts: Vec<String>) -> String {
    join(parts, "and")
}

/// `a`, `a or b`, `a, b or c`.
fn join(mut parts: Vec<String>, word: &str) -> String {
    match parts.len() {
        0 => String::new(),
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} {word} {last}", parts.join(", "))
        }
    }
}
