//! The per-target acceptance checker. It reads the same `Caps` the passes
//! rewrite toward, so "what we produce" and "what we verify" cannot drift.
//! Cloud Code Assist's residual-incompatibility gate and every test use it.
use crate::lookup::Fields;
use crate::values::{bad_shape, SCAN_UP_TO};
use crate::passes::types::is_typed;
use crate::passes::types_of;
use crate::pointer::Pointer;
use crate::profile::{OnViolation, TypeArrays};
use crate::targets::Target;
use crate::walk;
use serde::Serialize;
use crate::doc::{Map, Value};
use crate::keywords::kw;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Violation {
    pub code: &'static str,
    pub pointer: String,
    pub message: String,
}

crate::doc::write_json_struct!(Violation { always code: "code", always pointer: "pointer", always message: "message" });

/// OpenAI Structured Outputs limits (providers.md §2, [O1]).
pub struct Limits {
    pub properties: usize,
    pub depth: usize,
    pub enum_values: usize,
    pub total_chars: usize,
    pub large_enum: usize,
    pub large_enum_chars: usize,
}

pub const OPENAI_LIMITS: Limits =
    Limits { properties: 5000, depth: 10, enum_values: 1000, total_chars: 120_000, large_enum: 250, large_enum_chars: 15_000 };

/// Every way `schema` would be rejected by `target`.
pub fn check(schema: &Value, target: &Target) -> Vec<Violation> {
    let mut out = Vec::new();
    let caps = &target.caps;
    let root_defs = schema.field(kw::DEFS).and_then(Value::as_object);
    let strict = target.on_violation == OnViolation::FailOpen;
    let unrefused = caps.unrefused_rows();
    let mut within = WithinLimits::default();
    walk::visit_trail(schema, &mut walk::Trail::default(), &mut |node, trail| {
        // The pointer is written out only for a violation: `below` names the
        // segments under this node that it points at.
        let mut v = |code: &'static str, below: &[&str], message: String| {
            let mut at = trail.pointer();
            for segment in below {
                at.push(segment);
            }
            out.push(Violation { code, pointer: at.to_string(), message });
        };
        let m = match node {
            Value::Object(m) => m,
            // `true`/`false` are schemas in 2020-12 (`additionalProperties: false`).
            Value::Bool(_) => return,
            _ => {
                v("invalid-schema", &[], "a subschema must be an object or a boolean".into());
                return;
            }
        };
        if caps.all_required {
            within.add(m, trail.len());
        }
        let types = types_of(m);
        // The three checks of each member below, asked once first: nearly
        // every node passes them all, and then one pass over its members is
        // the whole cost. A node that fails one is checked again in the order
        // the violations are listed in. Where every key is a keyword the target
        // takes with any value (most nodes), only the shapes are asked.
        let members_pass = if m.keys_are_bits() && m.keyword_bits() & !unrefused == 0 {
            m.iter().all(|(key, value)| bad_shape(key, value).is_none())
        } else {
            m.iter().all(|(key, value)| bad_shape(key, value).is_none() && !caps.refuses(key) && caps.refuses_value(key, value, &types).is_none())
        };
        if !members_pass {
            meta(m, &mut v);
            for key in m.keys() {
                if caps.refuses(key) {
                    v("forbidden-keyword", &[key.as_str()], format!("{key} is not accepted by {}", target.id));
                }
            }
            // Gemini's `Schema`: formats by type, bounds on their own type, int64 counts.
            for (key, value) in m {
                if caps.refuses(key) {
                    continue;
                }
                let Some(code) = caps.refuses_value(key, value, &types) else { continue };
                let why = match code {
                    "unsupported-format" => format!("format {value} is not accepted by {} on a {} node", target.id, types.join("/")),
                    "count-not-int64" => format!("{key} must be an integer a 64-bit field holds; got {value}"),
                    "enum-not-scalar" => format!("{} accepts enum values that are strings or numbers only", target.id),
                    _ => format!("{key} constrains no {} node; {} accepts it only on the type it constrains", types.join("/"), target.id),
                };
                v(code, &[key.as_str()], why);
            }
        }
        if matches!(m.field(kw::TYPE), Some(Value::Array(_)))
            && matches!(caps.type_arrays, TypeArrays::NullableMarker | TypeArrays::FirstType)
        {
            v("type-array", &[], format!("{} accepts one type per node", target.id));
        }
        if !caps.null_type && types.has("null") && !matches!(m.field(kw::TYPE), Some(Value::Array(_))) {
            v("null-type", &[], format!("{} has no null type", target.id));
        }
        if caps.typed_nodes && !is_typed(node) && !m.has(kw::REF) {
            v("missing-type", &[], format!("{} needs a type on every node", target.id));
        }
        if caps.typed_nodes || caps.typed_branches {
            if let Some(Value::Array(branches)) = m.field(kw::ANY_OF) {
                for (i, b) in branches.iter().enumerate() {
                    let direct = b.field(kw::TYPE).is_some() || b.field(kw::REF).is_some();
                    if (caps.typed_branches && !direct) || !is_typed(b) {
                        v("missing-type", &["anyOf", &i.to_string()], "an anyOf branch needs a type".into());
                    }
                }
            }
        }
        if caps.lone_any_of && m.has(kw::ANY_OF) && m.len() > 1 && !trail.is_empty() {
            // Gemini 3: "When using any_of, it must be the only field set"
            // (anomalyco/opencode#14700). A root union is `root-combinator`'s.
            let others: Vec<&str> = m.keys().filter(|k| *k != "anyOf").map(|k| k.as_str()).collect();
            v("any-of-with-siblings", &[], format!("anyOf must be the only field of its node; found {}", others.join(", ")));
        }
        if caps.object_only_fields && !types.has("object") && crate::passes::shapes::may_hold_object_only_fields(m) {
            // "any_of[0].required: only allowed for OBJECT type"
            // (goruck/home-generative-agent#525), the same for `properties`
            // (anomalyco/opencode#11889).
            for key in crate::keywords::OBJECT_ONLY_FIELDS {
                if m.has(*key) {
                    v("object-field-on-non-object", &[key.name], format!("{} is only allowed on an object node", key.name));
                }
            }
        }
        if types.has("object") && caps.object_properties && !m.has(kw::PROPERTIES) {
            v("object-missing-properties", &[], "an object schema needs properties".into());
        }
        if types.has("array") && caps.array_items && !m.has(kw::ITEMS) {
            v("array-missing-items", &[], "an array schema needs items".into());
        }
        if caps.required_declared {
            if let Some(Value::Array(req)) = m.field(kw::REQUIRED) {
                let props = m.field(kw::PROPERTIES).and_then(Value::as_object);
                for r in req.iter().filter_map(Value::as_str) {
                    if !props.is_some_and(|p| p.has(r)) {
                        v("required-undeclared", &[], format!("required {r:?} is not a declared property"));
                    }
                }
            }
        }
        if caps.string_enums {
            if let Some(Value::Array(values)) = m.field(kw::ENUM) {
                if values.iter().any(|x| !x.is_string()) || types != ["string"] {
                    v("enum-not-string", &[], format!("{} only accepts string enums on string schemas", target.id));
                }
            }
        }
        // No value satisfies `enum: []`, so a strict target has nothing to
        // constrain a call to: OpenAI strict refuses it ("enum must be a
        // non-empty array", issue 21); DeepSeek strict takes OpenAI's strict
        // rules; Anthropic strict compiles the schema into a grammar that
        // would accept no arguments. Non-strict targets take it: 2020-12 only
        // says an enum SHOULD have an element (validation §6.1.2).
        if strict && crate::passes::is_empty_enum(m) {
            v("empty-enum", &["enum"], format!("an empty enum accepts no value, so {} cannot constrain a call to it (enum must be a non-empty array)", target.id));
        }
        if let Some(Value::String(f)) = m.field(kw::FORMAT) {
            if !caps.takes_format(f) {
                v("unsupported-format", &[], format!("format {f:?} is not accepted by {}", target.id));
            }
        }
        if let Some(Value::String(r)) = m.field(kw::REF) {
            let ok = r == "#"
                || r.strip_prefix("#/$defs/").is_some_and(|name| {
                    root_defs.is_some_and(|d| d.contains_key(&*crate::pointer::unescape(name)))
                });
            if !ok {
                v("dangling-ref", &[], format!("$ref {r:?} does not resolve to the root or a root $defs entry"));
            }
            if (caps.all_required || caps.lone_refs) && m.len() > 1 {
                v("ref-with-siblings", &[], "a $ref may not have sibling keywords".into());
            }
        }
        // WebMCP: "additionalProperties:false" is the only form in the subset
        // (webmachinelearning/webmcp#289); any other value throws at registration.
        if caps.additional_false_only && m.field(kw::ADDITIONAL_PROPERTIES).is_some_and(|a| a != &Value::Bool(false)) {
            v("additional-properties-not-false", &["additionalProperties"], format!("{} accepts additionalProperties only as false", target.id));
        }
        if caps.closed_objects && types.has("object") && m.field(kw::ADDITIONAL_PROPERTIES) != Some(&Value::Bool(false)) {
            v("additional-properties-required", &[], "'additionalProperties' is required to be supplied and to be false".into());
        }
        if caps.all_required && types.has("object") {
            if let Some(Value::Object(props)) = m.field(kw::PROPERTIES) {
                let listed = m.field(kw::REQUIRED).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                // The strict rules write `required` as the properties in their
                // order: then every one is listed, and none is looked up.
                let in_order = listed.len() == props.len() && crate::passes::shapes::names_in_order(listed, props);
                if !in_order {
                    // Sorted past a few names, so that the lookups stay cheap when `required`
                    // names thousands of properties (a scan per property made large strict
                    // schemas quadratic); a short list is scanned where it is.
                    let sorted = (listed.len() > SCAN_UP_TO).then(|| {
                        let mut names: Vec<&str> = listed.iter().filter_map(Value::as_str).collect();
                        crate::sort::sort(&mut names);
                        names
                    });
                    for name in props.keys() {
                        let found = match &sorted {
                            Some(names) => names.binary_search(&name.as_str()).is_ok(),
                            None => listed.iter().any(|r| r.as_str() == Some(name.as_str())),
                        };
                        if !found {
                            v("required-incomplete", &[], format!("'required' must include every property; missing {name:?}"));
                        }
                    }
                }
            }
        }
    });
    if caps.root_object {
        root(schema, target, &mut out);
    }
    if caps.all_required && !within.holds(&OPENAI_LIMITS) {
        limits(schema, &OPENAI_LIMITS, &within, &mut out);
    }
    out
}

/// What `check`'s walk adds up toward `limits` on the way: when the sums
/// and the path lengths are all within the limits, so is everything `limits`
/// measures, and its walk is not needed; else it takes these sums. The
/// nesting is bounded by the longest path, since every schema on a path
/// below the root adds at least one step to it.
#[derive(Default, Clone, Copy)]
struct WithinLimits {
    props: usize,
    enums: usize,
    chars: usize,
    steps: usize,
    large_enum: bool,
}

impl WithinLimits {
    fn add(&mut self, m: &Map, steps: usize) {
        self.steps = self.steps.max(steps);
        if let Some(Value::Array(e)) = m.field(kw::ENUM) {
            self.enums += e.len();
            self.chars += enum_chars(e);
            self.large_enum |= e.len() > OPENAI_LIMITS.large_enum;
        }
        if m.keys_are_bits() {
            // The schema maps are among the keys' bits: looked up by row.
            let mut rows = m.keyword_bits() & crate::keywords::SCHEMA_MAP_ROWS;
            while rows != 0 {
                let word = &crate::keywords::KEYWORDS[rows.trailing_zeros() as usize];
                rows &= rows - 1;
                if let Some(Value::Object(entries)) = m.field(word) {
                    self.entries(word.row == kw::PROPERTIES.row, entries);
                }
            }
            return;
        }
        for (key, child) in m {
            if let (crate::keywords::Slot::SchemaMap, Value::Object(entries)) = (crate::keywords::slot(key), child) {
                self.entries(key == "properties", entries);
            }
        }
    }

    fn entries(&mut self, properties: bool, entries: &Map) {
        if properties {
            self.props += entries.len();
        }
        self.chars += entries.keys().map(|name| name.len()).sum::<usize>();
    }

    fn holds(&self, l: &Limits) -> bool {
        // A root and `steps` steps below it: at most `steps + 1` schemas on a path.
        self.props <= l.properties && self.enums <= l.enum_values && self.chars <= l.total_chars && self.steps < l.depth && !self.large_enum
    }
}

/// The characters of an enum's string values, as OpenAI counts them.
fn enum_chars(values: &[Value]) -> usize {
    values.iter().map(|x| x.as_str().map_or(0, str::len)).sum()
}

fn root(schema: &Value, target: &Target, out: &mut Vec<Violation>) {
    let Value::Object(m) = schema else { return };
    if m.field(kw::TYPE).and_then(Value::as_str) != Some("object") {
        out.push(Violation {
            code: "root-not-object",
            pointer: String::new(),
            message: format!("{} needs the root to be type \"object\"", target.id),
        });
    }
    for key in ["anyOf", "oneOf", "allOf", "enum", "not"] {
        let assertion = matches!(key, "enum" | "not");
        if m.has(key) && !(assertion && target.caps.root_assertions) {
            out.push(Violation {
                code: "root-combinator",
                pointer: format!("/{key}"),
                message: format!("{} does not accept {key} at the root", target.id),
            });
        }
    }
}

/// Keyword values of the right JSON shape (the 2020-12 meta-schema's structural
/// rules that matter for tool schemas).
fn meta(m: &Map, v: &mut dyn FnMut(&'static str, &[&str], String)) {
    for (key, value) in m {
        if let Some(what) = bad_shape(key, value) {
            v("invalid-schema", &[key.as_str()], format!("{key} must be {what}"));
        }
    }
}

/// Every OpenAI limit `schema` is past, given the sums `check`'s walk made
/// over it (`WithinLimits`): this walk adds the nesting and where the first
/// oversized string enum is.
fn limits(schema: &Value, l: &Limits, sums: &WithinLimits, out: &mut Vec<Violation>) {
    #[derive(Default)]
    struct Tally {
        depth: usize,
        big_enum: Option<String>,
    }
    /// A step of the walk's path, kept as a borrow: the pointer is written
    /// out only for the one node a message names.
    #[derive(Clone, Copy)]
    enum Step<'a> {
        Key(&'a str),
        Index(usize),
    }
    fn pointer(steps: &[Step<'_>]) -> String {
        let mut p = Pointer::root();
        for step in steps {
            match *step {
                Step::Key(k) => p.push(k),
                Step::Index(i) => p.push_index(i),
            }
        }
        p.to_string()
    }
    // Nesting counts object and array schemas on a path; definitions start at
    // zero. One path pushed and popped: a copy per node is quadratic in depth.
    fn walk<'a>(node: &'a Value, above: usize, path: &mut Vec<Step<'a>>, l: &Limits, t: &mut Tally) {
        let Value::Object(m) = node else { return };
        let types = types_of(m);
        let level = above + usize::from(types.has("object") || types.has("array"));
        t.depth = t.depth.max(level);
        if let Some(Value::Array(e)) = m.field(kw::ENUM) {
            if t.big_enum.is_none() && e.len() > l.large_enum && e.iter().all(Value::is_string) && enum_chars(e) > l.large_enum_chars {
                t.big_enum = Some(pointer(path));
            }
        }
        for (key, child) in m {
            match (crate::keywords::slot(key), child) {
                (crate::keywords::Slot::Schema, _) => {
                    path.push(Step::Key(key));
                    walk(child, level, path, l, t);
                    path.pop();
                }
                (crate::keywords::Slot::SchemaArray, Value::Array(items)) => {
                    path.push(Step::Key(key));
                    for (i, c) in items.iter().enumerate() {
                        path.push(Step::Index(i));
                        walk(c, level, path, l, t);
                        path.pop();
                    }
                    path.pop();
                }
                (crate::keywords::Slot::SchemaMap, Value::Object(entries)) => {
                    let defs = key == "$defs";
                    path.push(Step::Key(key));
                    for (name, c) in entries {
                        path.push(Step::Key(name));
                        walk(c, if defs { 0 } else { level }, path, l, t);
                        path.pop();
                    }
                    path.pop();
                }
                _ => {}
            }
        }
    }
    let mut t = Tally::default();
    walk(schema, 0, &mut Vec::new(), l, &mut t);
    let Tally { depth, big_enum } = t;
    let WithinLimits { props, enums, chars, .. } = *sums;
    let mut push = |message: String| out.push(Violation { code: "limit-exceeded", pointer: String::new(), message });
    if props > l.properties {
        push(format!("{props} object properties in total; the limit is {}", l.properties));
    }
    if depth > l.depth {
        push(format!("schemas nest {depth} levels deep; the limit is {}", l.depth));
    }
    if enums > l.enum_values {
        push(format!("{enums} enum values in total; the limit is {}", l.enum_values));
    }
    if chars > l.total_chars {
        push(format!("{chars} characters of names and enum values; the limit is {}", l.total_chars));
    }
    if let Some(at) = big_enum {
        push(format!("the string enum at {at:?} has more than {} values totalling over {} characters", l.large_enum, l.large_enum_chars));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    /// `Caps::unrefused_rows`, which lets a node skip the per-member
    /// questions, says of no keyword that it is unrefused where `refuses` or
    /// `refuses_value` would refuse it, for any target, value or type.
    #[test]
    fn unrefused_rows_are_never_refused() {
        let values = [json!("date-time"), json!("x"), json!(1), json!(-1.5), json!(1e300), json!(true), json!(null), json!([1, {"a": 1}]), json!(["a", "b"]), json!({"a": 1})];
        let types: [&[&str]; 7] = [&[], &["string"], &["object"], &["null"], &["integer", "null"], &["array"], &["boolean"]];
        let mut seen = 0;
        for target in crate::targets::TARGETS {
            let caps = target.caps;
            let rows = caps.unrefused_rows();
            for k in crate::keywords::KEYWORDS.iter().take(32).filter(|k| rows & (1 << k.row) != 0) {
                seen += 1;
                assert!(!caps.refuses(k.name), "{}: {} is refused", target.id, k.name);
                for value in &values {
                    for ty in types {
                        let got = caps.refuses_value(k.name, value, ty);
                        assert_eq!(got, None, "{}: {} = {value} on {ty:?}", target.id, k.name);
                    }
                }
            }
        }
        assert!(seen > 100, "only {seen} keyword rows were unrefused over every target");
    }

    fn codes(schema: Value, target: &str) -> Vec<(&'static str, String)> {
        check(&schema, crate::targets::get(target).unwrap()).into_iter().map(|v| (v.code, v.pointer)).collect()
    }

    /// Every `(code, pointer)` of `want` is among the violations `got`.
    fn assert_found(got: &[(&'static str, String)], want: &[(&str, &str)]) {
        for (code, at) in want {
            assert!(got.iter().any(|(c, p)| c == code && p == at), "{code} at {at} missing from {got:?}");
        }
    }

    /// The limits `check` reports for OpenAI strict are `limits`' own, at and
    /// past each boundary, also where its walk is skipped.
    #[test]
    fn strict_limits_are_those_of_the_limits_walk() {
        let strict = crate::targets::get("openai-strict").unwrap();
        let reported = |schema: &Value| -> Vec<String> {
            check(schema, strict).into_iter().filter(|v| v.code == "limit-exceeded").map(|v| v.message).collect()
        };
        // The limits walk, always run, on sums made over every node.
        let exact = |schema: &Value| -> Vec<String> {
            let mut sums = WithinLimits::default();
            crate::walk::nodes(schema, &mut |node| {
                if let Value::Object(m) = node {
                    sums.add(m, 0);
                }
            });
            let mut out = Vec::new();
            limits(schema, &OPENAI_LIMITS, &sums, &mut out);
            out.into_iter().map(|v| v.message).collect()
        };
        // Arrays of arrays: every schema one step below the one above.
        let arrays = |levels: usize| (1..levels).fold(json!({"type": "array"}), |inner, _| json!({"type": "array", "items": inner}));
        let strings = |n: usize, len: usize| -> Value { Value::Array((0..n).map(|i| json!(format!("{i:0len$}"))).collect()) };
        let object = |n: usize| {
            let mut props = Map::new();
            for i in 0..n {
                props.insert(format!("p{i}").into(), json!({"type": "string"}));
            }
            json!({"type": "object", "properties": Value::Object(props)})
        };
        // Enums of `sizes` values, none large on its own.
        let enums = |sizes: &[usize]| {
            let mut props = Map::new();
            for (i, n) in sizes.iter().enumerate() {
                props.insert(format!("e{i}").into(), json!({"enum": strings(*n, 3)}));
            }
            json!({"type": "object", "properties": Value::Object(props)})
        };
        let cases = [
            (arrays(10), false),
            (arrays(11), true),
            (json!({"anyOf": [{"anyOf": [{"anyOf": [{"anyOf": [{"anyOf": [{"type": "string"}]}]}]}]}]}), false),
            (object(5000), false),
            (object(5001), true),
            (enums(&[200, 200, 200, 200, 200]), false),
            (enums(&[200, 200, 200, 200, 200, 1]), true),
            (json!({"enum": strings(240, 500)}), false),
            (json!({"type": "object", "properties": {"a": {"enum": strings(240, 500)}}}), true),
            (json!({"enum": strings(251, 59)}), false),
            (json!({"enum": strings(251, 60)}), true),
        ];
        for (i, (schema, over)) in cases.iter().enumerate() {
            let got = reported(schema);
            assert_eq!(got, exact(schema), "case {i}");
            assert_eq!(!got.is_empty(), *over, "case {i}: {got:?}");
        }
    }

    /// OpenAI strict's `required` must name every property: whatever its
    /// order, short or long (sorted past `SCAN_UP_TO` names), and a list of
    /// the right length naming another name misses one.
    #[test]
    fn strict_required_names_every_property() {
        let missing = |names: &[&str], required: &[&str]| -> Vec<String> {
            let mut props = Map::new();
            for n in names {
                props.insert((*n).into(), json!({"type": "string"}));
            }
            let schema = json!({"type": "object", "properties": Value::Object(props), "required": required, "additionalProperties": false});
            let found = check(&schema, crate::targets::get("openai-strict").unwrap());
            found.into_iter().filter(|v| v.code == "required-incomplete").map(|v| v.message).collect()
        };
        assert!(missing(&["a", "b", "c"], &["a", "b", "c"]).is_empty());
        assert!(missing(&["a", "b", "c"], &["c", "a", "b"]).is_empty());
        assert_eq!(missing(&["a", "b", "c"], &["a", "b", "x"]), ["'required' must include every property; missing \"c\""]);
        assert_eq!(missing(&["a", "b", "c"], &["a", "c"]), ["'required' must include every property; missing \"b\""]);
        let many: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
        let names: Vec<&str> = many.iter().map(String::as_str).collect();
        let reversed: Vec<&str> = names.iter().rev().copied().collect();
        assert!(missing(&names, &names).is_empty());
        assert!(missing(&names, &reversed).is_empty());
        let mut short = reversed.clone();
        short[7] = "q";
        assert_eq!(missing(&names, &short), ["'required' must include every property; missing \"p32\""]);
    }

    /// The Gemini API's rules past its proto (anomalyco/opencode#14700,
    /// goruck/home-generative-agent#525) hold google's output, not Anthropic's.
    #[test]
    fn google_refuses_any_of_siblings_and_object_fields_elsewhere() {
        let schema = json!({"type": "object", "properties": {
            "w": {"anyOf": [{"type": "number"}, {"type": "string"}], "description": "Edge weight"},
            "s": {"anyOf": [{"type": "string", "required": ["a"]}, {"type": "object", "properties": {}}]}
        }});
        assert_eq!(
            codes(schema.clone(), "google"),
            [
                ("any-of-with-siblings", "/properties/w".into()),
                ("object-field-on-non-object", "/properties/s/anyOf/0/required".into()),
                ("required-undeclared", "/properties/s/anyOf/0".into()),
            ]
        );
        assert!(codes(schema, "anthropic").is_empty());
        let lone = json!({"type": "object", "properties": {"w": {"anyOf": [{"type": "number", "description": "Edge weight"}, {"type": "string"}]}}});
        assert!(codes(lone, "google").is_empty());
    }

    /// What the `Schema` would refuse among the constraints google keeps:
    /// a format the node's type does not list (gemini-cli#3178), a bound on
    /// another type, a count its int64 field cannot hold.
    #[test]
    fn google_kept_constraints_hold_the_schema_types() {
        let s = json!({"type": "object", "properties": {
            "e": {"type": "string", "format": "email"},
            "i": {"type": "string", "format": "int32"},
            "n": {"type": "integer", "minLength": 1},
            "a": {"type": "array", "items": {"type": "string"}, "maxItems": 10_000_000_000_000_000_000u64},
            "u": {"anyOf": [{"type": "string"}, {"type": "integer"}], "pattern": "^a"}}});
        assert_found(&codes(s, "google"), &[
            ("unsupported-format", "/properties/e/format"),
            ("unsupported-format", "/properties/i/format"),
            ("constraint-on-other-type", "/properties/n/minLength"),
            ("count-not-int64", "/properties/a/maxItems"),
            ("constraint-on-other-type", "/properties/u/pattern"),
        ]);
        let kept = json!({"type": "object", "minProperties": 1, "properties": {
            "d": {"type": "string", "format": "date-time", "pattern": "^2", "minLength": 1, "maxLength": 40},
            "f": {"type": "number", "format": "float", "minimum": 0.5, "maximum": 1},
            "i": {"type": "integer", "format": "int64", "minimum": 1},
            "a": {"type": "array", "items": {"type": "string", "format": "enum", "enum": ["x"]}, "minItems": 1, "maxItems": 2.0}}});
        assert_eq!(codes(kept.clone(), "google"), []);
        // Cloud Code Assist refuses every one of them (providers.md footnote 20).
        assert!(codes(kept, "cca").iter().filter(|(c, _)| *c == "forbidden-keyword").count() >= 12);
    }

    /// What google-json would send outside Gemini's documented subset.
    #[test]
    fn google_json_holds_the_documented_subset() {
        let s = json!({"type": "object", "properties": {
            "c": {"const": "x"}, "o": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "b": {"type": "boolean", "enum": [true]}, "e": {"type": "string", "format": "email"},
            "p": {"type": "string", "pattern": "^a", "minLength": 1}, "n": {"type": "integer", "exclusiveMinimum": 0}}});
        assert_found(&codes(s, "google-json"), &[
            ("forbidden-keyword", "/properties/c/const"),
            ("forbidden-keyword", "/properties/o/oneOf"),
            ("enum-not-scalar", "/properties/b/enum"),
            ("unsupported-format", "/properties/e/format"),
            ("forbidden-keyword", "/properties/p/pattern"),
            ("forbidden-keyword", "/properties/p/minLength"),
            ("forbidden-keyword", "/properties/n/exclusiveMinimum"),
        ]);
        let subset = json!({"type": "object", "additionalProperties": {"type": ["integer", "null"], "minimum": 1},
            "properties": {"t": {"type": "array", "prefixItems": [{"type": "number", "format": "float"}], "items": {"enum": ["a", 1]},
                "minItems": 1, "maxItems": 3}, "u": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}], "title": "U"}},
            "required": ["t"], "propertyOrdering": ["t", "u"]});
        assert_eq!(codes(subset, "google-json"), []);
    }

    #[test]
    fn webmcp_registration_throws_are_violations() {
        let s = json!({"type": "object", "$defs": {"D": {"type": "string"}},
            "properties": {"r": {"$ref": "#/$defs/D"}, "f": {"type": "string", "format": "email"},
                "u": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                "m": {"type": "object", "additionalProperties": {"type": "string"}},
                "t": {"type": "object", "additionalProperties": true, "unevaluatedProperties": false}}});
        assert_found(&codes(s, "webmcp"), &[
            ("forbidden-keyword", "/$defs"),
            ("forbidden-keyword", "/properties/r/$ref"),
            ("forbidden-keyword", "/properties/f/format"),
            ("forbidden-keyword", "/properties/u/anyOf"),
            ("additional-properties-not-false", "/properties/m/additionalProperties"),
            ("additional-properties-not-false", "/properties/t/additionalProperties"),
            ("forbidden-keyword", "/properties/t/unevaluatedProperties"),
        ]);
        let subset = json!({"type": "object", "properties": {"a": {"type": ["string", "null"], "minLength": 1, "pattern": "^x",
            "default": "x", "description": "d"}, "t": {"type": "array", "prefixItems": [{"type": "integer", "minimum": 0}],
            "items": {"enum": [1, 2]}}}, "required": ["a"], "additionalProperties": false});
        assert_eq!(codes(subset, "webmcp"), []);
    }

    #[test]
    fn moonshot_refuses_a_ref_with_siblings() {
        let s = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A", "description": "x"}},
            "$defs": {"A": {"type": "string"}}});
        assert_eq!(codes(s, "moonshot"), [("ref-with-siblings", "/properties/a".to_string())]);
        let lone = json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}});
        assert!(codes(lone, "moonshot").is_empty());
    }

    #[test]
    fn fireworks_refuses_not_and_conditionals() {
        let s = json!({"type": "object", "properties": {"a": {"not": {}}, "b": {"type": "string", "if": {"minLength": 1}}},
            "required": ["a"]});
        assert_eq!(
            codes(s, "fireworks"),
            [("forbidden-keyword", "/properties/a/not".to_string()), ("forbidden-keyword", "/properties/b/if".to_string())]
        );
    }

    #[test]
    fn gemini_openai_refused_keywords_are_violations() {
        let s = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "title": "t",
            "properties": {"n": {"type": "integer", "exclusiveMinimum": 0, "default": 1}, "o": {"type": "object"}},
            "additionalProperties": false});
        let got: Vec<(&str, String)> = check(&s, crate::targets::get("gemini-openai").unwrap()).into_iter().map(|v| (v.code, v.pointer)).collect();
        assert_found(&got, &[
            ("forbidden-keyword", "/$schema"),
            ("forbidden-keyword", "/title"),
            ("forbidden-keyword", "/additionalProperties"),
            ("forbidden-keyword", "/properties/n/exclusiveMinimum"),
            ("forbidden-keyword", "/properties/n/default"),
            ("object-missing-properties", "/properties/o"),
        ]);
    }
}
