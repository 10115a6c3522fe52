//! Gemini / Vertex / Gemini CLI, and Claude via Cloud Code Assist: both send the
//! OpenAPI-subset `Schema` proto (`parameters`), where any unknown key fails the
//! whole request (`Unknown name "<kw>" ... Cannot find field.`, F15-F21).
use crate::passes::{combinators, constants, enums, lone_any_of, open_maps, pass, shapes, spill, types, Pass};
use crate::profile::{Caps, Ignored, NameRule, OnViolation, TypeArrays, BASE};
use super::Target;
use super::sequences::{rules, PLAIN_COMBINATORS};

/// Fields of the `Schema` proto kept on the wire. `format`, `pattern`, bounds and
/// lengths exist in the proto but are stripped and spilled, as the contract
/// requires (seed 003 §2.1): Gemini CLI users report formats beyond `enum` and
/// `date-time` rejected (providers.md footnote 27).
const GOOGLE_KEYWORDS: &[&str] = &[
    "type", "title", "description", "nullable", "enum", "properties", "required", "items", "anyOf", "propertyOrdering",
    "default", "example",
];

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
    passes: rules![
        PROTO_UNIONS,
        OPEN_MAPS,
        &[pass("infer-type", types::infer_type)],
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
const CCA_KEYWORDS: &[&str] = &["type", "title", "description", "enum", "properties", "required", "items", "default"];

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
        &[pass("optional-nullables", shapes::optional_nullables), pass("root-object", shapes::root_object)],
    ],
    on_violation: OnViolation::Fallback,
    relaxed: None,
};
