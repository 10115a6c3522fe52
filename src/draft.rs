//! Dialect detection and upgrade to draft 2020-12.
//!
//! Inputs arrive as draft-03/04 (WordPress, OpenAPI), draft-06/07 (zod-to-json-schema,
//! Pydantic 1), 2019-09 and 2020-12 (MCP's default dialect, Zod 4, Pydantic 2),
//! with snake_case keyword spellings from Python SDKs. Every later stage sees
//! only 2020-12. Renamed locations are recorded so `$ref` pointers written against
//! the original layout still resolve.
use crate::lookup::Fields;
use crate::error::Result;
use crate::keywords::{self, Keyword, Slot};
use crate::pointer::Pointer;
use crate::context::Cx;
use crate::json;
use crate::doc::{Key, Map, Value};
use crate::keywords::kw;

pub const DRAFT_2020_12: &str = "https://json-schema.org/draft/2020-12/schema";

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Dialect {
    Draft3,
    Draft4,
    Draft6,
    Draft7,
    Draft2019,
    Draft2020,
}

/// The dialect a root declares with `$schema`; undeclared means 2020-12 (MCP's default).
/// A URI that names several drafts reads as the oldest of them. One pass over
/// its bytes: a substring search per draft set up a searcher five times per
/// schema, about 2% of a wasm call on the real MCP schemas.
pub fn detect(root: &Value) -> Dialect {
    dialect_of(root.field(kw::SCHEMA).and_then(Value::as_str).unwrap_or(""))
}

fn dialect_of(uri: &str) -> Dialect {
    let uri = uri.as_bytes();
    let mut found = Dialect::Draft2020;
    // Only where a name's first byte is, found a word at a time: most tool
    // schemas name their dialect, and a comparison at every byte (in wasm
    // each a call to `memcmp`) cost about 1,000 operators a call.
    for at in memchr::memchr2_iter(b'd', b'2', uri) {
        let rest = &uri[at..];
        let named = if rest.starts_with(b"draft-0") {
            match rest.get(7) {
                Some(b'3') => Dialect::Draft3,
                Some(b'4') => Dialect::Draft4,
                Some(b'6') => Dialect::Draft6,
                Some(b'7') => Dialect::Draft7,
                _ => continue,
            }
        } else if rest.starts_with(b"2019-09") {
            Dialect::Draft2019
        } else {
            continue;
        };
        // The variants are declared oldest first.
        found = found.min(named);
    }
    found
}

/// snake_case spellings accepted by google-genai and emitted by Python tools.
const SNAKE_CASE: &[(&str, &str)] = &[
    ("any_of", "anyOf"),
    ("one_of", "oneOf"),
    ("all_of", "allOf"),
    ("additional_properties", "additionalProperties"),
    ("prefix_items", "prefixItems"),
    ("property_ordering", "propertyOrdering"),
    ("min_items", "minItems"),
    ("max_items", "maxItems"),
    ("min_length", "minLength"),
    ("max_length", "maxLength"),
    ("min_properties", "minProperties"),
    ("max_properties", "maxProperties"),
];

/// Internals that leak into JSON when a schema-library instance is serialized
/// instead of converted (Zod `_def`, Standard Schema `~standard`, TypeBox `~optional`).
const LIBRARY_INTERNALS: &[&str] = &["_def", "_zod", "~standard", "~optional", "_cached", "~kind"];

/// The keys `Upgrader::node` rewrites, as found among a node's keys. The
/// snake_case renames create none of the keys the later steps look for.
#[derive(Default, Debug, PartialEq)]
struct Present {
    internals: bool,
    snake: bool,
    definitions: bool,
    id: bool,
    items: bool,
    exclusive: bool,
    dependencies: bool,
    required: bool,
    nullable: bool,
    ty: bool,
}

impl Present {
    /// What `node`'s keys hold. When every key is a keyword with a bit (most
    /// nodes: `Map::keys_are_bits`) the bits answer, with no key read: no
    /// other key, and so no `id`, internal or snake_case one, is there.
    fn of(node: &Map) -> Present {
        if !node.keys_are_bits() {
            let mut has = Present::default();
            for key in node.keys() {
                has.note(key);
            }
            return has;
        }
        let bits = node.keyword_bits();
        let has = |k: &Keyword| bits & Map::bit(k) != 0;
        Present {
            ty: has(kw::TYPE),
            required: has(kw::PROPERTIES) || has(kw::REQUIRED),
            items: has(kw::ITEMS) || has(kw::ADDITIONAL_ITEMS),
            nullable: has(kw::NULLABLE),
            definitions: has(kw::DEFINITIONS),
            exclusive: has(kw::EXCLUSIVE_MINIMUM) || has(kw::EXCLUSIVE_MAXIMUM),
            dependencies: has(kw::DEPENDENCIES),
            ..Present::default()
        }
    }

    /// A keyword key is told by its row, with no text compared; no keyword
    /// of the table starts with `_` or `~` or holds `_` (a unit test says so),
    /// so only other keys can be library internals or snake_case.
    fn note(&mut self, key: &Key) {
        let Some(k) = key.keyword() else {
            match key.as_str() {
                "id" => self.id = true,
                key => {
                    self.internals |= key.starts_with(['_', '~']);
                    self.snake |= key.contains('_');
                }
            }
            return;
        };
        let row = k.row;
        if row == kw::TYPE.row {
            self.ty = true;
        } else if row == kw::PROPERTIES.row || row == kw::REQUIRED.row {
            self.required = true;
        } else if row == kw::ITEMS.row || row == kw::ADDITIONAL_ITEMS.row {
            self.items = true;
        } else if row == kw::NULLABLE.row {
            self.nullable = true;
        } else if row == kw::DEFINITIONS.row {
            self.definitions = true;
        } else if row == kw::EXCLUSIVE_MINIMUM.row || row == kw::EXCLUSIVE_MAXIMUM.row {
            self.exclusive = true;
        } else if row == kw::DEPENDENCIES.row {
            self.dependencies = true;
        }
    }
}

/// Where keys moved: original-layout pointer → 2020-12 pointer.
#[derive(Default, Debug)]
pub struct Moves(Vec<(Pointer, Pointer)>);

impl Moves {
    /// Translates a pointer written against the original document.
    pub fn translate(&self, p: &Pointer) -> Pointer {
        let best = self
            .0
            .iter()
            .filter(|(old, _)| p.starts_with(old))
            .max_by_key(|(old, _)| old.len());
        match best {
            Some((old, new)) => {
                let mut out = new.clone();
                for seg in &p.segments()[old.len()..] {
                    out.push(seg);
                }
                out
            }
            None => p.clone(),
        }
    }

    /// The inverse of `translate`: where a 2020-12 pointer was in the original
    /// layout (a `$ref` fragment inside an embedded resource is written
    /// against the resource as it was).
    pub fn original(&self, p: &Pointer) -> Pointer {
        let best = self.0.iter().filter(|(_, new)| p.starts_with(new)).max_by_key(|(_, new)| new.len());
        match best {
            Some((old, new)) => {
                let mut out = old.clone();
                for seg in &p.segments()[new.len()..] {
                    out.push(seg);
                }
                out
            }
            None => p.clone(),
        }
    }
}

/// Upgrades `root` in place (it is the caller's private copy).
pub fn upgrade(root: &mut Value, cx: &mut Cx) -> Result<Moves> {
    upgrade_then(root, cx, &mut |_, _| {})
}

/// `upgrade`, calling `after` on every schema node once it and everything
/// below it are upgraded (children before parents, like `context::post_order`),
/// so that the pipeline's first post-order rule needs no walk of its own.
pub fn upgrade_then(root: &mut Value, cx: &mut Cx, after: &mut dyn FnMut(&mut Map, &mut Cx)) -> Result<Moves> {
    let dialect = detect(root);
    let mut up = Upgrader { dialect, moves: Moves::default() };
    up.schema(root, cx, after)?;
    if let Some(Value::String(uri)) = root.field_mut(kw::SCHEMA) {
        if rewrites_dialect(dialect, uri) {
            *uri = DRAFT_2020_12.to_string();
            cx.count("dialectUpgrades");
        }
    }
    Ok(up.moves)
}

/// Whether the upgrade writes the 2020-12 URI in place of the root's
/// `$schema` string `uri` (`dialect` is the root's, `detect`): one that names
/// another dialect, or none and is not 2020-12's own.
pub fn rewrites_dialect(dialect: Dialect, uri: &str) -> bool {
    dialect != Dialect::Draft2020 && uri != DRAFT_2020_12
}

/// A closed tuple (`items: false` after `prefixItems`, draft-07's
/// `additionalItems: false`) says "at most n elements", which `maxItems` says
/// too. Where the target cannot keep `{"not": {}}` as `items` (no `not`, or no
/// tuples), it is written that way during the upgrade, before the target's
/// rules would read the `false` schema as a typeless one (Gemini typed it as a
/// string, then offered strings in every position) or drop it (an open rest).
fn close_rest(node: &mut Map, cx: &mut Cx) {
    let caps = cx.target.caps;
    if caps.negation && caps.keeps(kw::NOT) && caps.keeps(kw::PREFIX_ITEMS) {
        return;
    }
    let Some(Value::Array(members)) = node.field(kw::PREFIX_ITEMS) else { return };
    let n = members.len() as u64;
    if n == 0 || !node.field(kw::ITEMS).is_some_and(|s| *s == Value::Bool(false) || crate::values::is_never(s)) {
        return;
    }
    node.remove_field(kw::ITEMS);
    if !node.field(kw::MAX_ITEMS).and_then(Value::as_u64).is_some_and(|m| m <= n) {
        node.insert(kw::MAX_ITEMS.into(), json!(n));
    }
    cx.count("tuplesClosedByLength");
}

struct Upgrader {
    dialect: Dialect,
    /// Where keys moved so far; also how the current location read in the
    /// original layout (`Moves::original`), which only a move needs.
    moves: Moves,
}

impl Upgrader {
    fn schema(&mut self, value: &mut Value, cx: &mut Cx, after: &mut dyn FnMut(&mut Map, &mut Cx)) -> Result<()> {
        match value {
            Value::Bool(true) => *value = json!({}),
            Value::Bool(false) => *value = json!({"not": {}}),
            Value::Object(_) => {}
            // `"properties": {"x": "object"}`: a bare type name where a schema belongs.
            Value::String(t) if crate::keywords::TYPE_NAMES.contains(&t.as_str()) => {
                cx.lossy_with("invalid-subschema", || format!("the string {t:?} is not a schema; it was read as {{\"type\": {t:?}}}"));
                *value = json!({ "type": t });
            }
            _ => {
                cx.lossy_with("invalid-subschema", || format!("{} is not a schema; it was replaced by {{}}", kind_of(value)));
                *value = json!({});
            }
        }
        let Value::Object(node) = value else { return Ok(()) };
        // Before anything reads the node: a serialized Zod instance's `type`
        // and fields are not keywords (`crate::zod`).
        if crate::zod::is_instance(node) {
            crate::zod::detox(node, cx)?;
        }
        self.node(node, cx)?;
        let mut invalid: Vec<Key> = Vec::new();
        // A leaf's keys hold no subschema: none is read for its slot.
        if !crate::walk::is_leaf(node) {
            for (key, child) in node.iter_mut() {
                match keywords::slot(key) {
                    Slot::Data => {}
                    Slot::Schema => {
                        cx.enter_keyword(key)?;
                        self.schema(child, cx, after)?;
                        cx.leave();
                    }
                    Slot::SchemaArray => {
                        let Value::Array(items) = child else {
                            invalid.push(key.clone());
                            continue;
                        };
                        cx.enter_keyword(key)?;
                        let done = crate::context::each_item(items, cx, &mut |item, cx| self.schema(item, cx, after));
                        cx.leave();
                        done?;
                    }
                    Slot::SchemaMap => {
                        let Value::Object(entries) = child else {
                            invalid.push(key.clone());
                            continue;
                        };
                        cx.enter_keyword(key)?;
                        let done = crate::context::each_entry(entries, cx, &mut |entry, cx| self.schema(entry, cx, after));
                        cx.leave();
                        done?;
                    }
                }
            }
        }
        for key in invalid {
            cx.enter(key.as_str())?;
            let what = if keywords::slot(&key) == Slot::SchemaArray { "an array" } else { "an object" };
            cx.lossy_with("invalid-subschema", || format!("{key} must be {what} of schemas; it was removed"));
            cx.leave();
            node.remove_field(&key);
        }
        after(node, cx);
        Ok(())
    }

    fn moved(&mut self, cx: &Cx, from: &str, to: &str) {
        let here = cx.path.to_pointer();
        let old = self.moves.original(&here).child(from);
        self.moves.0.push((old, here.child(to)));
    }

    /// Node-local rewrites, before the node's children are visited.
    fn node(&mut self, node: &mut Map, cx: &mut Cx) -> Result<()> {
        // One pass over the keys says which rewrites below can apply. Nearly every
        // node has none of their keys, and probing each by name cost about thirty
        // hashed lookups per node, the largest share of the whole upgrade.
        let has = Present::of(node);
        if has.internals {
            for key in LIBRARY_INTERNALS {
                if node.remove_field(key).is_some() {
                    cx.count("libraryInternalsRemoved");
                }
            }
        }
        if has.snake {
            for (snake, camel) in SNAKE_CASE {
                if node.has(snake) {
                    // python-genai semantics: pop(snake) then set(camel), so snake_case wins.
                    if node.has(camel) {
                        let v = node.remove_field(snake).unwrap_or(Value::Null);
                        node.insert(Key::from(*camel), v);
                    } else {
                        rename_in_place(node, snake, camel);
                    }
                    self.moved(cx, snake, camel);
                    cx.count("snakeCaseRenames");
                }
            }
        }
        if has.definitions && !node.has(kw::DEFS) {
            rename_in_place(node, "definitions", "$defs");
            self.moved(cx, "definitions", "$defs");
            cx.count("dialectUpgrades");
        }
        if has.id && self.dialect <= Dialect::Draft4 {
            if let Some(Value::String(_)) = node.field("id") {
                if !node.has(kw::ID) {
                    rename_in_place(node, "id", "$id");
                }
            }
        }
        if has.items {
            self.tuple_items(node, cx);
            close_rest(node, cx);
        }
        if has.exclusive {
            exclusive_bounds(node, cx);
        }
        if has.dependencies {
            self.dependencies(node, cx);
        }
        if has.required {
            draft3_required(node, cx);
        }
        if has.nullable {
            openapi_nullable(node, cx);
        }
        if has.ty {
            js_types(node, cx);
        }
        repair_shapes(node, cx);
        // `not` has a bit whatever the node's other keys (the table's first 32 rows).
        if node.keyword_bits() & Map::bit(kw::NOT) != 0 && (cx.target.caps.refuses(kw::NOT) || cx.target.caps.typed_nodes) {
            not_type(node, cx);
        }
        Ok(())
    }

    /// Draft-07 tuples: array-valued `items` → `prefixItems`, `additionalItems` → `items`.
    fn tuple_items(&mut self, node: &mut Map, cx: &mut Cx) {
        if !matches!(node.field(kw::ITEMS), Some(Value::Array(_))) {
            node.remove_field(kw::ADDITIONAL_ITEMS);
            return;
        }
        let tuple = node.remove_field(kw::ITEMS).unwrap_or(Value::Null);
        if node.has(kw::PREFIX_ITEMS) {
            cx.lossy("keyword-dropped", "array-valued items beside prefixItems was dropped");
        } else {
            node.insert(kw::PREFIX_ITEMS.into(), tuple);
            self.moved(cx, "items", "prefixItems");
        }
        if let Some(rest) = node.remove_field(kw::ADDITIONAL_ITEMS) {
            node.insert(kw::ITEMS.into(), rest);
            self.moved(cx, "additionalItems", "items");
        }
        cx.count("dialectUpgrades");
    }

    /// `dependencies` → `dependentRequired` (array values) + `dependentSchemas` (schemas).
    fn dependencies(&mut self, node: &mut Map, cx: &mut Cx) {
        let Some(Value::Object(deps)) = node.remove_field(kw::DEPENDENCIES) else { return };
        let mut required = Map::new();
        let mut schemas = Map::new();
        for (name, dep) in deps {
            if dep.is_array() {
                required.insert(name, dep);
            } else {
                schemas.insert(name, dep);
            }
        }
        for (key, map) in [("dependentRequired", required), ("dependentSchemas", schemas)] {
            if map.is_empty() {
                continue;
            }
            match node.field_mut(key) {
                Some(Value::Object(existing)) => {
                    for (k, v) in map {
                        existing.entry(k).or_insert(v);
                    }
                }
                _ => {
                    node.insert(key.into(), Value::Object(map));
                }
            }
        }
        self.moved(cx, "dependencies", "dependentSchemas");
        cx.count("dialectUpgrades");
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Renames a key keeping its position: key order is data (providers generate in it).
pub fn rename_in_place(node: &mut Map, from: &str, to: &str) {
    let Some(index) = node.keys().position(|k| k == from) else { return };
    if let Some(value) = node.remove_field(from) {
        node.shift_insert(index, to.into(), value);
    }
}

/// Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` modify `minimum`/`maximum`;
/// from draft-06 on they are numbers. Mistral rejects the boolean form (providers.md F27).
fn exclusive_bounds(node: &mut Map, cx: &mut Cx) {
    for (excl, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        let Some(Value::Bool(on)) = node.field(excl) else { continue };
        let on = *on;
        node.remove_field(excl);
        if on {
            if let Some(b) = node.remove_field(bound) {
                node.insert(excl.into(), b);
            }
        }
        cx.count("dialectUpgrades");
    }
}

/// Draft-03 (and WordPress) `required: true` on a property → the parent's `required` array.
fn draft3_required(node: &mut Map, cx: &mut Cx) {
    let mut names = Vec::new();
    if let Some(Value::Object(props)) = node.field_mut(kw::PROPERTIES) {
        for (name, prop) in props.iter_mut() {
            let Some(prop) = prop.as_object_mut() else { continue };
            if let Some(Value::Bool(req)) = prop.field(kw::REQUIRED) {
                if *req {
                    names.push(name.clone());
                }
                prop.remove_field(kw::REQUIRED);
                cx.count("draft3RequiredRewrites");
            }
        }
    }
    if matches!(node.field(kw::REQUIRED), Some(Value::Bool(_))) {
        node.remove_field(kw::REQUIRED);
    }
    if names.is_empty() {
        return;
    }
    let list = node.entry("required").or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(list) = list {
        for n in names {
            if !list.iter().any(|v| v.as_str() == Some(n.as_str())) {
                list.push(Value::String(n.into_string()));
            }
        }
    }
}

/// OpenAPI 3.0 `nullable: true` → a 2020-12 null type, so every target starts from one
/// spelling of "may be null" (Google turns it back into its marker).
fn openapi_nullable(node: &mut Map, cx: &mut Cx) {
    let Some(flag) = node.remove_field(kw::NULLABLE) else { return };
    if flag != Value::Bool(true) {
        return;
    }
    cx.count("nullableRewrites");
    match node.field_mut(kw::TYPE) {
        Some(Value::String(t)) => {
            if t != "null" {
                let t = std::mem::take(t);
                node.insert(kw::TYPE.into(), json!([t, "null"]));
            }
        }
        Some(Value::Array(types)) => {
            if !types.iter().any(|t| t == "null") {
                types.push(json!("null"));
            }
        }
        _ => {
            if let Some(Value::Array(values)) = node.field_mut(kw::ENUM) {
                if !values.contains(&Value::Null) {
                    values.push(Value::Null);
                }
            } else if let Some(Value::Array(branches)) = node.field_mut(kw::ANY_OF) {
                branches.push(json!({"type": "null"}));
            }
        }
    }
    if let Some(Value::Array(values)) = node.field_mut(kw::ENUM) {
        if !values.contains(&Value::Null) {
            values.push(Value::Null);
        }
    }
}

/// Type names that are not JSON Schema: draft-03's `any`, and the JavaScript-only
/// types TypeBox emits (`Type.Date()`, `Type.Uint8Array()`, `Type.BigInt()`, ...).
/// What JSON can carry is mapped to its JSON form; the rest can never be sent and
/// becomes the `false` schema (an optional property of that type is then dropped).
fn js_types(node: &mut Map, cx: &mut Cx) {
    let Some(Value::String(t)) = node.field(kw::TYPE) else { return };
    if crate::keywords::TYPE_NAMES.contains(&t.as_str()) {
        return;
    }
    let t = t.clone();
    node.remove_field(kw::TYPE);
    match t.as_str() {
        "any" => return,
        "Date" => {
            node.insert(kw::TYPE.into(), json!("string"));
            node.insert(kw::FORMAT.into(), json!("date-time"));
        }
        "Uint8Array" => {
            node.insert(kw::TYPE.into(), json!("string"));
            node.insert(kw::CONTENT_ENCODING.into(), json!("base64"));
        }
        "bigint" => {
            node.insert(kw::TYPE.into(), json!("integer"));
        }
        "RegExp" => {
            node.insert(kw::TYPE.into(), json!("string"));
            node.remove_field("flags");
            if let Some(source) = node.remove_field("source") {
                node.insert(kw::PATTERN.into(), source);
            }
        }
        _ => {
            for key in ["parameters", "returns"] {
                node.remove_field(key);
            }
            // Nothing can be sent, so the node's other assertions constrain
            // nothing: left beside `not`, a rule that moves siblings into
            // union branches (lone anyOf) made every branch a never-schema
            // that only a second run pruned. Annotations stay, and so do
            // definitions a reference elsewhere may lead into.
            node.retain(|k, _| keywords::get(k).map_or(true, |w| w.annotation || w.resolution));
            node.insert(kw::NOT.into(), json!({}));
            cx.lossy_with("invalid-type", || format!("type {t:?} has no JSON form; nothing can be sent for it"));
            return;
        }
    }
    cx.note_js_type(&t);
}

/// The types an untyped node accepts, in `TYPE_NAMES`' order (integers are numbers).
const EVERY_TYPE: &[&str] = &["string", "number", "boolean", "array", "object", "null"];

/// `not: {"type": T}` (TypeBox's `Type.Not(Type.String())`) where the target has
/// no `not`: the node accepts the types it has (every type, for an untyped node
/// that holds nothing else but annotations) less T, which its `type` says
/// exactly. Removing `not` alone would have accepted what it excluded (Gemini
/// then typed the node as the very type `not` refused). Where nothing is left,
/// or the rest has no type name (`not` of integers on a node that takes
/// numbers), `not` stays for the target's rules. Kept out of `node`: few
/// nodes have a `not`.
#[inline(never)]
fn not_type(node: &mut Map, cx: &mut Cx) {
    let only = |m: &Map, keyword: &Keyword| m.keys().all(|k| k.is_row(keyword.row) || keywords::get(k).is_some_and(|w| w.annotation));
    let Some(Value::Object(not)) = node.field(kw::NOT) else { return };
    if !only(not, kw::TYPE) {
        return;
    }
    let Some(excluded) = type_names(not.field(kw::TYPE)) else { return };
    let typed = node.has(kw::TYPE);
    let had = match node.field(kw::TYPE) {
        Some(t) => match type_names(Some(t)) {
            Some(ts) => ts,
            None => return,
        },
        None if only(node, kw::NOT) => EVERY_TYPE.to_vec(),
        None => return,
    };
    if excluded.contains(&"integer") && !excluded.contains(&"number") && had.contains(&"number") {
        return;
    }
    let left: Vec<&str> = had.iter().copied().filter(|t| !(excluded.contains(t) || *t == "integer" && excluded.contains(&"number"))).collect();
    if left.is_empty() {
        return;
    }
    let types = match left[..] {
        [one] => json!(one),
        _ => Value::Array(left.iter().map(|t| json!(t)).collect()),
    };
    let Some(at) = node.index_of("not") else { return };
    let (_, not) = node.shift_remove_index(at);
    if typed {
        node.insert(kw::TYPE.into(), types.clone());
    } else {
        node.shift_insert(at, "type".into(), types.clone());
    }
    cx.count("notTypesAsTypes");
    cx.note("not-type-as-types", || {
        format!("not {} was written as the types it leaves: type {}", crate::doc::json_text(&not), crate::doc::json_text(&types))
    });
}

/// The type names of a `type` value, each as `TYPE_NAMES` spells it; `None`
/// for anything else.
fn type_names(value: Option<&Value>) -> Option<Vec<&'static str>> {
    let name = |v: &Value| v.as_str().and_then(|s| crate::keywords::TYPE_NAMES.iter().copied().find(|n| *n == s));
    match value? {
        Value::Array(ts) if !ts.is_empty() => ts.iter().map(name).collect(),
        v @ Value::String(_) => Some(vec![name(v)?]),
        _ => None,
    }
}

/// Keyword values of the wrong JSON shape are authoring errors every provider
/// rejects (the whole tool, or on Gemini the whole request). The few with an
/// obvious reading are repaired (`required: "a"` → `["a"]`); the rest are dropped.
/// Subschema slots are handled by the walk (`invalid-subschema`).
fn repair_shapes(node: &mut Map, cx: &mut Cx) {
    let bad: Vec<Key> = node
        .iter()
        .filter(|(k, v)| keywords::get(k).is_some_and(|kw| kw.slot == Slot::Data && crate::values::misses(kw.shape, v).is_some()))
        .map(|(k, _)| k.clone())
        .collect();
    for key in bad {
        let value = node.get(&key).cloned().unwrap_or(Value::Null);
        let fixed = match (key.as_str(), value) {
            ("required", Value::String(s)) => Some(Value::Array(vec![Value::String(s)])),
            ("required", Value::Array(items)) => {
                let mut names: Vec<Value> = Vec::new();
                for n in items.into_iter().filter(Value::is_string) {
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
                Some(Value::Array(names))
            }
            ("type", Value::Array(ts)) => {
                let mut names: Vec<Value> = Vec::new();
                for t in ts {
                    if t.as_str().is_some_and(|t| crate::keywords::TYPE_NAMES.contains(&t)) && !names.contains(&t) {
                        names.push(t);
                    }
                }
                (!names.is_empty()).then_some(Value::Array(names))
            }
            ("enum", v) if !v.is_array() => Some(Value::Array(vec![v])),
            _ => None,
        };
        cx.enter(key.as_str()).ok();
        match fixed {
            Some(v) => {
                cx.lossy_with("invalid-keyword", || format!("{key} had a value of the wrong shape; it was read as {v}"));
                node.insert(key.clone(), v);
            }
            None => {
                cx.lossy_with("invalid-keyword", || format!("{key} had a value of the wrong shape; it was removed"));
                node.remove_field(&key);
            }
        }
        cx.leave();
    }
}

#[cfg(test)]
mod tests {
    use super::{dialect_of, Dialect, Present};
    use crate::doc::{Key, Map, Value};
    use crate::json;
    use crate::keywords::KEYWORDS;

    /// `not` of a type through the upgrade for `target`: the node, and
    /// whether the rewrite was noted.
    fn not_type(target: &str, node: Value) -> (Value, bool) {
        let target = crate::targets::get(target).unwrap();
        let opts = crate::options::Options::default();
        let mut cx = target.cx(&opts);
        let mut root = json!({"type": "object", "properties": {"p": node}});
        super::upgrade(&mut root, &mut cx).unwrap();
        (root["properties"]["p"].clone(), cx.report.counters.contains_key("notTypesAsTypes"))
    }

    /// What the fixtures `not-type-as-types*` do not show: annotations inside
    /// `not` are no obstacle; a `not` that leaves nothing, that holds another
    /// assertion or an invalid type, stays; a target that keeps `not` keeps it.
    #[test]
    fn not_of_a_type_is_written_as_the_types_left() {
        let annotated = json!({"type": ["string", "array"], "not": {"type": "array", "title": "no lists", "description": "d"}});
        assert_eq!(not_type("google", annotated.clone()), (json!({"type": "string"}), true));
        assert_eq!(not_type("openai", annotated.clone()), (annotated, false));
        for kept in [
            json!({"type": "string", "not": {"type": "string"}}),
            json!({"type": "integer", "not": {"type": "number"}}),
            json!({"not": {"type": ["string", "number", "boolean", "array", "object", "null"]}}),
            json!({"type": "string", "not": {"type": "string", "minLength": 2}}),
            json!({"not": {"type": "text"}}),
            json!({"not": {"type": []}}),
        ] {
            let (out, noted) = not_type("google", kept.clone());
            assert!(!noted, "{kept}: {out}");
        }
        // Integers are numbers: `not` of numbers takes them too, and keeps the order of the rest.
        let (out, _) = not_type("cca", json!({"type": ["null", "integer", "string"], "not": {"type": "number"}}));
        assert_eq!(out, json!({"type": ["null", "string"]}));
        // An untyped node keeps its place for `type`: where `not` was.
        let (out, _) = not_type("anthropic", json!({"title": "t", "not": {"type": ["object", "array"]}, "description": "d"}));
        assert_eq!(crate::doc::json_text(&out), r#"{"title":"t","type":["string","number","boolean","null"],"description":"d"}"#);
    }

    /// `Present::of` answers from a map's bits when it can: the same as
    /// reading every key, on each keyword alone, each pair of keywords, and
    /// each beside the other keys the upgrade looks for.
    #[test]
    fn present_from_bits_is_present_from_keys() {
        let by_keys = |m: &Map| {
            let mut has = Present::default();
            for key in m.keys() {
                has.note(key);
            }
            has
        };
        let others = ["id", "_def", "min_items", "x"];
        let names = KEYWORDS.iter().map(|k| k.name).chain(others);
        for a in names.clone() {
            for b in names.clone() {
                let mut m = Map::new();
                m.insert(Key::from(a), Value::Null);
                m.insert(Key::from(b), Value::Null);
                assert_eq!(Present::of(&m), by_keys(&m), "{a} {b}");
                m.shift_remove(b);
                assert_eq!(Present::of(&m), by_keys(&m), "{a}");
            }
        }
    }

    #[test]
    fn no_keyword_reads_as_a_library_internal_or_snake_case() {
        for k in crate::keywords::KEYWORDS {
            assert!(!k.name.starts_with(['_', '~']) && !k.name.contains('_'), "{}", k.name);
        }
        assert!(crate::keywords::lookup("id").is_none(), "Present::note reads `id` as text");
    }

    /// The one-pass reading against the substring tests it replaced, oldest draft first.
    #[test]
    fn dialect_of_reads_the_oldest_draft_named() {
        let by_search = |uri: &str| {
            [("draft-03", Dialect::Draft3), ("draft-04", Dialect::Draft4), ("draft-06", Dialect::Draft6), ("draft-07", Dialect::Draft7), ("2019-09", Dialect::Draft2019)]
                .into_iter()
                .find(|(needle, _)| uri.contains(needle))
                .map_or(Dialect::Draft2020, |(_, d)| d)
        };
        let uris = [
            "",
            "http://json-schema.org/draft-03/schema#",
            "http://json-schema.org/draft-04/schema",
            "http://json-schema.org/draft-06/schema#",
            "http://json-schema.org/draft-07/schema#",
            "https://json-schema.org/draft/2019-09/schema",
            "https://json-schema.org/draft/2020-12/schema",
            "draft-07 and draft-04",
            "2019-09/draft-06",
            "draft-05",
            "draft-0",
            "draft-draft-07",
            "ddraft-03",
            "2019-0",
            "é-draft-04-ü",
        ];
        for uri in uris {
            assert_eq!(dialect_of(uri), by_search(uri), "{uri:?}");
        }
    }
}
