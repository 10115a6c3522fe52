//! Gemini / Vertex / Gemini CLI, and Claude via Cloud Code Assist: both send the
//! OpenAPI-subset `Schema` proto (`parameters`), where any unknown key fails the
//! whole request (`Unknown name "<kw>" ... Cannot find field.`, F15-F21).
use crate::passes::{bounds, combinators, constants, enums, lone_any_of, open_maps, pass, shapes, spill, strict, types, Pass};
use crate::profile::{Caps, Ignored, NameRule, OnViolation, TypeArrays, BASE};
use super::Target;
use super::sequences::{rules, PLAIN_COMBINATORS, WITHOUT_NOT};
use crate::keywords::Names;

/// Fields of the `Schema` proto kept on the wire: every field of the Gemini
/// API's v1beta `Schema` (https://ai.google.dev/api/caching#Schema), which the
/// Vertex AI v1 `Schema` has too (both parsed in scripts/test-consumers.sh).
const GOOGLE_KEYWORDS: Names = Names::new(&[
    "type", "title", "description", "nullable", "enum", "properties", "required", "items", "anyOf", "propertyOrdering",
    "default", "example", "format", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "pattern",
    "minProperties", "maxProperties",
]);

/// The constraints among them that seed 003 §2.1 stripped and spilled, and
/// `googleConstraints: "spill"` still does.
const SEED_SPILLED: &[&str] = &[
    "format", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength", "pattern", "minProperties",
    "maxProperties",
];

/// `Schema.format`: "Supported formats: for NUMBER type: float, double for
/// INTEGER type: int32, int64 for STRING type: enum, date-time"; any other
/// string format fails the request, "format: only 'enum' and 'date-time' are
/// supported for STRING type" (google-gemini/gemini-cli#3178).
const GEMINI_FORMATS: &[(&str, &[&str])] =
    &[("string", &["enum", "date-time"]), ("number", &["float", "double"]), ("integer", &["int32", "int64"])];

const GOOGLE_CAPS: Caps = Caps {
    keep: Some(GOOGLE_KEYWORDS),
    recursion: false,
    type_arrays: TypeArrays::NullableMarker,
    nullable_marker: true,
    string_enums: true,
    one_of: false,
    all_of: false,
    negation: false,
    typed_nodes: true,
    object_properties: true,
    array_items: true,
    root_object: true,
    required_declared: true,
    null_type: false,
    tool_names: Some(GEMINI_NAMES),
    lone_any_of: true,
    object_only_fields: true,
    ignored: GEMINI_IGNORED,
    formats_by_type: Some(GEMINI_FORMATS),
    // `minItems`, `minLength`, ... are int64 fields of the proto; a bound is
    // kept only where it constrains the node's type (as `enum`, `properties`
    // and `format` are only allowed on their types).
    typed_constraints: true,
    optional_constraints: SEED_SPILLED,
    ..BASE
};

/// The rules every sender of the `Schema` proto starts with: one type per node
/// and unions only as `anyOf`, so type lists, null unions and literal unions
/// take the proto's forms (`nullable`, `enum`) before anything else looks at them.
pub static PROTO_UNIONS: &[Pass] = rules![
    PLAIN_COMBINATORS,
    &[
        pass("type-arrays", types::type_arrays),
        pass("null-unions", combinators::null_unions),
        pass("literal-unions", constants::literal_unions),
        pass("splice-unions", combinators::splice_unions),
    ],
];

/// The Schema proto has no `additionalProperties` (F15, F43) and needs a type
/// on every node: open maps go out as entries arrays and values of any type as
/// JSON text (issue 18), before types are inferred.
pub static OPEN_MAPS: &[Pass] =
    &[pass(open_maps::ANY_RULE, open_maps::any_as_json), pass(open_maps::MAPS_RULE, open_maps::maps_as_entries)];

/// After each node has its type: string enums (F19), arrays with `items`, the
/// fields the proto lacks spilled, objects with `properties`.
pub static PROTO_SHAPES: &[Pass] = &[
    pass("string-enums", enums::string_enums),
    pass("array-items", shapes::array_items),
    pass("strip-unsupported", spill::strip_unsupported),
    pass("object-shapes", shapes::object_shapes),
];

/// The Gemini API's last rules (also behind its OpenAI-compatible endpoint):
/// `nullable` put right after `type` (a stable key order), and no field beside
/// `anyOf`.
pub static GEMINI_TAIL: &[Pass] = &[
    pass("nullable-after-type", shapes::nullable_after_type),
    // Late: what strip-unsupported spilled into `description` moves into
    // the branches with it.
    pass("lone-any-of", lone_any_of::lone_any_of),
    pass("root-object", shapes::root_object),
];

/// The `Schema` reference on `default`: "Per JSON Schema, this field is
/// intended for documentation generators and doesn't affect validation. Thus
/// it's included here and ignored so that developers who send schemas with a
/// default field don't get unknown-field errors."
const GEMINI_IGNORED: Ignored =
    Ignored { keywords: &["default"], source: "https://ai.google.dev/api/caching#Schema: default is \"included here and ignored\"" };

/// Function declaration names: letters, digits, `_`, `.`, `:`, `-`, at most 64
/// (FunctionDeclaration.name), and the first a letter or `_`: a name starting
/// otherwise fails the request ("Invalid function name", kaitranntt/ccs#25).
const GEMINI_NAMES: NameRule = NameRule {
    max: 64,
    extra: ".:-",
    letter_first: true,
    source: "https://ai.google.dev/api/caching#FunctionDeclaration; kaitranntt/ccs#25",
};

pub static GOOGLE: Target = Target {
    id: "google",
    description: "Gemini API, Vertex AI and Gemini CLI function declarations (Schema proto subset)",
    source: "https://ai.google.dev/api/caching#Schema",
    caps: GOOGLE_CAPS,
    // An integer's exclusive bound, which the proto has no field for, is
    // written as the inclusive one it equals (`exclusiveMinimum: 0` is
    // `minimum: 1`); a number's is spilled. So is a pattern only a
    // backtracking engine runs.
    passes: rules![
        PROTO_UNIONS,
        OPEN_MAPS,
        &[
            pass("infer-type", types::infer_type),
            pass("exclusive-bounds", bounds::exclusive_to_inclusive),
            pass("regex-subset", strict::regex_subset),
        ],
        PROTO_SHAPES,
        &[pass("property-ordering", shapes::property_ordering)],
        GEMINI_TAIL,
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// Cloud Code Assist forwards Claude tools through the same proto, then applies
/// Anthropic's 2020-12 validation (providers.md footnote 20, `earendil-works/pi#841`).
/// It accepts no combinator and no null marker (contract §3), and anything left
/// over falls back per tool to `{"type":"object","properties":{}}` (§3.6).
const CCA_KEYWORDS: Names = Names::new(&["type", "title", "description", "enum", "properties", "required", "items", "default"]);

pub static CCA: Target = Target {
    id: "cca",
    description: "Claude via Google Cloud Code Assist / Antigravity (no combinators; per-tool fallback)",
    source: "https://github.com/openclaw/openclaw/issues/746; https://github.com/gsd-build/gsd-2/issues/498; https://github.com/earendil-works/pi/issues/841",
    caps: Caps {
        keep: Some(CCA_KEYWORDS),
        type_arrays: TypeArrays::FirstType,
        nullable_marker: false,
        any_of: false,
        lone_any_of: false,
        // Claude, not Gemini, reads these; nothing says it ignores `default`.
        ignored: Ignored { keywords: &[], source: "" },
        // It strips every constraint (providers.md footnote 20), whatever
        // `googleConstraints` says.
        optional_constraints: &[],
        ..GOOGLE_CAPS
    },
    // Google's rules, except: with no `anyOf` at all, unions are collapsed
    // before types are inferred; with no null marker, a nullable property
    // becomes optional instead; and neither `propertyOrdering` (not among
    // the kept keywords) nor the `anyOf` tail applies.
    passes: rules![
        PROTO_UNIONS,
        &[pass("collapse-unions", combinators::collapse_unions)],
        OPEN_MAPS,
        &[pass("infer-type", types::infer_type)],
        PROTO_SHAPES,
        &[pass(crate::context::OPTIONAL_NULLABLES, shapes::optional_nullables), pass("root-object", shapes::root_object)],
    ],
    on_violation: OnViolation::Fallback,
    relaxed: None,
};

/// The JSON Schema subset Gemini documents: "only the following properties
/// are supported" (`GenerationConfig.responseJsonSchema`,
/// https://ai.google.dev/api/generate-content#v1beta.GenerationConfig; the
/// Vertex AI reference has the same list), plus the non-standard
/// `propertyOrdering`. `FunctionDeclaration.parametersJsonSchema` documents
/// no list of its own (https://ai.google.dev/api/caching#FunctionDeclaration:
/// "The schema must describe an object"), and a keyword outside it is
/// dropped there without an error (`const`: googleapis/python-genai#1093), so
/// what is not listed is spilled or reported here, never sent to be lost.
const GOOGLE_JSON_KEYWORDS: Names = Names::new(&[
    "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
    "minItems", "maxItems", "minimum", "maximum", "anyOf", "properties", "additionalProperties", "required",
    "propertyOrdering",
]);

/// Gemini's `parametersJsonSchema`: type lists, `additionalProperties` (any
/// schema), tuples and `anyOf` as JSON Schema writes them. Refs are inlined
/// (`recursion: false`): a cyclic one "may only be used within non-required
/// properties", which a cut at a required property would break, and a `$ref`
/// takes no siblings but `$` keywords. `oneOf` is "interpreted the same as
/// anyOf", so it is written as `anyOf` and reported; `const` (dropped there)
/// becomes `enum`, whose values are "for strings and numbers" only.
pub static GOOGLE_JSON: Target = Target {
    id: "google-json",
    description: "Gemini API function declarations on parametersJsonSchema (Gemini's documented JSON Schema subset)",
    source: "https://ai.google.dev/api/generate-content#v1beta.GenerationConfig; https://ai.google.dev/api/caching#FunctionDeclaration",
    caps: Caps {
        keep: Some(GOOGLE_JSON_KEYWORDS),
        recursion: false,
        lone_refs: true,
        one_of: false,
        all_of: false,
        negation: false,
        root_object: true,
        scalar_enums: true,
        // As on the `Schema`: "format: only 'enum' and 'date-time' are
        // supported for STRING type" is the same service's answer.
        formats_by_type: Some(GEMINI_FORMATS),
        tool_names: Some(GEMINI_NAMES),
        ..BASE
    },
    passes: rules![
        PLAIN_COMBINATORS,
        // A never `items` closes a tuple: `maxItems`, which is kept.
        WITHOUT_NOT,
        &[
            pass("exclusive-bounds", bounds::exclusive_to_inclusive),
            pass("strip-unsupported", spill::strip_unsupported),
            pass("root-object", shapes::root_object),
        ],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};
