//! OpenAI: non-strict function calling, the Responses family, and strict mode
//! (Structured Outputs "Supported schemas", providers.md §2; seed 003 §1).
use crate::passes::{combinators, constants, enforce, open_maps, pass, shapes, spill, strict, types, Pass};
use crate::profile::{Caps, NameRule, OnViolation, TypeArrays, BASE};
use super::Target;
use super::sequences::rules;
use crate::keywords::Names;

/// Non-strict tools: keywords are hints, but the shape is still validated
/// (root object without combinators, arrays with items: F3, F4, F5, F34).
/// OpenAI-compatible targets inherit the name rule with the rest.
pub const OPENAI_CAPS: Caps = Caps {
    strip: Names::new(&["$schema"]),
    root_object: true,
    array_items: true,
    object_properties: true,
    tool_names: Some(OPENAI_NAMES),
    ..BASE
};

/// Function names: `^[a-zA-Z0-9_-]{1,64}$`; a list with one name outside it
/// fails the whole request.
pub const OPENAI_NAMES: NameRule = NameRule {
    max: 64,
    extra: "-",
    letter_first: false,
    source: "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools",
};

/// OpenAI's shape rules alone; OpenAI-compatible providers reuse them.
pub static SHAPE_PASSES: &[Pass] = &[
    pass("strip-unsupported", spill::strip_unsupported),
    pass("object-shapes", shapes::object_shapes),
    pass("array-items", shapes::array_items),
    pass("root-object", shapes::root_object),
];

pub static OPENAI: Target = Target {
    id: "openai",
    description: "OpenAI function calling without strict mode (Chat Completions)",
    source: "https://platform.openai.com/docs/guides/function-calling",
    caps: OPENAI_CAPS,
    passes: SHAPE_PASSES,
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// The Responses family rejects `oneOf` (seed 000 dispatcher table) and regex
/// lookaround.
pub static OPENAI_RESPONSES: Target = Target {
    id: "openai-responses",
    description: "OpenAI Responses API tools without strict mode (oneOf rewritten to anyOf)",
    source: "https://platform.openai.com/docs/api-reference/responses",
    caps: Caps { one_of: false, ..OPENAI_CAPS },
    passes: rules![
        &[pass("one-of-to-any-of", combinators::one_of_to_any_of), pass("regex-subset", strict::regex_subset)],
        SHAPE_PASSES,
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// What strict mode accepts today: the documented subset plus `pattern`, nine
/// formats, numeric bounds and `minItems`/`maxItems` [O1]. `const` is written as
/// `enum` (contract §1.2); `title` is dropped (contract §1.1). Not `prefixItems`:
/// strict mode ignores it and rejects the array as untyped (pydantic/pydantic-ai#7315).
const STRICT_KEYWORDS: Names = Names::new(&[
    "type", "description", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
    "$ref", "$defs", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minItems", "maxItems",
]);

const STRICT_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

pub const STRICT_CAPS: Caps = Caps {
    keep: Some(STRICT_KEYWORDS),
    type_arrays: TypeArrays::AnyOf,
    one_of: false,
    all_of: false,
    negation: false,
    typed_nodes: true,
    formats: Some(STRICT_FORMATS),
    typed_branches: true,
    closed_objects: true,
    all_required: true,
    ..OPENAI_CAPS
};

pub static OPENAI_STRICT: Target = Target {
    id: "openai-strict",
    description: "OpenAI strict function calling and Structured Outputs (fails open to non-strict)",
    source: "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas",
    caps: STRICT_CAPS,
    passes: STRICT_PASSES,
    on_violation: OnViolation::FailOpen,
    relaxed: Some("openai"),
};

/// Strict mode's own order, which DeepSeek strict shares whole. The enforce
/// stage (closing objects) is skipped with `strictStage: "sanitize"`.
pub static STRICT_PASSES: &[Pass] = &[
    pass("const-to-enum", constants::const_to_enum),
    pass("infer-type", strict::infer_strict_type),
    pass("merge-all-of", combinators::merge_all_of),
    pass("one-of-to-any-of", combinators::one_of_to_any_of),
    pass("default-to-description", strict::default_to_description),
    pass("type-arrays", types::type_arrays),
    pass("splice-unions", combinators::splice_unions),
    pass("distribute-siblings", combinators::distribute_siblings),
    pass("regex-subset", strict::regex_subset),
    pass("strip-constraints", strict::strip_constraints),
    enforce(open_maps::ANY_RULE, open_maps::any_as_json),
    enforce(open_maps::MAPS_RULE, open_maps::maps_as_entries),
    pass("array-items", shapes::array_items),
    pass("strip-unsupported", spill::strip_unsupported),
    enforce("open-objects", strict::open_objects),
    pass("object-shapes", shapes::object_shapes),
    enforce("enforce-object", strict::enforce_object),
    pass("root-object", shapes::root_object),
];
