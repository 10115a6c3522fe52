//! Gemini through its OpenAI-compatible endpoint
//! (`generativelanguage.googleapis.com/v1beta/openai/`). It reads `parameters`
//! into Gemini's function declarations, so Google's rules hold (one type per
//! node, string enums, no `$ref`, `oneOf` or `allOf`), and it refuses more of
//! JSON Schema than the native `Schema`: `additionalProperties`, `$schema`,
//! `default`, `title` and `exclusiveMinimum` ("Invalid JSON payload received.
//! Unknown name ...", pontus-espe/agent-sdk-go#23), and objects without
//! `properties`. What is left is the keyword set that endpoint was seen to take.
use crate::passes::{bounds, pass, types};
use crate::profile::{Caps, OnViolation};
use super::Target;
use super::google::{GEMINI_TAIL, GOOGLE, OPEN_MAPS, PROTO_SHAPES, PROTO_UNIONS};
use super::sequences::rules;
use crate::keywords::Names;

const KEYWORDS: Names = Names::new(&["type", "description", "nullable", "enum", "properties", "required", "items", "anyOf", "minimum", "maximum"]);

/// Google's rules without `propertyOrdering` (not in the endpoint's keyword
/// set), with an integer's exclusive bounds written as inclusive ones first:
/// `exclusiveMinimum: n` is exactly `minimum: n + 1`. A number's exclusive
/// bound has no such form and is spilled into the description.
pub static GEMINI_OPENAI: Target = Target {
    id: "gemini-openai",
    description: "Gemini through its OpenAI-compatible endpoint (Google's rules; no title, default or exclusive bounds)",
    source: "https://ai.google.dev/gemini-api/docs/openai; https://github.com/pontus-espe/agent-sdk-go/issues/23",
    // `minimum`/`maximum` are not the seed's to strip here: `googleConstraints`
    // leaves them.
    caps: Caps { keep: Some(KEYWORDS), optional_constraints: &[], ..GOOGLE.caps },
    // As on google (open maps as entries, values of any type as JSON
    // text; GEMINI_TAIL: Gemini refuses fields beside `anyOf`,
    // anomalyco/opencode#14700), with exclusive bounds rewritten before
    // strip-unsupported would spill them, and no property-ordering.
    passes: rules![
        PROTO_UNIONS,
        OPEN_MAPS,
        &[pass("infer-type", types::infer_type), pass("exclusive-bounds", bounds::exclusive_to_inclusive)],
        PROTO_SHAPES,
        GEMINI_TAIL,
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};
