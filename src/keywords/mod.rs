//! THE keyword table. Every walker, pass and checker asks it; nobody keeps a
//! private list of which keys hold subschemas.
//!
//! Keys under a schema map (`properties`, `$defs`, ...) are names, never
//! keywords: the walker only reaches a value through the slot of its key.
//!
//! Beside the table, the vocabulary's other facts about names: the lists
//! rules share, and which type a keyword implies. The table knows no value
//! (the document model interns its keys against it); what the vocabulary says
//! of values is in `crate::values`.
pub(crate) mod table;

pub use self::table::*;

/// Gemini `Schema` fields allowed only on an OBJECT node ("only allowed for
/// OBJECT type": anomalyco/opencode#11889, goruck/home-generative-agent#525).
/// They constrain only objects, so on a node of another type they say nothing.
pub const OBJECT_ONLY_FIELDS: &[&Keyword] = &[kw::PROPERTIES, kw::REQUIRED, kw::PROPERTY_ORDERING];

/// Comments for the schema's maintainers, never its users: "Implementations
/// MAY strip "$comment" values at any point during processing. In particular,
/// this allows for shortening schemas when the size of deployed schemas is a
/// concern." (JSON Schema 2020-12 core §8.3,
/// https://json-schema.org/draft/2020-12/json-schema-core#section-8.3). The
/// `compact` option drops them for every target.
pub const COMMENTS: &[&str] = &["$comment"];

/// What an open map says that its entries array (`passes::open_maps`) carries:
/// the members (`properties` when empty, `additionalProperties`, one
/// `patternProperties`), their names (`propertyNames`) and counts
/// (`minProperties`/`maxProperties`, as `minItems`/`maxItems`), the node's type
/// and Gemini's null marker. A map node with any other assertion is left as it
/// is, since the entries array could not carry it.
pub const MAP_KEYWORDS: &[&str] = &[
    "type", "properties", "required", "additionalProperties", "patternProperties", "propertyNames", "minProperties",
    "maxProperties", "nullable",
];

/// The keywords whose subschemas hold a value of the instance itself (a
/// member, an item, or a definition one refers to), where a value of any type
/// can be sent as JSON text. Not union branches (a string branch beside the
/// others could not be told from JSON text), nor `not`, conditions or name
/// schemas.
pub const VALUE_SLOTS: &[&str] = &["properties", "items", "prefixItems", "$defs", "definitions"];

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
