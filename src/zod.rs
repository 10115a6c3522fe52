//! Serialized Zod 4 schema instances, read as the JSON Schema they stand for.
//!
//! An SDK or server that passes a Zod instance where JSON Schema belongs sends
//! what `JSON.stringify` makes of it: the instance's definition (`def`) and the
//! fields it exposes (`type`, `enum`, `options`, `element`, ...), e.g.
//! `{"def":{"type":"enum","entries":{"a":"a","b":"b"}},"type":"enum",
//! "enum":{"a":"a","b":"b"},"options":["a","b"]}`. Read as JSON Schema that
//! is an unknown type name beside unknown keywords: Gemini was sent the object
//! as an enum value, OpenAI strict an empty object. The seed's reference
//! normalizer "first detoxifies serialized Zod-instance-shaped inputs"; so does
//! the upgrade here, before any other rule reads the node.
//!
//! Detection is by the whole instance shape, so no JSON Schema is mistaken for
//! one: `def` is an object whose `type` is a Zod kind, the node's own `type`
//! repeats it, and every other key is a field a Zod 4 instance exposes.
//! What `def` says is recovered (`zod-instance-recovered`); what JSON cannot
//! carry (checks serialize as `{}`, functions vanish) is reported lossy.
use crate::error::Result;
use crate::lookup::Fields;
use crate::values::common_type;
use crate::context::Cx;
use crate::json;
use crate::doc::{Map, Value};
use crate::keywords::kw;

/// The own enumerable fields of a Zod 4 classic or mini instance, which
/// `JSON.stringify` writes (zod/v4/classic/schemas.js; `format`, `minLength`,
/// `minValue`, ... once read, as they are cached on first access), and the
/// internals the upgrade strips anyway.
const FIELDS: &[&str] = &[
    "def", "type", "element", "enum", "options", "in", "out", "values", "keyType", "valueType", "shape", "isFinite", "isInt",
    "format", "minLength", "maxLength", "minValue", "maxValue", "minDate", "maxDate", "_zod", "~standard",
];

/// Every `def.type` of Zod 4 (zod/v4/core/schemas.d.ts).
const KINDS: &[&str] = &[
    "any", "array", "bigint", "boolean", "catch", "custom", "date", "default", "enum", "file", "function", "intersection",
    "lazy", "literal", "map", "nan", "never", "nonoptional", "null", "nullable", "number", "object", "optional", "pipe",
    "prefault", "promise", "readonly", "record", "set", "string", "success", "symbol", "template_literal", "transform",
    "tuple", "undefined", "union", "unknown", "void",
];

/// Zod string formats with a JSON Schema `format` of the same meaning
/// (what `z.toJSONSchema` writes for them).
const FORMATS: &[(&str, &str)] = &[
    ("email", "email"),
    ("url", "uri"),
    ("uuid", "uuid"),
    ("guid", "uuid"),
    ("datetime", "date-time"),
    ("date", "date"),
    ("time", "time"),
    ("duration", "duration"),
    ("ipv4", "ipv4"),
    ("ipv6", "ipv6"),
    ("hostname", "hostname"),
];

/// Zod number formats that admit integers only.
const INTEGER_FORMATS: &[&str] = &["safeint", "int32", "uint32"];

/// Is `node` what `JSON.stringify` makes of a Zod 4 schema instance?
pub fn is_instance(node: &Map) -> bool {
    // An instance has a `def`, which is no keyword: a node of keywords alone
    // (most nodes, told by their bits) is none.
    if node.keys_are_bits() {
        return false;
    }
    let Some(kind) = node.field("def").and_then(|d| d.field(kw::TYPE)).and_then(Value::as_str) else { return false };
    KINDS.contains(&kind)
        && node.field(kw::TYPE).and_then(Value::as_str) == Some(kind)
        && node.keys().all(|k| FIELDS.contains(&k.as_str()))
}

/// Replaces a serialized Zod instance with the JSON Schema it stands for.
pub fn detox(node: &mut Map, cx: &mut Cx) -> Result<()> {
    let instance = Value::Object(std::mem::take(node));
    let kind = kind_of(&instance).unwrap_or_default().to_string();
    *node = recover(&instance, cx)?.schema;
    cx.count("zodInstancesRecovered");
    cx.note("zod-instance-recovered", || {
        format!("a serialized Zod {kind} schema instance (not JSON Schema) was read as the JSON Schema it stands for")
    });
    Ok(())
}

struct Recovered {
    schema: Map,
    /// An object member that may be left out (`optional`, `default`).
    optional: bool,
}

impl Recovered {
    fn of(schema: Value) -> Self {
        Recovered { schema: schema.as_object().cloned().unwrap_or_default(), optional: false }
    }
}

fn kind_of(v: &Value) -> Option<&str> {
    v.field("def").and_then(|d| d.field(kw::TYPE)).and_then(Value::as_str)
}

fn recover(v: &Value, cx: &mut Cx) -> Result<Recovered> {
    let (Some(kind), Some(def)) = (v.as_object().filter(|m| is_instance(m)).and(kind_of(v)), v.field("def")) else {
        cx.lossy("zod-instance-unrecoverable", "a member of a serialized Zod schema is not a Zod schema instance; it was read as {} (any value)");
        return Ok(Recovered::of(json!({})));
    };
    let inner = |cx: &mut Cx, key: &str| -> Result<Recovered> {
        match def.field(key) {
            Some(x) => recover(x, cx),
            None => Ok(lost(cx, kind, "its inner schema")),
        }
    };
    Ok(match kind {
        "string" => Recovered::of(Value::Object(string(v, def, cx))),
        "number" => Recovered::of(Value::Object(number(v, def, cx))),
        "boolean" | "null" => Recovered::of(json!({ "type": kind })),
        "bigint" => Recovered::of(json!({"type": "integer"})),
        "date" => Recovered::of(json!({"type": "string", "format": "date-time"})),
        "success" => Recovered::of(json!({"type": "boolean"})),
        "any" | "unknown" => Recovered::of(json!({})),
        // Nothing JSON can carry matches these; an optional member of such a
        // type is then dropped by the never-prune.
        "never" | "undefined" | "void" | "nan" | "symbol" => Recovered::of(json!({"not": {}})),
        "enum" => Recovered::of(Value::Object(enum_schema(enum_values(v, def)))),
        "literal" => Recovered::of(Value::Object(enum_schema(def.field("values").and_then(Value::as_array).cloned().unwrap_or_default()))),
        "union" => union(def, cx)?,
        "intersection" => {
            let mut all = Vec::new();
            cx.enter("allOf")?;
            for (i, side) in ["left", "right"].into_iter().enumerate() {
                cx.enter_index(i)?;
                all.push(Value::Object(inner(cx, side)?.schema));
                cx.leave();
            }
            cx.leave();
            Recovered::of(json!({ "allOf": all }))
        }
        "object" => object(def, cx)?,
        "record" => {
            cx.enter("additionalProperties")?;
            let values = inner(cx, "valueType")?.schema;
            cx.leave();
            Recovered::of(json!({"type": "object", "additionalProperties": values}))
        }
        "array" | "set" => {
            cx.enter("items")?;
            let items = inner(cx, if kind == "array" { "element" } else { "valueType" })?.schema;
            cx.leave();
            checks_lost(def, 0, cx);
            let mut s = json!({"type": "array", "items": items});
            if kind == "set" {
                s["uniqueItems"] = json!(true);
            }
            Recovered::of(s)
        }
        "tuple" => {
            let mut members = Vec::new();
            cx.enter("prefixItems")?;
            for (i, m) in def.field(kw::ITEMS).and_then(Value::as_array).into_iter().flatten().enumerate() {
                cx.enter_index(i)?;
                members.push(Value::Object(recover(m, cx)?.schema));
                cx.leave();
            }
            cx.leave();
            // No rest: Zod rejects extra elements.
            let rest = match def.field("rest") {
                Some(r) if !r.is_null() => {
                    cx.enter("items")?;
                    let r = Value::Object(recover(r, cx)?.schema);
                    cx.leave();
                    r
                }
                _ => Value::Bool(false),
            };
            if members.is_empty() {
                Recovered::of(json!({"type": "array", "items": rest}))
            } else {
                Recovered::of(json!({"type": "array", "prefixItems": members, "items": rest}))
            }
        }
        "optional" => Recovered { optional: true, ..inner(cx, "innerType")? },
        "nonoptional" => Recovered { optional: false, ..inner(cx, "innerType")? },
        "default" | "prefault" => {
            let mut r = inner(cx, "innerType")?;
            if let Some(d) = def.field("defaultValue") {
                r.schema.insert("default".into(), d.clone());
            }
            Recovered { optional: true, ..r }
        }
        "nullable" => {
            cx.enter("anyOf")?;
            cx.enter_index(0)?;
            let r = inner(cx, "innerType")?;
            cx.leave();
            cx.leave();
            Recovered { schema: json!({"anyOf": [r.schema, {"type": "null"}]}).as_object().cloned().unwrap_or_default(), ..r }
        }
        "readonly" | "catch" => inner(cx, "innerType")?,
        // The input side of a pipe is what a caller sends.
        "pipe" => inner(cx, "in")?,
        _ => lost(cx, kind, "its definition"),
    })
}

/// A kind whose meaning JSON did not keep (functions, getters, refinements).
fn lost(cx: &mut Cx, kind: &str, what: &str) -> Recovered {
    cx.lossy(
        "zod-instance-unrecoverable",
        format!("a serialized Zod {kind} schema lost {what} in JSON; it was read as {{}} (any value)"),
    );
    Recovered::of(json!({}))
}

/// Checks serialize as `{}` unless they are formats (whose `def` survives);
/// the ones no leaked field makes up for are reported.
fn checks_lost(def: &Value, recovered: usize, cx: &mut Cx) {
    let unread = def
        .field("checks")
        .and_then(Value::as_array)
        .map_or(0, |c| c.iter().filter(|c| c.field("def").and_then(|d| d.field("check")).is_none()).count());
    let unread = unread.saturating_sub(recovered);
    if unread > 0 {
        cx.lossy(
            "zod-check-lost",
            format!("{unread} check(s) of a serialized Zod schema did not survive JSON (a refinement, length or bound); they were dropped"),
        );
    }
}

fn check_defs(def: &Value) -> impl Iterator<Item = &Value> {
    def.field("checks").and_then(Value::as_array).into_iter().flatten().filter_map(|c| c.field("def"))
}

fn string(v: &Value, def: &Value, cx: &mut Cx) -> Map {
    let mut s = Map::new();
    s.insert("type".into(), json!("string"));
    let mut format = v.field(kw::FORMAT).and_then(Value::as_str).map(String::from);
    let mut unread_formats = 0;
    for c in check_defs(def) {
        if c.field("check").and_then(Value::as_str) == Some("string_format") {
            match c.field(kw::FORMAT).and_then(Value::as_str) {
                Some(f) if FORMATS.iter().any(|(z, _)| *z == f) => format = Some(f.to_string()),
                _ => unread_formats += 1,
            }
        }
    }
    let mut recovered = 0;
    if let Some(f) = format.and_then(|f| FORMATS.iter().find(|(z, _)| *z == f)) {
        s.insert("format".into(), json!(f.1));
    }
    for (field, keyword) in [("minLength", "minLength"), ("maxLength", "maxLength")] {
        if let Some(n) = v.field(field).filter(|n| n.is_u64()) {
            s.insert(keyword.into(), n.clone());
            recovered += 1;
        }
    }
    if unread_formats > 0 {
        cx.lossy("zod-check-lost", "a string format of a serialized Zod schema has no JSON Schema format; it was dropped");
    }
    checks_lost(def, recovered, cx);
    s
}

fn number(v: &Value, def: &Value, cx: &mut Cx) -> Map {
    let int_format = |f: Option<&str>| f.is_some_and(|f| INTEGER_FORMATS.contains(&f));
    let integer = v.field("isInt") == Some(&Value::Bool(true))
        || int_format(v.field(kw::FORMAT).and_then(Value::as_str))
        || check_defs(def).any(|c| int_format(c.field(kw::FORMAT).and_then(Value::as_str)));
    let mut s = Map::new();
    s.insert("type".into(), json!(if integer { "integer" } else { "number" }));
    let mut recovered = 0;
    for (field, keyword) in [("minValue", "minimum"), ("maxValue", "maximum")] {
        // Zod's own bounds for safe integers are not the schema's.
        if let Some(n) = v.field(field).filter(|n| n.is_number() && !n.as_f64().is_some_and(|f| f.abs() >= 9_007_199_254_740_991.0)) {
            s.insert(keyword.into(), n.clone());
            recovered += 1;
        }
    }
    checks_lost(def, recovered, cx);
    s
}

/// An enum's values: the instance's `options` (Zod's own list, without a
/// TypeScript numeric enum's reverse mappings), else `def.entries`' values
/// less those reverse mappings.
fn enum_values(v: &Value, def: &Value) -> Vec<Value> {
    if let Some(Value::Array(options)) = v.field("options") {
        if options.iter().all(|o| !o.is_object() && !o.is_array()) {
            return options.clone();
        }
    }
    let Some(Value::Object(entries)) = def.field("entries") else { return Vec::new() };
    entries
        .iter()
        .filter(|(k, value)| {
            // `enum E { A = 1 }` compiles to {A: 1, "1": "A"}: "1" maps back to a key holding a number.
            !(k.parse::<f64>().is_ok() && value.as_str().is_some_and(|name| entries.get(name).is_some_and(Value::is_number)))
        })
        .map(|(_, value)| value.clone())
        .collect()
}

/// `{"type": T, "enum": [...]}`, typed by the values' JSON type where they share one.
fn enum_schema(values: Vec<Value>) -> Map {
    let mut distinct: Vec<Value> = Vec::with_capacity(values.len());
    for x in values {
        if !distinct.contains(&x) {
            distinct.push(x);
        }
    }
    let mut s = Map::new();
    let non_null: Vec<Value> = distinct.iter().filter(|x| !x.is_null()).cloned().collect();
    match common_type(&non_null) {
        Some(t) if non_null.len() < distinct.len() => drop(s.insert("type".into(), json!([t, "null"]))),
        Some(t) => drop(s.insert("type".into(), json!(t))),
        None => {}
    }
    s.insert("enum".into(), Value::Array(distinct));
    s
}

/// A union of literals and enums is one enum; any other union is `anyOf`.
fn union(def: &Value, cx: &mut Cx) -> Result<Recovered> {
    let mut branches = Vec::new();
    cx.enter("anyOf")?;
    for (i, o) in def.field("options").and_then(Value::as_array).into_iter().flatten().enumerate() {
        cx.enter_index(i)?;
        branches.push(recover(o, cx)?.schema);
        cx.leave();
    }
    cx.leave();
    let literal = |b: &Map| b.has(kw::ENUM) && b.keys().all(|k| k == "enum" || k == "type");
    if !branches.is_empty() && branches.iter().all(literal) {
        let values = branches.iter().filter_map(|b| b.field(kw::ENUM).and_then(Value::as_array)).flatten().cloned().collect();
        return Ok(Recovered { schema: enum_schema(values), optional: false });
    }
    Ok(Recovered::of(json!({ "anyOf": branches })))
}

fn object(def: &Value, cx: &mut Cx) -> Result<Recovered> {
    let mut properties = Map::new();
    let mut required = Vec::new();
    cx.enter("properties")?;
    if let Some(Value::Object(shape)) = def.field("shape") {
        for (name, member) in shape {
            cx.enter(name.as_str())?;
            let r = recover(member, cx)?;
            cx.leave();
            if !r.optional {
                required.push(Value::String(name.as_str().to_owned()));
            }
            properties.insert(name.clone(), Value::Object(r.schema));
        }
    }
    cx.leave();
    let mut s = Map::new();
    s.insert("type".into(), json!("object"));
    s.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        s.insert("required".into(), Value::Array(required));
    }
    // `z.strictObject` has a `never` catchall, `z.looseObject` an `unknown` one.
    if let Some(catchall) = def.field("catchall") {
        cx.enter("additionalProperties")?;
        let extra = recover(catchall, cx)?.schema;
        cx.leave();
        let closed = extra.field(kw::NOT).is_some_and(|n| n.as_object().is_some_and(Map::is_empty));
        s.insert("additionalProperties".into(), if closed { Value::Bool(false) } else { Value::Object(extra) });
    }
    Ok(Recovered::of(Value::Object(s)))
}
