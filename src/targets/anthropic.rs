//! Anthropic Messages tools, native and strict, and Claude on Amazon Bedrock
//! (providers.md §2 "Anthropic"; the SDK's `transform_schema` [A3]).
use crate::lookup::Fields;
use crate::passes::{combinators, constants, enforce, facts, open_maps, pass, shapes, spill, strict, types, Pass};
use crate::profile::{Caps, NameRule, OnViolation, TypeArrays, BASE};
use super::Target;
use super::sequences::{rules, ANY_OF_UNIONS};
use crate::keywords::Names;
use crate::keywords::kw;

/// What the Anthropic SDK's `transform_schema` keeps; every other keyword is
/// moved into the description as `{key: value}`. `oneOf` becomes `anyOf`, a
/// `type` list becomes `anyOf` (the SDK itself crashes on one: providers.md
/// footnote 2), `$schema` goes (a draft-07 declaration fails validation: F14).
const ANTHROPIC_KEYWORDS: Names = Names::new(&[
    "type", "description", "title", "default", "properties", "required", "additionalProperties", "items", "prefixItems",
    "anyOf", "allOf", "enum", "const", "$ref", "$defs", "format", "minItems",
]);

/// String formats Anthropic supports [A1].
const ANTHROPIC_FORMATS: &[&str] =
    &["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"];

const ANTHROPIC_CAPS: Caps = Caps {
    keep: Some(ANTHROPIC_KEYWORDS),
    type_arrays: TypeArrays::AnyOf,
    one_of: false,
    root_object: true,
    formats: Some(ANTHROPIC_FORMATS),
    tool_schema_required: true,
    tool_names: Some(NameRule {
        max: 128,
        extra: "-",
        letter_first: false,
        source: "https://docs.claude.com/en/api/messages#body-tools-name: ^[a-zA-Z0-9_-]{1,128}$",
    }),
    ..BASE
};

/// The keyword rules of Anthropic strict and non-strict alike: `minItems`
/// only 0 or 1 ([A1]), `patternProperties` as `additionalProperties` (not in
/// the SDK's keyword set), then everything outside that set spilled.
static SDK_KEYWORDS: &[Pass] = &[
    pass("min-items", min_items),
    pass("pattern-maps", shapes::pattern_properties_to_additional),
    pass("strip-unsupported", spill::strip_unsupported),
];

static ANTHROPIC_PASSES: &[Pass] = rules![
    ANY_OF_UNIONS,
    SDK_KEYWORDS,
    &[pass("close-objects", close_objects), pass("root-object", shapes::root_object)],
];

pub static ANTHROPIC: Target = Target {
    id: "anthropic",
    description: "Anthropic Messages tools (input_schema), without strict",
    source: "https://platform.claude.com/docs/en/agents-and-tools/tool-use/overview",
    caps: ANTHROPIC_CAPS,
    passes: ANTHROPIC_PASSES,
    on_violation: OnViolation::Report,
    relaxed: None,
};

/// Claude on Bedrock Converse: Bedrock forwards to Anthropic's validator
/// (`The model returned the following errors: tools.N.custom...`, F33).
pub static BEDROCK: Target = Target {
    id: "bedrock",
    description: "Amazon Bedrock Converse toolSpec.inputSchema.json (Claude models)",
    source: "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html; https://github.com/BerriAI/litellm/issues/39115",
    caps: Caps {
        tool_names: Some(NameRule {
            max: 64,
            extra: "-",
            letter_first: false,
            source: "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolSpecification.html: ^[a-zA-Z0-9_-]+$, 1 to 64",
        }),
        ..ANTHROPIC_CAPS
    },
    ..ANTHROPIC
};

/// Strict tool use: every object closed, no recursion (`Too many recursive
/// definitions`), no numeric or length bounds (F9), `minItems` only 0 or 1,
/// `maxItems` never (F33), typed nodes. Fails open to `anthropic`.
pub static ANTHROPIC_STRICT: Target = Target {
    id: "anthropic-strict",
    description: "Anthropic strict tool use and JSON outputs (fails open to anthropic)",
    source: "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations",
    caps: Caps {
        recursion: false,
        typed_nodes: true,
        closed_objects: true,
        request_budget: Some(crate::profile::RequestBudget { tools: 20, optional: 24, unions: 16 }),
        ..ANTHROPIC_CAPS
    },
    // Strict adds `const` as `enum`, typed nodes and merged `allOf` ahead of
    // the shared rules, and closes objects in the enforce stage, where an
    // open map fails open (`strict_close`).
    passes: rules![
        &[
            pass("const-to-enum", constants::const_to_enum),
            pass("one-of-to-any-of", combinators::one_of_to_any_of),
            pass("infer-type", strict::infer_strict_type),
            pass("merge-all-of", combinators::merge_all_of),
            pass("type-arrays", types::type_arrays),
            pass("splice-unions", combinators::splice_unions),
            pass("regex-subset", strict::regex_subset),
            enforce(open_maps::ANY_RULE, open_maps::any_as_json),
            enforce(open_maps::MAPS_RULE, open_maps::maps_as_entries),
        ],
        SDK_KEYWORDS,
        &[
            enforce("open-objects", strict::open_objects),
            enforce("closed-objects", strict_close),
            pass("root-object", shapes::root_object),
        ],
    ],
    on_violation: OnViolation::FailOpen,
    relaxed: Some("anthropic"),
};

/// `minItems` other than 0 or 1 is rejected (F33's sibling rule [A1]).
fn min_items(node: &mut crate::doc::Map, cx: &mut crate::context::Cx) -> crate::error::Result<()> {
    if node.field(kw::MIN_ITEMS).and_then(crate::doc::Value::as_u64).is_some_and(|n| n > 1) {
        spill::strip(node, &["minItems".into()], cx);
    }
    Ok(())
}

/// The SDK closes every object that does not declare an open map; the model
/// then cannot invent parameters (narrowing only). Not a free-form object,
/// which is an open map itself (closed, its tool could never receive its
/// members); a required name without a property is declared first, as closing
/// would forbid it.
fn close_objects(node: &mut crate::doc::Map, cx: &mut crate::context::Cx) -> crate::error::Result<()> {
    if !crate::passes::types_of(node).has("object") || node.has(kw::ADDITIONAL_PROPERTIES) {
        return Ok(());
    }
    if facts::is_free_form(node, cx) {
        cx.count("freeFormObjectsKeptOpen");
        cx.note("free-form-object-open", || "an object without properties or additionalProperties is an open map; it was left open".into());
        return Ok(());
    }
    // Strict fails open on such names before this (`strict_close`).
    strict::declare_required(node, cx)?;
    node.insert(kw::ADDITIONAL_PROPERTIES.into(), crate::doc::Value::Bool(false));
    crate::passes::merge::mark_closed(node, cx);
    cx.count("objectsClosed");
    Ok(())
}

/// Strict: closed objects, and an open map cannot be expressed at all.
fn strict_close(node: &mut crate::doc::Map, cx: &mut crate::context::Cx) -> crate::error::Result<()> {
    use crate::doc::Value;
    if !crate::passes::types_of(node).has("object") {
        return Ok(());
    }
    if let Some(name) = node.field(kw::REQUIRED).and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).find(|n| {
        !node.field(kw::PROPERTIES).and_then(Value::as_object).is_some_and(|p| p.has(n))
    }) {
        return Err(crate::error::Error::StrictUnrepresentable {
            pointer: cx.path.child("required"),
            message: format!("the required name {name:?} has no property: a member of any type, which a closed strict object cannot have"),
        });
    }
    match node.field(kw::ADDITIONAL_PROPERTIES) {
        None | Some(Value::Bool(false)) => close_objects(node, cx),
        Some(_) => Err(crate::error::Error::StrictUnrepresentable {
            pointer: cx.path.child("additionalProperties"),
            message: "an open map (additionalProperties other than false) cannot be expressed in Anthropic strict mode".into(),
        }),
    }
}
