//! OpenAI-compatible providers with their own validators (providers.md §2 and
//! the failures F25-F32). Each states only what differs from OpenAI's shape rules.
use crate::passes::{combinators, maps, pass, shapes, spill};
use crate::profile::{Caps, OnViolation, TypeArrays};
use super::Target;
use super::openai::{OPENAI_CAPS, SHAPE_PASSES, STRICT_CAPS, STRICT_PASSES};
use super::sequences::{rules, ANY_OF_UNIONS, DISTRIBUTED_UNIONS, PLAIN_COMBINATORS, WITHOUT_NOT};
use crate::keywords::Names;

/// xAI tools are always strict: an object root without non-object branches
/// (F32), non-circular refs only, `allOf` with one entry, `oneOf` as `anyOf`;
/// length and item bounds are dropped by clients that work (openclaw's
/// `stripXaiUnsupportedKeywords`).
pub static XAI: Target = Target {
    id: "xai",
    description: "xAI Grok tools (always grammar-constrained)",
    source: "https://docs.x.ai/developers/model-capabilities/text/structured-outputs",
    caps: Caps {
        strip: Names::new(&[
            "$schema", "minLength", "maxLength", "minItems", "maxItems", "minContains", "maxContains", "not", "if", "then",
            "else", "dependentSchemas", "dependentRequired", "patternProperties", "propertyNames", "unevaluatedProperties",
            "unevaluatedItems", "uniqueItems",
        ]),
        recursion: false,
        one_of: false,
        all_of: false,
        formats: Some(&["date", "time", "date-time", "email", "uuid", "ipv4", "ipv6", "hostname", "uri"]),
        ..OPENAI_CAPS
    },
    // An object without `additionalProperties` is closed there (footnote
    // 15): a free-form one says it is open, after the keywords xAI lacks
    // (`patternProperties`) are stripped, so normalizing again changes nothing.
    passes: rules![
        PLAIN_COMBINATORS,
        &[
            pass("strip-unsupported", spill::strip_unsupported),
            pass("free-form-open", maps::free_form_open),
            pass("object-shapes", shapes::object_shapes),
            pass("array-items", shapes::array_items),
            pass("root-object", shapes::root_object),
        ],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// Moonshot/Kimi validate a "moonshot flavored" schema: every `anyOf` branch
/// carries its type (F30); a `$ref` has no siblings ("conflicting keywords found
/// after $ref expansion", MoonshotAI/kimi-cli#2061; "when using $ref, type should
/// be defined in the referenced schema": MoonshotAI/walle validator.go); the
/// validation keywords pi-ai's Moonshot preset strips are spilled.
pub static MOONSHOT: Target = Target {
    id: "moonshot",
    description: "Moonshot / Kimi (typed anyOf branches)",
    source: "https://github.com/openclaw/openclaw/issues/113130; https://github.com/MoonshotAI/kimi-cli/issues/2061",
    caps: Caps {
        strip: Names::new(&[
            "$schema", "format", "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum",
            "exclusiveMaximum", "minItems", "maxItems", "uniqueItems", "multipleOf", "examples", "title", "$comment", "if",
            "then", "else", "not", "unevaluatedProperties", "unevaluatedItems", "patternProperties", "propertyNames",
            "contains", "minContains", "maxContains", "dependentRequired", "dependentSchemas", "contentEncoding",
            "contentMediaType", "contentSchema", "deprecated", "readOnly", "writeOnly", "minProperties", "maxProperties",
            "prefixItems",
        ]),
        type_arrays: TypeArrays::AnyOf,
        one_of: false,
        typed_branches: true,
        lone_refs: true,
        ..OPENAI_CAPS
    },
    // Not SHAPE_PASSES: array-items runs before strip-unsupported here, the
    // order its outputs are recorded in.
    passes: rules![
        ANY_OF_UNIONS,
        &[
            pass("distribute-siblings", combinators::distribute_siblings),
            pass("type-branches", combinators::type_branches),
            pass("array-items", shapes::array_items),
            pass("strip-unsupported", spill::strip_unsupported),
            pass("object-shapes", shapes::object_shapes),
            pass("root-object", shapes::root_object),
        ],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// DeepSeek strict (beta): OpenAI's strict rules, with sources disagreeing on
/// which bounds and formats are enforced, so all of them are spilled
/// (providers.md footnotes 5 and 29). Fails open to `openai`.
pub static DEEPSEEK_STRICT: Target = Target {
    id: "deepseek-strict",
    description: "DeepSeek strict tools (beta endpoint; fails open to openai)",
    source: "https://api-docs.deepseek.com/guides/tool_calls",
    caps: Caps {
        keep: Some(Names::new(&[
            "type", "description", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "$ref", "$defs",
        ])),
        ..STRICT_CAPS
    },
    passes: STRICT_PASSES,
    on_violation: OnViolation::FailOpen,
    relaxed: Some("openai"),
};

/// Mistral validates tools against a metaschema: no draft-04 boolean bounds
/// (F27, rewritten by every target), no `$id`/`$schema` (F28).
pub static MISTRAL: Target = Target {
    id: "mistral",
    description: "Mistral function calling",
    source: "https://github.com/SylphxAI/pdf-reader-mcp/issues/63; https://github.com/BerriAI/litellm/issues/13389",
    caps: Caps { strip: Names::new(&["$schema", "$id"]), ..OPENAI_CAPS },
    passes: SHAPE_PASSES,
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// Groq validates up front: `required` names need `properties` (F25), and its
/// structured outputs reject `minItems` (F26).
pub static GROQ: Target = Target {
    id: "groq",
    description: "Groq tools and structured outputs",
    source: "https://github.com/usestrix/strix/issues/1088; https://github.com/i-am-bee/beeai-framework/issues/1215",
    caps: Caps { strip: Names::new(&["$schema", "minItems", "maxItems"]), required_declared: true, ..OPENAI_CAPS },
    // A `{required: [...]}` fragment in a union gets the parent's properties.
    passes: rules![DISTRIBUTED_UNIONS, SHAPE_PASSES],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// OpenRouter passes schemas to whichever upstream serves the model; the safe
/// profile gives every `anyOf` branch its own type (F30, F31) and otherwise
/// keeps OpenAI's shape rules.
pub static OPENROUTER: Target = Target {
    id: "openrouter",
    description: "OpenRouter-safe: OpenAI shape rules, every anyOf branch typed",
    source: "https://github.com/weave-os/router/issues/824; https://github.com/openclaw/openclaw/issues/113130",
    caps: Caps { typed_branches: true, ..OPENAI_CAPS },
    passes: rules![DISTRIBUTED_UNIONS, &[pass("type-branches", combinators::type_branches)], SHAPE_PASSES],
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// Fireworks compiles tool schemas into a grammar and cannot read `{"not": {}}`
/// ("JSON Schema not supported: could not understand the instance",
/// openclaw/openclaw#75476); neither `not` nor the conditionals are among the
/// keywords its structured output documents. Never-branches and
/// never-properties are pruned as for every target, a never `items` becomes
/// `maxItems`, and any other `not` is removed and reported (`negation: false`,
/// which the checker holds it to).
pub static FIREWORKS: Target = Target {
    id: "fireworks",
    description: "Fireworks AI function calling (OpenAI-compatible, without not)",
    source: "https://docs.fireworks.ai/structured-responses/structured-response-formatting; https://github.com/openclaw/openclaw/issues/75476",
    caps: Caps { strip: Names::new(&["$schema", "if", "then", "else"]), negation: false, ..OPENAI_CAPS },
    passes: rules![WITHOUT_NOT, SHAPE_PASSES],
    on_violation: OnViolation::Report,
    relaxed: None,
};
