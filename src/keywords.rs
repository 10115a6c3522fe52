//! THE keyword table. Every walker, pass and checker asks it; nobody keeps a
//! private list of which keys hold subschemas.
//!
//! Keys under a schema map (`properties`, `$defs`, ...) are names, never
//! keywords: the walker only reaches a value through the slot of its key.

/// Where a keyword's value holds subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    /// The value is one subschema (`not`, `items`, `additionalProperties`).
    Schema,
    /// The value is an array of subschemas (`anyOf`, `prefixItems`).
    SchemaArray,
    /// The value is a map from names to subschemas (`properties`, `$defs`).
    SchemaMap,
    /// The value is plain data (`enum`, `default`, `required`, unknown keys).
    Data,
}

/// What a keyword is for; drives stripping and spilling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Identifiers and references: `$id`, `$ref`, `$defs`, `$anchor`.
    Core,
    /// Dialect and comments: `$schema`, `$comment`, `$vocabulary`.
    Meta,
    /// Applies subschemas: combinators, `properties`, `items`, conditionals.
    Applicator,
    /// Asserts on the instance: `type`, `enum`, bounds, `pattern`, `required`.
    Validation,
    /// Describes only: `title`, `description`, `default`, `examples`.
    Annotation,
    /// Non-standard but widely emitted: `nullable`, `propertyOrdering`, `example`.
    Extension,
}

/// The instance type a keyword constrains, for type-specific pruning
/// (a `minLength` means nothing on a number branch).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Any,
    String,
    Number,
    Array,
    Object,
}

pub struct Keyword {
    pub name: &'static str,
    pub slot: Slot,
    pub kind: Kind,
    pub applies: Applies,
    /// Human-meaningful when stripped: its value is worth keeping in the description.
    pub spill: bool,
}

const fn kw(name: &'static str, slot: Slot, kind: Kind, applies: Applies, spill: bool) -> Keyword {
    Keyword { name, slot, kind, applies, spill }
}

use Applies as A;
use Kind as K;
use Slot as S;

/// Draft 2020-12, legacy and extension keywords this library understands.
/// Ordered by how often keywords occur in real tool schemas, so the linear
/// lookup in `get` usually ends within the first few entries.
pub static KEYWORDS: &[Keyword] = &[
    kw("type", S::Data, K::Validation, A::Any, false),
    kw("properties", S::SchemaMap, K::Applicator, A::Object, false),
    kw("description", S::Data, K::Annotation, A::Any, false),
    kw("required", S::Data, K::Validation, A::Object, false),
    kw("additionalProperties", S::Schema, K::Applicator, A::Object, false),
    kw("items", S::Schema, K::Applicator, A::Array, false),
    kw("enum", S::Data, K::Validation, A::Any, false),
    kw("title", S::Data, K::Annotation, A::Any, false),
    kw("default", S::Data, K::Annotation, A::Any, true),
    kw("anyOf", S::SchemaArray, K::Applicator, A::Any, false),
    kw("$ref", S::Data, K::Core, A::Any, false),
    kw("format", S::Data, K::Validation, A::String, true),
    kw("minimum", S::Data, K::Validation, A::Number, true),
    kw("maximum", S::Data, K::Validation, A::Number, true),
    kw("const", S::Data, K::Validation, A::Any, true),
    kw("pattern", S::Data, K::Validation, A::String, true),
    kw("oneOf", S::SchemaArray, K::Applicator, A::Any, false),
    kw("$defs", S::SchemaMap, K::Core, A::Any, false),
    kw("$schema", S::Data, K::Meta, A::Any, false),
    kw("minLength", S::Data, K::Validation, A::String, true),
    kw("maxLength", S::Data, K::Validation, A::String, true),
    kw("minItems", S::Data, K::Validation, A::Array, true),
    kw("maxItems", S::Data, K::Validation, A::Array, true),
    kw("allOf", S::SchemaArray, K::Applicator, A::Any, false),
    kw("nullable", S::Data, K::Extension, A::Any, false),
    kw("not", S::Schema, K::Applicator, A::Any, false),
    kw("examples", S::Data, K::Annotation, A::Any, true),
    kw("propertyNames", S::Schema, K::Applicator, A::Object, false),
    kw("definitions", S::SchemaMap, K::Core, A::Any, false),
    kw("exclusiveMinimum", S::Data, K::Validation, A::Number, true),
    kw("exclusiveMaximum", S::Data, K::Validation, A::Number, true),
    kw("uniqueItems", S::Data, K::Validation, A::Array, true),
    kw("multipleOf", S::Data, K::Validation, A::Number, true),
    kw("prefixItems", S::SchemaArray, K::Applicator, A::Array, false),
    kw("patternProperties", S::SchemaMap, K::Applicator, A::Object, false),
    kw("deprecated", S::Data, K::Annotation, A::Any, false),
    kw("readOnly", S::Data, K::Annotation, A::Any, false),
    kw("writeOnly", S::Data, K::Annotation, A::Any, false),
    kw("$id", S::Data, K::Core, A::Any, false),
    kw("$comment", S::Data, K::Meta, A::Any, false),
    kw("$anchor", S::Data, K::Core, A::Any, false),
    kw("$dynamicAnchor", S::Data, K::Core, A::Any, false),
    kw("$dynamicRef", S::Data, K::Core, A::Any, false),
    kw("$vocabulary", S::Data, K::Meta, A::Any, false),
    kw("if", S::Schema, K::Applicator, A::Any, false),
    kw("then", S::Schema, K::Applicator, A::Any, false),
    kw("else", S::Schema, K::Applicator, A::Any, false),
    kw("dependentSchemas", S::SchemaMap, K::Applicator, A::Object, false),
    kw("contains", S::Schema, K::Applicator, A::Array, false),
    kw("unevaluatedItems", S::Schema, K::Applicator, A::Array, false),
    kw("unevaluatedProperties", S::Schema, K::Applicator, A::Object, false),
    kw("maxContains", S::Data, K::Validation, A::Array, false),
    kw("minContains", S::Data, K::Validation, A::Array, false),
    kw("maxProperties", S::Data, K::Validation, A::Object, true),
    kw("minProperties", S::Data, K::Validation, A::Object, true),
    kw("dependentRequired", S::Data, K::Validation, A::Object, false),
    kw("contentEncoding", S::Data, K::Annotation, A::String, true),
    kw("contentMediaType", S::Data, K::Annotation, A::String, true),
    kw("contentSchema", S::Schema, K::Annotation, A::String, false),
    kw("propertyOrdering", S::Data, K::Extension, A::Object, false),
    kw("example", S::Data, K::Extension, A::Any, true),
    kw("additionalItems", S::Schema, K::Applicator, A::Array, false),
    kw("dependencies", S::SchemaMap, K::Applicator, A::Object, false),
];

/// Longest keyword name plus one: the number of length buckets in `BY_LENGTH`.
const BUCKETS: usize = 24;

/// `KEYWORDS` positions grouped by name length, built once: every key of every
/// node is looked up (most are `type` or `description`, many are names no table
/// holds), so a lookup compares only names of its own length.
static BY_LENGTH: std::sync::OnceLock<[Vec<u8>; BUCKETS]> = std::sync::OnceLock::new();

/// Looks a keyword up by name.
pub fn get(name: &str) -> Option<&'static Keyword> {
    let buckets = BY_LENGTH.get_or_init(|| {
        let mut b: [Vec<u8>; BUCKETS] = Default::default();
        for (i, k) in KEYWORDS.iter().enumerate() {
            b[k.name.len()].push(i as u8);
        }
        b
    });
    let bucket = buckets.get(name.len())?;
    bucket.iter().map(|&i| &KEYWORDS[usize::from(i)]).find(|k| k.name.as_bytes() == name.as_bytes())
}

/// The slot of `name`: unknown keys hold plain data.
pub fn slot(name: &str) -> Slot {
    get(name).map_or(Slot::Data, |k| k.slot)
}

/// True for keywords whose value is worth spilling into `description` when stripped.
pub fn spillable(name: &str) -> bool {
    get(name).is_some_and(|k| k.spill)
}

/// The instance type a keyword constrains (`Any` for unknown keys).
pub fn applies(name: &str) -> Applies {
    get(name).map_or(Applies::Any, |k| k.applies)
}

/// Gemini `Schema` fields allowed only on an OBJECT node ("only allowed for
/// OBJECT type": anomalyco/opencode#11889, goruck/home-generative-agent#525).
/// They constrain only objects, so on a node of another type they say nothing.
pub const OBJECT_ONLY_FIELDS: &[&str] = &["properties", "required", "propertyOrdering"];

/// Comments for the schema's maintainers, never its users: "Implementations
/// MAY strip "$comment" values at any point during processing. In particular,
/// this allows for shortening schemas when the size of deployed schemas is a
/// concern." (JSON Schema 2020-12 core §8.3,
/// https://json-schema.org/draft/2020-12/json-schema-core#section-8.3). The
/// `compact` option drops them for every target.
pub const COMMENTS: &[&str] = &["$comment"];

/// Negation and the conditionals: what `Caps::negation` false refuses.
pub const NEGATION: &[&str] = &["not", "if", "then", "else"];

/// The JSON Schema primitive type names.
pub const TYPE_NAMES: &[&str] = &["string", "number", "integer", "boolean", "array", "object", "null"];

/// Does a keyword that constrains `applies` matter for instances of type `ty`?
pub fn applies_to(applies: Applies, ty: &str) -> bool {
    match applies {
        Applies::Any => true,
        Applies::String => ty == "string",
        Applies::Number => ty == "number" || ty == "integer",
        Applies::Array => ty == "array",
        Applies::Object => ty == "object",
    }
}

/// The instance type implied by a keyword, used to infer a missing `type`.
pub fn implied_type(name: &str) -> Option<&'static str> {
    match applies(name) {
        Applies::String => Some("string"),
        Applies::Number => Some("number"),
        Applies::Array => Some("array"),
        Applies::Object => Some("object"),
        Applies::Any => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in KEYWORDS.iter().enumerate() {
            assert!(KEYWORDS[i + 1..].iter().all(|b| b.name != a.name), "duplicate {}", a.name);
        }
    }

    #[test]
    fn every_keyword_is_found_by_name() {
        assert!(KEYWORDS.iter().all(|k| k.name.len() < BUCKETS && KEYWORDS.len() <= 256));
        for k in KEYWORDS {
            assert_eq!(get(k.name).map(|f| f.name), Some(k.name));
        }
        assert!(get("").is_none() && get("typ").is_none() && get(&"x".repeat(BUCKETS + 5)).is_none());
    }

    #[test]
    fn unknown_keys_are_data() {
        assert_eq!(slot("x-vendor"), Slot::Data);
        assert_eq!(slot("properties"), Slot::SchemaMap);
        assert!(spillable("pattern") && !spillable("$ref"));
    }
}
