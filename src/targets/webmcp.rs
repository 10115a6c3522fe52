//! WebMCP: tools a web page registers with `document.modelContext.registerTool()`
//! for in-browser agents. The community group resolved that the browser
//! validates tool input against a subset of JSON Schema 2020-12
//! (https://www.w3.org/2026/03/05-webmachinelearning-minutes.html), and
//! webmachinelearning/webmcp#289 defines it: only the keywords below pass the
//! registration's meta-validation, `additionalProperties` only as `false`;
//! `$ref`/`$defs`, `format`, `unevaluatedProperties`, `dependentRequired`,
//! `dependentSchemas` and the content keywords make `registerTool()` throw a
//! `TypeError` (web-platform-tests/wpt#62426 tests that). So refs are inlined,
//! unions become `type` lists where that is exact (else collapsed), `const`
//! becomes `enum`, and the rest is spilled into `description` or reported.
use crate::passes::{combinators, constants, maps, open_maps, pass, shapes, spill, type_unions};
use crate::profile::{Caps, OnViolation, BASE};
use super::Target;
use super::sequences::{rules, PLAIN_COMBINATORS, WITHOUT_NOT};
use crate::keywords::Names;

/// The subset of webmachinelearning/webmcp#289.
const KEYWORDS: Names = Names::new(&[
    "type", "properties", "required", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
    "maxLength", "pattern", "items", "prefixItems", "additionalProperties", "default", "description",
]);

pub static WEBMCP: Target = Target {
    id: "webmcp",
    description: "WebMCP registerTool() inputSchema: the community group's validation subset (no $ref, anyOf or format)",
    source: "https://github.com/webmachinelearning/webmcp/pull/289",
    caps: Caps {
        keep: Some(KEYWORDS),
        recursion: false,
        any_of: false,
        one_of: false,
        all_of: false,
        negation: false,
        root_object: true,
        additional_false_only: true,
        ..BASE
    },
    passes: rules![
        PLAIN_COMBINATORS,
        &[
            pass("literal-unions", constants::literal_unions),
            pass("splice-unions", combinators::splice_unions),
            pass("type-unions", type_unions::type_unions),
        ],
        // A never `items` closes a tuple: `maxItems`, which is then spilled.
        WITHOUT_NOT,
        &[
            // A map whose values have a schema goes out as entries, which
            // keep it (issue 18); one of any values stays an open object.
            pass(open_maps::MAPS_RULE, open_maps::maps_as_entries),
            pass("strip-unsupported", spill::strip_unsupported),
            pass("additional-false-only", maps::additional_false_only),
            pass("object-shapes", shapes::object_shapes),
            pass("root-object", shapes::root_object),
        ],
    ],
    on_violation: OnViolation::Report,
    relaxed: None,
};
